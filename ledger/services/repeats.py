"""Refusing what would rate a game twice: a game the ledger already holds or the same batch
gives twice (`ledger.core.records.same_game_key`), and a player's second game in one round
of an event. Every path that records games (a game, a CSV, a TRF or a PGN file) passes
here, through `ledger.services.games.add_games`; a game played again (a match of several
games on one day) is recorded on purpose by leaving this check out.

The recorded games compared are read set-wise: those of the batch's events, and those
without an event of the batch's players in the batch's days (an index on White and date).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.core.domain import Pool
from ledger.core.records import NewGame, problem, same_game_key, same_game_keys
from ledger.storage.batches import AnyRow, select_in
from ledger.storage.models import Game

_RoundKey = tuple[str, int, int]
"""An event, a round and a player: one game at most."""


def repeat_problems(
    session: Session, pool: Pool, games: Sequence[NewGame], event_ids: Mapping[str, int]
) -> list[str]:
    """A problem for each game of `games` that repeats a recorded or an earlier one, or
    gives a player a second game in one round of an event (naming the first recorded, or
    the earlier line). `event_ids` are the ledger IDs of the batch's events that the ledger
    already holds."""
    names = {event_id: name for name, event_id in event_ids.items()}
    recorded = [
        (
            NewGame(
                row.date, row.white_id, row.black_id, row.result, names.get(row.event_id), row.round
            ),
            row.id,
        )
        for row in sorted(_recorded(session, pool, games, event_ids.values()), key=lambda r: r.id)
    ]
    if not _any_repeated([game for game, _ in recorded], games):
        return []
    same: dict[tuple[object, ...], str] = {}
    rounds: dict[_RoundKey, str] = {}
    for game, game_id in recorded:
        _remember(game, f"game {game_id}, already in the ledger", same, rounds)
    problems = []
    for game in games:
        found = _repeated(game, same, rounds)
        if found is not None:
            problems.append(problem(game.source, found))
        _remember(game, game.source or "another game given", same, rounds)
    return problems


def _any_repeated(recorded: Sequence[NewGame], games: Sequence[NewGame]) -> bool:
    """Whether any game of `games` repeats a recorded or an earlier one, or a player's game
    in a round: checked set-wise, so that a batch without repeats (the usual one) is not
    read game by game to name them."""
    keys = _same_keys(games)
    round_keys = _all_round_keys(games)
    return (
        len(set(keys)) < len(keys)
        or len(set(round_keys)) < len(round_keys)
        or not set(_same_keys(recorded)).isdisjoint(keys)
        or not set(_all_round_keys(recorded)).isdisjoint(round_keys)
    )


def _same_keys(games: Sequence[NewGame]) -> list[tuple[object, ...]]:
    if not games:
        return []
    dates, whites, blacks, _, events, rounds, *_ = zip(*games, strict=True)
    return same_game_keys(dates, whites, blacks, events, rounds)


def _all_round_keys(games: Sequence[NewGame]) -> list[_RoundKey]:
    return [key for game in games if game.round is not None for key in _round_keys(game)]


def _same_key(game: NewGame) -> tuple[object, ...]:
    return same_game_key(game.date, game.white, game.black, game.event, game.round)


def _repeated(
    game: NewGame, same: dict[tuple[object, ...], str], rounds: dict[_RoundKey, str]
) -> str | None:
    key = _same_key(game)
    if key in same:
        return f"the same game as {same[key]}."
    for round_key in _round_keys(game):
        other = rounds.get(round_key)
        if other is not None:
            event, round_, player = round_key
            return (
                f"player {player} already has a game in round {round_} of {event!r}: "
                f"{other}; a player plays one game a round."
            )
    return None


def _remember(
    game: NewGame,
    name: str,
    same: dict[tuple[object, ...], str],
    rounds: dict[_RoundKey, str],
) -> None:
    same.setdefault(_same_key(game), name)
    for key in _round_keys(game):
        rounds.setdefault(key, name)


def _round_keys(game: NewGame) -> list[_RoundKey]:
    if game.event is None or game.round is None:
        return []
    return [(game.event, game.round, player) for player in (game.white, game.black)]


def _recorded(
    session: Session, pool: Pool, games: Sequence[NewGame], event_ids: Iterable[int]
) -> Iterator[AnyRow]:
    """The recorded games a game of `games` may repeat: every game of the events the batch
    adds to, and the games without an event whose White is one of the players of the
    batch's games without an event, on the days those games span."""
    columns = select(
        Game.id, Game.date, Game.white_id, Game.black_id, Game.result, Game.event_id, Game.round
    ).where(Game.pool == pool)
    if session.scalar(columns.limit(1)) is None:
        return  # a pool's first games: none to search for each player's
    yield from select_in(session, columns, Game.event_id, event_ids)
    loose = [game for game in games if game.event is None]
    if loose:
        days = Game.date.between(min(g.date for g in loose), max(g.date for g in loose))
        players = {player for game in loose for player in (game.white, game.black)}
        yield from select_in(
            session, columns.where(Game.event_id.is_(None), days), Game.white_id, players
        )
