"""Closing a rating period: rate every game of the period and publish the new list.

The close is set-based: one statement rates every game of the period into its per-game
figures, and another every player those figures rate, into the list's rows staged in a
temporary table, with the rules of `ledger.core.rules` in their SQL form
(`ledger.services.set_rating`). First ratings (8.2), which pool games over months, are
worked out in Python for the few players who earn one. A few statements then write the list,
the standings it replaces and the players' new standings from the staged rows. Only players
whose standing changed get a row, so the cost follows the period's games, not the size of
the list.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from contextlib import ExitStack
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, NamedTuple, cast

from sqlalchemy import (
    ColumnElement,
    Executable,
    FromClause,
    Subquery,
    Table,
    and_,
    case,
    exists,
    false,
    func,
    insert,
    literal,
    null,
    or_,
    select,
    true,
    union_all,
    update,
)
from sqlalchemy.orm import InstrumentedAttribute, Session

from ledger.core import rules
from ledger.core.domain import GameResult, Period, Pool
from ledger.core.errors import Conflict, Hint
from ledger.core.progress import NO_PROGRESS, Progress
from ledger.services import activity, list_details, set_rating
from ledger.services.activity import OS_USER, Author
from ledger.services.list_details import NO_DETAILS, Details, Shown, carried
from ledger.storage.batches import (
    AnySelect,
    Values,
    bulk_write,
    collector_paused,
    driver_rows,
    driver_rows_in,
    insert_values,
    select_in,
)
from ledger.storage.database import (
    is_postgresql,
    lock_pool,
    refresh_statistics,
    sorting_in_runs,
)
from ledger.storage.models import (
    STANDING_COLUMNS,
    Event,
    Game,
    GameRating,
    ListEntry,
    ListVersion,
    PeriodType,
    Player,
    PlayerRating,
    PriorStanding,
    RatingPeriod,
    stored_period,
)
from ledger.storage.periods import (
    is_closed,
    newest_closed_period,
    newest_version,
    refuse_before_first_list,
)
from ledger.storage.staging import (
    EXPECTED_SCORES,
    JOINING_PLAYERS,
    LIST_ROW_FIGURES,
    PERIOD_RATINGS,
    PERIOD_SCORES,
    SHOWN_DETAILS,
    STAGED_LIST_ROWS,
    counted_for_the_planner,
    staged,
)


@dataclass(frozen=True, slots=True)
class ClosedPeriod:
    """What a close published: the periods it closed (in order) and what it rated."""

    pool: Pool
    periods: list[Period]
    games_rated: int
    games_unrated: int
    players_rated: int
    newly_rated: int
    unrated_by_floor: int


Joining = Mapping[Period, AbstractSet[int]]
"""For a re-rate: the players whose starting ratings each period's list first carried."""


def close_period(
    session: Session,
    pool: Pool,
    period: Period,
    now: dt.datetime,
    author: Author = OS_USER,
    progress: Progress = NO_PROGRESS,
) -> ClosedPeriod:
    """Close `period` and every earlier empty open period, in order (FIDE 6), and log it.

    Refused if the period is closed (or before the pool's first list), has not ended by
    `now`, or an earlier open period holds games; and a pool's first close, if it would
    publish an empty list.
    """
    closed = close_through(session, pool, period, now, progress=progress)
    activity.record(session, "close", closed, author, now, pool, period)
    return closed


def close_through(
    session: Session,
    pool: Pool,
    period: Period,
    now: dt.datetime,
    joining: Joining | None = None,
    shown: Shown | None = None,
    progress: Progress = NO_PROGRESS,
) -> ClosedPeriod:
    """Close `period` and every earlier empty open period, unlogged: a re-rate closes again
    under its own log entry, and the demo is built without one.

    Every starting rating no list has carried yet joins the first list closed, except in a
    re-rate, where `joining` says which list each joined; likewise each list carries the
    federations and titles recorded (`ledger.services.list_details`), except in a re-rate,
    where `shown` says what each list showed.
    """
    lock_pool(session, pool)
    newest = newest_closed_period(session, pool)
    if is_closed(period, newest):
        refuse_before_first_list(session, pool, period)
        raise Conflict(
            f"period {period} is already closed.",
            Hint.CORRECT_OR_REOPEN,
            pool=pool,
            period=str(period),
        )
    if period >= Period.of(now.date()):
        raise Conflict(
            f"period {period} has not ended yet; close it from {period + 1}-01, once its "
            "games are in."
        )
    first = newest + 1 if newest is not None else period
    _refuse_open_games_before(session, pool, first, period, newest)
    if newest is None and joining is None:  # a re-rate publishes again what was published
        _refuse_nothing_to_publish(session, pool, period)
    periods = [first + i for i in range(first.months_until(period) + 1)]
    totals = _Totals()
    standings_written = 0
    with collector_paused(), staged(session, EXPECTED_SCORES):
        insert_values(session, EXPECTED_SCORES, _LOOK_UP, set_rating.expected_score_rows())
        for each in periods:
            only = None if joining is None else joining.get(each, frozenset())
            details = None if shown is None else shown(each)
            standings_written += _close_one(
                session, pool, each, now, totals, period, only, details, progress
            )
    refresh_statistics(
        session,
        players=("player_ratings",),
        history=("list_entries", "game_ratings"),
        written=standings_written,
    )
    return ClosedPeriod(pool, periods, **vars(totals))


