"""Everything the ledger prints: Rich tables, CSV and JSON. The only package that uses Rich.

Tables go to stdout and hold nothing but the table; messages go to stdout as plain lines,
errors to stderr.

The names are imported when first used (PEP 562), each from the module the stub
`__init__.pyi` names it in, once: a command loads the renderer of its own output alone.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
