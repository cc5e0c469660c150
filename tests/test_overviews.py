"""The overviews officers and readers look for: federations, the live list, the holders of a
rank, the periods, the events, a first rating explained, and finding a player by any name.
On both backends, with JSON and CSV like every read command."""

from __future__ import annotations

import csv
import io
import json
import random
from typing import Any

import pytest

from ledger.core.domain import Pool
from ledger.queries import ListFilter, ListRequest, published_list
from ledger.storage.database import Ledger

from builders import close, game, listing, player, run


def _json(*arguments: str, db: str) -> Any:
    shown = run(*arguments, "--format", "json", db=db)
    assert shown.exit_code == 0, shown.stderr
    return json.loads(shown.stdout)


def _csv(*arguments: str, db: str) -> list[dict[str, str]]:
    shown = run(*arguments, "--format", "csv", db=db)
    assert shown.exit_code == 0, shown.stderr
    return list(csv.DictReader(io.StringIO(shown.stdout)))


def _live(ledger: Ledger, only: ListFilter | None = None) -> dict[int, tuple[Any, ...]]:
    with ledger.reading() as session:
        shown = published_list(session, ListRequest(live=True, only=only or ListFilter()))
    return {row.id: (row.rating, row.change, row.games, row.k) for row in shown.rows}


def _published(ledger: Ledger, only: ListFilter | None = None) -> dict[int, tuple[Any, ...]]:
    with ledger.reading() as session:
        shown = published_list(session, ListRequest(only=only or ListFilter()))
    return {row.id: (row.rating, row.change, row.games, row.k) for row in shown.rows}


def test_the_live_list_is_the_list_the_coming_closes_publish(ledger: Ledger) -> None:
    """Random games over two open periods, an unrated player pooling toward a first rating,
    a starting rating to join, a player falling below the floor: the live list, read before,
    is the list the two closes publish (ratings, changes since the list, games, K)."""
    randomness = random.Random(14)
    rated = [
        player(ledger, f"P{i:02d}", rating=randomness.randint(1450, 2450), games=i, sex="FM"[i % 2])
        for i in range(1, 25)
    ]
    newcomer = player(ledger, "Newcomer, Nia")
    close(ledger, "2026-08")
    for opponent in rated[:5]:
        game(ledger, newcomer, opponent, "1/2-1/2", "2026-09-04", event="Pool Open")
    for period in ("2026-09", "2026-10"):
        for _ in range(40):
            white, black = randomness.sample(rated, 2)
            game(ledger, white, black, randomness.choice(("1-0", "0-1", "1/2-1/2")), f"{period}-12")
    floor = player(ledger, "Falling, Fred", rating=1405, games=5)
    for opponent in rated[-3:]:
        game(ledger, floor, opponent, "0-1", "2026-10-20")
    live = _live(ledger)
    live_women = _live(ledger, ListFilter(women=True))
    with ledger.reading() as session:
        shown = published_list(session, ListRequest(live=True))
    assert (str(shown.live_since), str(shown.period)) == ("2026-08", "2026-10")
    assert newcomer in live
    assert floor not in live
    close(ledger, "2026-09")
    close(ledger, "2026-10")
    published = _published(ledger)
    assert {pid: row[0] for pid, row in live.items()} == {
        pid: row[0] for pid, row in published.items()
    }
    assert live[newcomer][1] is None
    assert {pid: row[0] for pid, row in live_women.items()} == {
        pid: row[0] for pid, row in _published(ledger, ListFilter(women=True)).items()
    }
    october = {pid: row for pid, row in published.items() if row[2]}
    assert all(live[pid][3] == row[3] for pid, row in october.items())


def test_list_live_on_the_command_line(database_url: str) -> None:
    for name, rating in (("Ann", "2010"), ("Bob", "2000")):
        run("add-player", "--name", name, "--rating", rating, "--games", "40", db=database_url)
    run("close-period", "2026-09", db=database_url)
    run(
        "add-game",
        "--white",
        "2",
        "--black",
        "1",
        "--result",
        "1-0",
        "--date",
        "2026-10-03",
        db=database_url,
    )
    table = run("list", "--live", db=database_url)
    assert "UNOFFICIAL" in table.stdout
    rows = _json("list", "--live", db=database_url)
    assert [
        (row["name"], row["rating"], row["change"], row["position"], row["movement"])
        for row in rows
    ] == [("Bob", 2010, 10, 1, 1), ("Ann", 2000, -10, 2, -1)]
    assert [row["name"] for row in _csv("list", "--live", "--top", "1", db=database_url)] == ["Bob"]
    assert _json("list", db=database_url)[0]["name"] == "Ann"  # the published list is as it was
    refused = run("list", "--live", "--period", "2026-09", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        2,
        "error: live: give --live without --period, --as-of or --version.\n",
    )


