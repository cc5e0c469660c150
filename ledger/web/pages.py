"""The HTML pages: each calls the same query as its command (and as its API answer) and
renders one template. They work without JavaScript; every page links to the others."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from starlette.responses import RedirectResponse, Response

from ledger import queries
from ledger.core.domain import FEDERATION_TOP_PLAYERS, Pool
from ledger.core.errors import NotFound
from ledger.core.records import MOST_RANKS
from ledger.queries import ListRow, records_csv, to_json
from ledger.web import views
from ledger.web.chart import rating_chart
from ledger.web.inputs import (
    PAGE_ROWS,
    BandStart,
    BandWidth,
    CalculationWhich,
    Counts,
    Day,
    EventName,
    FederationOrNone,
    Filter,
    ListWhich,
    PeriodInPath,
    PeriodText,
    PlayerId,
    PlayerOrNone,
    Rank,
    RatingOrNone,
    Reading,
    SearchText,
    TopPlayers,
    VersionOrNone,
    day_of,
    given,
    period_in_path,
)
from ledger.web.inputs import period_of as period_given
from ledger.web.templating import page

router = APIRouter(include_in_schema=False)


@router.get("/")
def home(session: Reading, kept: Counts) -> Response:
    return page("home.html", home=views.home(session, kept))


@router.get("/search")
def search(
    session: Reading,
    q: SearchText = "",
    pool: Pool = Pool.STANDARD,
) -> Response:
    found = queries.find_players(session, q, pool) if q.strip() else []
    if len(found) == 1:
        return RedirectResponse(f"/players/{found[0].id}", status_code=303)
    return page("search.html", q=q, pool=pool, found=found)


@router.get("/lists/{pool}/{which}")
def rating_list(
    request: Request,
    session: Reading,
    kept: Counts,
    pool: Pool,
    which: ListWhich,
    only: Filter,
    page_number: Annotated[int, Query(alias="page", ge=1, le=MOST_RANKS)] = 1,
    as_of: Day = None,
    version: VersionOrNone = None,
) -> Response:
    asked = views.list_request(pool, which, only, day_of(as_of, "as_of"), version)
    shown = views.list_page(session, asked, page_number, PAGE_ROWS, kept)
    query = [(key, value) for key, value in request.query_params.multi_items() if key != "page"]
    return page(
        "list.html",
        shown=shown,
        which=which,
        only=only,
        as_of=as_of or "",
        query=urlencode(query),
        paged=lambda number: urlencode([*query, ("page", number)]),
        pools=list(Pool),
    )


@router.get("/lists/{pool}/{which}/download.{kind}")
def download(
    session: Reading,
    pool: Pool,
    which: ListWhich,
    kind: str,
    only: Filter,
    as_of: Day = None,
    version: VersionOrNone = None,
) -> Response:
    """The whole view, every page: CSV or JSON as `ledger list` prints it, or the list in
    FIDE's TXT layout as `ledger export-list` writes it."""
    asked = views.list_request(pool, which, only, day_of(as_of, "as_of"), version)
    if kind == "txt":
        text = "".join(queries.fide_list_file(session, (pool,), asked.period, xml=False))
        return _attachment(text, "text/plain", f"{pool}-{which}.txt")
    rows = queries.published_list(session, asked).rows
    if kind == "csv":
        return _attachment(records_csv(rows, ListRow), "text/csv", f"{pool}-{which}.csv")
    if kind == "json":
        data = to_json(rows)
        return _attachment(data, "application/json", f"{pool}-{which}.json")
    raise NotFound(f"there is no {kind} download; the list downloads as .csv, .json or .txt.")


def _attachment(body: str, media_type: str, name: str) -> Response:
    disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
    return Response(body, media_type=f"{media_type}; charset=utf-8", headers=disposition)


@router.get("/lists/{pool}/{period}/diff")
def list_diff(
    session: Reading,
    pool: Pool,
    period: PeriodInPath,
    from_version: VersionOrNone = None,
    to_version: VersionOrNone = None,
) -> Response:
    changes = queries.list_diff(session, pool, period_in_path(period), from_version, to_version)
    return page("diff.html", diff=changes)


@router.get("/players/{player}")
def player(session: Reading, kept: Counts, player: PlayerId, pool: Pool | None = None) -> Response:
    card = queries.player_card(session, player, pool, kept)
    charts = {each.pool: rating_chart(each.history) for each in card.pools}
    games = {each.pool: views.open_games(session, player, each.pool) for each in card.pools}
    return page("player.html", card=card, charts=charts, games=games)


@router.get("/players/{player}/calculations/{pool}/{which}")
def calculation(
    session: Reading, player: PlayerId, pool: Pool, which: CalculationWhich
) -> Response:
    explained = queries.explain(session, pool, player, views.calculation_period(which))
    return page("calculation.html", explained=explained)


@router.get("/events")
def events(
    session: Reading,
    pool: Pool = Pool.STANDARD,
    period: PeriodText = None,
    player: PlayerOrNone = None,
) -> Response:
    rows = queries.event_listing(session, pool, queries.EventFilter(period_given(period), player))
    return page("events.html", rows=rows, pool=pool)


@router.get("/events/{pool}/{name:path}")
def event(session: Reading, pool: Pool, name: EventName) -> Response:
    return page("event.html", table=queries.cross_table(session, pool, name))


@router.get("/periods/{pool}")
def periods(session: Reading, pool: Pool) -> Response:
    rows = queries.period_overview(session, pool)
    return page("periods.html", rows=rows, pool=pool)


@router.get("/reports/{pool}/stats")
def stats(
    session: Reading,
    pool: Pool,
    period: PeriodText = None,
    start: BandStart = 2200,
    band: BandWidth = 50,
) -> Response:
    report = queries.list_statistics(session, pool, period_given(period), start, band)
    return page("stats.html", report=report)


@router.get("/reports/{pool}/federations")
def federations(
    session: Reading,
    pool: Pool,
    period: PeriodText = None,
    top: TopPlayers = FEDERATION_TOP_PLAYERS,
    women: bool = False,
) -> Response:
    ranking = queries.federation_ranking(session, pool, period_given(period), top, women)
    return page("federations.html", ranking=ranking)


@router.get("/reports/{pool}/peaks")
def peaks(
    session: Reading,
    pool: Pool,
    min_rating: RatingOrNone = None,
    federation: FederationOrNone = None,
    women: bool = False,
) -> Response:
    rows = queries.peaks(session, pool, given(min_rating), federation or None, women)
    return page("peaks.html", rows=rows, pool=pool)


@router.get("/reports/{pool}/rank-history")
def rank_history(
    session: Reading,
    pool: Pool,
    rank: Rank = 1,
    federation: FederationOrNone = None,
    women: bool = False,
    active: bool = False,
    summary: bool = False,
) -> Response:
    fed, rank = federation or None, given(rank) or 1
    if summary:
        rows: list[object] = list(queries.rank_summary(session, pool, rank, fed, women, active))
    else:
        rows = list(queries.rank_history(session, pool, rank, fed, women, active))
    return page("rank_history.html", rows=rows, summary=summary, rank=rank, pool=pool)


@router.get("/api/v1/docs")
def api_docs(request: Request) -> Response:
    """The API's description, rendered from its OpenAPI document (no script, no CDN)."""
    return page("api_docs.html", openapi=request.app.openapi())
