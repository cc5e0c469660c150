"""Benchmark: correct a result three lists back on a large ledger, on SQLite and PostgreSQL.

Builds N players and three closed months (M games in the first, `--next-games` in each of the
two after), then times `correct-game` on a game of the first month (which re-rates all three
lists and publishes their second versions), `diff` of each list, and reading the original
lists again (`list --version 1`). Run by hand:

    python benchmarks/corrections.py --players 100000 --games 200000

Timings are printed, never asserted.
"""

from __future__ import annotations

import random

from close_period import NOW, PERIOD, command_line, games, players, timed
from sqlalchemy import select

from ledger.core.domain import GameResult, Period, Pool
from ledger.queries import ListRequest, list_diff, published_list
from ledger.services import corrections
from ledger.services.closing import close_period
from ledger.services.games import add_games
from ledger.services.players import add_players
from ledger.storage.database import open_ledger
from ledger.storage.models import Game


def run(
    backend: str, url: str, player_count: int, game_count: int, next_games: int, seed: int
) -> None:
    months = [PERIOD - 1, PERIOD, PERIOD + 1]
    print(f"{backend}: {player_count:,} players; {game_count:,} games in {months[0]}, ", end="")
    print(f"{next_games:,} in each of {months[1]} and {months[2]}")
    randomness = random.Random(seed)
    ledger = open_ledger(url)
    with ledger.transaction() as session:
        ids = add_players(session, Pool.STANDARD, players(player_count, randomness))
    active = randomness.sample(ids, max(2, len(ids) // 20))
    for month, count, who in zip(
        months, (game_count, next_games, next_games), (ids, active, active), strict=True
    ):
        with ledger.transaction() as session:
            add_games(session, Pool.STANDARD, games(count, who, randomness, month))
        with ledger.transaction() as session:
            close_period(session, Pool.STANDARD, month, NOW)
    with ledger.reading() as session:
        game_id, result = session.execute(
            select(Game.id, Game.result).where(Game.period == months[0]).limit(1)
        ).one()
    corrected = GameResult.BLACK_WINS if result is not GameResult.BLACK_WINS else GameResult.DRAW

    def correct() -> None:
        with ledger.transaction() as session:
            outcome = corrections.correct_game(session, game_id, corrected, NOW)
        assert outcome.rerated is not None
        print(
            f"    {outcome.rerated.games_rated:,} games rated again, "
            f"{outcome.rerated.players_rated:,} list rows published again"
        )

    timed(f"correct-game (re-rates {len(months)} lists)", correct)
    for month in months:

        def diff(month: Period = month) -> None:
            with ledger.reading() as session:
                changes = list_diff(session, Pool.STANDARD, month)
            print(
                f"    {len(changes.changed):,} changed, {changes.unchanged:,} unchanged, "
                f"{len(changes.new_players)} new, {len(changes.removed_players)} removed"
            )

        timed(f"diff --period {month}", diff)

        def original(month: Period = month) -> None:
            with ledger.reading() as session:
                published_list(session, ListRequest(Pool.STANDARD, month, version=1, top=10))

        timed(f"list --period {month} --version 1 --top 10", original)

    def whole_original() -> None:
        with ledger.reading() as session:
            published_list(session, ListRequest(Pool.STANDARD, months[0], version=1))

    timed(f"list --period {months[0]} --version 1, all rows", whole_original)
    ledger.dispose()


if __name__ == "__main__":
    command_line(__doc__.splitlines()[0], run)
