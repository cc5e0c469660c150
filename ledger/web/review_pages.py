"""The rating officer's pages: the queue of reports (the longest waiting first, with their
age, the overdue flagged; filtered by state, pool, period and age), the decisions on a
submitted report (accept, matching its new players to ledger players or creating them;
return with a reason; reject with a reason and a public category), and the open periods,
each closed from here as `ledger close-period` closes it. Each decision is made on the
report's page (`ledger.web.report_pages`) through the service the command line calls."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Form, Request
from sqlalchemy.orm import Session
from starlette.responses import RedirectResponse, Response

from ledger import queries
from ledger.core.access import Action
from ledger.core.domain import Period, Pool, parse_period
from ledger.core.errors import InvalidInput
from ledger.core.reports import ReportState
from ledger.queries.tournament_reports import QueueFilter, report_queue
from ledger.web import reporting
from ledger.web.gate import Account, now, serves
from ledger.web.inputs import Reading, parsed
from ledger.web.report_pages import to_report
from ledger.web.reporting import (
    Category,
    Late,
    PeriodField,
    PoolField,
    Queue,
    Reason,
    ReasonOrNone,
    ReportId,
)
from ledger.web.site import SiteShown
from ledger.web.templating import page

router = APIRouter(include_in_schema=False)

References = Annotated[
    list[str] | None, Form(description="Each new player's reference, as its note names it.")
]
Players = Annotated[
    list[str] | None, Form(description="The ledger ID of each new player; empty: create them.")
]


@router.get("/desk/queue")
@serves(Action.REVIEW_REPORTS)
def queue(
    request: Request, session: Reading, site: SiteShown, who: Account, only: Queue
) -> Response:
    rows = report_queue(session, now(request), only)
    shown = {
        "states": ["all", *ReportState],
        "state": "all" if only.state is None else only.state,
        "pool": only.pool or "",
        "period": only.period or "",
        "older_than": "" if only.older_than is None else only.older_than,
    }
    return page(site, "queue.html", who=who, rows=rows, only=only, shown=shown)


def matches_of(references: list[str], players: list[str]) -> dict[str, int]:
    """The ledger player of each new player the officer matched (a player left empty is
    created), from the accept form's two lists, one entry per new player."""
    if len(references) != len(players):
        raise InvalidInput(
            "match: the form names each new player with a ledger ID or none; open the "
            "report's page again and send its form."
        )
    return dict(
        reporting.match_of(f"{reference}={player.strip()}")
        for reference, player in zip(references, players, strict=True)
        if player.strip()
    )


@router.post("/desk/reports/{report}/accept")
@serves(Action.REVIEW_REPORTS)
def accept(
    request: Request,
    who: Account,
    report: ReportId,
    reference: References = None,
    player: Players = None,
    late: Late = False,
    reason: ReasonOrNone = None,
) -> Response:
    matches = matches_of(reference or [], player or [])
    reporting.accept(request, who, report, matches, late=late, reason=reason)
    return to_report(report)


@router.post("/desk/reports/{report}/return")
@serves(Action.REVIEW_REPORTS)
def send_back(request: Request, who: Account, report: ReportId, reason: Reason) -> Response:
    reporting.send_back(request, who, report, reason)
    return to_report(report)


@router.post("/desk/reports/{report}/reject")
@serves(Action.REVIEW_REPORTS)
def reject(
    request: Request, who: Account, report: ReportId, category: Category, reason: Reason
) -> Response:
    reporting.reject(request, who, report, category, reason)
    return to_report(report)


@dataclass(frozen=True, slots=True)
class OpenPeriod:
    """An open period of a pool: its games, the reports received for it that wait for the
    officer, and whether it has ended (only then may it close)."""

    period: Period
    games: int
    waiting: int
    ended: bool


def open_periods(
    session: Session, pool: Pool, today: Period, waiting: Counter[Period]
) -> list[OpenPeriod]:
    """`pool`'s open periods with games or reports waiting, the oldest first."""
    rows = queries.period_overview(session, pool)
    newest_closed = max((row.period for row in rows if row.closed), default=None)
    games = {row.period: row.games for row in rows if not row.closed}
    later = {period for period in waiting if newest_closed is None or period > newest_closed}
    return [
        OpenPeriod(period, games.get(period, 0), waiting[period], period < today)
        for period in sorted(games.keys() | later)
    ]


@router.get("/desk/periods")
@serves(Action.CLOSE_PERIODS)
def periods(
    request: Request, session: Reading, site: SiteShown, who: Account, pool: Pool = Pool.STANDARD
) -> Response:
    at = now(request)
    submitted = report_queue(session, at, QueueFilter(pool=pool))
    waiting = Counter(row.period for row in submitted if row.period is not None)
    rows = open_periods(session, pool, Period.of(at.date()), waiting)
    return page(site, "desk_periods.html", who=who, pool=pool, rows=rows)


@router.post("/desk/periods/close")
@serves(Action.CLOSE_PERIODS)
def close(
    request: Request,
    who: Account,
    pool: PoolField,
    period: PeriodField,
    reason: ReasonOrNone = None,
) -> Response:
    """Close the period and show the list it published."""
    closing = parsed("period", parse_period, period)
    reporting.close(request, who, pool, closing, reason)
    return RedirectResponse(f"/lists/{pool}/{closing}", status_code=303)
