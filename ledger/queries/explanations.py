"""FIDE's "individual calculations": how a published change came about, game by game.

Read side only. Every figure comes from what the close stored (the ratings used and each
side's expected score per game, the list row's K and unrounded K x ΣΔR); the rule of 400 is
shown by applying `ledger.core.rules.rating_difference` to those stored ratings.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import func, literal, select, union_all
from sqlalchemy.orm import Session, aliased

from ledger.core import rules
from ledger.core.domain import GameResult, Period, Pool
from ledger.core.errors import NotFound
from ledger.queries.lists.in_force import published_period
from ledger.queries.pooling import FirstRating, first_rating
from ledger.storage.models import Event, Game, GameRating, Import, ListEntry, Player
from ledger.storage.periods import newest_closed_period

HUNDRED = Decimal(100)


@dataclass(frozen=True, slots=True)
class ExplainedGame:
    """One game from the explained player's side. D, PD and ΔR are None if it was not rated."""

    game_id: int
    date: dt.date
    event: str | None
    round: int | None
    colour: str
    rating: int | None
    opponent: int
    opponent_name: str
    opponent_rating: int | None
    result: str
    score: Decimal
    d: int | None
    d_capped: int | None
    pd: Decimal | None
    delta: Decimal | None
    not_rated_because: str | None


@dataclass(frozen=True, slots=True)
class EventTotal:
    """ΣΔR of one event's rated games, and K x ΣΔR with the period's K."""

    event: str | None
    games: int
    sum: Decimal
    k_times_sum: Decimal | None


@dataclass(frozen=True, slots=True)
class Explanation:
    """A player's calculation for one period: `games` are the rated games, by event;
    `rules` the era of FIDE's rules the period was rated by, with its caps and floor;
    `first_rating` the whole 8.2 calculation of a player first rated on this list."""

    pool: Pool
    period: Period
    player: int
    name: str
    rating_before: int | None
    unrated_games: list[ExplainedGame]
    events: list[EventTotal]
    k: int | None
    k_reason: str | None
    rules: rules.RulesInForce
    sum: Decimal
    k_times_sum: Decimal | None
    change: int | None
    rating_after: int | None
    note: str | None
    games: list[ExplainedGame]
    first_rating: FirstRating | None = None


def explain(
    session: Session, pool: Pool, player_id: int, period: Period | None = None
) -> Explanation:
    """The calculation behind `player_id`'s row on the list of `period` (default: the newest
    closed period in which they had games)."""
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound(f"no player with ID {player_id}.")
    period = _period(session, pool, player_id, period)
    games = _capped_once_an_event(
        [_game(pool, period, player_id, row) for row in _games(session, pool, period, player_id)],
        rules.PeriodPairings.of(pool, period),
    )
    if not games:
        raise NotFound(
            _imported(session, pool, player_id, period)
            or f"player {player_id} had no games in {pool} period {period}."
        )
    entry = session.get(ListEntry, (pool, player_id, period))
    rated = [game for game in games if game.not_rated_because is None]
    k = entry.k_applied if entry else None
    rating_before = _rating_before(entry, games)
    return Explanation(
        pool=pool,
        period=period,
        player=player_id,
        name=player.name,
        rating_before=rating_before,
        unrated_games=[game for game in games if game.not_rated_because is not None],
        events=_event_totals(rated, k),
        k=k,
        k_reason=_k_reason(entry, player.birth_year, period),
        rules=rules.rules_in_force(pool, period),
        sum=sum((game.delta or Decimal(0) for game in rated), Decimal(0)),
        k_times_sum=None if entry is None else _optional_hundredths(entry.k_times_sum),
        change=entry.change if entry else (0 if rating_before is not None else None),
        rating_after=entry.rating if entry else rating_before,
        note=_note(entry, period),
        games=rated,
        first_rating=(
            first_rating(session, pool, player_id, period, newest_closed_period(session, pool))
            if entry is not None and entry.change is None
            else None
        ),
    )


def _period(session: Session, pool: Pool, player_id: int, period: Period | None) -> Period:
    newest = newest_closed_period(session, pool)
    if newest is None:
        raise NotFound(f"no {pool} period has been closed yet; nothing is rated.")
    if period is not None:
        if period > newest:
            raise NotFound(f"{pool} period {period} is not closed; its games are not rated yet.")
        published_period(session, pool, period)
        return period
    played = session.scalar(
        select(func.max(Game.period)).where(
            Game.pool == pool,
            (Game.white_id == player_id) | (Game.black_id == player_id),
            Game.period <= newest,
        )
    )
    if played is None:
        raise NotFound(
            _imported(session, pool, player_id, newest)
            or f"player {player_id} has no games in a closed {pool} period."
        )
    return played


def _imported(session: Session, pool: Pool, player_id: int, period: Period) -> str | None:
    """Why there is nothing to explain when the player's row in force came from a FIDE list."""
    row = session.execute(
        select(ListEntry.period, ListEntry.rating, Import.file_name)
        .join(Import, Import.id == ListEntry.import_id)
        .where(ListEntry.pool == pool, ListEntry.player_id == player_id, ListEntry.period <= period)
        .order_by(ListEntry.period.desc())
        .limit(1)
    ).first()
    if row is None:
        return None
    return (
        f"player {player_id}'s {pool} rating {row.rating} on the list of {row.period} was "
        f"imported from {row.file_name}; the ledger has no games of theirs to explain."
    )


