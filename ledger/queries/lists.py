"""The read side: published rating lists as plain frozen data. Queries never commit.

The list in force at a period is, for each player, their newest list row at or before it
(see `ledger.storage.models`). The newest list is read from the players' current standing instead,
with an index on rating, so `list --top 10` does not depend on the length of the history.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import CompoundSelect, func, select, union_all
from sqlalchemy.orm import Session

from ledger.core import rules
from ledger.core.domain import Period, Pool
from ledger.core.errors import Hint, NotFound
from ledger.queries import ranking
from ledger.queries.filters import EVERYONE, ListFilter
from ledger.queries.list_sql import (
    before_newest_counts,
    changed_since,
    list_in_force,
    listed_by,
    newest_list,
    newest_list_counts,
    newest_rows,
    newest_ties,
    older_list,
    ties_before_newest,
)
from ledger.queries.ranking import FEW_ROWS
from ledger.queries.rating_counts import KeptCounts, RatingCounts, grouped, kept_or_read
from ledger.storage.batches import AnySelect, batched, records
from ledger.storage.database import one_of
from ledger.storage.models import ListEntry, PlayerRating, RatingPeriod
from ledger.storage.periods import newest_closed_period


@dataclass(frozen=True, slots=True)
class ListRow:
    """One player's row on a published list.

    `games` counts the rated games of the list's period, `k_applied` is the K they were
    rated with (after the 700 cap; None without games), `k` the K in force for the next
    period, `change` the difference to the previous list (None when newly rated). The
    places (`ledger.queries.ranking`): `rank` shared by equal ratings and `position` in list
    order, within the list shown (a filtered one too), `world_rank` and `world_position` on
    the whole list, `movement` and `world_movement` the positions gained since the previous
    list (None: not on it, or not within the filter there).
    """

    rank: int
    position: int
    id: int
    name: str
    federation: str | None
    sex: str | None
    title: str | None
    birth_year: int | None
    rating: int
    change: int | None
    games: int
    k: int
    k_applied: int | None
    flag: str
    world_rank: int
    world_position: int
    movement: int | None
    world_movement: int | None
    peak: int
    peak_period: Period | None


ORIGINAL = 1
"""The version a period's close published: the "original" list."""


@dataclass(frozen=True, slots=True)
class Version:
    """One publication of a period's list. `number` 1 is the original."""

    period: Period
    number: int
    published_at: dt.datetime
    stamp: int
    current: bool

    @property
    def label(self) -> str:
        kind = "original" if self.number == ORIGINAL else "revised"
        return f"version {self.number} ({kind}{', current' if self.current else ''})"


@dataclass(frozen=True, slots=True)
class RatingList:
    pool: Pool
    period: Period
    rows: list[ListRow]
    filtered: bool = False
    version: Version | None = None
    """The version shown, for a list a re-rate revised."""
    live_since: Period | None = None
    """For the live list (unofficial): the newest list, whose games since it rates."""


def rating_list(
    session: Session,
    pool: Pool,
    period: Period | None = None,
    top: int | None = None,
    only: ListFilter | None = None,
    as_of: dt.date | None = None,
    skip: int = 0,
    kept: KeptCounts | None = None,
) -> RatingList:
    """The list published by closing `period` (default: the newest; with `as_of`, the list
    in force on that day), best first, rows sorted by rating, then name; the `top` rows
    after the first `skip`.

    Equal ratings share a rank; ranks, positions and movement are those within the filter
    and on the whole list (`ledger.queries.ranking`). A long-running reader passes the
    counts it `kept`, so that a deep page is found and ranked on them.
    """
    period, _ = published_period(session, pool, period, as_of, kept)
    only = only or EVERYONE
    now = PublishedList(session, pool, period, kept)
    rows = now.rows(only, top, skip)
    few = len(rows) <= FEW_ROWS
    before = previous_list(session, pool, period, few, kept)
    now.count(few)
    places = ranking.places(rows, only, period, now, before, skip)
    return RatingList(pool, period, ranked(period, rows, places), only != EVERYONE)