def _refuse_open_games_before(
    session: Session, pool: Pool, first: Period, period: Period, newest: Period | None
) -> None:
    statement = select(func.min(Game.period)).where(Game.pool == pool, Game.period < period)
    if newest is not None:
        statement = statement.where(Game.period >= first)
    earlier = session.scalar(statement)
    if earlier is not None:
        raise Conflict(
            f"period {earlier} holds games and is still open.",
            Hint.CLOSE_EARLIER,
            pool=pool,
            period=str(earlier),
        )


def _refuse_nothing_to_publish(session: Session, pool: Pool, period: Period) -> None:
    """Refuse a pool's first close that would publish an empty list: no player has a
    rating in the pool and the period has no game (a new or mistaken ledger, a wrong pool)."""
    rated = exists().where(PlayerRating.pool == pool)
    played = exists().where(_in_period(pool, period))
    if not session.scalar(select(rated | played)):
        raise Conflict(
            f"{pool} period {period} has nothing to publish: no player has a {pool} rating "
            "and the period has no game.",
            Hint.NOTHING_TO_PUBLISH,
            pool=pool,
        )


@dataclass
class _Totals:
    games_rated: int = 0
    games_unrated: int = 0
    players_rated: int = 0
    newly_rated: int = 0
    unrated_by_floor: int = 0


@dataclass(slots=True)
class _Standing:
    """A player's standing on the list in force at the start of the period (none if never
    rated in the pool), and the games the period brings them toward a first rating."""

    player_id: int
    birth_year: int | None
    has_row: bool
    rating: int | None
    games_completed: int
    ever_2400: bool
    peak: int
    peak_period: Period | None
    first_list: Period | None
    last_active: Period | None
    listed: Details | None = None
    """The federation and title the newest list shows (None: on no list)."""
    details: Details = NO_DETAILS
    """The federation and title this period's list carries."""
    initial_games: list[rules.InitialRatingGame] = field(default_factory=list)
    initial_games_in_period: int = 0

    @property
    def state(self) -> rules.RatingState:
        assert self.rating is not None
        return rules.RatingState(
            self.rating, self.games_completed, self.ever_2400, self.peak, self.birth_year
        )


def _close_one(
    session: Session,
    pool: Pool,
    period: Period,
    now: dt.datetime,
    totals: _Totals,
    closed_by: Period,
    joining: AbstractSet[int] | None,
    shown: Mapping[int, Details] | None,
    progress: Progress,
) -> int:
    """Close one period; returns the number of standings its list wrote."""
    _mark_closed(session, pool, period, now, closed_by)
    in_period = _in_period(pool, period)
    games = session.scalar(select(func.count()).select_from(Game).where(in_period)) or 0
    progress.stage(f"Rating the {games:,} games of {period}", None)
    with ExitStack() as tables:
        ratings = _ratings_in_force(session, tables, pool, period, games)
        with bulk_write(session, _GAME_RATINGS, games):
            session.execute(_game_figures(pool, period, ratings))
    rated = session.scalar(
        select(func.count(GameRating.white_expected))
        .join(Game, Game.id == GameRating.game_id)
        .where(in_period)
    )
    totals.games_rated += rated or 0
    totals.games_unrated += games - (rated or 0)
    progress.stage(f"Publishing the list of {period}", None)
    publication = _Publication(pool, period, joining, shown)
    publication.publish(session)
    totals.players_rated += publication.players_rated
    totals.newly_rated += publication.newly_rated
    totals.unrated_by_floor += publication.unrated_by_floor
    return publication.staged


def close_without_games(session: Session, pool: Pool, period: Period, now: dt.datetime) -> None:
    """Publish `period`'s list from what is already written (an imported list): mark the
    period closed, and the starting ratings no list has carried yet join it, as do the
    federations and titles recorded for the players the list did not give."""
    _mark_closed(session, pool, period, now, period)
    _Publication(pool, period).publish(session)


def _in_period(pool: Pool, period: Period) -> ColumnElement[bool]:
    """SQL: the game is one of `pool`'s in `period`."""
    return (Game.pool == pool) & (Game.period == period)


