"""Benchmark: the ledger's imports and close against hand-written SQL on the same CSVs.

Writes N players and M games of one period as the CSVs of `ledger import-players` and
`ledger import-games`, then, in one run and on each backend:

- the ledger: `ledger db upgrade`, `ledger import-players`, `ledger import-games` and
  `ledger close-period`, each a new process as a user runs it;
- the reference, `../shared/bench/reference_close.py` (or `--reference PATH`): the same CSVs
  loaded into a bare schema and closed in set-based SQL.

It prints each step's seconds, the reference's and the ratio. Run by hand:

    python benchmarks/against_reference.py --players 100000 --games 200000
    python benchmarks/against_reference.py --backend postgresql \\
        --postgresql-url postgresql+psycopg://postgres@127.0.0.1:5432/test

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import csv
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from close_period import database

PERIOD = "2026-09"
REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "bench" / "reference_close.py"
RESULTS = ("1-0", "0-1", "1/2-1/2")


def write_players(path: Path, count: int, randomness: random.Random) -> None:
    with path.open("w", newline="") as file:
        out = csv.writer(file)
        out.writerow(
            [
                "id",
                "name",
                "federation",
                "sex",
                "title",
                "birth_year",
                "rating",
                "games",
                "ever_2400",
            ]
        )
        for number in range(1, count + 1):
            rating = randomness.randint(1400, 2800)
            out.writerow(
                [
                    number,
                    f"Player {number:07d}",
                    randomness.choice(("NOR", "IND", "USA", "GER", "FRA")),
                    randomness.choice(("M", "M", "F")),
                    "",
                    randomness.randint(1950, 2016),
                    rating,
                    randomness.choice((0, 10, 29, 30, 200)),
                    "1" if rating >= 2400 else "0",
                ]
            )


def write_games(path: Path, players: int, count: int, randomness: random.Random) -> None:
    with path.open("w", newline="") as file:
        out = csv.writer(file)
        out.writerow(["date", "white", "black", "result", "event", "round"])
        for _ in range(count):
            white, black = randomness.sample(range(1, players + 1), 2)
            out.writerow(
                [
                    f"{PERIOD}-{randomness.randint(1, 28):02d}",
                    white,
                    black,
                    randomness.choice(RESULTS),
                    "",
                    "",
                ]
            )


def ledger(*arguments: str) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "ledger", *arguments], check=True, stdout=subprocess.DEVNULL
    )
    return time.perf_counter() - started


def reference(
    script: Path, players: Path, games: Path, postgresql: str | None
) -> tuple[float, float]:
    command = [sys.executable, str(script), str(players), str(games), PERIOD]
    if postgresql:
        command += ["--postgresql", postgresql]
    printed = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    load, close = re.findall(r"reference (?:load|close): ([\d.]+) s", printed)
    return float(load), float(close)


def row(step: str, ours: float, theirs: float) -> None:
    print(f"  {step:<34} {ours:8.2f} s {theirs:8.2f} s {ours / theirs:6.1f}x", flush=True)


def run(backend: str, postgresql_url: str, players: Path, games: Path, script: Path) -> None:
    with database(backend, postgresql_url) as url, database(backend, postgresql_url) as bare:
        psycopg_url = None if backend == "sqlite" else bare.replace("+psycopg", "")
        theirs_load, theirs_close = reference(script, players, games, psycopg_url)
        ledger("db", "upgrade", "--db", url)
        load = ledger("import-players", str(players), "--db", url)
        load += ledger("import-games", str(games), "--db", url)
        close = ledger("close-period", PERIOD, "--db", url)
    print(f"{backend}:  {'step':<34} {'ledger':>10} {'reference':>10} {'ratio':>7}")
    row("import-players + import-games", load, theirs_load)
    row(f"close-period {PERIOD}", close, theirs_close)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument(
        "--postgresql-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )
    parser.add_argument("--reference", type=Path, default=REFERENCE)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    randomness = random.Random(options.seed)
    with tempfile.TemporaryDirectory() as directory:
        players, games = Path(directory) / "players.csv", Path(directory) / "games.csv"
        write_players(players, options.players, randomness)
        write_games(games, options.players, options.games, randomness)
        print(f"{options.players:,} players, {options.games:,} games in {PERIOD}")
        backends = ("sqlite", "postgresql") if options.backend == "both" else (options.backend,)
        for backend in backends:
            run(backend, options.postgresql_url, players, games, options.reference)


if __name__ == "__main__":
    main()
