"""The demo shows what the ledger is: five months closed by a named officer, a TRF report
with byes, a first rating pooled over two months, a transfer, a correction published as a
second version with its reason, a rapid list, and the site's demo accounts with a report
waiting in the officer's queue; on both backends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger import queries
from ledger.core.domain import Period, Pool
from ledger.queries.tournament_reports import (
    COMMAND_LINE,
    QueueFilter,
    report_detail,
    report_queue,
)
from ledger.services.demo import CORRECTION, NEWCOMER, OFFICER, build_demo
from ledger.services.demo.reports import DEMO_OFFICER, DEMO_ORGANISER, NEW_PLAYER
from ledger.storage.database import open_ledger
from ledger.storage.models import Bye
from ledger.web import create_app

from builders import NOW, run

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
    by_others = [entry for entry in queries.log_records(demo) if entry.operator != OFFICER.operator]
    sent = {"upload-report", "submit-report"}
    assert sent <= {entry.action for entry in by_others} <= {*sent, "acknowledge-warning"}
    assert {entry.operator for entry in by_others} == {DEMO_ORGANISER.email}


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


def test_the_demo_accounts_sign_in_and_a_report_waits_in_the_queue(
    demo: Session, database_url: str
) -> None:
    (waiting,) = report_queue(demo, NOW, QueueFilter())
    assert (waiting.state, waiting.organiser, waiting.age) == ("submitted", "Demo organiser", 0)
    assert waiting.period == Period.of(NOW.date())
    detail = report_detail(demo, waiting.id, COMMAND_LINE)
    findings = detail.versions[0].findings
    assert not [found for found in findings if found.tier == "error"]
    (new,) = [found for found in findings if found.code == "new-player"]
    assert new.message.startswith(f"{NEW_PLAYER} is new to the ledger")
    with TestClient(create_app(database_url), base_url="http://demo.test") as site:
        link = f'href="/desk/reports/{waiting.id}">{waiting.event}</a>'
        for account, page in ((DEMO_ORGANISER, "/desk/reports"), (DEMO_OFFICER, "/desk/queue")):
            signed = site.post(
                "/sign-in",
                data={"email": account.email, "password": account.password},
                headers={"Origin": "http://demo.test"},
                follow_redirects=False,
            )
            assert signed.status_code == 303, signed.text
            assert link in site.get(page).text


def test_the_demo_prints_its_sign_in_marked_for_the_demo_alone(tmp_path: Path) -> None:
    shown = run("demo", db=f"sqlite:///{tmp_path / 'demo.db'}")
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout.endswith(
        "Sign in at http://127.0.0.1:8000/sign-in (demo accounts: these passwords are for "
        "this demo alone):\n"
        "  officer    officer@demo.example      password: demo-officer-password\n"
        "  organiser  organiser@demo.example    password: demo-organiser-password\n"
        "Report 1 waits in the officer's queue: http://127.0.0.1:8000/desk/queue\n"
    )
