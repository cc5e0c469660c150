"""An event's cross-table: players, starting ratings, scores, round by round results and
byes, the average rating and FIDE category, performance ratings and each player's rating
change.

Read side only. Players, numbers, ranks and ratings are `ledger.queries.entrants`': the
report's own numbers and standings, the ratings the close used (or, before the event's
period is closed, the ratings in force); the change is K x ΣΔR over the event's games, as
FIDE shows it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.core import cadence, calculator, rules
from ledger.core.domain import ByeKind, GameResult, Period, Pool
from ledger.core.reports import final_places
from ledger.queries.entrants import EventEntrant, event_entrants
from ledger.queries.overviews import unknown_event
from ledger.storage.models import Bye, Event, Game, GameRating
from ledger.storage.periods import is_closed, newest_closed_period

_SYMBOL = {100: "1", 50: "½", 0: "0"}
_FORFEIT_SYMBOL = {100: "+", 0: "-"}


@dataclass(frozen=True, slots=True)
class CrossGame:
    """A player's round: the opponent's number, colour (`w`, `b`; `-` for a forfeit
    reported without colours and for a bye) and result (1, ½, 0; + and - for forfeits), or
    a bye: `bye` is its TRF code (H, F, U, Z) and `opponent` None."""

    round: int
    opponent: int | None
    colour: str
    result: str
    bye: str | None = None


@dataclass(frozen=True, slots=True)
class CrossRow:
    """A player's row: `rank` is the place in the standings (the report's own, where the
    event was imported from one), `number` the starting number the rounds name players by;
    `score` counts byes as FIDE scores them (`ByeKind.score`)."""

    rank: int
    number: int
    id: int
    name: str
    federation: str | None
    rating: int | None
    score: Decimal
    games: list[CrossGame]
    performance: int | None
    change: Decimal | None

    def by_round(self, rounds: int) -> list[list[CrossGame]]:
        """The row's cells of rounds 1 to `rounds`, each round's apart (two, where a report
        gave a player two games in one round; none, where the player did not play)."""
        cells: list[list[CrossGame]] = [[] for _ in range(rounds)]
        for cell in self.games:
            if 1 <= cell.round <= rounds:
                cells[cell.round - 1].append(cell)
        return cells


@dataclass(frozen=True, slots=True)
class CrossTable:
    pool: Pool
    event: str
    start_date: dt.date
    end_date: dt.date
    period: Period
    rated: bool
    rounds: int
    average_rating: int | None
    category: int | None
    rows: list[CrossRow]
    """In the order of the standings."""


@dataclass
class _Standing:
    """What an entrant's row adds up: its cells, score, games against rated opponents and
    ΣΔR."""

    entrant: EventEntrant
    cells: list[CrossGame] = field(default_factory=list)
    score: int = 0
    played: bool = False
    rated_opponents: list[tuple[int, int]] = field(default_factory=list)
    delta: int = 0


def cross_table(session: Session, pool: Pool, name: str) -> CrossTable:
    """The event's cross-table: every player with a game, a bye or a line of its report,
    with the report's points in the report's order of standings (else scored by FIDE's
    defaults, by score), each with the starting number the rounds name them by and the
    rating the event is rated with."""
    event = session.scalars(select(Event).where(Event.pool == pool, Event.name == name)).first()
    if event is None:
        raise unknown_event(session, pool, name)
    period = cadence.list_period(pool, Period.of(event.end_date))
    rated = is_closed(period, newest_closed_period(session, pool))
    entrants = event_entrants(session, pool, event.id, period, rated=rated)
    standings = {entrant.id: _Standing(entrant) for entrant in entrants}
    _add_games(session, event.id, standings)
    _add_byes(session, event.id, standings)
    if entrants and all(entrant.points is not None for entrant in entrants):
        for standing in standings.values():
            standing.score = standing.entrant.points or 0
    ratings = [s.entrant.rating for s in standings.values() if s.played and s.entrant.rating]
    average = rules.divide_half_up(sum(ratings), len(ratings)) if ratings else None
    return CrossTable(
        pool=pool,
        event=event.name,
        start_date=event.start_date,
        end_date=event.end_date,
        period=period,
        rated=rated,
        rounds=max((cell.round for s in standings.values() for cell in s.cells), default=0),
        average_rating=average,
        category=calculator.tournament_category(average) if average else None,
        rows=[_row(rank, standing) for rank, standing in _ranked(list(standings.values()))],
    )


def _add_games(session: Session, event_id: int, standings: dict[int, _Standing]) -> None:
    games = session.execute(
        select(
            Game.round,
            Game.result,
            Game.colours,
            Game.white_id,
            Game.black_id,
            GameRating.white_expected,
            GameRating.black_expected,
        )
        .outerjoin(GameRating, GameRating.game_id == Game.id)
        .where(Game.event_id == event_id)
        .order_by(Game.round.nulls_last(), Game.date, Game.id)
    ).all()
    numbered = max((game.round for game in games if game.round), default=0)
    for game in games:
        for side, other in (("white", "black"), ("black", "white")):
            _add_side(standings, game, side, other, numbered)


def _add_side(
    standings: dict[int, _Standing], game: Any, side: str, other: str, numbered: int
) -> None:
    """One player's side of a game: the cross-table cell, the score and the ΔR.

    A game without a round number takes the player's next column after the event's last
    numbered round.
    """
    result = GameResult(game.result)
    score = result.score(white=side == "white")
    standing = standings[getattr(game, f"{side}_id")]
    opponent = standings[getattr(game, f"{other}_id")].entrant
    symbol = (_SYMBOL if result.is_played else _FORFEIT_SYMBOL).get(score, "-")
    round_number = game.round or max([numbered, *(c.round for c in standing.cells)]) + 1
    colour = side[0] if game.colours else "-"
    standing.cells.append(CrossGame(round_number, opponent.number, colour, symbol))
    standing.score += score
    standing.played = True
    if result.is_played and opponent.rating is not None:
        standing.rated_opponents.append((opponent.rating, score))
    expected = getattr(game, f"{side}_expected")
    if expected is not None:
        standing.delta += score - expected


def _add_byes(session: Session, event_id: int, standings: dict[int, _Standing]) -> None:
    """Each bye's cell and score."""
    byes = session.execute(
        select(Bye.round, Bye.player_id, Bye.kind).where(Bye.event_id == event_id)
    )
    for bye in byes:
        standing = standings[bye.player_id]
        kind = ByeKind(bye.kind)
        standing.cells.append(CrossGame(bye.round, None, "-", _SYMBOL[kind.score], kind.code))
        standing.score += kind.score