def test_federations_rank_by_the_average_of_their_best_active_players(database_url: str) -> None:
    players = [
        ("NOR", "M", "GM", 2800),
        ("NOR", "F", "", 2500),
        ("NOR", "M", "", 2100),
        ("ENG", "M", "IM", 2700),
        ("ENG", "F", "WGM", 2400),
        ("ENG", "M", "", 2300),
        ("ISL", "M", "", 2600),
    ]
    for number, (federation, sex, title, rating) in enumerate(players, start=1):
        extra = ["--title", title] if title else []
        run(
            "add-player",
            "--name",
            f"P{number}",
            "--federation",
            federation,
            "--sex",
            sex,
            "--rating",
            str(rating),
            "--games",
            "40",
            *extra,
            db=database_url,
        )
    run("close-period", "2026-09", db=database_url)
    ranking = _json("federations", "--top", "2", db=database_url)
    assert [
        (row["rank"], row["federation"], row["average"], row["rated"], row["women"], row["titled"])
        for row in ranking["rows"]
    ] == [
        (1, "NOR", 2650.0, 3, 1, 1),
        (2, "ENG", 2550.0, 3, 1, 2),
        (None, "ISL", 2600.0, 1, 0, 0),  # one active player: not ranked on the best 2
    ]
    assert ranking["list_name"] == "Oct 2026"
    women = _csv("federations", "--women", "--top", "1", db=database_url)
    assert [(row["federation"], row["average"]) for row in women] == [
        ("NOR", "2500.0"),
        ("ENG", "2400.0"),
    ]
    refused = run("federations", "--top", "0", db=database_url)
    assert refused.exit_code == 2


def test_history_summary_names_each_holder_once(ledger: Ledger, database_url: str) -> None:
    ann = player(ledger, "Ann", rating=2500, sex="F")
    bob = player(ledger, "Bob", rating=2495)
    close(ledger, "2026-08")
    game(ledger, bob, ann, "1-0", "2026-09-03")
    close(ledger, "2026-09")
    game(ledger, ann, bob, "1-0", "2026-10-03")
    game(ledger, ann, bob, "1-0", "2026-10-04")
    close(ledger, "2026-10")
    summary = _json("history", "--rank", "1", "--summary", db=database_url)
    assert [
        (row["name"], row["first_list"], row["last_list"], row["lists_held"]) for row in summary
    ] == [
        ("Ann", "Sep 2026", "Nov 2026", 2),
        ("Bob", "Oct 2026", "Oct 2026", 1),
    ]
    women = _csv("history", "--summary", "--women", db=database_url)
    assert [(row["name"], row["lists_held"]) for row in women] == [("Ann", "3")]
    active = _json("history", "--summary", "--active", db=database_url)
    assert [row["name"] for row in active] == ["Ann", "Bob"]
    table = run("history", "--summary", db=database_url).stdout
    assert "Sep 2026 (2026-08)" in table


def test_periods_show_what_each_holds_and_who_closed_it(ledger: Ledger, database_url: str) -> None:
    a, b = player(ledger, "Ann", rating=2000), player(ledger, "Bob", rating=1900)
    game(ledger, a, b, "1-0", "2026-08-03")
    for period, operator in (("2026-08", "Olga"), ("2026-10", "Piet")):
        closed = run("close-period", period, "--operator", operator, db=database_url)
        assert closed.exit_code == 0, closed.stderr
    game(ledger, a, b, "0-1", "2026-11-03")
    periods = _json("periods", db=database_url)
    assert [
        (
            row["period"],
            row["closed"],
            row["games"],
            row["games_rated"],
            row["closed_by"],
            row["published_with"],
            len(row["versions"]),
        )
        for row in periods
    ] == [
        ("2026-11", False, 1, 0, None, None, 0),
        ("2026-10", True, 0, 0, "Piet", None, 1),
        ("2026-09", True, 0, 0, "Piet", "2026-10", 1),
        ("2026-08", True, 1, 1, "Olga", None, 1),
    ]
    rows = _csv("periods", db=database_url)
    assert rows[1]["versions"] == "1"
    assert "Nov 2026" in run("periods", db=database_url).stdout


