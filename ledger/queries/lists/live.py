"""The live rating list: the newest published list plus every game recorded since, rated as
the coming closes would rate them. Unofficial, as the live-rating sites are.

Each open period with games is rated in turn, from the ratings the one before would give,
with the rules of `ledger.core.rules` as the close applies them: per game the expected scores
of table 8.1.2 with the rule of 400, per player K from 8.3.3 with the 700 cap and one rounding
(8.3.4), the floor (7.1.4), and a first rating once the games pooled under 8.2 suffice
(`ledger.queries.pooling`; games of an open period pool with the opponents' ratings in force).
Starting ratings no list has carried yet join it. A player shows the federation and title of
the newest list. Ranks and movement are against the newest list.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select, union
from sqlalchemy.orm import Session

from ledger.core import cadence, rules
from ledger.core.domain import Period, Pool
from ledger.core.errors import Hint, NotFound
from ledger.queries.filters import EVERYONE, ListFilter
from ledger.queries.lists import ranking
from ledger.queries.lists.counts import KeptCounts, RatingCounts, above, kept_or_read
from ledger.queries.lists.published import PublishedList, newest_counted_in
from ledger.queries.lists.ranking import FEW_ROWS
from ledger.queries.lists.rows import RatingList, ranked
from ledger.queries.lists.sql import (
    best_first,
    newest_list,
    newest_list_counts,
    newest_list_size,
)
from ledger.queries.pooling import first_rating
from ledger.storage.batches import AnySelect, records
from ledger.storage.models import Game, Player, PlayerRating
from ledger.storage.periods import newest_closed_period


@dataclass
class LiveRow:
    """A player's row on the live list, in the columns of `ledger.queries.lists.sql`: the
    standing the coming closes would give, and its figures since the newest list."""

    id: int
    name: str
    sex: str | None
    birth_year: int | None
    federation: str | None
    title: str | None
    rating: int | None
    games_completed: int
    ever_2400: bool
    peak: int
    peak_period: Period | None
    last_active: Period | None
    listed_rating: int | None
    """The rating on the newest list (None: not on it)."""
    start_rating: int | None
    """The rating the games since are rated from: the newest list's, or a starting one."""
    period: Period | None = None
    previous_rating: int | None = None
    change: int | None = None
    games: int = 0
    k_applied: int | None = None
    k_next: int | None = None
    rated_games: list[rules.RatedGame] = field(default_factory=list)
    initial_games_in_period: int = 0


def live_list(
    session: Session,
    pool: Pool,
    *,
    top: int | None = None,
    only: ListFilter | None = None,
    skip: int = 0,
    kept: KeptCounts | None = None,
) -> RatingList:
    """The live list, best first (the `top` rows after `skip`): the newest list with the
    games recorded since rated. A long-running reader passes what it `kept`: the games
    since are then rated once for each state of the ledger, not for every page."""
    only = only or EVERYONE
    now = _live(session, pool, kept)
    newest, period = now.newest, now.period
    rows = now.page(only, top, skip)
    few = len(rows) <= FEW_ROWS
    before = PublishedList(session, pool, newest, kept)
    before.count(few=few)
    now.counter = before.above
    places = ranking.places(rows, only, period, now, before, skip)
    return RatingList(
        pool, period, ranked(period, rows, places), filtered=only != EVERYONE, live_since=newest
    )


def live_list_size(
    session: Session, pool: Pool, only: ListFilter, kept: KeptCounts | None = None
) -> int:
    """How many rows the live list has within `only`: the newest list's players who have
    not played since, counted on their ratings, and the rows the games since change."""
    now = _live(session, pool, kept)
    if kept is not None:
        return now.counts(only).size
    unchanged = newest_list_size(pool, now.period, only).where(
        PlayerRating.player_id.not_in(now.playing)
    )
    return (session.scalar(unchanged) or 0) + len(now.changed_rows(only))


def _live(session: Session, pool: Pool, kept: KeptCounts | None) -> _LiveList:
    """The live list of `pool`: the newest list, and the games since rated (once for each
    state of the ledger, where a long-running reader `kept` them)."""
    newest = newest_closed_period(session, pool)
    if newest is None:
        raise NotFound(f"no {pool} list has been published yet.", Hint.CLOSE_A_PERIOD, pool=pool)
    periods = list(
        session.scalars(
            select(Game.period)
            .where(Game.pool == pool, Game.period > newest)
            .distinct()
            .order_by(Game.period)
        )
    )
    period = periods[-1] if periods else cadence.next_list_period(pool, newest)
    changed = kept_or_read(
        kept,
        session,
        ("live", pool),
        lambda: _rated_since(session, pool, newest, period, periods),
        large=True,
    )
    return _LiveList(session, pool, (newest, period), changed, _playing_since(pool, newest), kept)


