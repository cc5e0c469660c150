"""The write side: each service is one transaction the caller opens with `Ledger.transaction`.

The command line reaches the services through this package, which imports each module when
it is first used (PEP 562, from the stub `__init__.pyi`, which names each module and name
once): `services.closing.close_period` loads the closing alone, and `ledger --help`, which
names every command, loads none of them.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
