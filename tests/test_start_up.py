"""A command starts without the libraries and the modules only other commands use (issue
12's start-up): what a new process has imported once it has answered, read from
`sys.modules` (the time it takes is `benchmarks/start_up.py`'s)."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
import types
from pathlib import Path

import pytest
import typer
from alembic.script import ScriptDirectory

from ledger import queries, render, services
from ledger.cli import app
from ledger.cli.commands import COMMANDS, commands_of
from ledger.storage.schema import HEAD_REVISION, alembic_config

from builders import run

ONLY_WHERE_USED = ("alembic", "chess", "fastapi", "uvicorn")
"""Schema upgrades, the PGN import and `ledger serve` import these; no other command waits."""

NOT_TO_READ = (
    "ledger.services.closing",
    "ledger.services.imports",
    "ledger.services.list_imports",
    "ledger.services.tournaments",
    "ledger.services.corrections",
    "ledger.services.demo",
    "ledger.formats.csvfiles",
    "ledger.formats.pgn",
    "ledger.formats.trf",
    "ledger.formats.fide_list",
    "ledger.queries.exports",
    "ledger.queries.integrity",
    "ledger.render.imports",
    "ledger.cli.recording",
    "ledger.cli.formats",
    "ledger.web",
    *ONLY_WHERE_USED,
)
"""What the commands that read a list or a player never use: the write side, the file
formats, the other commands' modules and the web."""

_LOADED = """
import json, sys
from ledger import queries, render
from ledger.cli import app
try:
    app(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded(*arguments: str) -> set[str]:
    """The modules a new process has imported once `ledger ARGUMENTS` has answered."""
    answered = subprocess.run(
        [sys.executable, "-c", _LOADED, *arguments], capture_output=True, text=True, check=True
    )
    modules: list[str] = json.loads(answered.stderr.splitlines()[-1])
    return set(modules)


def _within(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(
        module
        for module in modules
        if any(module == name or module.startswith(f"{name}.") for name in names)
    )


def test_the_head_revision_is_the_newest_migration() -> None:
    assert ScriptDirectory.from_config(alembic_config()).get_heads() == [HEAD_REVISION]


def test_the_command_line_starts_without_what_only_some_commands_use() -> None:
    modules = loaded("--version")
    assert _within(modules, (*NOT_TO_READ, "ledger.cli.reading", "ledger.queries.lists")) == []


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('start-up') / 'demo.db'}"
    assert run("demo", "--db", url).exit_code == 0
    return url


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param(("list", "--top", "10"), id="list"),
        pytest.param(("list", "--format", "csv"), id="list as CSV"),
        pytest.param(("player", "1"), id="player"),
        pytest.param(("explain", "1"), id="explain"),
        pytest.param(("stats",), id="stats"),
    ],
)
def test_a_read_loads_neither_the_write_side_nor_the_file_formats(
    demo: str, arguments: tuple[str, ...]
) -> None:
    modules = loaded(*arguments, "--db", demo)
    assert "ledger.cli.reading" in modules  # the command ran
    assert _within(modules, NOT_TO_READ) == []


def test_the_help_lists_every_command_without_the_web() -> None:
    assert _within(loaded("--help"), (*ONLY_WHERE_USED, "ledger.web")) == []


def test_the_help_lists_every_command_without_the_write_side() -> None:
    """The commands reach the services through `ledger.services`, which loads each module
    when a command first calls it."""
    modules = loaded("--help")
    assert "ledger.cli.recording" in modules  # the help named its commands
    assert [module for module in modules if module.startswith("ledger.services.")] == []


def test_the_help_lists_every_command_without_the_tables_or_the_queries() -> None:
    """The commands' defaults come from `ledger.core`: showing them makes none of the
    ledger's tables (a tenth of the help's start-up) and reads no query's module."""
    modules = loaded("--help")
    assert "ledger.storage.models" not in modules
    assert [module for module in modules if module.startswith("ledger.queries.")] == [
        "ledger.queries.shape"
    ]


def test_the_root_names_each_command_of_each_module() -> None:
    """`COMMANDS`, which the root group loads by, lists each module's commands as the
    module defines them."""
    assert all(commands_of(module).keys() == set(names) for module, names in COMMANDS.items())
    listed = typer.main.get_command(app)
    assert isinstance(listed, typer.core.TyperGroup)
    assert list(listed.commands) == [name for names in COMMANDS.values() for name in names]


@pytest.mark.parametrize(
    "face",
    [queries, queries.lists, render, services],
    ids=["queries", "lists", "render", "services"],
)
def test_a_face_exports_each_name_its_modules_define(face: types.ModuleType) -> None:
    """Each name of `ledger.queries`, `ledger.queries.lists`, `ledger.render` and
    `ledger.services` is imported from its module on first use (PEP 562, as its stub
    `__init__.pyi` names it), and the list of them is `__all__`."""
    for name in face.__all__:
        value = getattr(face, name)
        assert getattr(value, "__module__", face.__name__).startswith(face.__name__), name
    assert sorted(face.__all__) == sorted(_stubbed(face))


def _stubbed(face: types.ModuleType) -> list[str]:
    """The names (and modules) the stub of `face` exports."""
    assert face.__file__ is not None
    stub = ast.parse(Path(face.__file__).with_suffix(".pyi").read_text())
    imports = (node for node in stub.body if isinstance(node, ast.ImportFrom))
    return [alias.name for node in imports for alias in node.names]


def test_a_name_that_is_also_a_module_stays_the_name() -> None:
    importlib.import_module("ledger.queries.versions")
    assert not isinstance(queries.versions, types.ModuleType)
    assert queries.federations.federation_ranking  # a module, by its name on the package