_EVENT_END = func.coalesce(Event.end_date, Game.date).label("event_end")
"""The date that orders a game's event among a player's first games (8.2)."""


def _ratings_in_force(
    session: Session, tables: ExitStack, pool: Pool, period: Period, games: int
) -> FromClause:
    """The ratings in force in the pool, as (`player_id`, `rating`), of every player of the
    period's `games` who has a standing, for the figures to look each side's up.

    PostgreSQL hash-joins the standings themselves. SQLite would search two B-trees for
    each side of each game by the standings' key (player, pool), so the ratings are staged
    keyed by the player alone (`PERIOD_RATINGS`, a look-up by row ID): those of the
    period's players, or all the pool's where it holds few enough standings
    (`STANDINGS_COPIED_PER_SIDE`).
    """
    standings = select(PlayerRating.player_id, PlayerRating.rating).where(PlayerRating.pool == pool)
    if is_postgresql(session) or not games:
        return standings.subquery("standings")
    reach = STANDINGS_COPIED_PER_SIDE * 2 * games
    held = session.scalar(select(func.count()).select_from(standings.limit(reach).subquery()))
    if held == reach:
        in_period = _in_period(pool, period)
        players = union_all(
            select(Game.white_id).where(in_period), select(Game.black_id).where(in_period)
        )
        standings = standings.where(PlayerRating.player_id.in_(players))
    tables.enter_context(staged(session, PERIOD_RATINGS))
    session.execute(insert(PERIOD_RATINGS).from_select(["player_id", "rating"], standings))
    return PERIOD_RATINGS


STANDINGS_COPIED_PER_SIDE = 5
"""On SQLite, a pool that holds fewer than this many standings for each side of the period's
games has all its ratings staged for the figures: a scan copies a standing for about a fifth
of what finding one player of the games costs (0.2 s for a million standings, against 1.6 s
to find the players of 500,000 games among them), and the copy still costs no more than a
multiple of the games."""


def _game_figures(pool: Pool, period: Period, ratings: FromClause) -> Executable:
    """SQL: rate every game of the period for both sides (FIDE 5, 8.3.1), writing each
    game's figures: the ratings in force (`ratings`) and each rated side's PD, looked
    up in table 8.1.2 (`EXPECTED_SCORES`) by D after the rule of 400. A side has no PD where
    the game was not played or not rated, a player is unrated or the pairing is not rated at
    all."""
    pairings = rules.PeriodPairings.of(pool, period)
    white, black = ratings.alias("white"), ratings.alias("black")
    white_pd, black_pd = EXPECTED_SCORES.alias("white_pd"), EXPECTED_SCORES.alias("black_pd")
    white_rating, black_rating = white.c.rating, black.c.rating
    rated = and_(
        Game.rated,
        Game.result.in_(_PLAYED),
        white_rating.is_not(None),
        black_rating.is_not(None),
        set_rating.rateable(white_rating, black_rating, pairings),
    )
    white_key = set_rating.difference_key(white_rating, black_rating, pairings)
    black_key = set_rating.difference_key(black_rating, white_rating, pairings)
    figures = (
        select(
            Game.id,
            white_rating,
            black_rating,
            case((rated, white_pd.c.expected)),
            case((rated, black_pd.c.expected)),
        )
        .select_from(Game)
        .outerjoin(white, white.c.player_id == Game.white_id)
        .outerjoin(black, black.c.player_id == Game.black_id)
        .outerjoin(white_pd, white_pd.c.difference == white_key)
        .outerjoin(black_pd, black_pd.c.difference == black_key)
        .where(_in_period(pool, period))
    )
    return insert(GameRating).from_select(_GAME_FIGURES, figures)


_PLAYED = [result for result in GameResult if result.is_played]
_LOOK_UP = ("difference", "expected")


def _mark_closed(
    session: Session, pool: Pool, period: Period, now: dt.datetime, closed_by: Period
) -> None:
    closed = session.execute(
        update(RatingPeriod)
        .where(RatingPeriod.pool == pool, RatingPeriod.period == period)
        .values(closed_at=now, closed_by=closed_by)
    )
    if closed.rowcount == 0:  # type: ignore[attr-defined]
        session.add(RatingPeriod(pool=pool, period=period, closed_at=now, closed_by=closed_by))
    session.add(
        ListVersion(
            pool=pool,
            period=period,
            version=(newest_version(session, pool, period) or 0) + 1,
            published_at=now,
        )
    )
    session.flush()


def _load_standings(
    session: Session,
    pool: Pool,
    period: Period,
    players: Iterable[int],
    shown: Mapping[int, Details] | None,
) -> dict[int, _Standing]:
    """The `players`, with their standing on the list in force and the federation and title
    the period's list carries (in a re-rate: `shown`)."""
    statement = (
        select(*_STANDING_READ, *_DETAILS_READ)
        .select_from(Player)
        .outerjoin(
            PlayerRating, (PlayerRating.player_id == Player.id) & (PlayerRating.pool == pool)
        )
    )
    batches = driver_rows_in(session, statement, Player.id, players)
    return {row[0]: _standing(row, period, shown) for batch in batches for row in batch}


