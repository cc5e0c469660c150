"""The published lists as `ledger.queries.lists.ranking` reads them: the newest list from the
players' current standing, with an index on rating, so `list --top 10` does not depend on the
length of the history; an older one as today's standing corrected by the players changed
since (`ledger.queries.lists.older`). The list in force at a period is, for each player,
their newest list row at or before it (see `ledger.storage.models`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.core import cadence
from ledger.core.domain import Period, Pool
from ledger.queries.filters import EVERYONE, ListFilter
from ledger.queries.lists import ranking
from ledger.queries.lists.counts import (
    KeptCounts,
    RatingCounts,
    above_counter,
    grouped,
    kept_or_read,
)
from ledger.queries.lists.in_force import is_published, newest_published, published_period
from ledger.queries.lists.older import (
    before_newest_counter,
    changed_today,
    older_counter,
    older_rows,
    ratings_then,
)
from ledger.queries.lists.ranking import FEW_ROWS
from ledger.queries.lists.rows import RatingList, ranked
from ledger.queries.lists.sql import (
    before_newest_counts,
    best_first,
    list_statement,
    listed_by,
    newest_list,
    newest_list_counts,
    newest_rows,
    newest_ties,
    ties_before_newest,
)
from ledger.storage.batches import AnySelect, records
from ledger.storage.database import one_of
from ledger.storage.models import ListEntry, PlayerRating


def rating_list(
    session: Session,
    pool: Pool,
    period: Period | None = None,
    *,
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
    and on the whole list (`ledger.queries.lists.ranking`). A long-running reader passes the
    counts it `kept`, so that a deep page is found and ranked on them.
    """
    period, _ = published_period(session, pool, period, as_of, kept)
    only = only or EVERYONE
    now = PublishedList(session, pool, period, kept)
    rows = now.rows(only, top, skip)
    few = len(rows) <= FEW_ROWS
    before = previous_list(session, pool, period, few=few, kept=kept)
    now.count(few=few)
    places = ranking.places(rows, only, period, now, before, skip)
    return RatingList(pool, period, ranked(period, rows, places), filtered=only != EVERYONE)


