"""The HTML pages: each calls the same query as its command (and as its API answer) and
renders one template. They work without JavaScript; every page links to the others."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Annotated, Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from starlette.responses import RedirectResponse, Response, StreamingResponse

from ledger import queries
from ledger.core.access import Action
from ledger.core.domain import FEDERATION_TOP_PLAYERS, Period, Pool
from ledger.core.errors import NotFound
from ledger.core.records import MOST_RANKS
from ledger.queries.lists.whole import CELL_NAMES, TEXT_CELLS
from ledger.queries.shape import csv_lines, json_lines
from ledger.web import views
from ledger.web.chart import rating_chart
from ledger.web.gate import serves_all
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
from ledger.web.site import SiteShown
from ledger.web.templating import page

router = APIRouter(include_in_schema=False)


@router.get("/")
def home(session: Reading, site: SiteShown, kept: Counts) -> Response:
    return page(site, "home.html", home=views.home(session, kept))


@router.get("/search")
def search(
    session: Reading,
    site: SiteShown,
    q: SearchText = "",
    pool: Pool = Pool.STANDARD,
) -> Response:
    found = queries.find_players(session, q, pool) if q.strip() else []
    if len(found) == 1:
        return RedirectResponse(f"/players/{found[0].id}", status_code=303)
    return page(site, "search.html", q=q, pool=pool, found=found)


@router.get("/lists/{pool}/{which}")
def rating_list(
    request: Request,
    session: Reading,
    site: SiteShown,
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
        site,
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
    ids: Annotated[Literal["fide", "ledger"], Query()] = "fide",
) -> Response:
    """The whole view, every page: CSV or JSON as `ledger list` prints it, or the list in
    FIDE's TXT layout as `ledger export-list` writes it (`ids=ledger`: with the ledger's
    IDs, every player in it; else the players with a FIDE ID, and a header saying how many
    it left out)."""
    asked = views.list_request(pool, which, only, day_of(as_of, "as_of"), version)
    if kind == "txt":
        return _fide_txt(session, pool, which, asked.period, ledger_ids=ids == "ledger")
    if kind not in ("csv", "json"):
        raise NotFound(f"there is no {kind} download; the list downloads as .csv, .json or .txt.")
    rows = queries.list_cells(session, asked)
    first = next(rows, None)  # the request checked (a refusal is a 4xx) before any byte is sent
    every = rows if first is None else itertools.chain((first,), rows)
    if kind == "csv":
        lines = csv_lines(CELL_NAMES, every, TEXT_CELLS)
        return _attachment(lines, "text/csv", f"{pool}-{which}.csv")
    records = (dict(zip(CELL_NAMES, row, strict=True)) for row in every)
    lines = itertools.chain(json_lines(records), ("\n",))  # as the CLI ends it
    return _attachment(lines, "application/json", f"{pool}-{which}.json")


LEFT_OUT_HEADER = "Ledger-Left-Out"


def _fide_txt(
    session: Reading, pool: Pool, which: str, period: Period | None, *, ledger_ids: bool
) -> Response:
    """The list in FIDE's TXT layout; where players without a FIDE ID were left out, the
    `Ledger-Left-Out` header says how many and why."""
    chunks = queries.fide_list_file(session, (pool,), period, xml=False, ledger_ids=ledger_ids)
    if ledger_ids:
        return _attachment(chunks, "text/plain", f"{pool}-{which}-ledger-ids.txt")
    answer = _attachment(chunks, "text/plain", f"{pool}-{which}.txt")
    left_out = queries.fide_list_left_out(session, (pool,), period)
    if left_out:
        answer.headers[LEFT_OUT_HEADER] = (
            f"{left_out} players without a FIDE ID: FIDE's layout lists players by FIDE ID; "
            "?ids=ledger writes every player under the ledger's IDs."
        )
    return answer


def _attachment(lines: Iterator[str], media_type: str, name: str) -> Response:
    """A download sent as its lines come, never held whole (a list of a million rows)."""
    disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
    return StreamingResponse(lines, media_type=f"{media_type}; charset=utf-8", headers=disposition)


@router.get("/lists/{pool}/{period}/diff")
def list_diff(
    session: Reading,
    site: SiteShown,
    pool: Pool,
    period: PeriodInPath,
    from_version: VersionOrNone = None,
    to_version: VersionOrNone = None,
) -> Response:
    changes = queries.list_diff(session, pool, period_in_path(period), from_version, to_version)
    return page(site, "diff.html", diff=changes)


@router.get("/players/{player}")
def player(
    session: Reading, site: SiteShown, kept: Counts, player: PlayerId, pool: Pool | None = None
) -> Response:
    card = queries.player_card(session, player, pool, kept)
    charts = {each.pool: rating_chart(each.history) for each in card.pools}
    games = {each.pool: views.open_games(session, player, each.pool) for each in card.pools}
    played = {
        each.pool: queries.played_games(session, each.pool, player, views.GAMES_ON_CARD)
        for each in card.pools
    }
    return page(site, "player.html", card=card, charts=charts, games=games, played=played)


@router.get("/players/{player}/games/{pool}")
def played_games(
    session: Reading,
    site: SiteShown,
    player: int,
    pool: Pool,
    page_number: Annotated[int, Query(alias="page", ge=1, le=1_000_000)] = 1,
) -> Response:
    """Every game of the player's closed periods, newest first, a page at a time."""
    played = views.played_page(session, pool, player, page_number)
    return page(site, "played_games.html", played=played, per_page=PAGE_ROWS)