_STANDING_READ = (
    Player.id,
    Player.birth_year,
    PlayerRating.player_id.is_not(None),
    PlayerRating.rating,
    func.coalesce(PlayerRating.games_completed, 0),
    func.coalesce(PlayerRating.ever_2400, False),
    func.coalesce(PlayerRating.peak, 0),
    PlayerRating.peak_period,
    PlayerRating.first_list,
    PlayerRating.last_active,
)
"""A player's standing in a pool (none if never rated in it), as `_Standing` takes it."""

_DETAILS_READ = (
    PlayerRating.federation.label("listed_federation"),
    PlayerRating.title.label("listed_title"),
    Player.federation.label("recorded_federation"),
    Player.title.label("recorded_title"),
    Player.details_from,
)
"""What decides the federation and title a list row carries, read with the standing."""


def _standing(row: Values, period: Period, shown: Mapping[int, Details] | None) -> _Standing:
    """The standing (`_STANDING_READ`, `_DETAILS_READ`, as the driver gives them), and the
    details the player's newest list shows (none if on no list) and those this period's
    list carries (in a re-rate: those it showed)."""
    (player_id, birth_year, has_row, rating, games_completed, ever_2400, peak) = row[:7]
    peak_period, first_list, last_active, *listed, federation, title, details_from = row[7:]
    standing = _Standing(
        player_id,
        birth_year,
        bool(has_row),
        rating,
        games_completed,
        bool(ever_2400),
        peak,
        stored_period(peak_period),
        stored_period(first_list),
        stored_period(last_active),
    )
    recorded = Details(federation, title)
    if first_list is not None:
        standing.listed = Details(*listed)
    if shown is None:
        details = carried(recorded, standing.listed, stored_period(details_from), period)
    else:
        details = shown.get(player_id) or standing.listed or recorded
    standing.details = details
    return standing


_GAME_RATINGS = cast(Table, GameRating.__table__)
_GAME_FIGURES = ("game_id", "white_rating", "black_rating", "white_expected", "black_expected")


def _toward_first_ratings(
    session: Session, pool: Pool, period: Period, shown: Mapping[int, Details] | None
) -> dict[int, _Standing]:
    """The unrated players of the period's games against rated opponents, played and
    rated (FIDE 5), each with those games pooled toward a first rating (8.2), the earlier
    games that pool with them too (`_add_pooled_history`)."""
    pooled: dict[int, list[rules.InitialRatingGame]] = {}
    for game in session.execute(_pooled_games(pool, period)):
        event = (game.event_end, game.event_id or 0)
        if game.white_rating is None:
            player, opponent, white = game.white_id, game.black_rating, True
        else:
            player, opponent, white = game.black_id, game.white_rating, False
        initial = rules.InitialRatingGame(event, opponent, game.result.score(white))
        pooled.setdefault(player, []).append(initial)
    candidates = _load_standings(session, pool, period, pooled, shown)
    for player_id, standing in candidates.items():
        standing.initial_games = pooled[player_id]
        standing.initial_games_in_period = len(pooled[player_id])
    _add_pooled_history(session, pool, period, candidates)
    return candidates


def _pooled_games(pool: Pool, period: Period) -> AnySelect:
    """The period's games, played and rated, of an unrated player against a rated one, with
    the ratings the close used."""
    one_unrated = (GameRating.white_rating.is_(None) & GameRating.black_rating.is_not(None)) | (
        GameRating.black_rating.is_(None) & GameRating.white_rating.is_not(None)
    )
    return _games_as_rated().where(
        _in_period(pool, period),
        Game.rated,
        Game.result.in_(_PLAYED),
        one_unrated,
    )


def _add_pooled_history(
    session: Session, pool: Pool, period: Period, standings: dict[int, _Standing]
) -> None:
    """Add the earlier games that pool toward an unrated player's first rating (8.2).

    The pool spans at most 26 months, ending with this period, and never reaches back
    past a list on which the player lost an earlier rating.
    """
    candidates = {pid: s for pid, s in standings.items() if s.initial_games}
    if not candidates:
        return
    last_listed: dict[int, Period] = dict(
        select_in(
            session,
            select(ListEntry.player_id, func.max(ListEntry.period))
            .where(ListEntry.pool == pool)
            .group_by(ListEntry.player_id),
            ListEntry.player_id,
            candidates,
        )
    )
    history = _earlier_games(pool, period - (rules.INITIAL_RATING_WINDOW_MONTHS - 1), period)
    for column, side in ((Game.white_id, 0), (Game.black_id, 1)):
        for game in select_in(session, history, column, candidates):
            player_id = (game.white_id, game.black_id)[side]
            ratings = (game.white_rating, game.black_rating)
            own, opponent = ratings[side], ratings[1 - side]
            since = last_listed.get(player_id)
            if not (game.result.is_played and game.rated) or own is not None or opponent is None:
                continue
            if since is None or game.period > since:
                score = game.result.score(side == 0)
                candidates[player_id].initial_games.append(
                    rules.InitialRatingGame((game.event_end, game.event_id or 0), opponent, score)
                )


