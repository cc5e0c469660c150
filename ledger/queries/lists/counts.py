"""How many players a list holds at each rating: one grouped read of a rating column, from
which the players above any rating, the size of any tie and the rating at any position
follow in memory. A deep page of a million-row list is then found and ranked without
counting the rows above it (a count over an index reads every entry it counts).

`KeptCounts` keeps such counts, and the order of tied players, between the requests of a
long-running reader (the web site) while the ledger does not change: every change is
logged, so the newest logged change names the ledger's state, and what was counted under
it stays true; what is counted of the published lists alone stays true until the newest
change that may alter them (`ledger.queries.log.last_list_change`).
"""

from __future__ import annotations

import bisect
import threading
from array import array
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger.queries.log import last_change, last_list_change

T = TypeVar("T")


class Page(NamedTuple):
    """Where a page of a list counted by rating lies: its `rows` are rated from `high` down
    to `low`, after the first `earlier` of the players rated `high`."""

    high: int
    low: int
    earlier: int
    rows: int


@dataclass(frozen=True, slots=True)
class RatingCounts:
    """A list's players counted by rating: `ratings` best first, `above[i]` the players
    rated above `ratings[i]` and `tied[i]` those rated exactly it. Held as arrays of machine
    integers, a quarter of the memory of tuples of Python's (a long-running reader keeps
    a thousand of them: `docs/performance.md`)."""

    ratings: Sequence[int]
    above: Sequence[int]
    tied: Sequence[int]
    negated: Sequence[int]
    """The ratings negated, in ascending order for a binary search."""

    @classmethod
    def of(cls, counted: Iterable[tuple[int, int]]) -> RatingCounts:
        """From (rating, players) pairs, in any order; ratings may repeat (their players
        add up) and counts may be negative (a correction), as long as the sum is not."""
        by_rating: dict[int, int] = {}
        for rating, players in counted:
            by_rating[rating] = by_rating.get(rating, 0) + players
        ratings = sorted((rating for rating, n in by_rating.items() if n), reverse=True)
        tied = [by_rating[rating] for rating in ratings]
        above, total = [], 0
        for players in tied:
            above.append(total)
            total += players
        return cls(
            ratings=array("q", ratings),
            above=array("q", above),
            tied=array("q", tied),
            negated=array("q", (-rating for rating in ratings)),
        )

    @property
    def size(self) -> int:
        return self.above[-1] + self.tied[-1] if self.ratings else 0

    def by_rating(self) -> list[tuple[int, int]]:
        """(rating, players) pairs, best first: what `of` reads."""
        return list(zip(self.ratings, self.tied, strict=True))

    def players_above(self, rating: int) -> int:
        """How many players are rated above `rating`."""
        index = self._index(rating)
        return self.above[index] if index < len(self.ratings) else self.size

    def players_at(self, rating: int) -> int:
        index = self._index(rating)
        found = index < len(self.ratings) and self.ratings[index] == rating
        return self.tied[index] if found else 0

    def ratings_from(self, high: int, low: int) -> Sequence[int]:
        """The ratings held from `high` down to `low`, best first."""
        return self.ratings[self._index(high) : self._index(low - 1)]

    def rating_at(self, index: int) -> int | None:
        """The rating of the row at `index` (0: the first) in list order; None past the end."""
        if not 0 <= index < self.size:
            return None
        return self.ratings[bisect.bisect_right(self.above, index) - 1]

    def page(self, skip: int, top: int | None) -> Page | None:
        """Where the `top` rows after the first `skip` lie (None: past the end)."""
        end = self.size if top is None else min(self.size, skip + top)
        high, low = self.rating_at(skip), self.rating_at(end - 1)
        if high is None or low is None:
            return None
        return Page(high, low, skip - self.players_above(high), end - skip)

    def _index(self, rating: int) -> int:
        """The index of the first rating at or below `rating`."""
        return bisect.bisect_left(self.negated, -rating)