def _ranked(standings: list[_Standing]) -> list[tuple[int, _Standing]]:
    """The standings in order, each with its rank: the report's ranks, the players it does
    not rank after them by score, then rating, name and ID (`final_places`)."""
    by_score = sorted(
        standings,
        key=lambda s: (-s.score, -(s.entrant.rating or 0), s.entrant.name, s.entrant.id),
    )
    places = final_places(
        {s.entrant.id: s.entrant.rank for s in standings}, (s.entrant.id for s in by_score)
    )
    order = sorted(standings, key=lambda s: (places[s.entrant.id], s.entrant.number))
    return [(places[s.entrant.id], s) for s in order]


def _row(rank: int, standing: _Standing) -> CrossRow:
    """The entrant's row; performance by table 8.1.1 over the games against rated players."""
    opponents = standing.rated_opponents
    performance = (
        calculator.performance_rating(
            [rating for rating, _ in opponents], sum(s for _, s in opponents)
        )
        if opponents
        else None
    )
    entrant = standing.entrant
    return CrossRow(
        rank=rank,
        number=entrant.number,
        id=entrant.id,
        name=entrant.name,
        federation=entrant.federation,
        rating=entrant.rating,
        score=Decimal(standing.score) / 100,
        games=sorted(standing.cells, key=lambda cell: cell.round),
        performance=performance,
        change=None if entrant.k is None else Decimal(entrant.k * standing.delta) / 100,
    )