def _earlier_games(pool: Pool, start: Period, period: Period) -> AnySelect:
    """The games of the periods from `start` up to, not including, `period`, as rated."""
    return _games_as_rated().where(Game.pool == pool, Game.period >= start, Game.period < period)


def _games_as_rated() -> AnySelect:
    """Games with what orders their events (8.2) and the ratings the close used."""
    return (
        select(
            Game.white_id,
            Game.black_id,
            Game.result,
            Game.rated,
            Game.period,
            Game.event_id,
            _EVENT_END,
            GameRating.white_rating,
            GameRating.black_rating,
        )
        .join(GameRating, GameRating.game_id == Game.id)
        .outerjoin(Event, Event.id == Game.event_id)
    )


class _Figures(NamedTuple):
    """A list row's figures for its period: None where the period rated nothing.

    `previous_rating` is the rating on the previous list: None for a player new to it.
    """

    previous_rating: int | None
    change: int | None
    games: int
    k_applied: int | None = None
    k_rule: str | None = None
    k_times_sum: int | None = None


class _ListRow(NamedTuple):
    """A row of the list and its player's new standing, as `STAGED_LIST_ROWS` holds it."""

    player_id: int
    had_standing: bool
    joining: bool
    first_list: Period
    rating: int
    listed: bool
    k_next: int | None
    games_completed: int
    ever_2400: bool
    peak: int
    peak_period: Period | None
    last_active: Period | None
    federation: str | None
    title: str | None
    previous_rating: int | None
    change: int | None
    games: int
    k_applied: int | None
    k_rule: str | None
    k_times_sum: int | None


