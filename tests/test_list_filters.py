"""`ledger list` filters, world and filter ranks, rank movement, peaks and --as-of, checked
by hand on a small ledger."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

import pytest

from ledger.core.domain import GameResult, Period, Pool, parse_date
from ledger.core.errors import NotFound
from ledger.core.records import new_game, new_player
from ledger.queries.filters import ListFilter
from ledger.queries.lists.published import rating_list
from ledger.queries.lists.rows import RatingList
from ledger.services.games import add_games
from ledger.services.players import add_players
from ledger.storage.database import Ledger
from ledger.storage.periods import newest_closed_period

from builders import NOW, close, game, player, run
from fide_oracle import simulate


def listed(ledger: Ledger, **options: object) -> RatingList:
    with ledger.reading() as session:
        return rating_list(session, Pool.STANDARD, **options)  # type: ignore[arg-type]


@pytest.fixture
def small(ledger: Ledger) -> dict[str, int]:
    """Six players over two lists (2026-09, 2026-10); Ann overtakes Bob in October."""
    ids = {
        "Bob": player(ledger, "Bob", rating=2500, games=50, federation="NOR", title="GM"),
        "Ann": player(
            ledger,
            "Ann",
            rating=2490,
            games=50,
            federation="NOR",
            sex="F",
            title="IM",
            birth_year=2008,
        ),
        "Cid": player(ledger, "Cid", rating=2200, games=50, federation="ENG"),
        "Dee": player(
            ledger, "Dee", rating=2100, games=50, federation="ENG", sex="F", birth_year=1980
        ),
        "Eve": player(
            ledger, "Eve", rating=1900, games=50, federation="NOR", sex="F", birth_year=2012
        ),
        "Fay": player(ledger, "Fay", rating=1800, games=50, federation="ENG", sex="F"),
    }
    game(ledger, ids["Cid"], ids["Dee"], "1/2-1/2", "2026-09-10")
    close(ledger, "2026-09")
    # Ann beats Bob twice; both are K 10 (rated 2400+): Ann D -10, PD 0.49, 10 x 1.02 = +10.
    game(ledger, ids["Ann"], ids["Bob"], "1-0", "2026-10-03")
    game(ledger, ids["Bob"], ids["Ann"], "0-1", "2026-10-04")
    close(ledger, "2026-10")
    return ids


def test_movement_and_world_ranks(ledger: Ledger, small: dict[str, int]) -> None:
    rows = {row.name: row for row in listed(ledger).rows}
    assert (rows["Ann"].rating, rows["Bob"].rating) == (2500, 2490)
    assert (rows["Ann"].rank, rows["Ann"].movement) == (1, 1)
    assert (rows["Bob"].rank, rows["Bob"].movement) == (2, -1)
    assert rows["Cid"].movement == 0
    assert rows["Ann"].peak == rows["Ann"].rating
    assert str(rows["Ann"].peak_period) == "2026-10"
    first = {row.name: row for row in listed(ledger, period=Period(2026, 9)).rows}
    assert all(row.movement is None for row in first.values())


@pytest.mark.parametrize(
    ("only", "expected"),
    [
        pytest.param(
            ListFilter(federation="nor"),
            [("Ann", 1, 1), ("Bob", 2, 2), ("Eve", 3, 5)],
            id="federation",
        ),
        pytest.param(
            ListFilter(women=True),
            [("Ann", 1, 1), ("Dee", 2, 4), ("Eve", 3, 5), ("Fay", 4, 6)],
            id="women",
        ),
        pytest.param(ListFilter(juniors=True), [("Ann", 1, 1), ("Eve", 2, 5)], id="juniors"),
        pytest.param(
            ListFilter(girls=True, federation="NOR"), [("Ann", 1, 1), ("Eve", 2, 5)], id="girls"
        ),
        pytest.param(ListFilter(title="gm"), [("Bob", 1, 2)], id="title"),
        pytest.param(
            ListFilter(min_rating=1900, max_rating=2200),
            [("Cid", 1, 3), ("Dee", 2, 4), ("Eve", 3, 5)],
            id="rating band",
        ),
    ],
)
def test_filters_rank_within_and_in_the_world(
    ledger: Ledger, small: dict[str, int], only: ListFilter, expected: list[tuple[str, int, int]]
) -> None:
    published = listed(ledger, only=only)
    assert published.filtered
    assert [(row.name, row.rank, row.world_rank) for row in published.rows] == expected


def test_active_hides_players_without_a_rated_game_for_twelve_lists(ledger: Ledger) -> None:
    a, b, c = (player(ledger, name, rating=2000) for name in ("A", "B", "C"))
    game(ledger, a, b, "1-0", "2026-01-05")
    close(ledger, "2026-01")
    game(ledger, b, c, "1-0", "2027-01-05")
    close(ledger, "2027-01")
    names = [row.name for row in listed(ledger, only=ListFilter(active=True)).rows]
    assert names == ["B", "C"]


def test_as_of_picks_the_list_in_force_that_day(ledger: Ledger, small: dict[str, int]) -> None:
    assert str(listed(ledger, as_of=dt.date(2026, 10, 31)).period) == "2026-09"
    assert str(listed(ledger, as_of=dt.date(2026, 11, 1)).period) == "2026-10"
    with pytest.raises(NotFound, match="no standard list was in force on 2026-09-30"):
        listed(ledger, as_of=dt.date(2026, 9, 30))


def test_filters_on_the_command_line(database_url: str) -> None:
    for name, sex, rating in (("Ann", "F", "2300"), ("Bob", "M", "2400"), ("Cat", "F", "2000")):
        run(
            "add-player",
            "--name",
            name,
            "--sex",
            sex,
            "--rating",
            rating,
            "--games",
            "50",
            "--federation",
            "NOR",
            db=database_url,
        )
    run("close-period", "2026-09", db=database_url)
    women = json.loads(run("list", "--women", "--format", "json", db=database_url).stdout)
    assert [(r["name"], r["rank"], r["world_rank"], r["movement"]) for r in women] == [
        ("Ann", 1, 2, None),
        ("Cat", 2, 3, None),
    ]
    table = run("list", "--women", db=database_url).stdout
    assert "World" in table
    assert max(len(line) for line in table.splitlines()) <= 80
    nobody = run("list", "--federation", "GER", db=database_url)
    assert (nobody.exit_code, nobody.stdout) == (
        0,
        "No player of the standard list Oct 2026 (2026-09) passes the filter.\n",
    )
    typo = run("list", "--federation", "Norway", db=database_url)
    assert (typo.exit_code, typo.stdout) == (1, "")
    assert typo.stderr.startswith("error: 'Norway' is not a FIDE federation code (the nearest")
    lower = json.loads(
        run("list", "--federation", "nor", "--format", "json", db=database_url).stdout
    )
    assert [row["name"] for row in lower] == ["Bob", "Ann", "Cat"]
    both = run("list", "--period", "2026-09", "--as-of", "2026-10-01", db=database_url)
    assert (both.exit_code, both.stderr) == (
        2,
        "error: as-of: give --period or --as-of, not both.\n",
    )


def test_every_older_list_matches_the_rules_with_ranks_and_movement(ledger: Ledger) -> None:
    """Six months of play; every list, read after all are published (the older-list path),
    with and without --top and a filter, matches the oracle's lists and ranks counted by
    hand."""
    randomness = random.Random(7)
    people = [
        {
            "id": i,
            "name": f"P{i:02d}",
            "sex": "F" if i % 3 == 0 else "M",
            "birth_year": 1990,
            "rating": randomness.randint(1500, 2300) if i % 7 else None,
            "games": 40,
            "ever_2400": False,
            "peak": None,
            "federation": ("NOR", "ENG")[i % 2],
        }
        for i in range(1, 61)
    ]
    with ledger.transaction() as session:
        add_players(
            session,
            Pool.STANDARD,
            [
                new_player(
                    name=p["name"],
                    id=p["id"],
                    sex=p["sex"],
                    birth_year=p["birth_year"],
                    federation=p["federation"],
                    rating=p["rating"],
                    games=p["games"] if p["rating"] else None,
                    today=NOW.date(),
                )
                for p in people
            ],
        )
    periods = [f"2026-0{month}" for month in range(3, 9)]
    games = []
    for period in periods:
        for _ in range(randomness.randint(0, 40)):
            white, black = randomness.sample(range(1, 61), 2)
            games.append(
                {
                    "period": period,
                    "event": None,
                    "white": white,
                    "black": black,
                    "result": randomness.choice(("1-0", "0-1", "1/2-1/2")),
                }
            )
    with ledger.transaction() as session:
        add_games(
            session,
            Pool.STANDARD,
            [
                new_game(
                    date=parse_date(f"{g['period']}-10"),
                    white=g["white"],
                    black=g["black"],
                    result=GameResult(g["result"]),
                    today=NOW.date(),
                )
                for g in games
            ],
            allow_repeat=True,
        )
    for period in periods:
        if not _is_closed(ledger, period):
            close(ledger, period)
    expected = simulate(people, games, periods)
    previous: dict[str, dict[int, int]] = {"world": {}, "NOR": {}}
    for period in periods:
        ratings = {pid: row["rating"] for pid, row in expected[period].items()}
        ranks = {
            pid: 1 + sum(r > rating for r in ratings.values()) for pid, rating in ratings.items()
        }
        positions = {
            "world": _positions(ratings, people),
            "NOR": _positions(ratings, people, "NOR"),
        }
        shown = listed(ledger, period=Period.parse(period))
        assert {row.id: row.rating for row in shown.rows} == ratings
        for row in shown.rows:
            assert (row.rank, row.world_rank) == (ranks[row.id], ranks[row.id])
            assert row.position == row.world_position == positions["world"][row.id]
            was = previous["world"].get(row.id)
            want = None if was is None else was - row.position
            assert (row.movement, row.world_movement) == (want, want)
        top = listed(ledger, period=Period.parse(period), top=5, only=ListFilter(federation="NOR"))
        assert [row.world_rank for row in top.rows] == sorted(
            ranks[pid] for pid in ratings if people[pid - 1]["federation"] == "NOR"
        )[: len(top.rows)]
        for row in top.rows:
            assert row.position == positions["NOR"][row.id]
            assert row.world_position == positions["world"][row.id]
            was = previous["NOR"].get(row.id)
            assert row.movement == (None if was is None else was - row.position)
            was = previous["world"].get(row.id)
            assert row.world_movement == (None if was is None else was - row.world_position)
        previous = positions


def _positions(
    ratings: dict[int, int], people: list[dict[str, Any]], federation: str | None = None
) -> dict[int, int]:
    """Positions in list order (rating, then name), within a federation if one is given."""
    shown = [pid for pid in ratings if federation in (None, people[pid - 1]["federation"])]
    order = sorted(shown, key=lambda pid: (-ratings[pid], people[pid - 1]["name"], pid))
    return {pid: place for place, pid in enumerate(order, start=1)}


def _is_closed(ledger: Ledger, period: str) -> bool:
    with ledger.reading() as session:
        newest = newest_closed_period(session, Pool.STANDARD)
    return newest is not None and newest >= Period.parse(period)