def _games(session: Session, pool: Pool, period: Period, player_id: int) -> Iterable[Any]:
    """The player's games of the period as White and as Black, with the close's figures."""
    opponent = aliased(Player)
    sides = []
    for colour, own, other in (
        ("white", Game.white_id, Game.black_id),
        ("black", Game.black_id, Game.white_id),
    ):
        sides.append(
            select(
                Game.id,
                Game.date,
                Event.name.label("event"),
                Game.round,
                literal(colour).label("colour"),
                other.label("opponent"),
                opponent.name.label("opponent_name"),
                Game.result,
                Game.rated,
                GameRating.white_rating,
                GameRating.black_rating,
                GameRating.white_expected,
                GameRating.black_expected,
            )
            .join(GameRating, GameRating.game_id == Game.id)
            .join(opponent, opponent.id == other)
            .outerjoin(Event, Event.id == Game.event_id)
            .where(Game.pool == pool, Game.period == period, own == player_id)
        )
    rows = session.execute(union_all(*sides)).all()
    return sorted(rows, key=lambda row: (row.date, row.round or 0, row.id))


def _game(pool: Pool, period: Period, player_id: int, row: Any) -> ExplainedGame:
    white = row.colour == "white"
    own, opponent = (
        (row.white_rating, row.black_rating) if white else (row.black_rating, row.white_rating)
    )
    expected = row.white_expected if white else row.black_expected
    result = GameResult(row.result)
    score = result.score(white=white)
    rated = expected is not None
    return ExplainedGame(
        game_id=row.id,
        date=row.date,
        event=row.event,
        round=row.round,
        colour=row.colour,
        rating=own,
        opponent=row.opponent,
        opponent_name=row.opponent_name,
        opponent_rating=opponent,
        result=result.value,
        score=_hundredths(score),
        d=own - opponent if rated else None,
        d_capped=rules.rating_difference(own, opponent, pool, period) if rated else None,
        pd=_hundredths(expected) if rated else None,
        delta=_hundredths(score - expected) if rated else None,
        not_rated_because=None if rated else _not_rated_because(row, own, opponent),
    )


def _capped_once_an_event(
    games: list[ExplainedGame], pairings: rules.PeriodPairings
) -> list[ExplainedGame]:
    """`games` with D after the cap as the close took it where the cap applies once an
    event (8.3.1 from January 2022 to February 2024, `rules.PeriodPairings.event_differences`):
    per event, in the order of the games recorded (a game without event is one of its own)."""
    if not pairings.cap_once_per_event:
        return games
    events: dict[object, list[ExplainedGame]] = {}
    for game in sorted(games, key=lambda game: game.game_id):
        if game.d_capped is not None:
            events.setdefault(game.event or game.game_id, []).append(game)
    capped: dict[int, int] = {}
    for played in events.values():
        own = played[0].rating
        assert own is not None
        opponents = [game.opponent_rating or 0 for game in played]
        differences = pairings.event_differences(own, opponents)
        capped.update(zip((game.game_id for game in played), differences, strict=True))
    return [
        dataclasses.replace(game, d_capped=capped[game.game_id]) if game.game_id in capped else game
        for game in games
    ]


def _not_rated_because(row: Any, own: int | None, opponent: int | None) -> str:
    """Why a game of the period was not rated for this player (FIDE 5, 7, 8.3.1)."""
    if not GameResult(row.result).is_played:
        return "forfeit: stored, never rated"
    if not row.rated:
        return "not rated by the arbiter"
    if own is None and opponent is not None:
        return "unrated player: counts toward a first rating"
    if own is None:
        return "both players unrated"
    if opponent is None:
        return "opponent unrated"
    return "rapid or blitz players 600 or more apart, one above 2600"


def _rating_before(entry: ListEntry | None, games: list[ExplainedGame]) -> int | None:
    """The rating on the list in force at the start of the period (None if unrated)."""
    if entry is not None:
        return None if entry.change is None else entry.rating - entry.change
    return next((game.rating for game in games), None)


def _event_totals(games: list[ExplainedGame], k: int | None) -> list[EventTotal]:
    events: dict[str | None, list[ExplainedGame]] = {}
    for game in games:
        events.setdefault(game.event, []).append(game)
    totals = []
    for event, played in events.items():
        total = sum((game.delta or Decimal(0) for game in played), Decimal(0))
        totals.append(EventTotal(event, len(played), total, None if k is None else k * total))
    return totals


def _k_reason(entry: ListEntry | None, birth_year: int | None, period: Period) -> str | None:
    if entry is None or entry.k_rule is None or entry.k_applied is None:
        return None
    rule = rules.KRule.from_key(entry.k_rule)
    return rules.k_reason(rule, entry.k_applied, entry.games, birth_year, period)


def _note(entry: ListEntry | None, period: Period) -> str | None:
    if entry is None:
        return None
    if entry.change is None:
        return f"first rating {entry.rating}, from the games pooled under FIDE 8.2"
    if not entry.listed:
        floor = rules.rating_floor(period)
        return f"{entry.rating} is below {floor}: unrated from this list on (7.1.4)"
    return None


def _hundredths(value: int) -> Decimal:
    return Decimal(value) / HUNDRED


def _optional_hundredths(value: int | None) -> Decimal | None:
    return None if value is None else _hundredths(value)