class _Publication:
    """The list a close publishes: its rows are staged (`STAGED_LIST_ROWS`), then written to
    the list, the players' prior standings and their new standings set-wise. `joining`: the
    pending starting ratings this list carries in a re-rate (None: all of them); `shown`:
    the federations and titles it showed before a re-rate (None: those recorded)."""

    def __init__(
        self,
        pool: Pool,
        period: Period,
        joining: AbstractSet[int] | None = None,
        shown: Mapping[int, Details] | None = None,
    ) -> None:
        self.pool = pool
        self.period = period
        self.joining = joining
        self.shown = shown
        self.rows: list[_ListRow] = []
        self.staged = 0
        self.players_rated = 0
        self.newly_rated = 0
        self.unrated_by_floor = 0

    def publish(self, session: Session) -> None:
        """Write the list: the rows of the players the period rated or gave a first rating,
        then those of the starting ratings joining it and of the players whose details it
        carries anew, each with the standing it replaces kept (`PriorStanding`) and the new
        one."""
        with ExitStack() as tables:
            tables.enter_context(staged(session, STAGED_LIST_ROWS))
            shown = self._staged_shown(session, tables)
            self._add_rated(session, shown)
            for standing in _toward_first_ratings(
                session, self.pool, self.period, self.shown
            ).values():
                self._first_rating(standing)
            self._stage(session)
            self._add_pending(session, tables, shown)
            self._add_changed_details(session)
            self._stage(session)
            self.staged = _staged_rows(session)
            counted_for_the_planner(session, STAGED_LIST_ROWS)
            self._write(session)

    def _staged_shown(self, session: Session, tables: ExitStack) -> Table | None:
        """In a re-rate, the details the list showed, staged for the set-wise rows."""
        if self.shown is None:
            return None
        tables.enter_context(staged(session, SHOWN_DETAILS))
        rows = [(player, shown.federation, shown.title) for player, shown in self.shown.items()]
        insert_values(session, SHOWN_DETAILS, _SHOWN_COLUMNS, rows)
        return SHOWN_DETAILS

    def _add_rated(self, session: Session, shown: Table | None) -> None:
        """8.3: the rows of the players the period's figures rate, set-wise: their scores
        staged (`_period_scores`), then their rows (`_rated_players`)."""
        with staged(session, PERIOD_SCORES):
            with sorting_in_runs(session):
                session.execute(_period_scores(self.pool, self.period))
            counted_for_the_planner(session, PERIOD_SCORES)
            rated = _rated_players(self.pool, self.period, shown, is_postgresql(session))
            session.execute(rated)
        self.players_rated = _staged_rows(session)
        self.unrated_by_floor = _staged_rows(session, ~_STAGED.listed)

    def _first_rating(self, standing: _Standing) -> None:
        """8.2: a first rating once the pooled games suffice."""
        outcome = rules.initial_rating(standing.initial_games)
        if outcome is None:
            return
        rating, games = outcome
        self.newly_rated += 1
        state = rules.RatingState(
            rating,
            games,
            standing.ever_2400 or rating >= rules.EVER_2400,
            max(standing.peak, rating),
            standing.birth_year,
        )
        figures = _Figures(None, None, standing.initial_games_in_period)
        self._publish(standing, state, figures)

    def _publish(
        self,
        standing: _Standing,
        state: rules.RatingState,
        figures: _Figures,
        played: bool = True,
    ) -> None:
        """The list row and new standing of a listed player given a first rating in the
        period (active on its list), or of one whose row only carries new details (`played`
        False)."""
        last_active = self.period if played else standing.last_active
        peak_period = self.period if state.peak > standing.peak else standing.peak_period
        self.rows.append(
            _ListRow(
                standing.player_id,
                standing.has_row,
                False,
                standing.first_list or self.period,
                state.rating,
                True,
                rules.development_coefficient(state, self.period + 1),
                state.games_completed,
                state.ever_2400,
                state.peak,
                peak_period,
                last_active,
                standing.details.federation,
                standing.details.title,
                *figures,
            )
        )

    def _stage(self, session: Session) -> None:
        insert_values(session, STAGED_LIST_ROWS, _ListRow._fields, self.rows)
        self.rows = []

    def _add_pending(self, session: Session, tables: ExitStack, shown: Table | None) -> None:
        """Starting ratings no list has carried yet join this list unchanged (in a re-rate,
        those of `joining`), set-wise (`_pending`).

        Ledger's choice: joining the list counts as activity for the inactivity flag.
        """
        joining = None
        if self.joining is not None:
            joining = tables.enter_context(staged(session, JOINING_PLAYERS))
            rows = [(player,) for player in self.joining]
            insert_values(session, JOINING_PLAYERS, ("player_id",), rows)
        session.execute(_pending(self.pool, self.period, shown, joining))

    def _add_changed_details(self, session: Session) -> None:
        """A row for every listed player whose federation or title this list carries anew,
        with or without games (`ledger.services.list_details`): as recorded, from the list
        their `details_from` names; in a re-rate, as the list showed them."""
        statement = (
            select(*_STANDING_READ, *_DETAILS_READ)
            .join(PlayerRating, PlayerRating.player_id == Player.id)
            .where(
                PlayerRating.pool == self.pool,
                PlayerRating.first_list.is_not(None),
                PlayerRating.rating.is_not(None),
                _not_staged(Player.id),
            )
        )
        if self.shown is None:
            due = statement.where(list_details.recorded_since_listed(self.period))
            batches = driver_rows(session, due)
        else:
            batches = driver_rows_in(session, statement, Player.id, self.shown)
        for row in chain.from_iterable(batches):
            standing = _standing(row, self.period, self.shown)
            if standing.details != standing.listed:
                figures = _Figures(standing.rating, 0, 0)
                self._publish(standing, standing.state, figures, played=False)

    def _write(self, session: Session) -> None:
        """The staged rows to the list, the standings they replace to `PriorStanding`, and
        the new standings, set-wise: the joining starting ratings take this list as their
        first. A list that changes most players' standings (the first list) rebuilds the
        standings' indexes once, as it does the list rows' and the prior standings' where it
        more than doubles them (`storage.batches.bulk_write`)."""
        with (
            bulk_write(session, _STANDINGS, self.staged, updating=True),
            bulk_write(session, _ENTRIES, self.staged),
            bulk_write(session, _PRIORS, self.staged),
        ):
            for statement in _published(self.pool, self.period, is_postgresql(session)):
                session.execute(statement)


_STAGED = STAGED_LIST_ROWS.c


def _staged_rows(session: Session, *where: ColumnElement[bool]) -> int:
    """How many rows are staged (that meet `where`): a statement's own count of the rows it
    wrote is not given on every driver (psycopg's is -1 for an INSERT ... SELECT)."""
    return session.scalar(select(func.count()).select_from(STAGED_LIST_ROWS).where(*where)) or 0


def _not_staged(player_id: InstrumentedAttribute[int]) -> ColumnElement[bool]:
    """SQL: the player has no staged row yet."""
    return ~exists().where(_STAGED.player_id == player_id)


