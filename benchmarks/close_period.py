"""Benchmark: close a large period and read the newest list, on SQLite and PostgreSQL.

Generates N players (rated, with random starting states) and M games of one period through
the ledger's bulk services, then times `close-period` and `list --top 10` (the query, and
the whole CLI command in a fresh process). The first close publishes every player; a second
period with fewer games (`--next-games`, played by a fraction of the list, as in a real
month) shows that a close costs what the period's games cost, not the list's length.
Run by hand:

    python benchmarks/close_period.py --players 100000 --games 200000
    python benchmarks/close_period.py --backend postgresql --postgresql-url postgresql+psycopg://...

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import psycopg
from sqlalchemy.engine import make_url

from ledger.core.domain import GameResult, Period, Pool
from ledger.core.records import NewGame, NewPlayer, StartingRating
from ledger.queries import cards, explanations
from ledger.queries import lists as queries
from ledger.queries.lists.whole import whole_list_cells
from ledger.services.closing import close_period
from ledger.services.games import add_games
from ledger.services.players import add_players
from ledger.storage.database import open_ledger

PERIOD = Period(2026, 9)
NOW = dt.datetime(2026, 11, 1)
T = TypeVar("T")


def players(count: int, randomness: random.Random) -> list[NewPlayer]:
    return [
        NewPlayer(
            name=f"Player {number:07d}",
            federation=randomness.choice(("NOR", "IND", "USA", "GER", "FRA")),
            sex=randomness.choice(("M", "M", "F")),
            birth_year=randomness.randint(1950, 2016),
            starting=StartingRating(
                rating := randomness.randint(1400, 2800),
                randomness.choice((0, 10, 29, 30, 200)),
                rating >= 2400,
                rating,
            ),
        )
        for number in range(count)
    ]


def games(
    count: int, ids: list[int], randomness: random.Random, period: Period = PERIOD
) -> list[NewGame]:
    results = list(GameResult)[:3]
    return [
        NewGame(
            date=dt.date(period.year, period.month, randomness.randint(1, 28)),
            white=(pair := randomness.sample(ids, 2))[0],
            black=pair[1],
            result=randomness.choice(results),
            event=f"{period} event {randomness.randint(1, 500)}",
        )
        for _ in range(count)
    ]


def timed(label: str, work: Callable[[], T]) -> T:
    started = time.perf_counter()
    result = work()
    print(f"  {label:<34} {time.perf_counter() - started:8.2f} s", flush=True)
    return result


@contextmanager
def database(backend: str, postgresql_url: str) -> Iterator[str]:
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as directory:
            yield f"sqlite:///{Path(directory) / 'bench.db'}"
        return
    server = make_url(postgresql_url)
    name = f"ledger_bench_{uuid.uuid4().hex[:8]}"
    admin = {
        "host": server.host,
        "port": server.port or 5432,
        "user": server.username,
        "password": server.password,
        "dbname": server.database,
        "autocommit": True,
    }
    with psycopg.connect(**admin) as connection:  # type: ignore[arg-type]
        connection.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(**admin) as connection:  # type: ignore[arg-type]
            connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')  # type: ignore[arg-type]


def run(
    backend: str, url: str, player_count: int, game_count: int, next_games: int, seed: int
) -> None:
    print(f"{backend}: {player_count:,} players, {game_count:,} games in {PERIOD}")
    randomness = random.Random(seed)
    ledger = open_ledger(url)
    roster = players(player_count, randomness)

    def load_players() -> list[int]:
        with ledger.transaction() as session:
            return add_players(session, Pool.STANDARD, roster)

    ids = timed("add players (bulk)", load_players)
    reported = games(game_count, ids, randomness)

    def load_games() -> None:
        with ledger.transaction() as session:
            add_games(session, Pool.STANDARD, reported)

    timed("add games (bulk)", load_games)

    def close(period: Period) -> None:
        with ledger.transaction() as session:
            summary = close_period(session, Pool.STANDARD, period, NOW)
        print(f"    {summary.games_rated:,} games rated, {summary.players_rated:,} players rated")

    timed(f"close-period {PERIOD}", lambda: close(PERIOD))
    following = PERIOD + 1
    active = randomness.sample(ids, max(2, len(ids) // 20))
    month = games(next_games, active, randomness, following)

    def load_month() -> None:
        with ledger.transaction() as session:
            add_games(session, Pool.STANDARD, month)

    timed(f"add {next_games:,} games in {following}", load_month)
    timed(f"close-period {following}", lambda: close(following))

    def top_ten() -> None:
        with ledger.reading() as session:
            queries.rating_list(session, Pool.STANDARD, top=10)

    timed("list --top 10 (query)", top_ten)

    def filtered() -> None:
        with ledger.reading() as session:
            only = queries.ListFilter(federation="NOR", women=True)
            queries.rating_list(session, Pool.STANDARD, top=10, only=only)

    timed("list --top 10 --federation --women", filtered)

    def older() -> None:
        with ledger.reading() as session:
            queries.rating_list(session, Pool.STANDARD, PERIOD, top=10)

    timed(f"list --period {PERIOD} --top 10", older)
    someone = active[0]

    def explain() -> None:
        with ledger.reading() as session:
            explanations.explain(session, Pool.STANDARD, someone)

    timed("explain PLAYER", explain)

    def card() -> None:
        with ledger.reading() as session:
            cards.player_card(session, someone)

    timed("player PLAYER", card)

    def whole_list() -> None:
        with ledger.reading() as session:
            queries.rating_list(session, Pool.STANDARD)

    timed("list, all rows (query)", whole_list)

    def whole_list_streamed() -> None:
        with ledger.reading() as session:
            for _ in whole_list_cells(session, Pool.STANDARD):
                pass

    timed("list, all rows as read (query)", whole_list_streamed)
    ledger.dispose()
    command = [sys.executable, "-m", "ledger", "list", "--top", "10", "--db", url]
    timed(
        "ledger list --top 10 (new process)",
        lambda: subprocess.run(command, check=True, capture_output=True),
    )


Benchmark = Callable[[str, str, int, int, int, int], None]


def command_line(description: str, benchmark: Benchmark) -> None:
    """Run `benchmark` on each backend asked for, with the options every benchmark shares."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--next-games", type=int, default=20_000)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument(
        "--postgresql-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    backends = ("sqlite", "postgresql") if arguments.backend == "both" else (arguments.backend,)
    for backend in backends:
        with database(backend, arguments.postgresql_url) as url:
            benchmark(
                backend,
                url,
                arguments.players,
                arguments.games,
                arguments.next_games,
                arguments.seed,
            )


if __name__ == "__main__":
    command_line(__doc__.splitlines()[0], run)
