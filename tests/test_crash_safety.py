"""A close is one transaction whatever happens to the process, and officers working at once
never both publish: real `ledger` processes, killed with SIGKILL or racing each other, on
SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from ledger.core.domain import GameResult, Period, Pool
from ledger.core.records import new_game, new_player
from ledger.services.games import add_games
from ledger.services.players import add_players
from ledger.storage.database import open_ledger
from ledger.storage.models import Game, GameRating

from builders import NOW, ledger_state
from conftest import PostgreSQLServer, fresh_database

pytestmark = pytest.mark.slow

LEDGER = [sys.executable, "-m", "ledger"]
PERIOD = "2026-09"
PLAYERS = 1_500
GAMES = 12_000
KILLS = 8


def _fill(url: str) -> None:
    """A ledger whose close of PERIOD takes long enough to be killed in the middle."""
    chance = random.Random(5)
    ledger = open_ledger(url)
    try:
        with ledger.transaction() as session:
            players = [
                new_player(
                    name=f"Player {n}",
                    rating=chance.randint(1400, 2700),
                    games=40,
                    today=NOW.date(),
                )
                for n in range(PLAYERS)
            ]
            ids = add_players(session, Pool.STANDARD, players)
            results = list(GameResult)[:3]
            games = []
            for _ in range(GAMES):
                white, black = chance.sample(ids, 2)
                games.append(
                    new_game(
                        date=dt.date(2026, 9, chance.randint(1, 30)),
                        white=white,
                        black=black,
                        result=chance.choice(results),
                        today=NOW.date(),
                    )
                )
            add_games(session, Pool.STANDARD, games, allow_repeat=True)  # random pairs repeat
    finally:
        ledger.dispose()


COMMANDS = {
    "close": ["close-period", PERIOD],
    "rerate": ["rerate", "--from", PERIOD, "--reason", "crash test"],
    "close-next": ["close-period", "2026-10"],
}


def _start(url: str, command: str | list[str] = "close") -> subprocess.Popen[str]:
    """A `ledger` process running `command` (a name in COMMANDS, or its arguments)."""
    arguments = COMMANDS[command] if isinstance(command, str) else command
    return subprocess.Popen(
        [*LEDGER, *arguments, "--db", url, "--operator", "tester"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _close(url: str) -> subprocess.Popen[str]:
    return _start(url)


def _finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    """Wait for the process; its exit code and what it wrote on stderr."""
    _, stderr = process.communicate(timeout=300)
    return process.returncode, stderr


Fingerprint = dict[str, list[tuple[object, ...]]]


def _state(url: str) -> Fingerprint:
    """Every row, with the moments of a close left out (two closes never share them)."""
    return ledger_state(url)


class _Copies:
    """Fresh copies of one filled ledger, on one backend."""

    def __init__(self, backend: str, tmp_path: Path, server: PostgreSQLServer | None) -> None:
        self.backend = backend
        self.tmp_path = tmp_path
        self.server = server
        self.made: list[str] = []
        self.template = self._empty()
        _fill(self.template)

    def _empty(self) -> str:
        generator = fresh_database(self.backend, self.tmp_path, self.server)
        url = next(generator)
        self.made.append(url)
        return url

    def close_template(self) -> None:
        """Close PERIOD in the template, so that copies can be re-rated; and give its first
        game another result without a re-rate, so that re-rating it changes the list (a
        re-rate that changes nothing publishes nothing)."""
        code, stderr = _finish(_close(self.template))
        assert code == 0, stderr
        ledger = open_ledger(self.template)
        try:
            with ledger.transaction() as session:
                first = session.scalars(select(Game).order_by(Game.id).limit(1)).one()
                wins = GameResult.WHITE_WINS
                first.result = GameResult.BLACK_WINS if first.result is wins else wins
        finally:
            ledger.dispose()

    def copy(self) -> str:
        if self.backend == "sqlite":
            source = Path(make_url(self.template).database or "")
            target = self.tmp_path / f"copy-{uuid.uuid4().hex[:8]}.db"
            shutil.copyfile(source, target)
            return f"sqlite:///{target}"
        assert self.server is not None
        name = f"ledger_copy_{uuid.uuid4().hex[:12]}"
        template = make_url(self.template).database
        self.made.append(self.server.create(name, template))
        return self.server.url_of(name)

    def drop(self) -> None:
        if self.server is not None:
            for url in self.made:
                self.server.drop(make_url(url).database or "")


@pytest.fixture(params=["sqlite", "postgresql"])
def copies(
    request: pytest.FixtureRequest, tmp_path: Path, postgresql_server: PostgreSQLServer | None
) -> Iterator[_Copies]:
    if request.param == "postgresql" and postgresql_server is None:
        pytest.skip("no PostgreSQL server")
    made = _Copies(request.param, tmp_path, postgresql_server)
    yield made
    made.drop()


def _writing(url: str) -> bool:
    """Whether a writer holds the ledger: SQLite's write lock, or PostgreSQL's pool lock."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        probe = sqlite3.connect(parsed.database or "", timeout=0, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
            return False
        except sqlite3.OperationalError:
            return True
        finally:
            probe.close()
    conninfo = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as probe:
        held = probe.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")
        return bool(held.fetchone()[0])  # type: ignore[index]


def _while_writing(url: str, command: str | list[str]) -> tuple[subprocess.Popen[str], float]:
    """A command started, once it has begun writing; and the moment it began."""
    process = _start(url, command)
    while not _writing(url) and process.poll() is None:
        time.sleep(0.002)
    return process, time.perf_counter()


