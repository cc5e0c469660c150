"""Ctrl-C: one line that says whether the change was made, and an exit code that agrees
(130 when nothing was written, 0 when the change was). In process, by raising SIGINT at the
moments that matter; `test_crash_safety` sends it to real processes at random moments."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.orm import Session

from ledger.cli import interrupts
from ledger.services import players

from builders import fingerprint, run

NOTHING_WRITTEN = "error: interrupted; nothing was written.\n"
WRITTEN = "warning: interrupted after the change was written; it is in the ledger.\n"


def _interrupt(*_: Any) -> None:
    signal.raise_signal(signal.SIGINT)


@pytest.fixture
def interrupted_while_adding(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C once the player is added, before the transaction commits."""
    add_players = players.add_players

    def add_then_interrupt(*arguments: Any, **options: Any) -> list[int]:
        added = add_players(*arguments, **options)
        _interrupt()
        return added

    monkeypatch.setattr(players, "add_players", add_then_interrupt)


@pytest.fixture
def interrupted_while_committing() -> Iterator[None]:
    """Ctrl-C as the transaction begins to commit."""
    event.listen(Session, "before_commit", _interrupt)
    yield
    event.remove(Session, "before_commit", _interrupt)


def test_an_interrupt_before_the_commit_writes_nothing(
    database_url: str, interrupted_while_adding: None
) -> None:
    before = fingerprint(database_url)
    result = run("add-player", "--name", "Cut, Cai", db=database_url)
    assert (result.exit_code, result.stdout, result.stderr) == (130, "", NOTHING_WRITTEN)
    assert fingerprint(database_url) == before


def test_an_interrupt_during_the_commit_waits_for_it_and_says_it_was_written(
    database_url: str, interrupted_while_committing: None
) -> None:
    result = run("add-player", "--name", "Kept, Kai", db=database_url)
    assert (result.exit_code, result.stderr) == (0, WRITTEN)
    assert [row[2] for row in fingerprint(database_url)["players"]] == ["Kept, Kai"]


def test_an_interrupt_of_a_read_says_nothing_was_written(database_url: str) -> None:
    event.listen(Session, "after_begin", _interrupt)
    try:
        result = run("db", "check", db=database_url)
    finally:
        event.remove(Session, "after_begin", _interrupt)
    assert (result.exit_code, result.stdout, result.stderr) == (130, "", NOTHING_WRITTEN)


def test_a_command_run_in_a_program_gives_its_handler_back() -> None:
    previous = signal.getsignal(signal.SIGINT)
    with interrupts.reported():
        assert signal.getsignal(signal.SIGINT) is not previous
    assert signal.getsignal(signal.SIGINT) is previous


def _ledger_process(database_url: str, prelude: str, *arguments: str) -> tuple[int, str, str]:
    """The `ledger` script run as its own process after `prelude`: exit code, stdout, stderr."""
    script = f"{prelude}\nfrom ledger.__main__ import main\nmain()"
    done = subprocess.run(
        [sys.executable, "-c", script, *arguments, "--db", database_url, "--operator", "tester"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


LOST_WHILE_LOADING = """
import signal, sys, weakref

class LoadingInterrupted:
    # A finder that takes part in loading the command line: Ctrl-C arrives in a weak
    # reference's callback, where Python cannot raise it.

    def find_spec(self, name, path=None, target=None):
        if name == "ledger.cli.commands":
            cut = type("Cut", (), {})()
            self.reference = weakref.ref(cut, lambda _: signal.raise_signal(signal.SIGINT))
            del cut
        return None

sys.meta_path.insert(0, LoadingInterrupted())
"""


def test_an_interrupt_python_cannot_raise_while_the_command_line_loads_is_not_lost(
    database_url: str,
) -> None:
    before = fingerprint(database_url)
    result = _ledger_process(database_url, LOST_WHILE_LOADING, "add-player", "--name", "Lost, Lu")
    assert result == (130, "", NOTHING_WRITTEN)
    assert fingerprint(database_url) == before


LOST_BEFORE_THE_WATCH = """
import gc, signal, weakref

enable = gc.enable

def enable_then_interrupt_in_a_callback():
    # Once the command line has loaded, before the command's watch takes over.
    enable()
    cut = type("Cut", (), {})()
    reference = weakref.ref(cut, lambda _: signal.raise_signal(signal.SIGINT))
    del cut

gc.enable = enable_then_interrupt_in_a_callback
"""


def test_an_interrupt_python_cannot_raise_before_the_watch_takes_over_is_not_lost(
    database_url: str,
) -> None:
    before = fingerprint(database_url)
    result = _ledger_process(
        database_url, LOST_BEFORE_THE_WATCH, "add-player", "--name", "Lost, Lu"
    )
    assert result == (130, "", NOTHING_WRITTEN)
    assert fingerprint(database_url) == before


LOST_WHILE_ADDING = """
import signal, weakref
from ledger.services import players

add_players = players.add_players

def add_then_interrupt_in_a_callback(*arguments, **options):
    added = add_players(*arguments, **options)
    cut = type("Cut", (), {})()
    reference = weakref.ref(cut, lambda _: signal.raise_signal(signal.SIGINT))
    del cut
    return added

players.add_players = add_then_interrupt_in_a_callback
"""


def test_an_interrupt_python_cannot_raise_during_a_change_stops_its_commit(
    database_url: str,
) -> None:
    before = fingerprint(database_url)
    result = _ledger_process(database_url, LOST_WHILE_ADDING, "add-player", "--name", "Lost, Lu")
    assert result == (130, "", NOTHING_WRITTEN)
    assert fingerprint(database_url) == before


CUT_READER = """
import signal
from ledger.services import players

add_players = players.add_players

def reader_of_a_connection_the_interrupt_closes():
    try:
        yield
    finally:
        raise RuntimeError("Cannot operate on a closed database.")

def add_then_interrupt_a_reader(*arguments, **options):
    added = add_players(*arguments, **options)
    reader = reader_of_a_connection_the_interrupt_closes()
    next(reader)
    signal.raise_signal(signal.SIGINT)
    return added

players.add_players = add_then_interrupt_a_reader
"""


def test_what_an_interrupted_readers_finalizer_says_is_left_to_the_one_line(
    database_url: str,
) -> None:
    """A reader cut by Ctrl-C (a generator over a cursor) is finalized after its connection
    has closed: the error Python can only print is not shown beside the line."""
    before = fingerprint(database_url)
    result = _ledger_process(database_url, CUT_READER, "add-player", "--name", "Cut, Cai")
    assert result == (130, "", NOTHING_WRITTEN)
    assert fingerprint(database_url) == before