def _period_scores(pool: Pool, period: Period) -> Executable:
    """SQL: stage the games the period's figures rate for each player and ΣΔR, the sum of
    each game's score less its PD (8.3.1), in hundredths (`PERIOD_SCORES`), in the order of
    the players (`storage.staging`)."""
    in_period = _in_period(pool, period)
    sides = union_all(
        *(
            select(
                player.label("player_id"),
                (set_rating.score(Game.result, white) - pd).label("delta"),
            )
            .join(GameRating, GameRating.game_id == Game.id)
            .where(in_period, pd.is_not(None))
            for player, pd, white in (
                (Game.white_id, GameRating.white_expected, True),
                (Game.black_id, GameRating.black_expected, False),
            )
        )
    ).subquery("sides")
    scores = (
        select(sides.c.player_id, func.count(), func.sum(sides.c.delta))
        .group_by(sides.c.player_id)
        .order_by(sides.c.player_id)
    )
    return insert(PERIOD_SCORES).from_select(["player_id", "games", "delta_sum"], scores)


def _rated_players(pool: Pool, period: Period, shown: Table | None, postgresql: bool) -> Executable:
    """SQL: stage the list row and new standing of every player the period's figures rate
    (8.3): their games and ΣΔR (`PERIOD_SCORES`), K from the list in force (8.3.3) capped by
    700, the change K x ΣΔR rounded once (8.3.4), the 1400 floor (7.1.4), the 2400 flag, the
    peak and the K of the next period (`set_rating`); the details as
    `list_details.carried_sql`. On PostgreSQL in the order of the players
    (`storage.staging`); SQLite stages them in the order its join reads them, the
    standings' or the scores' (sorting the 631,000 rows of a million-player first list
    first cost 0.3 s more)."""
    played = PERIOD_SCORES.c
    state = (PlayerRating.games_completed, PlayerRating.ever_2400, PlayerRating.peak)
    k = set_rating.development_coefficient(*state, Player.birth_year, period)
    by_player = _with_details(
        select(
            played.player_id,
            played.games,
            played.delta_sum,
            *state,
            PlayerRating.rating,
            PlayerRating.peak_period,
            PlayerRating.first_list,
            Player.birth_year,
            set_rating.k_rule_key(*state, Player.birth_year, period).label("k_rule"),
            set_rating.capped_k(k, played.games).label("k_applied"),
        )
        .select_from(PERIOD_SCORES)
        .join(
            PlayerRating,
            (PlayerRating.player_id == played.player_id) & (PlayerRating.pool == pool),
        )
        .join(Player, Player.id == played.player_id),
        period,
        shown,
    )
    rated = _evaluated_once(by_player, "rated")
    k_times_sum = rated.c.k_applied * rated.c.delta_sum
    changed = _evaluated_once(
        select(
            *rated.c,
            k_times_sum.label("k_times_sum"),
            set_rating.round_half_away_from_zero(k_times_sum).label("change"),
        ),
        "changed",
    )
    old = changed.c
    rating = old.rating + old.change
    listed = rating >= rules.RATING_FLOOR
    games_completed = old.games_completed + old.games
    ever_2400 = or_(old.ever_2400, rating >= rules.EVER_2400)
    new_peak = rating > old.peak
    peak = case((new_peak, rating), else_=old.peak)
    period_value = literal(period, PeriodType())
    k_next = set_rating.development_coefficient(
        games_completed, ever_2400, peak, old.birth_year, period + 1
    )
    rows = select(
        old.player_id,
        true(),
        false(),
        func.coalesce(old.first_list, period_value),
        rating,
        listed,
        case((listed, k_next)),
        games_completed,
        ever_2400,
        peak,
        case((new_peak, period_value), else_=old.peak_period),
        period_value,
        old.federation,
        old.title,
        case((old.first_list.is_not(None), old.rating)),
        old.change,
        old.games,
        old.k_applied,
        old.k_rule,
        old.k_times_sum,
    )
    if postgresql:
        rows = rows.order_by(old.player_id)
    return insert(STAGED_LIST_ROWS).from_select(_ListRow._fields, rows)


def _evaluated_once(statement: AnySelect, name: str) -> Subquery:
    """`statement` as a subquery whose columns are worked out once a row: SQLite flattens a
    plain subquery, and PostgreSQL pulls it up, into the query that uses it, which then
    works a column out again wherever it names it (the rated rows name K and the change a
    dozen times: 2.7 s for the 631,000 rated players of a million-player first list on
    SQLite, 1.5 s with each worked out once). Neither does so with a subquery that has an
    OFFSET."""
    return statement.offset(0).subquery(name)


