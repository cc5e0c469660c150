"""The published lists as SQL: the newest list from today's standing, an older one from
today's standing corrected by the players changed since, and each player's newest list row
up to a period. Statements only; `ledger.queries` runs them.

A list shows each player's federation and title as its rows (and the standing, for the
newest list) keep them, so a transfer never changes a list already published.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sqlalchemy import (
    ColumnElement,
    CompoundSelect,
    and_,
    case,
    func,
    literal,
    select,
    union_all,
)
from sqlalchemy.orm import aliased
from sqlalchemy.sql.util import find_tables

from ledger.core import cadence
from ledger.core.domain import Period, Pool
from ledger.queries.filters import ListFilter
from ledger.storage.batches import AnySelect
from ledger.storage.models import ListEntry, PeriodType, Player, PlayerRating

IDENTITY = (Player.id, Player.name, Player.sex, Player.birth_year)
"""Who a list row is: the name is today's (a list shows a player under their name now)."""
STANDING = (
    PlayerRating.federation,
    PlayerRating.title,
    PlayerRating.rating,
    PlayerRating.games_completed,
    PlayerRating.ever_2400,
    PlayerRating.peak,
    PlayerRating.peak_period,
    PlayerRating.last_active,
)
"""A player's standing on the newest list, as its rows show it."""
PERIOD_ROW = (
    ListEntry.previous_rating,
    ListEntry.change,
    ListEntry.games,
    ListEntry.k_applied,
    ListEntry.k_next,
)
"""The figures of a player's row in a period."""
PERIOD_FIGURES = (ListEntry.period, *PERIOD_ROW)


def newest_list(pool: Pool, period: Period) -> AnySelect:
    return _newest_rows(pool, period).where(_on_the_list())


def newest_rows(pool: Pool, period: Period, players: Any) -> AnySelect:
    """The rows of `newest_list` of players known to be on it, found by their IDs: `players`
    is the condition on `PlayerRating.player_id` that names them (with the conditions of
    being listed beside it, SQLite would walk the ratings index)."""
    return _newest_rows(pool, period).where(players)


def _newest_rows(pool: Pool, period: Period) -> AnySelect:
    return _with_period_rows(select(*IDENTITY, *STANDING, *PERIOD_FIGURES), pool, period)


def newest_standings_columns() -> tuple[Any, ...]:
    """The columns of `newest_standings` with its rows: identity, standing, the period first
    listed, `PERIOD_ROW`."""
    return (*IDENTITY, *STANDING, PlayerRating.first_list, *PERIOD_ROW)


def newest_standings(pool: Pool, period: Period) -> AnySelect:
    """The players of the newest list (`period`'s) in no order, as `newest_list` finds them:
    identity, standing, the period first listed and the `PERIOD_ROW` of each (None without
    a row in it): `newest_standings_columns`."""
    statement = select(*newest_standings_columns())
    return _with_period_rows(statement, pool, period).where(_on_the_list())


def newest_in_list_order(pool: Pool, period: Period) -> AnySelect:
    """`newest_standings` with their rows, best first: rating, then name and ID, as
    `best_first` orders them (the whole newest list in the order it is written). Ordered
    by the rating negated, which no index serves: SQLite then reads the list whole and
    sorts it, rather than walk the ratings index and search each player's row
    (`docs/performance.md`)."""
    standings = newest_standings(pool, period).subquery()
    return select(standings).order_by(-standings.c.rating, standings.c.name, standings.c.id)


def places_before(pool: Pool, newest: Period) -> AnySelect:
    """Each position on the list before the newest (`newest`'s), as (player ID, place),
    by ID: the places 1, 2, 3, ... in list order. Of the newest list's standings, those
    without a row in `newest` had the rating they have now if they were listed before it,
    the others the rating their row keeps from before (None: new); the players taken off
    the list in `newest` (`off_list_rows`) had theirs."""
    standings = newest_standings(pool, newest).subquery()
    kept = and_(standings.c.games.is_(None), standings.c.first_list < newest)
    rating = case(
        (kept, standings.c.rating),
        (standings.c.games.is_not(None), standings.c.previous_rating),
    )
    listed = select(standings.c.id, standings.c.name, rating.label("rating")).where(
        rating.is_not(None)
    )
    off_list = off_list_rows(pool, newest).where(ListEntry.previous_rating.is_not(None))
    rows = union_all(listed, off_list).subquery()
    order = (rows.c.rating.desc(), rows.c.name, rows.c.id)
    place = func.row_number().over(order_by=order)
    return select(rows.c.id, place).order_by(rows.c.id)


