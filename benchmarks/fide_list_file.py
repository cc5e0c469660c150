"""Benchmark input: a FIDE combined rating list (`players_list_foa.txt`) of N players.

Written through `ledger.formats.fide_list.write_fide_txt`, so in FIDE's exact layout (CRLF, fixed
columns, unrated pools as 0 0 0), and deterministic by seed: the same arguments give the same
bytes. The mix follows FIDE's October 2026 list: about three players in five unrated in all
three pools, many inactive, a few other titles (a rare one long enough to overflow its
column), FOA titles and unknown birth years. Players come in FIDE ID order (FIDE sorts by
name; the order does not matter to an import). Run by hand:

    python benchmarks/fide_list_file.py /tmp/players_list_foa.txt --players 1000000 --seed 1

Nothing is timed here; the import benchmark reads the file this writes.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from pathlib import Path

from ledger.formats.fide_list import ALL_POOLS, FideListRow, PoolRating, write_fide_txt

SURNAMES = ("Smith", "Kumar", "Garcia", "Nguyen", "Muller", "Ivanov", "Silva", "Rossi", "Novak")
GIVEN_NAMES = ("Anna", "Arjun", "Carlos", "Elena", "Ivan", "Li", "Maria", "Olga", "Peter", "Wei")
FEDERATIONS = ("IND", "GER", "ESP", "FRA", "RUS", "USA", "ITA", "POL", "TUR", "IRI", "CHN", "BRA")
OTHER_TITLES = ("IA", "FA", "NA", "FT", "FI", "DI", "NI", "IA,FA", "FA,NA", "SI,FI,LSI,SLI,NA")
OTHER_TITLE_WEIGHTS = (20, 30, 60, 15, 10, 10, 10, 5, 5, 0.01)
OPEN_TITLES = ((2500, "GM"), (2400, "IM"), (2300, "FM"), (2200, "CM"))
WOMEN_TITLES = ((2300, "WGM"), (2200, "WIM"), (2100, "WFM"), (2000, "WCM"))
UNRATED = PoolRating(None, 0, None)


def players(count: int, seed: int = 1) -> Iterator[FideListRow]:
    """`count` made-up players, the same ones for the same seed."""
    randomness = random.Random(seed)
    fide_id = 100_000
    for number in range(count):
        fide_id += randomness.randint(1, 4)
        yield player(fide_id, number, randomness)


def player(fide_id: int, number: int, randomness: random.Random) -> FideListRow:
    woman = randomness.random() < 0.15
    unrated = randomness.random() < 0.59
    ratings = {pool: UNRATED if unrated else pool_rating(randomness) for pool in ALL_POOLS}
    title, women_title = titles(
        max((rating.rating or 0) for rating in ratings.values()), woman=woman
    )
    inactive = randomness.random() < 0.4
    return FideListRow(
        fide_id=fide_id,
        name=f"{randomness.choice(SURNAMES)}{number}, {randomness.choice(GIVEN_NAMES)}",
        federation=randomness.choice(FEDERATIONS),
        sex="F" if woman else "M",
        title=title,
        women_title=women_title,
        other_titles=(
            randomness.choices(OTHER_TITLES, OTHER_TITLE_WEIGHTS)[0]
            if randomness.random() < 0.02
            else None
        ),
        foa_title=randomness.choice(("AGM", "AIM", "AFM", "ACM")) if number % 997 == 0 else None,
        ratings=ratings,
        birth_year=None if randomness.random() < 0.02 else randomness.randint(1930, 2019),
        flag=("w" if woman else "") + ("i" if inactive else ""),
        line=0,
    )


def pool_rating(randomness: random.Random) -> PoolRating:
    if randomness.random() < 0.4:
        return UNRATED
    rating = max(1400, min(2850, round(randomness.gauss(1750, 250))))
    games = randomness.choice((0, 0, 0, 0, 3, 5, 7, 9, 11))
    return PoolRating(rating, games, 10 if rating >= 2400 else randomness.choice((20, 40)))


def titles(rating: int, *, woman: bool) -> tuple[str | None, str | None]:
    """Tit and WTit: a woman without an open title has her woman's title in Tit, as in FIDE's
    lists."""
    open_title = next((name for floor, name in OPEN_TITLES if rating >= floor), None)
    if not woman:
        return open_title, None
    women_title = next((name for floor, name in WOMEN_TITLES if rating >= floor), None)
    return open_title or women_title, women_title


def write_players_list(path: Path, count: int = 1_000_000, seed: int = 1) -> Path:
    """Writes `count` players to `path` in FIDE's combined TXT layout; returns the path."""
    with path.open("w", encoding="ascii", newline="") as file:
        file.writelines(write_fide_txt(players(count, seed), ALL_POOLS))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    write_players_list(arguments.path, arguments.players, arguments.seed)
    print(f"{arguments.path}: {arguments.players} players, seed {arguments.seed}")


if __name__ == "__main__":
    main()