class PublishedList:
    """A published list as `ledger.queries.ranking` reads it: the list in force at `period`
    as today's lists give it (a period after the newest list, withdrawn by a reopen, has the
    newest list's rows). An older list reads the ratings then of the players changed since
    once (`_ratings_then`), however often its rows and counts are asked for. With counts
    `kept`, the list is counted by rating once per state of the ledger (`counts`) and ranks
    and positions are found on those counts."""

    def __init__(
        self, session: Session, pool: Pool, period: Period, kept: KeptCounts | None = None
    ) -> None:
        self.session = session
        self.pool = pool
        self.period = period
        self.kept = kept
        self.newest = newest_published(session, pool, kept)
        self.is_newest = self.newest is None or period >= self.newest
        self.before_newest = self.newest is not None and period + 1 == self.newest
        self.counter: Callable[[int], int] = lambda rating: 0
        self._then: dict[int, int] | None = None

    @property
    def then(self) -> dict[int, int]:
        if self._then is None:
            self._then = _ratings_then(self.session, self.pool, self.period)
        return self._then

    def count(self, few: bool) -> None:
        """Count players above a rating from here on: for `few` ratings and without kept
        counts, an indexed count per rating asked; else on the list's counts."""
        if self.kept is not None or not few:
            self.counter = self.counts(EVERYONE).players_above
        elif self.is_newest:
            listed = (PlayerRating.pool == self.pool, PlayerRating.first_list.is_not(None))
            self.counter = _above_counter(self.session, PlayerRating.rating, listed)
        elif self.before_newest:
            self.counter = _before_newest(self.session, self.pool, self.period + 1)
        else:
            self.counter = _older_counter(self.session, self.pool, self.period, self.then)

    def above(self, rating: int) -> int:
        return self.counter(rating)

    def counted(self, only: ListFilter) -> RatingCounts | None:
        """The list's counts within `only` where they are kept (None: read the rows)."""
        return None if self.kept is None else self.counts(only)

    def counts(self, only: ListFilter) -> RatingCounts:
        """The rows that pass `only`, counted by rating."""
        key = ("counts", self.pool, self.period, only)
        return kept_or_read(self.kept, self.session, key, lambda: self._counts(only))

    def _counts(self, only: ListFilter) -> RatingCounts:
        """The newest list on the ratings index; the list before it as the newest corrected
        by the newest period's rows; an older one as today's standing of the players listed
        by then, corrected by the players changed since; filtered older lists as read."""
        if self.is_newest:
            statement = newest_list_counts(self.pool, self.period, only)
            return RatingCounts.of(tuple(row) for row in self.session.execute(statement))
        if only != EVERYONE and self.before_newest:
            parts = before_newest_counts(self.pool, self.period + 1, only)
            return RatingCounts.of(
                (rating, players)
                for part in parts
                for rating, players in self.session.execute(part)
                if rating is not None
            )
        if only != EVERYONE:
            listed = list_statement(self.pool, self.period, False).subquery()
            passing = only.conditions(listed.c, self.period)
            return RatingCounts.of(grouped(self.session, listed.c.rating, passing))
        if self.before_newest:
            newest = PublishedList(self.session, self.pool, self.period + 1, self.kept)
            in_newest = (ListEntry.pool == self.pool, ListEntry.period == self.period + 1)
            return RatingCounts.of(
                [
                    *newest.counts(EVERYONE).by_rating(),
                    *_less(grouped(self.session, ListEntry.rating, (*in_newest, ListEntry.listed))),
                    *grouped(self.session, ListEntry.previous_rating, in_newest),
                ]
            )
        listed_then = (PlayerRating.pool == self.pool, listed_by(self.period))
        return RatingCounts.of(
            [
                *grouped(self.session, PlayerRating.rating, listed_then),
                *((rating, -1) for rating in _changed_today(self.session, self.pool, self.period)),
                *((rating, 1) for rating in self.then.values()),
            ]
        )

    def tied(self, only: ListFilter, ratings: Collection[int]) -> dict[int, list[int]]:
        """The IDs of the players that pass `only` rated each of `ratings`, in list order;
        kept per rating where counts are kept."""
        if self.kept is None:
            return self._tied(only, ratings)
        kept = self.kept
        key = ("tied", self.pool, self.period, only)
        found = {rating: kept.peek(self.session, (*key, rating)) for rating in ratings}
        missing = [rating for rating, ids in found.items() if ids is None]
        read = self._tied(only, missing) if missing else {}
        for rating in missing:
            found[rating] = read.get(rating, [])
            kept.keep(self.session, (*key, rating), found[rating])
        return {rating: ids for rating, ids in found.items() if ids}

    def _tied(self, only: ListFilter, ratings: Collection[int]) -> dict[int, list[int]]:
        """The ties of the newest list and of the one before it read as IDs alone (that one
        in the order of names read beside them); of others, as their rows."""
        wanted = sorted(ratings)
        listed: Iterable[Any]
        if self.is_newest:
            listed = self.session.execute(newest_ties(self.pool, self.period, only, wanted))
        elif self.before_newest and only == EVERYONE:
            named = self.session.execute(ties_before_newest(self.pool, self.period + 1, wanted))
            ordered = sorted(named, key=lambda row: (-row[0], row[1], row[2]))
            listed = ((rating, player_id) for rating, _, player_id in ordered)
        else:
            return ranking.tied_in_rows(self, only, wanted)
        tied: dict[int, list[int]] = {}
        for rating, player_id in listed:
            tied.setdefault(rating, []).append(player_id)
        return tied

    def rows(self, only: ListFilter, top: int | None, skip: int = 0) -> list[Any]:
        """The rows that pass the filter, best first (the first `top` after `skip`), in the
        columns of `ledger.queries.list_sql.newest_list`."""
        if skip or (self.kept is not None and self.is_newest and top is not None):
            return self._page(only, top, skip)
        return self._best(only, top)

    def _best(self, only: ListFilter, top: int | None) -> list[Any]:
        if self.is_newest:
            statement = best_first(newest_list(self.pool, self.period), only, self.period, top)
            return records(self.session.execute(statement))
        return _older_rows(self.session, self.pool, self.period, only, top, self._changed_within)

    def _page(self, only: ListFilter, top: int | None, skip: int) -> list[Any]:
        """The rows after the first `skip`: those rated from the first row's rating to the
        last's (the counts give both), less the players tied on the first before the page
        (an offset over the whole list would read and sort every row above). With counts
        kept, a page of the newest list is cut from the kept ties and read by ID."""
        counts = self.counts(only)
        end = counts.size if top is None else min(counts.size, skip + top)
        first, last = counts.rating_at(skip), counts.rating_at(end - 1)
        if first is None or last is None:
            return []
        earlier = skip - counts.players_above(first)
        if self.is_newest and self.kept is not None and top is not None:
            return self._rows_of_ties(only, counts.ratings_from(first, last), earlier, end - skip)
        band = only.within(last, first)
        if self.is_newest:
            statement = best_first(newest_list(self.pool, self.period), band, self.period, top)
            return records(self.session.execute(statement.offset(earlier or None)))
        reach = None if top is None else earlier + top
        return self._best(band, reach)[earlier:]

    def _rows_of_ties(
        self, only: ListFilter, ratings: Sequence[int], earlier: int, count: int
    ) -> list[Any]:
        """`count` rows of the newest list after the first `earlier` tied on the first of
        `ratings` (best first), cut from those ratings' kept ties and read by ID."""
        ties = self.tied(only, ratings)
        ids = [player_id for rating in ratings for player_id in ties.get(rating, [])]
        shown = ids[earlier : earlier + count]
        place = {player_id: index for index, player_id in enumerate(shown)}
        named = one_of(self.session, PlayerRating.player_id, shown)
        rows = records(self.session.execute(newest_rows(self.pool, self.period, named)))
        return sorted(rows, key=lambda row: place[row.id])

    def _changed_within(self, low: int, high: int | None) -> list[int]:
        """The players changed since whose rating then lies from `low` to `high`. Before the
        newest list, each one's row on it keeps that rating: a read of the band on its
        index, without the ratings of all the others."""
        if self._then is None and self.before_newest:
            band = select(ListEntry.player_id).where(
                ListEntry.pool == self.pool,
                ListEntry.period == self.newest,
                ListEntry.previous_rating >= low,
            )
            if high is not None:
                band = band.where(ListEntry.previous_rating <= high)
            return list(self.session.scalars(band))
        return [
            player_id
            for player_id, rating in self.then.items()
            if rating >= low and (high is None or rating <= high)
        ]