def _with_period_rows(columns: AnySelect, pool: Pool, period: Period) -> AnySelect:
    """`columns` of the standings of `pool`, each with its player and its row of `period`
    (None where it has none)."""
    return (
        columns.join(Player, Player.id == PlayerRating.player_id)
        .outerjoin(ListEntry, _in_period(pool, period))
        .where(PlayerRating.pool == pool)
    )


def off_list_rows(pool: Pool, period: Period) -> AnySelect:
    """The list rows of `period` of the players not on its list (who lost their rating in
    it): each with the player's name and the rating on the list before. Found from their
    standings, a few of the pool's, not from the period's rows, which may be a million."""
    off_list = select(PlayerRating.player_id).where(PlayerRating.pool == pool, ~_on_the_list())
    return (
        select(ListEntry.player_id, Player.name, ListEntry.previous_rating)
        .join(Player, Player.id == ListEntry.player_id)
        .where(
            ListEntry.pool == pool,
            ListEntry.period == period,
            ListEntry.player_id.in_(off_list),
        )
    )


def _in_period(pool: Pool, period: Period) -> ColumnElement[bool]:
    """SQL: the list row of the standing's player in `period`."""
    return (
        (ListEntry.pool == pool)
        & (ListEntry.player_id == PlayerRating.player_id)
        & (ListEntry.period == period)
    )


def _on_the_list() -> ColumnElement[bool]:
    """SQL: the standing is on the newest list: a rating, and the list that first carried
    it."""
    return and_(PlayerRating.rating.is_not(None), PlayerRating.first_list.is_not(None))


NEWEST_COLUMNS = SimpleNamespace(
    id=Player.id,
    name=Player.name,
    federation=PlayerRating.federation,
    title=PlayerRating.title,
    rating=PlayerRating.rating,
    last_active=PlayerRating.last_active,
    sex=Player.sex,
    birth_year=Player.birth_year,
)
"""The columns a filter reads of the newest list, on the players' ratings and identity."""


def newest_list_figures(pool: Pool) -> AnySelect:
    """The rating, last active period and sex of each player on the newest list (what its
    statistics count), without the joins that give its rows their period's figures."""
    return (
        select(PlayerRating.rating, PlayerRating.last_active, Player.sex)
        .join(Player, Player.id == PlayerRating.player_id)
        .where(PlayerRating.pool == pool, _on_the_list())
    )


def newest_list_size(pool: Pool, period: Period, only: ListFilter) -> AnySelect:
    """How many rows of the newest list pass `only`, counted on the players' ratings alone
    (and their identity when the filter asks for sex or birth year): each player has one
    row of `newest_list`, so its joins need not be made to count them."""
    return _on_ratings(select(func.count()).select_from(PlayerRating), pool, period, only)


def newest_list_counts(pool: Pool, period: Period, only: ListFilter) -> AnySelect:
    """The rows of the newest list that pass `only`, counted by rating (as the size)."""
    counted = select(PlayerRating.rating, func.count()).select_from(PlayerRating)
    return _on_ratings(counted, pool, period, only).group_by(PlayerRating.rating)


def before_newest_counts(
    pool: Pool, newest: Period, only: ListFilter
) -> tuple[AnySelect, AnySelect]:
    """What turns the newest list (`newest`'s) into the list before it, for the rows that
    pass `only` there, counted by rating: the newest list's rows of the players with a row
    in `newest` (to take out: the others had the same standing before), and their rows in
    force before it (to put in)."""
    period = cadence.previous_list_period(pool, newest)
    changed = select(ListEntry.player_id).where(ListEntry.pool == pool, ListEntry.period == newest)
    counted = select(PlayerRating.rating, func.count()).select_from(PlayerRating)
    changed_now = _on_ratings(counted, pool, period, only).where(
        PlayerRating.player_id.in_(changed)
    )
    before = list_in_force(pool, period, changed).subquery()
    rows_before = select(before.c.rating, func.count()).where(*only.conditions(before.c, period))
    return changed_now.group_by(PlayerRating.rating), rows_before.group_by(before.c.rating)


def _on_ratings(statement: AnySelect, pool: Pool, period: Period, only: ListFilter) -> AnySelect:
    passing = only.conditions(NEWEST_COLUMNS, period)
    if any(Player.__table__ in find_tables(each, check_columns=True) for each in passing):
        statement = statement.join(Player, Player.id == PlayerRating.player_id)
    return statement.where(
        PlayerRating.pool == pool,
        PlayerRating.rating.is_not(None),
        PlayerRating.first_list.is_not(None),
        *passing,
    )