class PublishedList:
    """A published list as `ledger.queries.lists.ranking` reads it: the list in force at `period`
    as today's lists give it (a period after the newest list, withdrawn by a reopen, has the
    newest list's rows). An older list reads the ratings then of the players changed since
    once (`ratings_then`), however often its rows and counts are asked for. With counts
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
        self.following = cadence.next_list_period(pool, period)
        self.before_newest = self.newest is not None and self.following == self.newest
        self.counter: Callable[[int], int] = lambda rating: 0
        self._then: dict[int, int] | None = None

    @property
    def then(self) -> dict[int, int]:
        if self._then is None:
            self._then = ratings_then(self.session, self.pool, self.period)
        return self._then

    def count(self, *, few: bool) -> None:
        """Count players above a rating from here on: for `few` ratings and without kept
        counts, an indexed count per rating asked; else on the list's counts."""
        if self.kept is not None or not few:
            self.counter = self.counts(EVERYONE).players_above
        elif self.is_newest:
            listed = (PlayerRating.pool == self.pool, PlayerRating.first_list.is_not(None))
            self.counter = above_counter(self.session, PlayerRating.rating, listed)
        elif self.before_newest:
            self.counter = before_newest_counter(self.session, self.pool, self.following)
        else:
            self.counter = older_counter(self.session, self.pool, self.period, self.then)

    def above(self, rating: int) -> int:
        return self.counter(rating)

    def counted(self, only: ListFilter) -> RatingCounts | None:
        """The list's counts within `only` where they are kept (None: read the rows)."""
        return None if self.kept is None else self.counts(only)

    def counts(self, only: ListFilter) -> RatingCounts:
        """The rows that pass `only`, counted by rating."""
        key = ("counts", self.pool, self.period, only)
        return kept_or_read(
            self.kept, self.session, key, lambda: self._counts(only), published=True
        )

    def _counts(self, only: ListFilter) -> RatingCounts:
        """The newest list on the ratings index; the list before it as the newest corrected
        by the newest period's rows (filtered: as that list's period takes the newest); an
        older one as today's standing of the players listed by then, corrected by the
        players changed since; filtered older lists as read."""
        if self.is_newest:
            statement = newest_list_counts(self.pool, self.period, only)
            return RatingCounts.of(tuple(row) for row in self.session.execute(statement))
        if only != EVERYONE and self.before_newest:
            changed_now, rows_before = before_newest_counts(self.pool, self.following, only)
            then = cadence.previous_list_period(self.pool, self.following)
            newest_counts = newest_counted_in(
                self.session, (self.pool, self.following), then, only, self.kept
            )
            return RatingCounts.of(
                [
                    *newest_counts.by_rating(),
                    *_less(self._grouped(changed_now)),
                    *self._grouped(rows_before),
                ]
            )
        if only != EVERYONE:
            listed = list_statement(self.pool, self.period, is_newest=False).subquery()
            passing = only.conditions(listed.c, self.period)
            return RatingCounts.of(grouped(self.session, listed.c.rating, passing))
        if self.before_newest:
            newest = PublishedList(self.session, self.pool, self.following, self.kept)
            in_newest = (ListEntry.pool == self.pool, ListEntry.period == self.following)
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
                *((rating, -1) for rating in changed_today(self.session, self.pool, self.period)),
                *((rating, 1) for rating in self.then.values()),
            ]
        )

    def _grouped(self, statement: AnySelect) -> list[tuple[int, int]]:
        """A statement's (rating, players) rows, those without a rating left out."""
        counted = self.session.execute(statement)
        return [(rating, players) for rating, players in counted if rating is not None]

    def tied(self, only: ListFilter, ratings: Collection[int]) -> dict[int, list[int]]:
        """The IDs of the players that pass `only` rated each of `ratings`, in list order;
        kept per rating where counts are kept."""
        if self.kept is None:
            return self._tied(only, ratings)
        kept = self.kept
        key = ("tied", self.pool, self.period, only)
        found = {
            rating: kept.peek(self.session, (*key, rating), published=True) for rating in ratings
        }
        missing = [rating for rating, ids in found.items() if ids is None]
        read = self._tied(only, missing) if missing else {}
        for rating in missing:
            found[rating] = read.get(rating, [])
            kept.keep(self.session, (*key, rating), found[rating], published=True)
        return {rating: ids for rating, ids in found.items() if ids}

    def _tied(self, only: ListFilter, ratings: Collection[int]) -> dict[int, list[int]]:
        """The ties of the newest list and of the one before it read as IDs alone (that one
        in the order of names read beside them); of others, as their rows."""
        wanted = sorted(ratings)
        listed: Iterable[Any]
        if self.is_newest:
            listed = self.session.execute(newest_ties(self.pool, self.period, only, wanted))
        elif self.before_newest and only == EVERYONE:
            named = self.session.execute(ties_before_newest(self.pool, self.following, wanted))
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
        columns of `ledger.queries.lists.sql.newest_list`."""
        if skip or (self.kept is not None and self.is_newest and top is not None):
            return self._page(only, top, skip)
        return self._best(only, top)

    def _best(self, only: ListFilter, top: int | None) -> list[Any]:
        if self.is_newest:
            statement = best_first(newest_list(self.pool, self.period), only, self.period, top)
            return records(self.session.execute(statement))
        return older_rows(self.session, self.pool, self.period, only, top, self._changed_within)

    def _page(self, only: ListFilter, top: int | None, skip: int) -> list[Any]:
        """The rows after the first `skip`: those rated from the first row's rating to the
        last's (the counts give both), less the players tied on the first before the page
        (an offset over the whole list would read and sort every row above). With counts
        kept, a page of the newest list is cut from the kept ties and read by ID."""
        counts = self.counts(only)
        page = counts.page(skip, top)
        if page is None:
            return []
        earlier = page.earlier
        if self.is_newest and self.kept is not None and top is not None:
            ratings = counts.ratings_from(page.high, page.low)
            return self._rows_of_ties(only, ratings, earlier, page.rows)
        band = only.within(page.low, page.high)
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


def newest_counted_in(
    session: Session,
    newest: tuple[Pool, Period],
    period: Period,
    only: ListFilter,
    kept: KeptCounts | None,
) -> RatingCounts:
    """The rows of the `newest` list (its pool and period) that pass `only` as the list of
    `period` takes them, counted by rating: the newest list's own counts where the filter
    does not read the period; else counted in `period`, kept while no change alters the
    lists."""
    pool, newest_period = newest
    if not only.reads_period:
        return PublishedList(session, pool, newest_period, kept).counts(only)
    statement = newest_list_counts(pool, period, only)
    return kept_or_read(
        kept,
        session,
        ("newest counted in", pool, period, only),
        lambda: RatingCounts.of(tuple(row) for row in session.execute(statement)),
        published=True,
    )


def _less(counted: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(rating, -players) for rating, players in counted]


def previous_list(
    session: Session, pool: Pool, period: Period, *, few: bool, kept: KeptCounts | None = None
) -> PublishedList | None:
    """The list before `period`'s, if one was published, counting from here on."""
    earlier = cadence.previous_list_period(pool, period)
    key = ("published", pool, earlier)
    published = kept_or_read(
        kept, session, key, lambda: is_published(session, pool, earlier), published=True
    )
    if not published:
        return None
    before = PublishedList(session, pool, earlier, kept)
    before.count(few=few)
    return before