def _less(counted: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(rating, -players) for rating, players in counted]


def previous_list(
    session: Session, pool: Pool, period: Period, few: bool, kept: KeptCounts | None = None
) -> PublishedList | None:
    """The list before `period`'s, if one was published, counting from here on."""
    earlier = period - 1
    key = ("published", pool, earlier)
    if not kept_or_read(kept, session, key, lambda: is_published(session, pool, earlier)):
        return None
    before = PublishedList(session, pool, earlier, kept)
    before.count(few)
    return before


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


Contenders = Callable[[int, int | None], list[int]]
"""The players changed since an older list whose rating on it lies in a band (low, high)."""


def _older_rows(
    session: Session,
    pool: Pool,
    period: Period,
    only: ListFilter,
    top: int | None,
    changed_within: Contenders,
) -> list[Any]:
    """An older list's rows: the best unchanged players, and the changed players who can
    still reach the first `top` and the filter's band (`changed_within`)."""
    unchanged, _ = older_list(pool, period)
    rows = records(session.execute(best_first(unchanged, only, period, top)))
    floor = rows[-1].rating if top is not None and len(rows) == top else None
    low = max(floor or only.min_rating or 0, only.min_rating or 0)
    contenders = changed_within(low, only.max_rating)
    for batch in batched(contenders):
        changed = best_first(list_in_force(pool, period, batch), only, period, top)
        rows += records(session.execute(changed))
    rows.sort(key=lambda row: (-row.rating, row.name, row.id))
    return rows[:top]


