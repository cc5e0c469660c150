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


IN_A_CALLBACK = """
import signal, sys, weakref

def interrupt_in_a_callback():
    # Ctrl-C arrives in a weak reference's callback, where Python cannot raise it.
    cut = type("Cut", (), {})()
    reference = weakref.ref(cut, lambda _: signal.raise_signal(signal.SIGINT))
    del cut
"""

WHILE_LOADING = """
class LoadingInterrupted:
    # A finder that takes part in loading the command line.
    def find_spec(self, name, path=None, target=None):
        if name == "ledger.cli.commands":
            interrupt_in_a_callback()
        return None

sys.meta_path.insert(0, LoadingInterrupted())
"""

BEFORE_THE_WATCH = """
import gc

enable = gc.enable

def enable_then_interrupt():
    # Once the command line has loaded, before the command's watch takes over.
    enable()
    interrupt_in_a_callback()

gc.enable = enable_then_interrupt
"""

WHILE_ADDING = """
from ledger.services import players

add_players = players.add_players

def add_then_interrupt(*arguments, **options):
    added = add_players(*arguments, **options)
    interrupt_in_a_callback()
    return added

players.add_players = add_then_interrupt
"""

CUT_READER = """
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

UNSEEN_BY_PYTHON = {
    "lost while the command line loads": WHILE_LOADING,
    "lost before the watch takes over": BEFORE_THE_WATCH,
    "lost during a change, before its commit": WHILE_ADDING,
    "with a cut reader finalized after its connection closed": CUT_READER,
}
"""Ctrl-C where Python cannot raise it (and would lose it), or where what it cut raises an
error Python can only print."""


@pytest.mark.parametrize("interrupt", UNSEEN_BY_PYTHON.values(), ids=UNSEEN_BY_PYTHON)
def test_an_interrupt_python_cannot_pass_on_still_ends_with_the_one_line(
    database_url: str, interrupt: str
) -> None:
    before = fingerprint(database_url)
    prelude = IN_A_CALLBACK + interrupt
    result = _ledger_process(database_url, prelude, "add-player", "--name", "Lost, Lu")
    assert result == (130, "", NOTHING_WRITTEN)
    assert fingerprint(database_url) == before