class _LiveList:
    """The live list as `ledger.queries.lists.ranking` reads it: the newest list, with the rows of
    the players the games since change. Where a long-running reader keeps counts, it is
    counted by rating (`counts`), and a page is found on the counts however deep it lies."""

    def __init__(
        self,
        session: Session,
        pool: Pool,
        periods: tuple[Period, Period],
        changed: dict[int, LiveRow],
        playing: AnySelect,
        kept: KeptCounts | None,
    ) -> None:
        self.session = session
        self.pool = pool
        self.newest, self.period = periods
        self.changed = changed
        self.playing = playing
        self.kept = kept
        self.counter: Callable[[int], int] = lambda rating: 0
        listed = [row for row in changed.values() if row.rating is not None]
        self.ratings_now = sorted(row.rating for row in listed if row.rating is not None)
        self.ratings_then = sorted(
            row.listed_rating for row in changed.values() if row.listed_rating is not None
        )

    def above(self, rating: int) -> int:
        """The players the live list has above `rating`: the newest list's, with the
        changed players' ratings then taken out and their live ratings put in."""
        return (
            self.counter(rating)
            - above(self.ratings_then, rating)
            + above(self.ratings_now, rating)
        )

    def counted(self, only: ListFilter) -> RatingCounts | None:
        """Counted by rating where counts are kept; else ranked on its rows."""
        return None if self.kept is None else self.counts(only)

    def counts(self, only: ListFilter) -> RatingCounts:
        """The rows that pass `only`, counted by rating: the newest list's as the live
        period's filter takes them (`newest_counted_in`), less the rows there of the players
        who have played since, plus their live rows."""
        unchanged = newest_list_counts(self.pool, self.period, only)
        newest = newest_counted_in(
            self.session, (self.pool, self.newest), self.period, only, self.kept
        )
        played = unchanged.where(PlayerRating.player_id.in_(self.playing))

        def counted() -> RatingCounts:
            return RatingCounts.of(
                [
                    *newest.by_rating(),
                    *((rating, -players) for rating, players in self.session.execute(played)),
                    *((row.rating, 1) for row in self.changed_rows(only) if row.rating is not None),
                ]
            )

        return kept_or_read(self.kept, self.session, ("live counts", self.pool, only), counted)

    def changed_rows(self, only: ListFilter) -> list[LiveRow]:
        """The rows of the players the games since change that are on the live list and
        pass `only`."""
        return [
            row
            for row in self.changed.values()
            if row.rating is not None and only.admits(row, self.period)
        ]

    def tied(self, only: ListFilter, ratings: Collection[int]) -> dict[int, list[int]]:
        return ranking.tied_in_rows(self, only, ratings)

    def page(self, only: ListFilter, top: int | None, skip: int) -> list[Any]:
        """The rows that pass `only`, best first, the first `top` after `skip`. With counts
        kept, the rows rated from the first row's rating to the last's are read, less the
        players tied on the first before the page (not every row above it)."""
        if self.kept is None or not skip:
            return list(self.rows(only, None if top is None else skip + top)[skip:])
        page = self.counts(only).page(skip, top)
        if page is None:
            return []
        band = self.rows(only.within(page.low, page.high), None)
        return band[page.earlier : page.earlier + page.rows]

    def rows(self, only: ListFilter, top: int | None) -> list[Any]:
        unchanged = newest_list(self.pool, self.period).where(
            PlayerRating.player_id.not_in(self.playing)
        )
        rows: list[Any] = records(
            self.session.execute(best_first(unchanged, only, self.period, top))
        )
        rows += self.changed_rows(only)
        rows.sort(key=lambda row: (-row.rating, row.name, row.id))
        return rows[:top]


def _playing_since(pool: Pool, newest: Period) -> AnySelect:
    """SQL for the players with a game after the newest list."""
    after = (Game.pool == pool) & (Game.period > newest)
    players = (
        select(Game.white_id.label("id")).where(after).union(select(Game.black_id).where(after))
    )
    return select(players.subquery().c.id)


def _rated_since(
    session: Session, pool: Pool, newest: Period, period: Period, periods: Sequence[Period]
) -> dict[int, LiveRow]:
    """The players the games since the newest list change, and the starting ratings that
    join it, as the coming closes would publish them on the live list of `period`."""
    rows = _standings(session, pool, newest)
    for each in periods:
        _rate_period(session, pool, newest, each, rows)
    for row in rows.values():
        if row.listed_rating is None and row.period is None and row.rating is not None:
            state = rules.RatingState.of(row)
            _publish(row, period, state, games=0, k_applied=None, played=False)
        if row.period is not None:
            row.period = period  # its figures are those of the live list
    return rows


