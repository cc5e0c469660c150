"""The JSON API, `/api/v1/...`: each answer the JSON of the command named in its summary,
field for field (`ledger.queries.shape`), lists paged with their total count."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from fastapi import APIRouter, Query
from starlette.responses import Response

from ledger import queries
from ledger.core.access import Action
from ledger.core.domain import FEDERATION_TOP_PLAYERS, Pool, parse_date
from ledger.core.errors import NotFound
from ledger.queries import ListRow, plain, records_csv, to_json
from ledger.web import views
from ledger.web.gate import serves_all
from ledger.web.inputs import (
    PAGE_ROWS,
    BandStart,
    BandWidth,
    CalculationWhich,
    Counts,
    Day,
    DayText,
    EventName,
    FederationOrNone,
    Filter,
    ListWhich,
    Page,
    PeriodInPath,
    PeriodText,
    PerPage,
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
    parsed,
    period_in_path,
)
from ledger.web.inputs import period_of as period_given

router = APIRouter(tags=["ledger"])


class ListFormat(StrEnum):
    JSON = "json"
    CSV = "csv"


def json_answer(data: object) -> Response:
    return Response(to_json(data, indented=False), media_type="application/json")


def list_document(shown: views.ListPage) -> dict[str, object]:
    """A page of a list: what the list is, the paging, and its rows as `ledger list`."""
    published = shown.published
    return {
        "pool": published.pool,
        "period": published.period,
        "version": published.version,
        "live_since": published.live_since,
        "filtered": published.filtered,
        "page": shown.page,
        "per_page": shown.per_page,
        "total": shown.total,
        "rows": published.rows,
    }


@router.get("/home", summary="Each pool's newest top 10, the latest lists and events")
def home(session: Reading, kept: Counts) -> Response:
    shown = views.home(session, kept)
    return json_answer(
        {
            "pools": [
                {"pool": each.pool, "period": each.period, "rows": each.rows}
                for each in shown.lists
            ],
            "latest_lists": [{"pool": pool} | plain(row) for pool, row in shown.latest_lists],
            "latest_events": shown.latest_events,
        }
    )


@router.get("/search", summary="ledger find --format json")
def search(session: Reading, q: SearchText, pool: Pool = Pool.STANDARD) -> Response:
    return json_answer(queries.find_players(session, q, pool))


@router.get(
    "/lists/{pool}/{which}",
    summary="ledger list --format json (or csv), paged",
    responses={200: {"content": {"text/csv": {}}}},
)
def rating_list(
    session: Reading,
    kept: Counts,
    pool: Pool,
    which: ListWhich,
    only: Filter,
    page: Page = 1,
    per_page: PerPage = PAGE_ROWS,
    as_of: Day = None,
    version: VersionOrNone = None,
    format: ListFormat = ListFormat.JSON,
) -> Response:
    request = views.list_request(pool, which, only, day_of(as_of, "as_of"), version)
    shown = views.list_page(session, request, page, per_page, kept)
    if format is ListFormat.CSV:
        return Response(records_csv(shown.published.rows, ListRow), media_type="text/csv")
    return json_answer(list_document(shown))


@router.get("/lists/{pool}/{period}/versions", summary="Every version of a period's list")
def list_versions(session: Reading, pool: Pool, period: PeriodInPath) -> Response:
    the_period = period_in_path(period)
    listed = queries.versions(session, pool, the_period)
    if not listed:
        raise NotFound(f"no {pool} list was published for period {the_period}.")
    return json_answer(listed)


@router.get("/lists/{pool}/{period}/diff", summary="ledger diff --format json")
def list_diff(
    session: Reading,
    pool: Pool,
    period: PeriodInPath,
    from_version: VersionOrNone = None,
    to_version: VersionOrNone = None,
) -> Response:
    the_period = period_in_path(period)
    return json_answer(queries.list_diff(session, pool, the_period, from_version, to_version))


@router.get("/players/{player}", summary="ledger player --format json")
def player(session: Reading, kept: Counts, player: PlayerId, pool: Pool | None = None) -> Response:
    return json_answer(queries.player_card(session, player, pool, kept))


@router.get("/players/{player}/history", summary="A player's history on each pool's lists")
def history(session: Reading, player: PlayerId, pool: Pool | None = None) -> Response:
    card = queries.player_card(session, player, pool)
    return json_answer([{"pool": each.pool, "history": each.history} for each in card.pools])


@router.get("/players/{player}/rating", summary="A player's rating in force on a day")
def rating_on(
    session: Reading,
    player: PlayerId,
    date: Annotated[DayText, Query(description="YYYY-MM-DD.")],
    pool: Pool = Pool.STANDARD,
) -> Response:
    day = parsed("date", parse_date, date)
    return json_answer(queries.rating_on(session, player, pool, day))


@router.get("/players/{player}/games", summary="ledger games --player ID --format json")
def games(
    session: Reading, player: PlayerId, pool: Pool = Pool.STANDARD, period: PeriodText = None
) -> Response:
    only = queries.GameFilter(player, None, period_given(period))
    return json_answer(queries.game_listing(session, pool, only))


@router.get("/players/{player}/calculations/{pool}/{which}", summary="ledger explain --format json")
def calculation(
    session: Reading, player: PlayerId, pool: Pool, which: CalculationWhich
) -> Response:
    explained = queries.explain(session, pool, player, views.calculation_period(which))
    return json_answer(explained)


@router.get("/events", summary="ledger events --format json")
def events(
    session: Reading,
    pool: Pool = Pool.STANDARD,
    period: PeriodText = None,
    player: PlayerOrNone = None,
) -> Response:
    only = queries.EventFilter(period_given(period), player)
    return json_answer(queries.event_listing(session, pool, only))


@router.get(
    "/events-received/{pool}",
    summary="The events reported for a period: received, returned, accepted, rated, rejected",
)
def events_received(session: Reading, pool: Pool, period: PeriodText = None) -> Response:
    return json_answer(views.received(session, pool, period_given(period)))


@router.get("/events/{pool}/{name:path}", summary="ledger event --format json")
def event(session: Reading, pool: Pool, name: EventName) -> Response:
    return json_answer(queries.cross_table(session, pool, name))


@router.get("/periods/{pool}", summary="ledger periods --format json")
def periods(session: Reading, pool: Pool) -> Response:
    return json_answer(queries.period_overview(session, pool))


@router.get("/reports/{pool}/stats", summary="ledger stats --format json")
def stats(
    session: Reading,
    kept: Counts,
    pool: Pool,
    period: PeriodText = None,
    start: BandStart = 2200,
    band: BandWidth = 50,
) -> Response:
    report = views.list_statistics(session, pool, period_given(period), (start, band), kept)
    return json_answer(report)


@router.get("/reports/{pool}/federations", summary="ledger federations --format json")
def federations(
    session: Reading,
    pool: Pool,
    period: PeriodText = None,
    top: TopPlayers = FEDERATION_TOP_PLAYERS,
    women: bool = False,
) -> Response:
    ranking = queries.federation_ranking(session, pool, period_given(period), top, women=women)
    return json_answer(ranking)


@router.get("/reports/{pool}/peaks", summary="ledger peaks --format json")
def peaks(
    session: Reading,
    pool: Pool,
    min_rating: RatingOrNone = None,
    federation: FederationOrNone = None,
    women: bool = False,
) -> Response:
    return json_answer(
        queries.peaks(session, pool, given(min_rating), federation or None, women=women)
    )


@router.get("/reports/{pool}/rank-history", summary="ledger history --format json")
def rank_history(
    session: Reading,
    pool: Pool,
    rank: Rank = 1,
    federation: FederationOrNone = None,
    women: bool = False,
    active: bool = False,
    summary: Annotated[bool, Query(description="Each holder once.")] = False,
) -> Response:
    holders = queries.rank_summary if summary else queries.rank_history
    held = holders(session, pool, given(rank) or 1, federation or None, women=women, active=active)
    return json_answer(held)


serves_all(router, Action.READ_PUBLIC)