@router.get("/players/{player}/calculations/{pool}/{which}")
def calculation(
    session: Reading, site: SiteShown, player: PlayerId, pool: Pool, which: CalculationWhich
) -> Response:
    explained = queries.explain(session, pool, player, views.calculation_period(which))
    return page(site, "calculation.html", explained=explained)


@router.get("/events")
def events(
    session: Reading,
    site: SiteShown,
    pool: Pool = Pool.STANDARD,
    period: PeriodText = None,
    player: PlayerOrNone = None,
) -> Response:
    rows = queries.event_listing(session, pool, queries.EventFilter(period_given(period), player))
    return page(site, "events.html", rows=rows, pool=pool)


@router.get("/events-received/{pool}")
def events_received(
    session: Reading, site: SiteShown, pool: Pool, period: PeriodText = None
) -> Response:
    shown = views.received(session, pool, period_given(period))
    return page(site, "events_received.html", shown=shown)


@router.get("/events/{pool}/{name:path}")
def event(session: Reading, site: SiteShown, pool: Pool, name: EventName) -> Response:
    return page(site, "event.html", table=queries.cross_table(session, pool, name))


@router.get("/periods/{pool}")
def periods(session: Reading, site: SiteShown, pool: Pool) -> Response:
    rows = queries.period_overview(session, pool)
    return page(site, "periods.html", rows=rows, pool=pool)


@router.get("/reports/{pool}/stats")
def stats(
    session: Reading,
    site: SiteShown,
    kept: Counts,
    pool: Pool,
    period: PeriodText = None,
    start: BandStart = 2200,
    band: BandWidth = 50,
) -> Response:
    report = views.list_statistics(session, pool, period_given(period), (start, band), kept)
    return page(site, "stats.html", report=report)


@router.get("/reports/{pool}/federations")
def federations(
    session: Reading,
    site: SiteShown,
    pool: Pool,
    period: PeriodText = None,
    top: TopPlayers = FEDERATION_TOP_PLAYERS,
    women: bool = False,
) -> Response:
    ranking = queries.federation_ranking(session, pool, period_given(period), top, women=women)
    return page(site, "federations.html", ranking=ranking)


@router.get("/reports/{pool}/peaks")
def peaks(
    session: Reading,
    site: SiteShown,
    pool: Pool,
    min_rating: RatingOrNone = None,
    federation: FederationOrNone = None,
    women: bool = False,
) -> Response:
    rows = queries.peaks(session, pool, given(min_rating), federation or None, women=women)
    return page(site, "peaks.html", rows=rows, pool=pool)


@router.get("/reports/{pool}/rank-history")
def rank_history(
    session: Reading,
    site: SiteShown,
    pool: Pool,
    rank: Rank = 1,
    federation: FederationOrNone = None,
    women: bool = False,
    active: bool = False,
    summary: bool = False,
) -> Response:
    fed, rank = federation or None, given(rank) or 1
    if summary:
        rows: list[object] = list(
            queries.rank_summary(session, pool, rank, fed, women=women, active=active)
        )
    else:
        rows = list(queries.rank_history(session, pool, rank, fed, women=women, active=active))
    return page(site, "rank_history.html", rows=rows, summary=summary, rank=rank, pool=pool)


@router.get("/site/logo")
def logo(session: Reading) -> Response:
    """The site's logo (`ledger site set --logo`), served from the site itself."""
    found = queries.site_logo(session)
    if found is None:
        raise NotFound("the site has no logo; `ledger site set --logo FILE` gives it one.")
    return Response(found.content, media_type=found.media_type)


@router.get("/api/v1/docs")
def api_docs(request: Request, site: SiteShown) -> Response:
    """The API's description, rendered from its OpenAPI document (no script, no CDN)."""
    return page(site, "api_docs.html", openapi=request.app.openapi())


serves_all(router, Action.READ_PUBLIC)
