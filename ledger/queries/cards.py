"""A player's card: identity, standing in each pool, rating history and a live rating.

Read side only. The standing comes from the newest published list; the history from the
player's list rows (one per published list, unchanged lists carried forward); the live
rating applies the rules to the games recorded in still-open periods, and is unofficial.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session, aliased

from ledger.core import cadence, rules
from ledger.core.domain import Period, Pool
from ledger.core.errors import NotFound
from ledger.queries.filters import EVERYONE, ListFilter
from ledger.queries.lists.counts import KeptCounts
from ledger.queries.lists.in_force import published_period
from ledger.queries.lists.published import PublishedList
from ledger.queries.pooling import FirstRating, pooled_so_far
from ledger.storage.models import Game, ListEntry, Player, PlayerRating
from ledger.storage.periods import newest_closed_period


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """The player's row on one published list, named by its period and its date ("Nov
    2026"); `rating` None: not on that list."""

    period: Period
    list_name: str
    rating: int | None
    change: int | None
    games: int
    k: int | None


@dataclass(frozen=True, slots=True)
class LiveRating:
    """The published rating plus what the games recorded in open periods would bring."""

    rating: int
    change: int
    games: int
    since: Period


@dataclass(frozen=True, slots=True)
class PoolStanding:
    """The player's standing in one pool. `list_period` is None while the rating is a
    starting rating no list has carried yet (or after the player lost it: `rating` None)."""

    pool: Pool
    list_period: Period | None
    rating: int | None
    world_rank: int | None
    federation_rank: int | None
    k: int | None
    k_reason: str | None
    games_completed: int
    peak: int
    peak_period: Period | None
    ever_2400: bool
    flag: str
    history: list[HistoryRow]
    live: LiveRating | None


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """A player's card. The federation and title are those recorded: `details_from` is the
    period of the list that will first carry them when the newest list does not yet (None:
    the next list, or they are on it). `pooling` holds, per pool the player is not rated in,
    the games pooled so far toward a first rating (8.2)."""

    id: int
    fide_id: int | None
    name: str
    federation: str | None
    sex: str | None
    title: str | None
    birth_year: int | None
    pools: list[PoolStanding]
    pending_details: bool
    details_from: Period | None
    pooling: list[FirstRating]


def player_card(
    session: Session, player_id: int, pool: Pool | None = None, kept: KeptCounts | None = None
) -> PlayerCard:
    """The card of `player_id`, for every pool they are rated in (or only `pool`); a
    long-running reader passes the lists' counts it `kept`, on which the ranks are found."""
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound(f"no player with ID {player_id}.")
    statement = select(PlayerRating).where(PlayerRating.player_id == player_id)
    if pool is not None:
        statement = statement.where(PlayerRating.pool == pool)
    standings = session.scalars(statement).all()
    rated = {Pool(row.pool) for row in standings if row.rating is not None}
    pooling = [
        pooled
        for each in ([pool] if pool is not None else list(Pool))
        if each not in rated
        and (pooled := pooled_so_far(session, each, player.id, newest_closed_period(session, each)))
    ]
    pending = any(
        (row.federation, row.title) != (player.federation, player.title)
        for row in standings
        if row.first_list is not None
    )
    return PlayerCard(
        player.id,
        player.fide_id,
        player.name,
        player.federation,
        player.sex,
        player.title,
        player.birth_year,
        [_standing(session, player, row, kept) for row in sorted(standings, key=_pool_order)],
        pending,
        player.details_from if pending else None,
        pooling,
    )


def _pool_order(row: PlayerRating) -> int:
    return list(Pool).index(Pool(row.pool))


def _k_reason(rule: rules.KRule, period: Period, birth_year: int | None) -> str:
    """The K of `period` by line `rule` of 8.3.3, in words."""
    return rules.k_reason(rule, rules.k_of(rule, period), 0, birth_year, period)


def _standing(
    session: Session, player: Player, row: PlayerRating, kept: KeptCounts | None
) -> PoolStanding:
    pool = Pool(row.pool)
    newest = newest_closed_period(session, pool)
    listed = row.rating is not None and row.first_list is not None and newest is not None
    state = _state(row, player.birth_year)
    rule = rules.k_rule(state, cadence.next_list_period(pool, newest)) if state and newest else None
    ranks = None
    if listed and row.rating and newest:
        if kept is None:
            ranks = _ranks(session, pool, row.rating, row.federation)
        else:
            ranks = _kept_ranks(PublishedList(session, pool, newest, kept), row)
    return PoolStanding(
        pool=pool,
        list_period=newest if listed else None,
        rating=row.rating,
        world_rank=ranks[0] if ranks else None,
        federation_rank=ranks[1] if ranks else None,
        k=rules.k_of(rule, cadence.next_list_period(pool, newest)) if rule and newest else None,
        k_reason=(
            _k_reason(rule, cadence.next_list_period(pool, newest), player.birth_year)
            if rule and newest
            else None
        ),
        games_completed=row.games_completed,
        peak=row.peak,
        peak_period=row.peak_period,
        ever_2400=row.ever_2400,
        flag=rules.list_flag(woman=player.sex == "F", last_active=row.last_active, period=newest)
        if listed and newest
        else "",
        history=_history(session, pool, player, newest),
        live=_live(session, pool, player, state, newest),
    )


def _state(row: PlayerRating, birth_year: int | None) -> rules.RatingState | None:
    if row.rating is None:
        return None
    return rules.RatingState(row.rating, row.games_completed, row.ever_2400, row.peak, birth_year)