def _ratings_then(session: Session, pool: Pool, period: Period) -> dict[int, int]:
    """The ratings on the list of `period` of the players with a list row after it.

    Each one's first row after `period` keeps the rating on the list before it, which is
    the rating at `period` (nothing changed in between); None: not on that list.
    """
    first_after = (
        select(ListEntry.player_id, func.min(ListEntry.period).label("period"))
        .where(ListEntry.pool == pool, ListEntry.period > period)
        .group_by(ListEntry.player_id)
        .subquery()
    )
    rows = session.execute(
        select(ListEntry.player_id, ListEntry.previous_rating)
        .join(
            first_after,
            (ListEntry.player_id == first_after.c.player_id)
            & (ListEntry.period == first_after.c.period),
        )
        .where(ListEntry.pool == pool)
    )
    return {player_id: rating for player_id, rating in rows if rating is not None}


def published_period(
    session: Session,
    pool: Pool,
    period: Period | None = None,
    as_of: dt.date | None = None,
    kept: KeptCounts | None = None,
) -> tuple[Period, bool]:
    """The published list asked for (default: the newest), and whether it is the newest."""
    newest = newest_published(session, pool, kept)
    if newest is None:
        raise NotFound(f"no {pool} list has been published yet.", Hint.CLOSE_A_PERIOD, pool=pool)
    period = _in_force(session, pool, as_of) if as_of else period or newest
    if period != newest and not is_published(session, pool, period):
        raise NotFound(f"no {pool} list was published for period {period}; the newest is {newest}.")
    return period, period == newest


def newest_published(session: Session, pool: Pool, kept: KeptCounts | None) -> Period | None:
    """The newest closed period, kept while the ledger does not change (if `kept`)."""
    return kept_or_read(
        kept, session, ("newest", pool), lambda: newest_closed_period(session, pool)
    )


def list_statement(
    pool: Pool, period: Period, is_newest: bool
) -> AnySelect | CompoundSelect[*tuple[Any, ...]]:
    """Every row of a published list: identity, rating, standing and the period's figures."""
    if is_newest:
        return newest_list(pool, period)
    return union_all(*older_list(pool, period))


def _in_force(session: Session, pool: Pool, day: dt.date) -> Period:
    """The list in force on `day`: the newest published before it (a list closing period P
    is in force from the first day of P + 1)."""
    period = session.scalar(
        select(func.max(RatingPeriod.period)).where(
            RatingPeriod.pool == pool,
            RatingPeriod.closed_at.is_not(None),
            RatingPeriod.period <= Period.of(day) - 1,
        )
    )
    if period is None:
        raise NotFound(f"no {pool} list was in force on {day}.")
    return period


