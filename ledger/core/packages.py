"""Packages whose names are imported when first used: a face (`ledger.queries`,
`ledger.render`) names everything its modules export, and a command that calls one of them
loads that module alone, not the whole package (issue 12: a command starts at once).

The package lists, module by module, the names it exports (`export_on_use`); type checkers
read the same names from the package's imports under `typing.TYPE_CHECKING`.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Mapping, Sequence
from typing import Any


class _Package(types.ModuleType):
    """A package that imports an exported name's module when the name is first asked for."""

    _exported: dict[str, str]

    def __getattr__(self, name: str) -> Any:
        module = self._exported.get(name)
        if module is None:
            return self._module(name)
        value = getattr(importlib.import_module(f"{self.__name__}.{module}"), name)
        setattr(self, name, value)
        return value

    def _module(self, name: str) -> types.ModuleType:
        """One of the package's modules, by its name on the package (`queries.federations`),
        as it is once the package has imported it."""
        if importlib.util.find_spec(f"{self.__name__}.{name}") is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        return importlib.import_module(f"{self.__name__}.{name}")

    def __setattr__(self, name: str, value: Any) -> None:
        """Keep an exported name that is also a module's (`versions`): loading the module
        would otherwise put the module in its place, as the import system names each
        submodule on its package."""
        if isinstance(value, types.ModuleType) and name in self._exported:
            return
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *self._exported})


def export_on_use(package: str, exports: Mapping[str, Sequence[str]]) -> None:
    """Make `package` (being imported) export `exports`, each module's names (by the
    module's name in the package), imported from it when first used."""
    module = sys.modules[package]
    module.__class__ = _Package
    object.__setattr__(
        module, "_exported", {name: each for each, names in exports.items() for name in names}
    )
