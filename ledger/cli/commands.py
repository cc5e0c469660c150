"""The commands of the command line, loaded as they are used: the root group names each
command and the module of `ledger.cli` that defines it (`COMMANDS`), and imports that module
only when the command runs or its help is shown (Click's "lazily loading subcommands"). So
`ledger list` loads neither the importers nor the web; and as the faces it calls,
`ledger.queries` and `ledger.render`, load each of their modules on first use (PEP 562,
from their stubs), it loads only the queries and the output it prints.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator, MutableMapping

from ledger.cli import typer_parts

COMMANDS = {
    "recording": (
        "add-player",
        "add-game",
        "import-players",
        "import-games",
        "close-period",
        "reopen-period",
        "compress-ratings",
        "demo",
    ),
    "reading": (
        "list",
        "games",
        "explain",
        "player",
        "calc",
        "stats",
        "federations",
        "peaks",
        "history",
        "periods",
        "events",
        "event",
    ),
    "formats": ("import-trf", "import-pgn", "import-fide-list", "export-list", "export-trf"),
    "identity": ("find", "merge-players", "edit-player"),
    "corrections": ("correct-game", "delete-game", "rerate", "diff", "log"),
    "serving": ("serve",),
    "users": ("users",),
    "tokens": ("tokens",),
    "reports": ("reports",),
    "site": ("site",),
    "schema": ("db",),
}
"""The modules of `ledger.cli` and the commands each defines, in the order `ledger --help`
lists them."""


@functools.cache
def commands_of(module: str) -> dict[str, typer_parts.Command]:
    """The commands a module of `ledger.cli` defines, as Typer makes them from its app; a
    module whose app is a group of its own (`ledger db`) is that one command."""
    group = typer_parts.get_group(importlib.import_module(f"ledger.cli.{module}").app)
    return {group.name: group} if group.name else dict(group.commands)


def command_of(module: str, name: str) -> typer_parts.Command:
    """The command `name` of a module of `ledger.cli`, made alone: Typer makes a command by
    reading its function's signature and options, and `commands_of` makes every one of the
    module's."""
    app = importlib.import_module(f"ledger.cli.{module}").app
    for info in app.registered_commands:
        if info.callback is None:
            continue
        if (info.name or typer_parts.get_command_name(info.callback.__name__)) == name:
            return typer_parts.get_command_from_info(
                info,
                pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode,
            )
    return commands_of(module)[name]


class LoadedOnUse(MutableMapping[str, typer_parts.Command]):
    """The root's commands by name, each made (its module imported) when first asked for."""

    def __init__(self, modules: dict[str, tuple[str, ...]]) -> None:
        self._commands: dict[str, typer_parts.Command | str] = {
            command: module for module, commands in modules.items() for command in commands
        }
        """Each command, or the module that defines it until it is made."""

    def __getitem__(self, name: str) -> typer_parts.Command:
        command = self._commands[name]
        if isinstance(command, str):
            command = self._commands[name] = command_of(command, name)
        return command

    def __setitem__(self, name: str, command: typer_parts.Command) -> None:
        self._commands[name] = command

    def __delitem__(self, name: str) -> None:
        del self._commands[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._commands)

    def __len__(self) -> int:
        return len(self._commands)
