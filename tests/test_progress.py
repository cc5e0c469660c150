"""The progress of long work: counted a batch at a time, drawn as a bar on stderr when it is
a terminal (a pseudo-terminal here), and nothing more than before where it is not; Ctrl-C
under the bar still ends with one line and exit 130, the bar erased."""

from __future__ import annotations

import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ledger.cli import progress as cli_progress
from ledger.core.errors import InvalidInput
from ledger.core.progress import NO_PROGRESS, counted

from builders import fingerprint, run

LEDGER = [sys.executable, "-m", "ledger"]
PLAYERS = 200
GAMES = 30_000
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SHOW_CURSOR = "\x1b[?25h"
ERASE_LINE = "\x1b[2K"


class _Counts:
    """A stage that remembers each count it was given."""

    def __init__(self) -> None:
        self.counts: list[int] = []

    def advance(self, done: int) -> None:
        self.counts.append(done)


def test_counted_gives_every_item_and_counts_each_step_once_taken() -> None:
    stage = _Counts()
    items = counted(range(25), stage, step=10)
    assert [next(items) for _ in range(11)] == list(range(11))
    assert stage.counts == [10]
    assert list(items) == list(range(11, 25))
    assert stage.counts == [10, 10, 5]


def test_no_progress_takes_every_stage_and_count() -> None:
    stage = NO_PROGRESS.stage("Reading games.csv", 3)
    stage.advance(3)
    assert list(counted([], stage)) == []


def _ledger_with_games_file(tmp_path: Path, database_url: str) -> Path:
    """A ledger with PLAYERS players, and a CSV of GAMES games of 2026-10 between them."""
    players = tmp_path / "players.csv"
    rows = [f"{n},Player {n:04d},NOR,M,,1990,1800,40,0" for n in range(1, PLAYERS + 1)]
    header = "id,name,federation,sex,title,birth_year,rating,games,ever_2400"
    players.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    assert run("import-players", str(players), db=database_url).exit_code == 0
    chance = random.Random(3)
    games = tmp_path / "october.csv"
    lines = ["date,white,black,result"]
    for _ in range(GAMES):
        white, black = chance.sample(range(1, PLAYERS + 1), 2)
        lines.append(f"2026-10-{chance.randint(1, 31):02d},{white},{black},1-0")
    games.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return games


def _environment(delay: str) -> dict[str, str]:
    return {**os.environ, "LEDGER_PROGRESS_DELAY": delay, "COLUMNS": "100"}


def _import_games(games: Path, database_url: str) -> list[str]:
    return [*LEDGER, "import-games", str(games), "--allow-repeat", "--db", database_url]


class _Terminal:
    """A process whose stderr is a pseudo-terminal (its stdout a pipe), and what it drew."""

    def __init__(self, command: list[str]) -> None:
        self.controller, terminal = os.openpty()
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=terminal, env=_environment("0")
        )
        os.close(terminal)
        self.drawn = b""

    def read_until(self, wanted: str, timeout: float = 120) -> None:
        """Read what the process draws until `wanted` shows (without the escapes)."""
        deadline = time.monotonic() + timeout
        while wanted not in self.text and time.monotonic() < deadline:
            if select.select([self.controller], [], [], 0.1)[0] and not self._read():
                break
        assert wanted in self.text, self.text[-500:]

    def finish(self) -> tuple[int, bytes]:
        stdout, _ = self.process.communicate(timeout=300)
        while self._read():
            pass
        os.close(self.controller)
        return self.process.returncode, stdout

    def _read(self) -> bool:
        try:
            chunk = os.read(self.controller, 65536)
        except OSError:  # the process has closed its end
            return False
        self.drawn += chunk
        return bool(chunk)

    @property
    def raw(self) -> str:
        return self.drawn.decode("utf-8", "replace")

    @property
    def text(self) -> str:
        return _ESCAPES.sub("", self.raw)


@pytest.mark.slow
def test_an_import_on_a_terminal_shows_its_bar_on_stderr_and_erases_it(
    tmp_path: Path, database_url: str
) -> None:
    games = _ledger_with_games_file(tmp_path, database_url)
    terminal = _Terminal(_import_games(games, database_url))
    terminal.read_until(f"{GAMES:,}/{GAMES:,} rows")
    code, stdout = terminal.finish()
    assert (code, stdout) == (0, f"Imported {GAMES} games from october.csv.\n".encode())
    assert "Reading october.csv" in terminal.text
    assert "Recording games" in terminal.text
    after_the_bar = terminal.raw.rsplit("rows", 1)[-1]
    assert SHOW_CURSOR in after_the_bar
    assert ERASE_LINE in after_the_bar


@pytest.mark.slow
def test_ctrl_c_under_the_bar_says_nothing_was_written_and_erases_the_bar(
    tmp_path: Path, database_url: str
) -> None:
    games = _ledger_with_games_file(tmp_path, database_url)
    before = fingerprint(database_url)
    terminal = _Terminal(_import_games(games, database_url))
    terminal.read_until("Reading october.csv")
    terminal.process.send_signal(signal.SIGINT)
    code, stdout = terminal.finish()
    assert (code, stdout) == (130, b"")
    last_line = terminal.text.replace("\r\n", "\n").rsplit("\r", 1)[-1]
    assert last_line == "error: interrupted; nothing was written.\n"
    assert "Traceback" not in terminal.text
    bar_and_line = terminal.raw.rsplit("error:", 1)
    assert SHOW_CURSOR in bar_and_line[0]
    assert ERASE_LINE in bar_and_line[0]
    assert fingerprint(database_url) == before


@pytest.mark.slow
@pytest.mark.parametrize("no_delay", [True, False], ids=["no delay", "the default delay"])
def test_piped_an_import_prints_what_it_printed_before(
    tmp_path: Path, database_url: str, no_delay: bool
) -> None:
    """Without a terminal the delay changes nothing: no bar, not one byte more."""
    games = _ledger_with_games_file(tmp_path, database_url)
    environment = _environment("0")
    if not no_delay:
        del environment["LEDGER_PROGRESS_DELAY"]
    done = subprocess.run(
        _import_games(games, database_url), capture_output=True, env=environment, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"Imported {GAMES} games from october.csv.\n".encode(),
        b"",
    )


@pytest.mark.slow
def test_piped_an_export_writes_the_same_bytes_as_in_a_program(
    tmp_path: Path, database_url: str
) -> None:
    games = _ledger_with_games_file(tmp_path, database_url)
    assert run("import-games", str(games), "--allow-repeat", db=database_url).exit_code == 0
    assert run("close-period", "2026-10", db=database_url).exit_code == 0
    for output_format in ("csv", "json", "fide-txt"):
        command = ["export-list", "--format", output_format, "--db", database_url]
        in_program = run(*command)
        piped = subprocess.run(
            [*LEDGER, *command], capture_output=True, env=_environment("0"), check=False
        )
        assert (piped.returncode, piped.stderr) == (0, in_program.stderr_bytes)
        assert b"\r" not in piped.stderr  # no progress bar, only the export's own warning
        assert piped.stdout == in_program.stdout_bytes


@pytest.mark.parametrize("delay", ["soon", "-1", "nan"])
def test_a_delay_that_is_not_seconds_is_refused(
    monkeypatch: pytest.MonkeyPatch, delay: str
) -> None:
    monkeypatch.setenv("LEDGER_PROGRESS_DELAY", delay)
    with pytest.raises(InvalidInput, match=f"LEDGER_PROGRESS_DELAY is '{delay}'; give the seconds"):
        cli_progress._delay()