@pytest.mark.parametrize("name", ["close", "rerate", "import"])
def test_a_close_rerate_or_import_killed_while_it_writes_leaves_the_ledger_before_or_after(
    copies: _Copies, name: str
) -> None:
    """SIGKILL at random moments after the command took the write lock (so inside its
    transaction); most kills must land before it finished, or nothing was tested."""
    command: str | list[str] = name
    if name == "rerate":
        copies.close_template()
    if name == "import":
        command = ["import-games", str(_october_games(copies.tmp_path)), "--allow-repeat"]
    before = _state(copies.template)
    reference = copies.copy()
    process, began = _while_writing(reference, command)
    code, stderr = _finish(process)
    assert code == 0, stderr
    writing = time.perf_counter() - began
    after = _state(reference)
    assert after != before
    chance = random.Random(11)
    in_the_middle = 0
    for kill in range(KILLS):
        url = copies.copy()
        process, _ = _while_writing(url, command)
        time.sleep(chance.uniform(0, 0.9) * writing)
        if process.poll() is None:
            in_the_middle += 1
            os.kill(process.pid, signal.SIGKILL)
        _finish(process)
        state = _state(url)
        assert state in (before, after), f"kill {kill} left a half-written ledger"
    assert in_the_middle >= KILLS // 2, f"only {in_the_middle} kills landed mid-close"


INTERRUPTS = 6
NOTHING_WRITTEN = "error: interrupted; nothing was written.\n"
WRITTEN = "warning: interrupted after the change was written; it is in the ledger.\n"
PYTHON_STARTS = 0.2
"""Seconds after which the interpreter itself has started and the ledger's code runs
(an interrupt before it is Python's own, with its traceback)."""


@pytest.mark.parametrize("name", ["close", "import"])
def test_ctrl_c_at_any_moment_says_whether_the_change_was_written(
    copies: _Copies, name: str
) -> None:
    """SIGINT at random moments from start-up to the end of a close or an import: one line
    and exit 130 with the ledger as before, or exit 0 with it as after (and the line that
    says so if the interrupt came after the commit); never a traceback."""
    command: str | list[str] = name
    if name == "import":
        command = ["import-games", str(_october_games(copies.tmp_path)), "--allow-repeat"]
    before = _state(copies.template)
    reference = copies.copy()
    began = time.perf_counter()
    code, stderr = _finish(_start(reference, command))
    assert code == 0, stderr
    whole = time.perf_counter() - began
    after = _state(reference)
    chance = random.Random(13)
    stopped = 0
    for interrupt in range(INTERRUPTS):
        url = copies.copy()
        process = _start(url, command)
        time.sleep(chance.uniform(PYTHON_STARTS, whole))
        process.send_signal(signal.SIGINT)
        code, stderr = _finish(process)
        state = _state(url)
        if code == 130:
            stopped += 1
            assert (stderr, state == before) == (NOTHING_WRITTEN, True), f"interrupt {interrupt}"
        else:
            assert code == 0, f"interrupt {interrupt}: {code} {stderr}"
            assert stderr in ("", WRITTEN)
            assert state == after, f"interrupt {interrupt} said it wrote, and did not"
    assert stopped >= INTERRUPTS // 2, f"only {stopped} interrupts landed before the end"


def _october_games(folder: Path) -> Path:
    """A CSV file of GAMES games of 2026-10 between the ledger's players."""
    chance = random.Random(7)
    path = folder / "october.csv"
    lines = ["date,white,black,result"]
    for _ in range(GAMES):
        white, black = chance.sample(range(1, PLAYERS + 1), 2)
        lines.append(f"2026-10-{chance.randint(1, 31):02d},{white},{black},1-0")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_two_closes_in_two_processes_publish_once(copies: _Copies) -> None:
    url = copies.copy()
    racers = [_close(url) for _ in range(2)]
    results = [_finish(racer) for racer in racers]
    assert sorted(code for code, _ in results) == [0, 1], results
    refused = next(stderr for code, stderr in results if code == 1)
    assert refused.startswith(f"error: period {PERIOD} is already closed; ") or refused in (
        "error: the ledger is busy: another process is writing to it; try again when it is done.\n",
    )
    reference = copies.copy()
    assert _finish(_close(reference))[0] == 0
    assert _state(url) == _state(reference)


def test_a_rerate_and_a_close_at_once_run_one_after_the_other(copies: _Copies) -> None:
    """Both succeed, and the ledger is the one of running them in some order."""
    copies.close_template()
    url = copies.copy()
    racers = [_start(url, "rerate"), _start(url, "close-next")]
    results = [_finish(racer) for racer in racers]
    assert [code for code, _ in results] == [0, 0], results
    orders = []
    for order in (("rerate", "close-next"), ("close-next", "rerate")):
        reference = copies.copy()
        for command in order:
            assert _finish(_start(reference, command))[0] == 0
        orders.append(_state(reference))
    assert orders[0] != orders[1]
    assert _state(url) in orders


def test_a_game_added_by_another_process_during_a_close_is_rated_or_refused(
    copies: _Copies,
) -> None:
    url = copies.copy()
    closing = _close(url)
    time.sleep(0.3)
    added = subprocess.run(
        [
            *LEDGER,
            "add-game",
            "--white",
            "1",
            "--black",
            "2",
            "--result",
            "1-0",
            "--date",
            "2026-09-30",
            "--db",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert _finish(closing)[0] == 0
    ledger = open_ledger(url)
    try:
        with ledger.reading() as session:
            games = session.scalar(select(func.count()).select_from(Game))
            rated = session.scalar(select(func.count()).select_from(GameRating))
    finally:
        ledger.dispose()
    if added.returncode == 0:
        assert (games, rated) == (GAMES + 1, GAMES + 1), "an added game was left out of the close"
    else:
        assert added.stderr.startswith(f"error: date: period {Period.parse(PERIOD)} is closed")
        assert (games, rated) == (GAMES, GAMES)