def newest_ties(pool: Pool, period: Period, only: ListFilter, ratings: list[int]) -> AnySelect:
    """The players of the newest list that pass `only` rated each of `ratings`: rating and
    ID, in list order (the ties a position among equal ratings is read from)."""
    return (
        select(PlayerRating.rating, Player.id)
        .join(Player, Player.id == PlayerRating.player_id)
        .where(
            PlayerRating.pool == pool,
            PlayerRating.first_list.is_not(None),
            PlayerRating.rating.in_(ratings),
            *only.conditions(NEWEST_COLUMNS, period),
        )
        .order_by(PlayerRating.rating.desc(), Player.name, Player.id)
    )


def ties_before_newest(
    pool: Pool, newest: Period, ratings: list[int]
) -> CompoundSelect[*tuple[Any, ...]]:
    """The players of the list before the newest (`newest`'s) rated each of `ratings`:
    rating, name and ID, unordered. A player without a row in the newest period had the
    rating they have now; the others' rows there keep the rating before (None: new)."""
    in_newest = (ListEntry.pool == pool, ListEntry.period == newest)
    changed = select(ListEntry.player_id).where(
        *in_newest, ListEntry.player_id == PlayerRating.player_id
    )
    unchanged = (
        select(PlayerRating.rating, Player.name, Player.id)
        .join(Player, Player.id == PlayerRating.player_id)
        .where(
            PlayerRating.pool == pool,
            PlayerRating.first_list.is_not(None),
            PlayerRating.rating.in_(ratings),
            ~changed.exists(),
        )
    )
    rated_before = (
        select(ListEntry.previous_rating, Player.name, Player.id)
        .join(Player, Player.id == ListEntry.player_id)
        .where(*in_newest, ListEntry.previous_rating.in_(ratings))
    )
    return unchanged.union_all(rated_before)


def older_list(pool: Pool, period: Period) -> tuple[AnySelect, AnySelect]:
    """The list in force at an older period, in two parts: the players whose standing has
    not changed since (read from today's standing and its indexes), and those with a list
    row after it (their newest row up to the period). The second part follows the activity
    since the period, not the length of the list or of the history."""
    changed = changed_since(pool, period)
    later = aliased(ListEntry)
    changed_later = select(later.player_id).where(
        later.pool == pool, later.player_id == PlayerRating.player_id, later.period > period
    )
    unchanged = newest_list(pool, period).where(listed_by(period), ~changed_later.exists())
    return unchanged, list_in_force(pool, period, changed)


def listed_by(period: Period) -> Any:
    """First listed at or before `period`. Written so that no index on first_list serves it:
    SQLite would range over that index and sort, where walking the ratings lets --top stop
    after a few rows."""
    never = literal(Period(9999, 12), PeriodType())
    return func.coalesce(PlayerRating.first_list, never) <= literal(period, PeriodType())


def changed_since(pool: Pool, period: Period) -> Any:
    return select(ListEntry.player_id).where(ListEntry.pool == pool, ListEntry.period > period)


def list_in_force(pool: Pool, period: Period, players: Any = None) -> AnySelect:
    """Each player's newest list row at or before `period` (of `players`, if given)."""
    newest_rows = select(ListEntry.player_id, func.max(ListEntry.period).label("period")).where(
        ListEntry.pool == pool, ListEntry.period <= period
    )
    if players is not None:
        newest_rows = newest_rows.where(ListEntry.player_id.in_(players))
    latest = newest_rows.group_by(ListEntry.player_id).subquery()
    return (
        select(
            *IDENTITY,
            ListEntry.federation,
            ListEntry.title,
            ListEntry.rating,
            ListEntry.games_completed,
            ListEntry.ever_2400,
            ListEntry.peak,
            ListEntry.peak_period,
            ListEntry.last_active,
            *PERIOD_FIGURES,
        )
        .join(
            latest,
            (ListEntry.player_id == latest.c.player_id) & (ListEntry.period == latest.c.period),
        )
        .join(Player, Player.id == ListEntry.player_id)
        .where(ListEntry.pool == pool, ListEntry.listed)
    )


def best_first(
    statement: AnySelect, only: ListFilter, period: Period, top: int | None
) -> AnySelect:
    """The rows that pass the filter, best first (the first `top`)."""
    columns = statement.selected_columns
    return (
        statement.where(*only.conditions(columns, period))
        .order_by(columns.rating.desc(), columns.name, columns.id)
        .limit(top)
    )


def list_statement(
    pool: Pool, period: Period, *, is_newest: bool
) -> AnySelect | CompoundSelect[*tuple[Any, ...]]:
    """Every row of a published list: identity, rating, standing and the period's figures."""
    if is_newest:
        return newest_list(pool, period)
    return union_all(*older_list(pool, period))