def test_events_list_dates_players_category_and_whether_rated(
    ledger: Ledger, database_url: str
) -> None:
    strong = [player(ledger, f"GM{i}", rating=2600 + i * 10) for i in range(4)]
    for round_number, (white, black) in enumerate(((0, 1), (2, 3), (0, 2)), start=1):
        game(
            ledger,
            strong[white],
            strong[black],
            "1/2-1/2",
            f"2026-09-0{round_number}",
            event="Masters",
            round=round_number,
        )
    close(ledger, "2026-09")
    club = player(ledger, "Club, Carl")
    game(ledger, club, strong[0], "0-1", "2026-10-05", event="Club Night")
    events = _json("events", db=database_url)
    assert [
        (
            row["name"],
            row["players"],
            row["games"],
            row["average_rating"],
            row["category"],
            row["rated"],
        )
        for row in events
    ] == [
        ("Club Night", 2, 1, 2600, 14, False),
        ("Masters", 4, 3, 2615, 15, True),
    ]
    assert [row["name"] for row in _csv("events", "--player", str(club), db=database_url)] == [
        "Club Night"
    ]
    assert [row["name"] for row in _json("events", "--period", "2026-09", db=database_url)] == [
        "Masters"
    ]
    near = run("event", "master", db=database_url)
    assert near.stderr == (
        "error: no standard event named 'master' (the nearest: 'Masters'); `ledger events` "
        "lists the events.\n"
    )


def test_explain_shows_the_whole_calculation_of_a_first_rating(
    ledger: Ledger, database_url: str
) -> None:
    """Three draws in August (a first event that scored), three wins in September against
    1850-2100: n 6, points 4.5, Ra (11 850 + 3 600) / 8 = 1931.25, p 5.5 / 8 = 0.69,
    dp +141, Ru 2072."""
    opponents = [player(ledger, f"R{i}", rating=1800 + i * 50) for i in range(1, 7)]
    nia = player(ledger, "Newcomer, Nia")
    for number, opponent in enumerate(opponents[:3], start=1):
        game(ledger, nia, opponent, "1/2-1/2", f"2026-08-0{number}", event="Summer Cup")
    close(ledger, "2026-08")
    card = _json("player", "newcomer", db=database_url)
    assert [
        (each["pool"], each["counted"], each["needed"], each["rating"]) for each in card["pooling"]
    ] == [("standard", 3, 5, None)]
    assert (
        "3 of 5 games against rated opponents, within 26 months"
        in run("player", str(nia), db=database_url).stdout
    )
    for number, opponent in enumerate(opponents[3:], start=4):
        game(ledger, nia, opponent, "1-0", f"2026-09-0{number}", event="Autumn Cup")
    close(ledger, "2026-09")
    explained = _json("explain", "Newcomer, Nia", db=database_url)["first_rating"]
    assert [
        (game["period"], game["opponent_rating"], game["score"]) for game in explained["games"]
    ] == [
        ("2026-08", 1850, 0.5),
        ("2026-08", 1900, 0.5),
        ("2026-08", 1950, 0.5),
        ("2026-09", 2000, 1),
        ("2026-09", 2050, 1),
        ("2026-09", 2100, 1),
    ]
    assert (
        explained["counted"],
        explained["points"],
        explained["average"],
        explained["p"],
        explained["dp"],
        explained["uncapped"],
        explained["capped"],
        explained["rating"],
    ) == (6, 4.5, 1931.25, 0.69, 141, 2072, False, 2072)
    assert listing(ledger)[nia].rating == explained["rating"]
    table = run("explain", str(nia), db=database_url).stdout
    assert "Ra = (opponents + 2 × 1800, two hypothetical draws) / (6 + 2) = 1931.25" in table
    assert "First rating 2072" in table