def _pending(pool: Pool, period: Period, shown: Table | None, joining: Table | None) -> Executable:
    """SQL: stage a row for each starting rating no list has carried yet (in a re-rate,
    those `joining` names), unchanged, with the K of the next period (8.3.3); in the order
    of the players (`storage.staging`)."""
    period_value = literal(period, PeriodType())
    state = (PlayerRating.games_completed, PlayerRating.ever_2400, PlayerRating.peak)
    k_next = set_rating.development_coefficient(*state, Player.birth_year, period + 1)
    rows = _with_details(
        select(
            PlayerRating.player_id,
            true(),
            true(),
            period_value,
            PlayerRating.rating,
            true(),
            k_next,
            *state,
            PlayerRating.peak_period,
            func.coalesce(PlayerRating.last_active, period_value),
        )
        .join(Player, Player.id == PlayerRating.player_id)
        .where(
            PlayerRating.pool == pool,
            PlayerRating.first_list.is_(None),
            _not_staged(PlayerRating.player_id),
        ),
        period,
        shown,
    ).add_columns(null(), literal(0), literal(0), null(), null(), null())
    if joining is not None:
        rows = rows.join(joining, joining.c.player_id == PlayerRating.player_id)
    return insert(STAGED_LIST_ROWS).from_select(
        _ListRow._fields, rows.order_by(PlayerRating.player_id)
    )


def _with_details(statement: AnySelect, period: Period, shown: Table | None) -> AnySelect:
    """`statement`, over a player and their standing, with the federation and title the
    list of `period` carries (`list_details.carried_sql`; in a re-rate, those `shown`)."""
    if shown is not None:
        statement = statement.outerjoin(shown, shown.c.player_id == Player.id)
    return statement.add_columns(
        *(list_details.carried_sql(name, period, shown).label(name) for name in _DETAILS)
    )


_DETAILS = ("federation", "title")
_SHOWN_COLUMNS = ("player_id", *_DETAILS)


def _published(pool: Pool, period: Period, postgresql: bool) -> list[Executable]:
    """The set-wise writes of the staged rows of `pool`'s list of `period`: the list rows,
    the standings they replace (none for a player new to the pool), the new standings."""
    pool_value = literal(pool, _ENTRY_COLUMNS.pool.type)
    period_value = literal(period, PeriodType())
    prior = (PlayerRating.pool == pool) & (PlayerRating.player_id == _STAGED.player_id)
    shown_details = _STAGED.joining | PlayerRating.first_list.is_not(None)
    entries = insert(ListEntry).from_select(
        ["pool", "period", "player_id", *LIST_ROW_FIGURES],
        select(pool_value, period_value, _STAGED.player_id, *_STAGED_FIGURES).order_by(
            _STAGED.player_id
        ),
    )
    priors = insert(PriorStanding).from_select(
        ["pool", "period", "player_id", "had_standing", *STANDING_COLUMNS],
        select(
            pool_value,
            period_value,
            _STAGED.player_id,
            _STAGED.had_standing,
            *(getattr(PlayerRating, name) for name in STANDING_COLUMNS[:-2]),
            case((shown_details, PlayerRating.federation)),
            case((shown_details, PlayerRating.title)),
        )
        .select_from(STAGED_LIST_ROWS.outerjoin(PlayerRating, prior))
        .order_by(_STAGED.player_id),
    )
    standing = {
        "rating": case((_STAGED.listed, _STAGED.rating)),
        **{name: _STAGED[name] for name in STANDING_COLUMNS if name != "rating"},
    }
    inserts = insert(PlayerRating).from_select(
        ["pool", "player_id", *standing],
        select(pool_value, _STAGED.player_id, *standing.values()).where(~_STAGED.had_standing),
    )
    return [entries, priors, *_standings_updated(prior, standing, postgresql), inserts]


def _standings_updated(
    prior: ColumnElement[bool], standing: dict[str, ColumnElement[Any]], postgresql: bool
) -> list[Executable]:
    """The UPDATEs of the standings the staged rows change. SQLite rewrites an index entry
    for every column an UPDATE names, changed or not: those that keep their first list (most
    of a later month's) are updated without naming `first_list`, then those that take this
    list as their first. PostgreSQL looks at the values, so one UPDATE does, without a
    second join of the staged rows."""
    changes: list[tuple[ColumnElement[bool], dict[str, ColumnElement[Any]]]]
    if postgresql:
        changes = [(true(), standing)]
    else:
        same_first_list = _STAGED.first_list.is_not_distinct_from(PlayerRating.first_list)
        kept = {name: value for name, value in standing.items() if name != "first_list"}
        changes = [(same_first_list, kept), (~same_first_list, standing)]
    return [
        update(PlayerRating)
        .where(prior, _STAGED.had_standing, which)
        .values(values)
        .execution_options(synchronize_session=False)
        for which, values in changes
    ]


_ENTRIES = cast(Table, ListEntry.__table__)
_ENTRY_COLUMNS = _ENTRIES.c
_PRIORS = cast(Table, PriorStanding.__table__)
_STAGED_FIGURES = tuple(_STAGED[name] for name in LIST_ROW_FIGURES)

_STANDINGS = cast(Table, PlayerRating.__table__)
