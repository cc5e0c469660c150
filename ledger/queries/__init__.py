"""The read side, one face for every renderer: what the CLI, the exports and the web call.

Each query takes a session, never commits, checks its request, and returns frozen
dataclasses; `plain` and `to_json` give any of them the one JSON shape. Errors speak of the
data ("no standard list was published for period 2026-05"); a face adds its own next step
(`ledger.core.errors.Hint`).

The names are imported when first used (PEP 562), each from the module the stub
`__init__.pyi` names it in, once: a command that reads a list loads the list's modules
alone.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
