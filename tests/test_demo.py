"""The demo shows what the ledger is: five months closed by a named officer, a TRF report
with byes, a first rating pooled over two months, a transfer, a correction published as a
second version with its reason, and a rapid list; on both backends."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger import queries
from ledger.core.domain import Period, Pool
from ledger.services.demo import CORRECTION, NEWCOMER, OFFICER, build_demo
from ledger.storage.database import open_ledger
from ledger.storage.models import Bye

from builders import NOW

LAST = Period.of(NOW.date()) - 1
MONTHS = [LAST - back for back in range(4, -1, -1)]


@pytest.fixture
def demo(database_url: str) -> Iterator[Session]:
    build_demo(database_url, Pool.STANDARD, replace=False, now=NOW)
    ledger = open_ledger(database_url)
    with ledger.reading() as session:
        yield session
    ledger.dispose()


def test_five_months_are_closed_by_the_demo_officer(demo: Session) -> None:
    periods = queries.period_overview(demo, Pool.STANDARD, with_operators=True)
    assert [row.period for row in periods if row.closed] == MONTHS[::-1]
    assert {row.closed_by for row in periods} == {OFFICER.operator}
    assert {entry.operator for entry in queries.log_records(demo)} == {OFFICER.operator}


def test_a_correction_publishes_second_versions_with_its_reason(demo: Session) -> None:
    versioned = {
        row.period: len(row.versions) for row in queries.period_overview(demo, Pool.STANDARD)
    }
    assert versioned == dict.fromkeys(MONTHS[:3], 1) | dict.fromkeys(MONTHS[3:], 2)
    diff = queries.list_diff(demo, Pool.STANDARD, MONTHS[3])
    assert diff.reasons == [CORRECTION.reason]
    assert diff.changed


def test_a_newcomer_is_first_rated_from_games_of_two_months(demo: Session) -> None:
    (newcomer,) = queries.find_players(demo, NEWCOMER, Pool.STANDARD)
    explained = queries.explain(demo, Pool.STANDARD, newcomer.id, MONTHS[2])
    assert explained.first_rating is not None
    assert explained.first_rating.rating == explained.rating_after
    assert {game.period for game in explained.first_rating.games} == set(MONTHS[1:3])
    assert len(explained.first_rating.games) == 6


def test_a_transfer_shows_from_the_next_list(demo: Session) -> None:
    (transfer,) = [
        entry for entry in queries.log_records(demo, action="edit-player") if entry.reason
    ]
    player = int(transfer.counts["player_id"])  # type: ignore[arg-type]
    history = {
        period: queries.published_list(demo, queries.ListRequest(Pool.STANDARD, period))
        for period in MONTHS[1:3]
    }
    federations = [
        next(row.federation for row in listed.rows if row.id == player)
        for listed in history.values()
    ]
    assert federations[0] != federations[1]
    assert "federation" in transfer.summary


def test_an_event_has_byes_and_a_rapid_list_is_published(demo: Session) -> None:
    assert demo.scalar(select(func.count()).select_from(Bye)) >= 5
    rapid = queries.published_list(demo, queries.ListRequest(Pool.RAPID))
    assert rapid.period == LAST
    assert len(rapid.rows) == 40
    assert any(row.movement for row in rapid.rows)