def grouped(session: Session, column: Any, conditions: Iterable[Any]) -> list[tuple[int, int]]:
    """The rows meeting `conditions` counted by the rating in `column` (one grouped read)."""
    statement = (
        select(column, func.count()).where(*conditions, column.is_not(None)).group_by(column)
    )
    return [(rating, players) for rating, players in session.execute(statement)]


def kept_or_read(
    kept: KeptCounts | None,
    session: Session,
    key: Hashable,
    read: Callable[[], T],
    *,
    large: bool = False,
    published: bool = False,
) -> T:
    """What `read` gives: kept for `key` while the ledger does not change (`published`:
    while no change alters the published lists), if `kept` (a long-running reader's); else
    read. `large`: see `KeptCounts.get`."""
    if kept is None:
        return read()
    return kept.get(session, key, read, large=large, published=published)


KEPT = 1024
"""At most this many counts and ties are kept (a tie of a million-row list holds about a
thousand players)."""
KEPT_LARGE = 6
"""At most this many large things are kept beside them (a pool's live standings)."""


def state_of(session: Session, *, published: bool) -> int:
    """The ledger's state that what is kept depends on: its newest change that may have
    altered the published lists (`published`: what is drawn from them alone), else its
    newest change of any kind."""
    return last_list_change(session) if published else last_change(session)


class KeptCounts:
    """What a long-running reader has read of the ledger (counts and ties of its lists, their
    sizes and versions, the live list's standings), kept while the ledger's state does not
    change: what is drawn from the published lists alone while no change alters them (games
    recorded in an open period leave them as they were), anything else while the ledger
    does not change at all (`state_of`). What was kept under an earlier state is let go as
    soon as a newer one is seen; at most `most` things are kept of each kind (and
    `most_large` large ones apart, so that the many small ones a long list reads never
    push them out), the least recently used going first. Safe to share between the
    threads of a server: a thing that several threads ask for at once is read by the
    first, and the others wait for it rather than read it again."""

    def __init__(self, most: int = KEPT, most_large: int = KEPT_LARGE) -> None:
        self._most = {False: most, True: most_large}
        self._kept: dict[tuple[bool, bool], OrderedDict[Hashable, Any]] = {
            (published, large): OrderedDict()
            for published in (False, True)
            for large in (False, True)
        }
        self._newest = {False: 0, True: 0}
        self._lock = threading.Lock()
        self._reading: dict[Hashable, threading.Lock] = {}

    def get(
        self,
        session: Session,
        key: Hashable,
        read: Callable[[], T],
        *,
        large: bool = False,
        published: bool = False,
    ) -> T:
        """What `read` gives for `key` on the ledger as `session` sees it: read once."""
        found: T | None = self.peek(session, key, large=large, published=published)
        if found is not None:
            return found
        state = (published, state_of(session, published=published), key)
        with self._lock:
            reading = self._reading.setdefault(state, threading.Lock())
        try:
            with reading:
                found = self.peek(session, key, large=large, published=published)
                if found is None:
                    found = read()
                    self.keep(session, key, found, large=large, published=published)
        finally:
            with self._lock:
                self._reading.pop(state, None)
        return found

    def peek(
        self, session: Session, key: Hashable, *, large: bool = False, published: bool = False
    ) -> Any:
        """What is kept for `key` on the ledger as `session` sees it (None: nothing)."""
        state = (state_of(session, published=published), key)
        kept = self._kept[published, large]
        with self._lock:
            if state not in kept:
                return None
            kept.move_to_end(state)
            return kept[state]

    def keep(
        self,
        session: Session,
        key: Hashable,
        value: object,
        *,
        large: bool = False,
        published: bool = False,
    ) -> None:
        change = state_of(session, published=published)
        with self._lock:
            if change < self._newest[published]:
                return
            if change > self._newest[published]:
                for size in (False, True):
                    self._kept[published, size].clear()
                self._newest[published] = change
            kept = self._kept[published, large]
            kept[(change, key)] = value
            while len(kept) > self._most[large]:
                kept.popitem(last=False)


def above_counter(
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