def _standings(session: Session, pool: Pool, newest: Period) -> dict[int, LiveRow]:
    """Every player with a game after the newest list, and every starting rating no list
    has carried yet, with their standing on the newest list: found by their IDs (the two
    sets apart, each on its index, rather than every player tested for either)."""
    pending = select(PlayerRating.player_id).where(
        PlayerRating.pool == pool,
        PlayerRating.first_list.is_(None),
        PlayerRating.rating.is_not(None),
    )
    wanted = union(_playing_since(pool, newest), pending).subquery()
    statement = (
        select(
            Player.id,
            Player.name,
            Player.sex,
            Player.birth_year,
            func.coalesce(PlayerRating.federation, Player.federation).label("federation"),
            func.coalesce(PlayerRating.title, Player.title).label("title"),
            PlayerRating.rating,
            func.coalesce(PlayerRating.games_completed, 0).label("games_completed"),
            func.coalesce(PlayerRating.ever_2400, False).label("ever_2400"),
            func.coalesce(PlayerRating.peak, 0).label("peak"),
            PlayerRating.peak_period,
            PlayerRating.last_active,
            PlayerRating.first_list,
        )
        .outerjoin(
            PlayerRating, (PlayerRating.player_id == Player.id) & (PlayerRating.pool == pool)
        )
        .where(Player.id.in_(select(wanted.c[0])))
    )
    rows = {}
    for row in session.execute(statement):
        standing = dict(row._mapping)
        first_list = standing.pop("first_list")
        rows[row.id] = LiveRow(
            **standing,
            listed_rating=row.rating if first_list is not None else None,
            start_rating=row.rating,
        )
    return rows


def _rate_period(
    session: Session, pool: Pool, newest: Period, period: Period, rows: dict[int, LiveRow]
) -> None:
    """Rate one open period's games as its close would, from the rows' standings."""
    initial: dict[int, int] = {}
    pairings = rules.PeriodPairings.of(pool, period)
    statement = select(Game.white_id, Game.black_id, Game.result, Game.rated, Game.event_id).where(
        Game.pool == pool, Game.period == period
    )
    if pairings.cap_once_per_event:  # the first of equal differences takes the cap
        statement = statement.order_by(Game.id)
    games = session.execute(statement)
    rated = []
    for white_id, black_id, result, is_rated, event in games:
        white, black = rows[white_id], rows[black_id]
        if not (result.is_played and is_rated):
            continue
        if white.rating is None or black.rating is None:
            for side, opponent in ((white, black), (black, white)):
                if side.rating is None and opponent.rating is not None:
                    initial[side.id] = initial.get(side.id, 0) + 1
            continue
        game = rules.PairedGame(white_id, black_id, event, white.rating, black.rating)
        rated.append((game, result))
    paired = [game for game, _ in rated]
    for (game, result), expected in zip(
        rated, rules.period_expected_scores(pairings, paired), strict=True
    ):
        if expected is not None:
            for player, pd, is_white in (
                (game.white, expected[0], True),
                (game.black, expected[1], False),
            ):
                score = result.score(white=is_white)
                rows[player].rated_games.append(rules.RatedGame(score, pd))
    for row in rows.values():
        if row.rated_games:
            _rate(row, period)
        elif row.id in initial:
            _first_rating(session, pool, newest, period, row, initial[row.id])


def _rate(row: LiveRow, period: Period) -> None:
    """8.3: the period's change from the row's standing."""
    outcome = rules.rate_period(rules.RatingState.of(row), period, row.rated_games)
    _publish(row, period, outcome.state, games=outcome.games, k_applied=outcome.k_applied)
    row.rated_games = []


def _first_rating(
    session: Session, pool: Pool, newest: Period, period: Period, row: LiveRow, played: int
) -> None:
    """8.2: a first rating once the games pooled up to `period` suffice."""
    pooled = first_rating(session, pool, row.id, period, newest)
    if pooled.rating is None:
        return
    state = rules.state_after(
        pooled.rating,
        games_completed=pooled.counted,
        ever_2400=row.ever_2400,
        peak=row.peak,
        birth_year=row.birth_year,
    )
    _publish(row, period, state, games=played, k_applied=None)


def _publish(
    row: LiveRow,
    period: Period,
    state: rules.RatingState,
    *,
    games: int,
    k_applied: int | None,
    played: bool = True,
) -> None:
    """The row's standing after `period` (`rules.standing_after`), and its figures since the
    newest list (a starting rating joins it unplayed, active from it as at a close)."""
    new = rules.standing_after(
        state,
        period,
        peak_before=row.peak,
        peak_period_before=row.peak_period,
        last_active=period if played else row.last_active or period,
    )
    row.rating = new.rating if new.listed else None
    row.games_completed = new.games_completed
    row.ever_2400 = new.ever_2400
    row.peak = new.peak
    row.peak_period = new.peak_period
    row.last_active = new.last_active
    row.period = period
    row.games += games
    row.k_applied = k_applied
    row.previous_rating = row.listed_rating
    row.change = (
        None if row.start_rating is None or row.rating is None else row.rating - row.start_rating
    )
    row.k_next = new.k_next
