"""`--output FILE` of export-list and export-trf: a new file or, with --force, a regular file
replaced whole; never through a link, onto a device, a pipe or a folder."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from ledger.storage.database import Ledger

from builders import close, game, player, run

EXPORTS = [
    pytest.param(("export-list", "--format", "csv"), id="export-list"),
    pytest.param(("export-trf", "Autumn Cup"), id="export-trf"),
]


@pytest.fixture
def url(ledger: Ledger, database_url: str) -> str:
    """A ledger with a published list and an event."""
    white = player(ledger, "White, Wim", rating=2000)
    black = player(ledger, "Black, Bea", rating=1900)
    game(ledger, white, black, "1-0", "2026-09-05", event="Autumn Cup", round=1)
    close(ledger, "2026-09")
    return database_url


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """A folder for the output files alone."""
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


def _export(url: str, arguments: tuple[str, ...], output: Path, *flags: str) -> tuple[int, str]:
    result = run(*arguments, "-o", str(output), *flags, db=url)
    return result.exit_code, result.stderr


def _others(folder: Path, *expected: Path) -> list[Path]:
    """What the folder holds besides `expected`: no temporary file may be left."""
    return sorted(set(folder.iterdir()) - set(expected))


@pytest.mark.parametrize("arguments", EXPORTS)
def test_a_new_file_is_written_as_any_new_file(
    url: str, arguments: tuple[str, ...], out: Path
) -> None:
    output = out / "out.txt"
    umask = os.umask(0o022)
    try:
        assert _export(url, arguments, output) == (0, "")
    finally:
        os.umask(umask)
    assert output.read_text(encoding="utf-8")
    assert stat.S_IMODE(output.stat().st_mode) == 0o644
    assert _others(out, output) == []


@pytest.mark.parametrize("arguments", EXPORTS)
def test_an_existing_file_is_replaced_only_with_force(
    url: str, arguments: tuple[str, ...], out: Path
) -> None:
    output = out / "out.txt"
    output.write_text("kept\n")
    output.chmod(0o600)
    assert _export(url, arguments, output) == (
        1,
        f"error: {output} already exists; give --force to replace it.\n",
    )
    assert output.read_text() == "kept\n"
    assert _export(url, arguments, output, "--force") == (0, "")
    assert output.read_text(encoding="utf-8") != "kept\n"
    assert stat.S_IMODE(output.stat().st_mode) == 0o600
    assert _others(out, output) == []


@pytest.mark.parametrize("force", [(), ("--force",)], ids=["", "force"])
@pytest.mark.parametrize("arguments", EXPORTS)
def test_a_symbolic_link_is_refused_and_kept(
    url: str, arguments: tuple[str, ...], force: tuple[str, ...], out: Path
) -> None:
    target = out / "target.txt"
    target.write_text("kept\n")
    link = out / "link.txt"
    link.symlink_to(target)
    assert _export(url, arguments, link, *force) == (
        1,
        f"error: {link} is a symbolic link; give the path of the file itself.\n",
    )
    assert link.is_symlink()
    assert target.read_text() == "kept\n"
    assert _others(out, link, target) == []


@pytest.mark.parametrize("force", [(), ("--force",)], ids=["", "force"])
@pytest.mark.parametrize("arguments", EXPORTS)
def test_a_pipe_or_a_folder_is_refused_and_kept(
    url: str, arguments: tuple[str, ...], force: tuple[str, ...], out: Path
) -> None:
    pipe = out / "pipe"
    os.mkfifo(pipe)
    folder = out / "folder"
    folder.mkdir()
    assert _export(url, arguments, pipe, *force) == (
        1,
        f"error: {pipe} is not a regular file (a device or a pipe); give a file.\n",
    )
    assert _export(url, arguments, folder, *force) == (
        1,
        f"error: {folder} is a folder; give the path of a file in it.\n",
    )
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert folder.is_dir()
    assert list(folder.iterdir()) == []
    assert _others(out, pipe, folder) == []
