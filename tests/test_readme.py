"""The README and the command reference are part of the product: every command is in both
and has help, the README stays a front door, its demo runs, and every file the docs name
exists."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from typer.main import get_command

from ledger.cli import app

from builders import run

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
HEADINGS = [line for line in COMMANDS.splitlines() if line.startswith("## ")]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _commands() -> list[str]:
    """Every command's full name, from the command tree Typer builds."""
    names = []
    for name, command in get_command(app).commands.items():  # type: ignore[attr-defined]
        subcommands = getattr(command, "commands", None)
        names += [f"{name} {sub}" for sub in subcommands] if subcommands else [name]
    return names


def test_every_command_is_in_the_reference_and_the_readme_and_has_help() -> None:
    assert len(_commands()) == 56
    for name in _commands():
        assert any(f"`ledger {name}" in heading for heading in HEADINGS), name
        assert f"`ledger {name}" in README, name
        shown = run(*name.split(), "--help")
        assert shown.exit_code == 0, name
        assert "Usage" in shown.stdout


def test_the_readme_is_a_front_door_that_links_the_reference() -> None:
    assert len(README.splitlines()) <= 200
    assert "(docs/commands.md)" in README
    assert "(docs/architecture.md)" in README


def test_ci_runs_the_readmes_test_command() -> None:
    test_command = re.search(r"Run the tests.*?\n\n    ([^\n]+)\n", README, re.DOTALL)
    assert test_command is not None
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1] == test_command[1]


def test_the_readme_demo_runs(tmp_path: Path) -> None:
    result = run("demo", db=f"sqlite:///{tmp_path / 'demo.db'}")
    assert result.exit_code == 0, result.stderr
    assert "Closed standard period" in result.stdout
    assert "Try next" in result.stdout
    assert sum(" GM " in line for line in result.stdout.splitlines()) >= 8
    suggested = [
        shlex.split(line)[1:]
        for line in result.stdout.splitlines()
        if line.startswith(("  ledger correct-game", "  ledger diff"))
    ]
    assert len(suggested) == 2
    for command in suggested:  # the demo's suggestions work on the demo ledger
        tried = run(*command, db=f"sqlite:///{tmp_path / 'demo.db'}")
        assert tried.exit_code == 0, tried.output
    assert "2 changed" in tried.output
    checked = run("db", "check", db=f"sqlite:///{tmp_path / 'demo.db'}")
    assert (checked.exit_code, checked.stdout) == (
        0,
        "The ledger agrees with itself: no problems found.\n",
    )


def test_the_demo_refuses_a_database_that_holds_a_ledger(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'mine.db'}"
    assert run("add-player", "--name", "Mine, Mo", db=url).exit_code == 0
    refused = run("demo", db=url)
    assert refused.exit_code == 1
    assert "the demo needs an empty database" in refused.stderr


READ_COMMANDS = [
    ["list"],
    ["list", "--federation", "NOR", "--women", "--juniors"],
    ["explain", "2"],
    ["player", "2"],
    ["stats"],
    ["peaks"],
    ["history"],
    ["event", "Autumn Open"],
    ["games", "--player", "2"],
    ["find", "a"],
    ["calc", "--rating", "2000", "--opponents", "2100:1,1950:0.5,1800:0", "--k", "20"],
]


def test_every_read_table_fits_eighty_columns(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    assert run("demo", db=url).exit_code == 0
    for command in READ_COMMANDS:
        shown = run(*command, db=url) if command[0] != "calc" else run(*command)
        assert shown.exit_code == 0, (command, shown.stderr)
        widest = max(len(line) for line in shown.stdout.splitlines())
        assert widest <= 80, (command, widest)


# Every file the docs name exists ---------------------------------------------------------

TOP_FOLDERS = sorted(
    path.name
    for path in ROOT.iterdir()
    if path.is_dir() and (not path.name.startswith(".") or path.name == ".ci")
)
"""The repository's own folders (`.venv` and the tools' caches are made, not kept)."""
FROM_THE_TOP = re.compile(
    rf"(?<![\w./-])((?:{'|'.join(map(re.escape, TOP_FOLDERS))})/[\w./-]*[\w/])"
)
"""A path from the top of the repository, anywhere in the text (`ledger/core/rules.py`,
`benchmarks/web.py` in a command line)."""
QUOTED_PATH = re.compile(r"`([\w-]+(?:/[\w.-]+)*(?:/|\.(?:py|md|html|css|js|toml|ini|json)))`")
"""A path quoted in the text, of a folder (`templates/`) or of a file of the repository's
kinds (`pyproject.toml`), also written from within the package as the docs often do
(`cli/reading.py`); a quoted data file (`players.csv`, `club.db`) is an example, a path
from `/` a route or the system's."""
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
"""A Markdown link's target, without its anchor."""


def _kept(named: str) -> bool:
    """Whether the repository holds `named`: from its top, or as the end of a path in it
    (a path within a package)."""
    if (ROOT / named).exists():
        return True
    ending = named.rstrip("/")
    return any(
        str(path.relative_to(ROOT)).endswith(f"/{ending}")
        for folder in TOP_FOLDERS
        for path in (ROOT / folder).rglob(ending.rsplit("/", 1)[-1])
    )


def _named_paths(doc: Path) -> set[str]:
    text = doc.read_text(encoding="utf-8")
    named = set(FROM_THE_TOP.findall(text)) | set(QUOTED_PATH.findall(text))
    links = (target for target in LINK.findall(text) if "://" not in target)
    named |= {str((doc.parent / target).resolve().relative_to(ROOT)) for target in links}
    return named


def test_every_file_the_docs_name_exists() -> None:
    """README.md and docs/*.md once named `ledger/web/templates/chart.svg.j2`, a template
    that never existed. Paths outside the repository (`../shared/...`, routes, system files)
    are not its to keep."""
    named = {(doc.name, path) for doc in DOCS for path in _named_paths(doc)}
    assert len(named) > 30
    assert not {(doc, path) for doc, path in named if not _kept(path)}