def _ranks(
    session: Session, pool: Pool, rating: int, federation: str | None
) -> tuple[int, int | None]:
    """1 + the players above on the newest list, in the world and in `federation` (as it
    shows them): equal ratings share a rank. Where no player of the pool is waiting for a
    first list (the usual case: the next close lists them), everyone above is listed and
    is counted on the ratings index alone; else one read of it counts the listed players
    above and the never listed. When none above was never listed, the federation's players
    above are counted on its ratings index alone (which does not hold first_list: checking
    it would read every row above)."""
    listed = PlayerRating.first_list.is_not(None)
    never = PlayerRating.first_list.is_(None)
    above = (PlayerRating.pool == pool, PlayerRating.rating > rating)
    waiting = select(func.count()).where(PlayerRating.pool == pool, never)
    if session.scalar(waiting):
        world, never_listed = session.execute(
            select(func.count(case((listed, 1))), func.count(case((never, 1)))).where(*above)
        ).one()
    else:
        world = session.scalar(select(func.count()).select_from(PlayerRating).where(*above)) or 0
        never_listed = 0
    if federation is None:
        return 1 + world, None
    in_federation = (*above, PlayerRating.federation == federation)
    statement = select(func.count()).select_from(PlayerRating).where(*in_federation)
    return 1 + world, 1 + (
        session.scalar(statement.where(listed) if never_listed else statement) or 0
    )


def _kept_ranks(newest: PublishedList, row: PlayerRating) -> tuple[int, int | None]:
    """The ranks of `_ranks`, on the newest list's kept counts (world and federation)."""
    rating = row.rating or 0
    world = 1 + newest.counts(EVERYONE).players_above(rating)
    if row.federation is None:
        return world, None
    return world, 1 + newest.counts(ListFilter(federation=row.federation)).players_above(rating)


def _history(
    session: Session, pool: Pool, player: Player, newest: Period | None
) -> list[HistoryRow]:
    """One row per published list since the player's first, unchanged lists carried over."""
    entries = {
        entry.period: entry
        for entry in session.scalars(
            select(ListEntry).where(ListEntry.pool == pool, ListEntry.player_id == player.id)
        )
    }
    if not entries or newest is None:
        return []
    first = min(entries)
    rows = []
    carried = entries[first]
    for period in cadence.list_periods(pool, first, newest):
        entry = entries.get(period)
        carried = entry or carried
        rating = carried.rating if carried.listed else None
        if entry is None:
            rows.append(
                HistoryRow(
                    period, period.list_name, rating, 0 if rating is not None else None, 0, None
                )
            )
        else:
            rows.append(
                HistoryRow(
                    period, period.list_name, rating, entry.change, entry.games, entry.k_applied
                )
            )
    return rows


def _live(
    session: Session,
    pool: Pool,
    player: Player,
    state: rules.RatingState | None,
    newest: Period | None,
) -> LiveRating | None:
    """8.3 applied, unofficially, to the games recorded after the newest list."""
    if state is None or newest is None:
        return None
    rated_games = _live_games(session, pool, player, state, newest)
    if not rated_games:
        return None
    outcome = rules.rate_period(state, cadence.next_list_period(pool, newest), rated_games)
    return LiveRating(outcome.state.rating, outcome.change, len(rated_games), newest)


def _live_games(
    session: Session, pool: Pool, player: Player, state: rules.RatingState, newest: Period
) -> list[rules.RatedGame]:
    """The player's rated games after the newest list, each with its PD as the close would
    take it (`rules.period_expected_scores`)."""
    opponent = aliased(PlayerRating)
    by_period: dict[Period, list[tuple[int, rules.PairedGame, int]]] = {}
    for own, other, is_white in (
        (Game.white_id, Game.black_id, True),
        (Game.black_id, Game.white_id, False),
    ):
        rows = session.execute(
            select(Game.id, Game.period, Game.event_id, Game.result, other, opponent.rating)
            .join(opponent, (opponent.player_id == other) & (opponent.pool == pool))
            .where(Game.pool == pool, Game.period > newest, own == player.id, Game.rated)
        )
        for game_id, period, event, result, other_id, opponent_rating in rows:
            if not result.is_played or opponent_rating is None:
                continue
            # from the player's side, so that the first PD is theirs
            game = rules.PairedGame(player.id, other_id, event, state.rating, opponent_rating)
            score = result.score(white=is_white)
            by_period.setdefault(period, []).append((game_id, game, score))
    rated_games = []
    for period, games in by_period.items():
        games.sort(key=lambda played: played[0])  # the order the games were recorded in
        pairings = rules.PeriodPairings.of(pool, period)
        paired = [game for _, game, _ in games]
        scores = [score for _, _, score in games]
        for score, expected in zip(
            scores, rules.period_expected_scores(pairings, paired), strict=True
        ):
            if expected is not None:
                rated_games.append(rules.RatedGame(score, expected[0]))
    return rated_games


@dataclass(frozen=True, slots=True)
class RatingOnDay:
    """A player's rating on the list in force on a day (`rating` None: not on that list)."""

    id: int
    pool: Pool
    date: dt.date
    period: Period
    list_name: str
    rating: int | None


def rating_on(session: Session, player_id: int, pool: Pool, day: dt.date) -> RatingOnDay:
    """The rating of `player_id` in force on `day`: their row on the newest list published
    before it, as their history shows it (an unchanged list carries the rating over)."""
    period, _ = published_period(session, pool, as_of=day)
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound(f"no player with ID {player_id}.")
    in_pool = select(PlayerRating.player_id).where(
        PlayerRating.player_id == player_id, PlayerRating.pool == pool
    )
    history = (
        _history(session, pool, player, newest_closed_period(session, pool))
        if session.scalar(in_pool) is not None
        else []
    )
    ratings = [row.rating for row in history if row.period == period]
    return RatingOnDay(player_id, pool, day, period, period.list_name, next(iter(ratings), None))