def test_a_scoreless_first_event_is_shown_disregarded(ledger: Ledger, database_url: str) -> None:
    opponents = [player(ledger, f"R{i}", rating=2000) for i in range(7)]
    nia = player(ledger, "Newcomer, Nia")
    game(ledger, nia, opponents[0], "0-1", "2026-08-02", event="First")
    close(ledger, "2026-08")
    for number, opponent in enumerate(opponents[1:], start=1):
        game(ledger, nia, opponent, "1-0", f"2026-09-0{number}", event="Second")
    close(ledger, "2026-09")
    explained = _json("explain", str(nia), db=database_url)["first_rating"]
    assert [game["counted"] for game in explained["games"]] == [False] + [True] * 6
    assert (explained["counted"], explained["capped"], explained["rating"]) == (6, True, 2200)
    table = run("explain", str(nia), db=database_url).stdout
    header = next(line for line in table.splitlines() if "Opponent" in line)
    assert "┃ Note" in header
    assert "first event scored" in table
    assert "disregarded" in table


def test_a_first_rating_table_without_a_game_left_out_has_no_note_column(
    ledger: Ledger, database_url: str
) -> None:
    opponents = [player(ledger, f"R{i}", rating=2000) for i in range(5)]
    nia = player(ledger, "Newcomer, Nia")
    for number, opponent in enumerate(opponents, start=1):
        game(ledger, nia, opponent, "1-0", f"2026-09-0{number}", event="Only")
    close(ledger, "2026-09")
    table = run("explain", str(nia), db=database_url).stdout
    header = next(line for line in table.splitlines() if "Opponent" in line)
    assert header.rstrip().endswith("Score┃")


@pytest.mark.parametrize(
    ("query", "found"),
    [
        pytest.param("ivanov", ["Иванов, Иван"], id="Cyrillic by its Latin letters"),
        pytest.param("Ivan Ivanov", ["Иванов, Иван"], id="both words"),
        pytest.param("mueller", ["Müller, Jörg", "Mueller, Hans"], id="ue for ü"),
        pytest.param("Müller", ["Müller, Jörg", "Mueller, Hans"], id="ü for ue"),
        pytest.param("ding", ["丁立人"], id="Chinese, transliterated"),
        pytest.param("groesser", ["Größer, Anna"], id="oe and ß"),
    ],
)
def test_find_matches_transliterations(database_url: str, query: str, found: list[str]) -> None:
    for name in ("Иванов, Иван", "Müller, Jörg", "Mueller, Hans", "丁立人", "Größer, Anna"):
        run("add-player", "--name", name, db=database_url)
    assert sorted(row["name"] for row in _json("find", query, db=database_url)) == sorted(found)


def test_player_and_explain_take_an_id_a_fide_id_or_a_name(database_url: str) -> None:
    run(
        "add-player",
        "--name",
        "Carlsen, Magnus",
        "--id",
        "10",
        "--fide-id",
        "1503014",
        "--rating",
        "2830",
        "--games",
        "100",
        db=database_url,
    )
    run("add-player", "--name", "Carlsen, Henrik", "--id", "11", db=database_url)
    run("add-player", "--name", "Carlson, Magnus", "--id", "12", db=database_url)
    for named in ("10", "1503014", "Magnus Carlsen", "carlsen magnus"):
        assert _json("player", named, db=database_url)["id"] == 10
    several = run("player", "carls", db=database_url)
    assert (several.exit_code, several.stderr) == (
        1,
        "error: 'carls' matches several players: Carlsen, Henrik (11), Carlsen, Magnus (10), "
        "Carlson, Magnus (12); give the ID.\n",
    )
    none = run("explain", "nobody", db=database_url)
    assert (
        none.stderr
        == "error: no player matches 'nobody'; `ledger find` searches by part of a name.\n"
    )
    assert run("explain", "1503014", db=database_url).stderr.startswith(
        "error: no standard period has been closed yet"
    )


def test_the_live_list_of_a_pool_without_lists_is_refused(database_url: str) -> None:
    refused = run("list", "--live", "--pool", "rapid", db=database_url)
    assert refused.stderr.startswith("error: no rapid list has been published yet;")
    assert Pool.RAPID.value in refused.stderr