def _before_newest(session: Session, pool: Pool, newest: Period) -> Callable[[int], int]:
    """How many players the list before the newest one (`newest`'s) had above a rating,
    without reading that list: a player with no row in `newest` had the same rating; the
    others' rows keep their previous rating (None if new to the list). So the previous list
    is the current standing, corrected by the newest period's rows: three counts on indexed
    columns."""
    in_newest = (ListEntry.pool == pool, ListEntry.period == newest)
    above_now = _above_counter(
        session,
        PlayerRating.rating,
        (PlayerRating.pool == pool, PlayerRating.first_list.is_not(None)),
    )
    changed_now = _above_counter(session, ListEntry.rating, (*in_newest, ListEntry.listed))
    changed_before = _above_counter(session, ListEntry.previous_rating, in_newest)
    return lambda rating: above_now(rating) - changed_now(rating) + changed_before(rating)


def _above_counter(
    session: Session, column: Any, conditions: tuple[Any, ...]
) -> Callable[[int], int]:
    """How many rows have `column` above a value: an indexed count per value asked."""
    counted: dict[int, int] = {}

    def count(rating: int) -> int:
        if rating not in counted:
            statement = select(func.count()).where(*conditions, column > rating)
            counted[rating] = session.scalar(statement) or 0
        return counted[rating]

    return count


def above(ratings: list[int], rating: int) -> int:
    return len(ratings) - bisect.bisect_right(ratings, rating)


def _changed_today(session: Session, pool: Pool, period: Period) -> list[int]:
    """Today's ratings of the players listed by `period` with a list row since."""
    listed_by_then = (PlayerRating.pool == pool, listed_by(period))
    changed = PlayerRating.player_id.in_(changed_since(pool, period))
    ratings = session.scalars(select(PlayerRating.rating).where(*listed_by_then, changed))
    return sorted(rating for rating in ratings if rating is not None)


def _older_counter(
    session: Session, pool: Pool, period: Period, then_by_player: dict[int, int]
) -> Callable[[int], int]:
    """How many players an older list ranks above a rating: today's standing of everyone
    listed by then, corrected by the few who changed since (today's rating out, the
    rating then in)."""
    then = sorted(then_by_player.values())
    changed_today = _changed_today(session, pool, period)
    listed_by_then = (PlayerRating.pool == pool, listed_by(period))
    today = _above_counter(session, PlayerRating.rating, listed_by_then)
    return lambda rating: today(rating) - above(changed_today, rating) + above(then, rating)


def is_published(session: Session, pool: Pool, period: Period) -> bool:
    closed_at = session.scalar(
        select(RatingPeriod.closed_at).where(
            RatingPeriod.pool == pool, RatingPeriod.period == period
        )
    )
    return closed_at is not None


def ranked(period: Period, rows: Sequence[Any], places: Sequence[ranking.Places]) -> list[ListRow]:
    following = period + 1
    return [
        _list_row(period, following, row, place) for row, place in zip(rows, places, strict=True)
    ]


def _list_row(period: Period, following: Period, row: Any, place: ranking.Places) -> ListRow:
    """A row from the player's newest standing; figures of the period only if they played
    (`period_figures`; `following` is the period after it)."""
    return ListRow(
        place.rank,
        place.position,
        row.id,
        row.name,
        row.federation,
        row.sex,
        row.title,
        row.birth_year,
        row.rating,
        *period_figures(row, period, following),
        rules.list_flag(row.sex == "F", row.last_active, period),
        place.world_rank,
        place.world_position,
        place.movement,
        place.world_movement,
        row.peak,
        row.peak_period,
    )


def period_figures(
    row: Any, period: Period, following: Period
) -> tuple[int | None, int, int, int | None]:
    """A list row's change, games, K for the next period (`following`) and K applied: the
    period's own figures if the player has a row in it, else no change and K from their
    standing. (A list's rows each ask; the caller adds the month once.)"""
    if row.period == period:
        return row.change, row.games, row.k_next, row.k_applied
    rule = rules.standing_k_rule(
        row.games_completed, row.ever_2400, row.peak, row.birth_year, following
    )
    return 0, 0, rule.k, None
