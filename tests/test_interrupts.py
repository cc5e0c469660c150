"""Ctrl-C: one line that says whether the change was made, and an exit code that agrees
(130 when nothing was written, 0 when the change was). In process, by raising SIGINT at the
moments that matter; `test_crash_safety` sends it to real processes at random moments."""

from __future__ import annotations

import signal
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
