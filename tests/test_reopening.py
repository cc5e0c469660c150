"""`reopen-period`: the ledger goes back exactly to its state before the newest close."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import delete

from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict
from ledger.queries import ListRequest, published_list
from ledger.services.reopening import reopen_period
from ledger.storage.database import Ledger
from ledger.storage.models import PriorStanding

from builders import close, fingerprint, game, ledger_state, listing, player, run

FIDE_LIST = Path(__file__).parent / "data" / "fide" / "players_list_foa.txt"


def _reopen(ledger: Ledger, period: str) -> None:
    with ledger.transaction() as session:
        reopen_period(session, Pool.STANDARD, Period.parse(period))


def _scenario(ledger: Ledger) -> dict[str, int]:
    """Starting ratings, newcomers pooling games toward a first rating, a player who falls
    below the floor, a forfeit, and an empty month closed along."""
    ids = {
        "strong": player(ledger, "Strong, Sam", rating=2450, games=200),
        "mid": player(ledger, "Mid, Mia", rating=1900, games=40, birth_year=2012),
        "low": player(ledger, "Low, Lou", rating=1402, games=12),
        "new": player(ledger, "New, Nina"),
        "fresh": player(ledger, "Fresh, Fred"),
    }
    for day in range(1, 4):
        game(ledger, ids["new"], ids["mid"], "1/2-1/2", f"2026-06-0{day}")
        game(ledger, ids["low"], ids["strong"], "0-1", f"2026-06-1{day}")
    game(ledger, ids["fresh"], ids["strong"], "+/-", "2026-06-20")
    close(ledger, "2026-06")
    for day in range(1, 4):
        game(ledger, ids["new"], ids["strong"], "0-1", f"2026-08-0{day}")
        game(ledger, ids["low"], ids["mid"], "0-1", f"2026-08-1{day}")
    game(ledger, ids["fresh"], ids["new"], "1-0", "2026-08-20")
    return ids


def test_reopening_restores_the_ledger_exactly_and_closing_again_publishes_the_same(
    ledger: Ledger, database_url: str
) -> None:
    _scenario(ledger)
    before = ledger_state(database_url, history=False)
    close(ledger, "2026-08")  # closes the empty 2026-07 along
    after = ledger_state(database_url, history=False)
    assert listing(ledger)  # the list of 2026-08 is published
    published = listing(ledger)
    _reopen(ledger, "2026-08")  # and with it the list of 2026-07
    assert ledger_state(database_url, history=False) == before
    with ledger.reading() as session:  # the withdrawn list stays readable
        withdrawn = published_list(session, ListRequest(Pool.STANDARD, Period(2026, 8), version=1))
    assert {row.id: row for row in withdrawn.rows} == published
    close(ledger, "2026-08")
    assert ledger_state(database_url, history=False) == after
    _reopen(ledger, "2026-08")
    _reopen(ledger, "2026-06")
    close(ledger, "2026-06")
    close(ledger, "2026-08")
    assert ledger_state(database_url, history=False) == after


def test_a_corrected_result_is_rated_when_the_period_closes_again(
    ledger: Ledger, database_url: str
) -> None:
    ids = _scenario(ledger)
    close(ledger, "2026-08")
    rated = listing(ledger)[ids["mid"]].rating
    _reopen(ledger, "2026-08")
    game(ledger, ids["mid"], ids["strong"], "1-0", "2026-08-25")
    close(ledger, "2026-08")
    assert listing(ledger)[ids["mid"]].rating > rated
    checked = run("db", "check", db=database_url)
    assert checked.exit_code == 0, checked.stdout


@pytest.mark.parametrize(
    ("period", "message"),
    [
        (
            "2026-06",
            "only the newest closed period can be reopened; the newest standard "
            "period is 2026-08: reopen it first.",
        ),
        ("2026-09", "standard period 2026-09 is not closed; there is nothing to reopen."),
    ],
    ids=["not-the-newest", "not-closed"],
)
def test_only_the_newest_closed_period_reopens(
    period: str, message: str, ledger: Ledger, database_url: str
) -> None:
    _scenario(ledger)
    close(ledger, "2026-08")
    before = fingerprint(database_url)
    refused = run("reopen-period", period, "--reason", "a wrong result", db=database_url)
    assert (refused.exit_code, refused.stderr) == (1, f"error: {message}\n")
    assert fingerprint(database_url) == before


def test_an_imported_list_or_a_close_without_priors_does_not_reopen(
    ledger: Ledger, database_url: str
) -> None:
    imported = run("import-fide-list", str(FIDE_LIST), "--period", "2026-08", db=database_url)
    assert imported.exit_code == 0, imported.stderr
    with pytest.raises(Conflict, match="was imported from a FIDE list"):
        _reopen(ledger, "2026-08")
    game(ledger, 1503014, 2016192, "1-0", "2026-09-02")
    close(ledger, "2026-09")
    with ledger.transaction() as session:
        session.execute(delete(PriorStanding))
    with pytest.raises(Conflict, match="was closed before the ledger kept what a close changes"):
        _reopen(ledger, "2026-09")


def test_reopen_period_on_the_command_line(ledger: Ledger, database_url: str) -> None:
    _scenario(ledger)
    close(ledger, "2026-08")
    assert "withdrawn" not in run("periods", db=database_url).stdout
    reopened = run("reopen-period", "2026-08", "--reason", "a wrong result", db=database_url)
    assert reopened.exit_code == 0, reopened.stderr
    assert reopened.stdout.startswith("Reopened standard periods 2026-07, 2026-08: ")
    assert reopened.stdout.endswith("the ledger is as it was before that close.\n")
    assert run("list", "--period", "2026-08", db=database_url).exit_code == 1
    [row] = [
        line for line in run("periods", db=database_url).stdout.splitlines() if "2026-08" in line
    ]
    assert row.rstrip().endswith("1 (withdrawn)")
