"""Whatever a write accepts, every read answers: generated periods and days, at the edges of
the calendar and of the ledger's periods, given to the writes that take them (a FIDE list's
period, a federation carried from a period, a game's day, a close); then every read command
and every page of that data answers, on both backends.

A write may refuse a value (with its one line, as `tests/test_bad_input.py` checks); what
matters here is that nothing it accepted leaves a read that cannot answer. The clock is
fixed: the CLI's `now` is `NOW`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ledger import services
from ledger.core.domain import Period
from ledger.web import create_app

from builders import run
from conftest import BACKENDS, PostgreSQLServer, fresh_database

pytestmark = pytest.mark.slow

NOW = dt.datetime(2030, 1, 15, 12)
LIST = Path(__file__).parent / "data" / "fide" / "players_list_foa.txt"
WHITE, BLACK = "7128762", "99000101"
"""Two players of the list, by their FIDE IDs (their ledger IDs once it is imported)."""

PERIODS = st.one_of(
    st.sampled_from(("0001-01", "1969-12", "1970-01", "2026-10", "2029-12", "2099-12")),
    st.sampled_from(("2100-01", "9999-12")),
    st.builds(Period, st.integers(1, 9999), st.integers(1, 12)).map(str),
)
DAYS = st.one_of(
    st.sampled_from(("0001-01-01", "1969-12-31", "1970-01-01", "2030-01-15", "9999-12-31")),
    st.dates(dt.date(1, 1, 1), dt.date(9999, 12, 31)).map(str),
)


def _writes(listed: str, carried: str, played: str, closed: str) -> list[list[str]]:
    return [
        ["import-fide-list", str(LIST), "--period", listed],
        ["edit-player", WHITE, "--federation", "NOR", "--from", carried, "--reason", "transfer"],
        ["add-game", "--white", WHITE, "--black", BLACK, "--result", "1-0", "--date", played],
        ["close-period", closed],
    ]


def _reads(listed: str) -> list[list[str]]:
    return [
        ["list"],
        ["list", "--live"],
        ["list", "--period", listed],
        ["list", "--pool", "rapid"],
        ["player", WHITE],
        ["periods"],
        ["events"],
        ["games"],
        ["stats"],
        ["federations"],
        ["peaks"],
        ["history"],
        ["log"],
        ["export-list", "--format", "fide-txt"],
    ]


def _pages(listed: str) -> list[str]:
    return [
        "/",
        "/lists/standard/latest",
        "/lists/standard/live",
        f"/lists/standard/{listed}",
        f"/players/{WHITE}",
        f"/api/v1/players/{WHITE}",
        "/periods/standard",
        "/events",
        "/reports/standard/stats",
        "/reports/standard/federations",
        "/reports/standard/peaks",
        "/reports/standard/rank-history",
        "/lists/standard/latest/download.txt",
    ]


@pytest.mark.parametrize("backend", BACKENDS)
@settings(
    max_examples=6,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(listed=PERIODS, carried=PERIODS, played=DAYS, closed=PERIODS)
@example(listed="0001-01", carried="2026-11", played="2026-11-05", closed="2026-11")
@example(listed="2026-10", carried="9999-12", played="2026-11-05", closed="2026-11")
@example(listed="2026-10", carried="2099-12", played="1970-01-01", closed="2029-12")
def test_every_read_answers_after_the_writes_it_accepted(
    backend: str,
    tmp_path: Path,
    postgresql_server: PostgreSQLServer | None,
    sqlite_template: Path,
    monkeypatch: pytest.MonkeyPatch,
    listed: str,
    carried: str,
    played: str,
    closed: str,
) -> None:
    monkeypatch.setattr(services, "utc_now", lambda: NOW)
    new_ledger = contextlib.contextmanager(fresh_database)
    with new_ledger(backend, tmp_path, postgresql_server, sqlite_template) as url:
        accepted = [
            run(*write, db=url).exit_code == 0 for write in _writes(listed, carried, played, closed)
        ]
        if not accepted[0]:
            return  # no list: the reads have nothing to show
        for read in _reads(listed):
            answer = run(*read, db=url)
            assert answer.exit_code == 0, (read, answer.stderr)
        with TestClient(create_app(url), raise_server_exceptions=False) as client:
            for page in _pages(listed):
                shown = client.get(page)
                assert shown.status_code == 200, (page, shown.text)
