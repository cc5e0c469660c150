"""Benchmark: the ledger's imports and close against hand-written SQL on the same CSVs.

Writes N players and M games of one period as the CSVs of `ledger import-players` and
`ledger import-games`, then, in one run and on each backend:

- the ledger: `ledger db upgrade`, `ledger import-players`, `ledger import-games` and
  `ledger close-period`, each a new process as a user runs it, then `ledger db check`;
- the reference, `../shared/bench/reference_close.py` (or `--reference PATH`): the same CSVs
  loaded into a bare schema and closed in set-based SQL;
- a later month of `--next-games` games on the published list, closed by both.

It prints each step's seconds, the reference's, the ratio and the ledger's peak memory.
Run by hand:

    python benchmarks/against_reference.py --players 100000 --games 200000
    python benchmarks/against_reference.py --players 1000000 --games 500000 --next-games 50000
    python benchmarks/against_reference.py --backend postgresql \\
        --postgresql-url postgresql+psycopg://postgres@127.0.0.1:5432/test

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from close_period import database

from ledger.formats.csvfiles import GAME_COLUMNS, GAME_OPTIONAL_COLUMNS

PERIOD = "2026-09"
NEXT_PERIOD = "2026-10"
REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "bench" / "reference_close.py"
RESULTS = ("1-0", "0-1", "1/2-1/2")


PLAYER_COLUMNS = (
    "id",
    "name",
    "federation",
    "sex",
    "title",
    "birth_year",
    "rating",
    "games",
    "ever_2400",
)
"""The players file's columns: every one the reference reads, and the ledger's import."""


def write_players(path: Path, count: int, randomness: random.Random) -> None:
    with path.open("w", newline="") as file:
        out = csv.writer(file)
        out.writerow(PLAYER_COLUMNS)
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


def write_games(
    path: Path, players: int, count: int, randomness: random.Random, period: str = PERIOD
) -> None:
    with path.open("w", newline="") as file:
        out = csv.writer(file)
        out.writerow(GAME_COLUMNS + GAME_OPTIONAL_COLUMNS)
        for _ in range(count):
            white, black = randomness.sample(range(1, players + 1), 2)
            out.writerow(
                [
                    f"{period}-{randomness.randint(1, 28):02d}",
                    white,
                    black,
                    randomness.choice(RESULTS),
                    "",
                    "",
                ]
            )


@dataclass(frozen=True)
class Step:
    """A ledger command's seconds and peak memory (the largest resident set, MiB)."""

    seconds: float
    peak_mib: float

    def __add__(self, other: Step) -> Step:
        return Step(self.seconds + other.seconds, max(self.peak_mib, other.peak_mib))


def ledger(*arguments: str) -> Step:
    """Run one ledger command in a new process, as a user does."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "ledger", *arguments], stdout=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"ledger {' '.join(arguments)} failed with exit {process.returncode}")
    return Step(seconds, usage.ru_maxrss / 1024)


def reference(
    script: Path, players: Path, games: Path, period: str, postgresql: str | None
) -> tuple[float, float]:
    command = [sys.executable, str(script), str(players), str(games), period]
    if postgresql:
        command += ["--postgresql", postgresql]
    printed = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    load, close = re.findall(r"reference (?:load|close): ([\d.]+) s", printed)
    return float(load), float(close)


def row(step: str, ours: Step, theirs: float) -> None:
    print(
        f"  {step:<40} {ours.seconds:8.2f} s {theirs:8.2f} s {ours.seconds / theirs:6.1f}x"
        f" {ours.peak_mib:8.0f} MiB",
        flush=True,
    )


def run(backend: str, postgresql_url: str, files: dict[str, Path], script: Path) -> None:
    players, games, later = files["players"], files["games"], files["later"]
    with (
        database(backend, postgresql_url) as url,
        database(backend, postgresql_url) as bare,
        database(backend, postgresql_url) as bare_later,
    ):
        psycopg_url = None if backend == "sqlite" else bare.replace("+psycopg", "")
        theirs_load, theirs_close = reference(script, players, games, PERIOD, psycopg_url)
        later_url = None if backend == "sqlite" else bare_later.replace("+psycopg", "")
        _, theirs_later = reference(script, players, later, NEXT_PERIOD, later_url)
        ledger("db", "upgrade", "--db", url)
        load = ledger("import-players", str(players), "--db", url)
        load += ledger("import-games", str(games), "--db", url)
        close = ledger("close-period", PERIOD, "--db", url)
        ledger("import-games", str(later), "--db", url)
        close_later = ledger("close-period", NEXT_PERIOD, "--db", url)
        check = ledger("db", "check", "--db", url)
    print(f"{backend}:  {'step':<40} {'ledger':>10} {'reference':>10} {'ratio':>7} {'peak':>12}")
    row("import-players + import-games", load, theirs_load)
    row(f"close-period {PERIOD}", close, theirs_close)
    row(f"close-period {NEXT_PERIOD} ({later_count(later):,} games)", close_later, theirs_later)
    print(f"  db check after the closes: agrees ({check.seconds:.2f} s)", flush=True)


def later_count(path: Path) -> int:
    with path.open() as file:
        return sum(1 for _ in file) - 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--next-games", type=int, default=20_000)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument(
        "--postgresql-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )
    parser.add_argument(
        "--reference",
        type=Path,
        default=REFERENCE,
        help="reference_close.py (default: ../shared/bench/ beside the repository)",
    )
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    if not options.reference.is_file():
        parser.error(f"no reference script at {options.reference}; pass --reference PATH")
    randomness = random.Random(options.seed)
    with tempfile.TemporaryDirectory() as directory:
        files = {name: Path(directory) / f"{name}.csv" for name in ("players", "games", "later")}
        write_players(files["players"], options.players, randomness)
        write_games(files["games"], options.players, options.games, randomness)
        write_games(files["later"], options.players, options.next_games, randomness, NEXT_PERIOD)
        print(f"{options.players:,} players, {options.games:,} games in {PERIOD}")
        backends = ("sqlite", "postgresql") if options.backend == "both" else (options.backend,)
        for backend in backends:
            run(backend, options.postgresql_url, files, options.reference)


if __name__ == "__main__":
    main()
