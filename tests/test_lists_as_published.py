"""Lists as they were published: each list row keeps the federation and title in force on it,
`edit-player` carries a transfer from the next list, and the positions and arrows of the
published rating tables. As a new user would see them, on both backends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import text

from ledger.core import names
from ledger.core.domain import Pool
from ledger.formats.fide_list import FideListRow, PoolRating, write_fide_txt
from ledger.storage.database import Ledger, create_ledger_engine
from ledger.storage.schema import alembic_config

from builders import close, game, ledger_state, listing, player, run


def _fide_list(path: Path, month: str, players: list[tuple[int, str, str, str, int, str]]) -> Path:
    """A single-pool FIDE TXT list: (FIDE ID, name, federation, title, rating, flag) rows."""
    rows = [
        FideListRow(
            fide_id=fide_id,
            name=name,
            federation=federation,
            sex="F" if "w" in flag else "M",
            title=title or None,
            women_title=None,
            other_titles=None,
            foa_title=None,
            ratings={Pool.STANDARD: PoolRating(rating, 0, 10)},
            birth_year=1990,
            flag=flag,
            line=0,
        )
        for fide_id, name, federation, title, rating, flag in players
    ]
    path.write_text("".join(write_fide_txt(rows, (Pool.STANDARD,), month)), encoding="utf-8")
    return path


def _json(*arguments: str, db: str) -> Any:
    shown = run(*arguments, "--format", "json", db=db)
    assert shown.exit_code == 0, shown.stderr
    return json.loads(shown.stdout)


def _ids(rows: list[dict[str, Any]]) -> list[int]:
    return [row["id"] for row in rows]


def test_two_fide_lists_around_a_transfer_leave_the_earlier_list_unchanged(
    database_url: str, tmp_path: Path
) -> None:
    """Karjakin UKR on the October list, RUS on November's: each list, filtered by
    federation, and every report on it, shows him as that list did."""
    before = [
        (14109603, "Karjakin, Sergey", "UKR", "GM", 2760, ""),
        (14100010, "Ivanchuk, Vassily", "UKR", "GM", 2740, ""),
        (4100018, "Kramnik, Vladimir", "RUS", "GM", 2780, ""),
    ]
    after = [(14109603, "Karjakin, Sergey", "RUS", "GM", 2765, ""), *before[1:]]
    for month, rows in (("OCT26", before), ("NOV26", after)):
        imported = run(
            "import-fide-list",
            str(_fide_list(tmp_path / f"{month}.txt", month, rows)),
            db=database_url,
        )
        assert imported.exit_code == 0, imported.stderr
    october = _json("list", "--period", "2026-09", "--federation", "UKR", db=database_url)
    assert [(row["name"], row["federation"], row["rank"]) for row in october] == [
        ("Karjakin, Sergey", "UKR", 1),
        ("Ivanchuk, Vassily", "UKR", 2),
    ]
    assert _ids(_json("list", "--period", "2026-09", "--federation", "RUS", db=database_url)) == [
        4100018
    ]
    november = _json("list", "--federation", "RUS", db=database_url)
    assert [(row["id"], row["rank"], row["world_rank"], row["movement"]) for row in november] == [
        (4100018, 1, 1, 0),
        (14109603, 2, 2, None),  # not within RUS on the October list
    ]
    ukraine_ones = _json("history", "--rank", "1", "--federation", "UKR", db=database_url)
    assert [(row["period"], row["list_name"], row["id"]) for row in ukraine_ones] == [
        ("2026-09", "Oct 2026", 14109603),
        ("2026-10", "Nov 2026", 14100010),
    ]
    peaks = _json("peaks", "--federation", "UKR", db=database_url)
    assert [(row["id"], row["federation"]) for row in peaks] == [(14100010, "UKR")]
    russia = _json("peaks", "--federation", "RUS", db=database_url)
    assert [(row["id"], row["peak"], row["peak_list"]) for row in russia] == [
        (4100018, 2780, "Oct 2026"),
        (14109603, 2765, "Nov 2026"),
    ]
    card = _json("player", "karjakin", db=database_url)
    assert (card["federation"], card["pools"][0]["federation_rank"]) == ("RUS", 2)


TOP = [
    (1, "Alpha, A", 2830, 2832),
    (2, "Bravo, B", 2800, 2795),
    (3, "Charlie, C", 2790, 2801),
    (4, "Delta, D", 2785, 2785),
    (5, "Echo, E", 2780, 2779),
    (6, "Foxtrot, F", 2775, 2770),
    (7, "Golf, G", 2770, 2766),
    (8, "Hotel, H", 2766, 2766),
    (9, "India, I", 2760, 2760),
    (10, "Juliet, J", 2750, 2752),
    (11, "Kilo, K", 2745, 2768),  # inactive on both lists
    (12, "Lima, L", 2748, 2740),
]


def test_a_top_ten_of_active_players_prints_the_positions_and_arrows_of_a_rating_table(
    database_url: str, tmp_path: Path
) -> None:
    """Two tied on 2766 share the rank 7 and are 7th and 8th; Hotel, 8th last month too,
    has not moved; the inactive Kilo is on the list but not among the active."""
    for month, column in (("OCT26", 2), ("NOV26", 3)):
        rows = [
            (fide_id, name, "NOR", "GM", ratings[column - 2], "i" if fide_id == 11 else "")
            for fide_id, name, *ratings in TOP
        ]
        path = _fide_list(tmp_path / f"{month}.txt", month, rows)
        assert run("import-fide-list", str(path), db=database_url).exit_code == 0
    active = _json("list", "--active", "--top", "10", db=database_url)
    assert [
        (row["name"][0], row["rank"], row["position"], row["movement"], row["world_position"])
        for row in active
    ] == [
        ("A", 1, 1, 0, 1),
        ("C", 2, 2, 1, 2),
        ("B", 3, 3, -1, 3),
        ("D", 4, 4, 0, 4),
        ("E", 5, 5, 0, 5),
        ("F", 6, 6, 0, 6),
        ("G", 7, 7, 0, 8),
        ("H", 7, 8, 0, 9),
        ("I", 9, 9, 0, 10),
        ("J", 10, 10, 0, 11),
    ]
    assert [row["world_movement"] for row in active][6:] == [-1, -1, -1, -1]
    table = run("list", "--active", "--top", "10", db=database_url).stdout.splitlines()
    hotel = next(line for line in table if "Hotel" in line)
    assert hotel.split()[:2] == ["8", "9↓1"]  # position; world position and movement
    assert " = " in hotel
    alpha = next(line for line in table if "Alpha" in line)
    assert alpha.split()[:2] == ["1", "1"]  # unmoved in the world: no "=" beside it
    charlie = next(line for line in table if "Charlie" in line)
    assert "↑1" in charlie
    world = _json("list", "--top", "9", db=database_url)
    assert [(row["id"], row["rank"], row["position"]) for row in world][6:] == [
        (11, 7, 7),
        (7, 8, 8),
        (8, 8, 9),
    ]


def test_a_transfer_shows_from_the_next_list_and_never_on_one_published(
    ledger: Ledger, database_url: str
) -> None:
    database = database_url
    ivan = player(ledger, "Ivanov, Ivan", rating=2500, federation="UKR", title="IM")
    other = player(ledger, "Other, Olga", rating=2400, federation="UKR")
    game(ledger, ivan, other, "1-0", "2026-09-05")
    close(ledger, "2026-09")
    edited = run(
        "edit-player",
        str(ivan),
        "--federation",
        "rus",
        "--title",
        "GM",
        "--reason",
        "transfer",
        db=database,
    )
    assert edited.exit_code == 0, edited.stderr
    assert "federation UKR -> RUS; title IM -> GM" in edited.stdout
    newest = listing(ledger)[ivan]
    assert (newest.federation, newest.title) == ("UKR", "IM")  # the published list keeps them
    card = _json("player", str(ivan), db=database)
    assert (card["federation"], card["pending_details"]) == ("RUS", True)
    close(ledger, "2026-10")
    carried = listing(ledger)[ivan]
    assert (carried.federation, carried.title, carried.games, carried.change) == ("RUS", "GM", 0, 0)
    assert (listing(ledger, "2026-09")[ivan].federation) == "UKR"
    assert _ids(_json("list", "--period", "2026-09", "--federation", "UKR", db=database)) == [
        ivan,
        other,
    ]
    assert _json("player", str(ivan), db=database)["pending_details"] is False
    logged = _json("log", db=database)
    assert any(
        entry["action"] == "edit-player" and entry["reason"] == "transfer" for entry in logged
    )


def test_a_transfer_from_a_later_list_waits_for_it(ledger: Ledger, database_url: str) -> None:
    database = database_url
    ivan = player(ledger, "Ivanov, Ivan", rating=2500, federation="UKR")
    close(ledger, "2026-08")
    moved = run(
        "edit-player",
        str(ivan),
        "--federation",
        "RUS",
        "--from",
        "2026-10",
        "--reason",
        "from Nov",
        db=database,
    )
    assert moved.exit_code == 0, moved.stderr
    assert "from the list of 2026-10 on" in moved.stdout
    close(ledger, "2026-09")
    assert listing(ledger)[ivan].federation == "UKR"
    close(ledger, "2026-10")
    assert listing(ledger)[ivan].federation == "RUS"
    assert [listing(ledger, p)[ivan].federation for p in ("2026-08", "2026-09")] == ["UKR", "UKR"]


def test_a_rerate_keeps_the_federations_each_list_showed(ledger: Ledger, database_url: str) -> None:
    """A transfer carried by the October list; a correction to September re-rates both, and
    neither the transfer nor a change recorded since moves to another list."""
    database = database_url
    ivan = player(ledger, "Ivanov, Ivan", rating=2500, federation="UKR")
    other = player(ledger, "Other, Olga", rating=2400, federation="UKR")
    game(ledger, ivan, other, "1-0", "2026-09-05")
    close(ledger, "2026-09")
    run("edit-player", str(ivan), "--federation", "RUS", "--reason", "transfer", db=database)
    game(ledger, ivan, other, "1-0", "2026-10-05")
    close(ledger, "2026-10")
    run("edit-player", str(ivan), "--federation", "KAZ", "--reason", "again", db=database)
    _first_game_lost_by_white("2026-09", database)
    assert listing(ledger, "2026-09")[ivan].federation == "UKR"
    assert listing(ledger, "2026-10")[ivan].federation == "RUS"
    assert listing(ledger, "2026-09")[ivan].rating < 2500  # re-rated: the loss
    close(ledger, "2026-11")
    assert listing(ledger)[ivan].federation == "KAZ"


def _first_game_lost_by_white(period: str, database: str) -> None:
    """The period's first game corrected to 0-1 (`ledger correct-game`), which re-rates."""
    games = _json("games", "--period", period, db=database)
    corrected = run(
        "correct-game", str(games[0]["id"]), "--result", "0-1", "--reason", "arbiter", db=database
    )
    assert corrected.exit_code == 0, corrected.stderr


def test_a_rerate_keeps_the_federation_a_starting_rating_joined_its_list_with(
    ledger: Ledger, database_url: str
) -> None:
    """Lena's starting rating joins September's list, without a game, as UKR; her transfer
    is carried by October's; a correction to September re-rates both."""
    a, b = player(ledger, "A", rating=2000), player(ledger, "B", rating=1900)
    lena = player(ledger, "Lena", rating=2100, federation="UKR")
    game(ledger, a, b, "1-0", "2026-09-05")
    close(ledger, "2026-09")
    run("edit-player", str(lena), "--federation", "RUS", "--reason", "transfer", db=database_url)
    game(ledger, a, b, "1-0", "2026-10-05")
    close(ledger, "2026-10")
    _first_game_lost_by_white("2026-09", database_url)
    september, october = listing(ledger, "2026-09")[lena], listing(ledger, "2026-10")[lena]
    assert (september.federation, september.rating) == ("UKR", 2100)
    assert (october.federation, october.rating) == ("RUS", 2100)
    assert listing(ledger)[lena].federation == "RUS"
    assert run("db", "check", db=database_url).exit_code == 0


def test_reopening_a_close_that_carried_a_transfer_restores_the_ledger(
    ledger: Ledger, database_url: str
) -> None:
    ivan = player(ledger, "Ivanov, Ivan", rating=2500, federation="UKR")
    close(ledger, "2026-09")
    run("edit-player", str(ivan), "--federation", "RUS", "--reason", "transfer", db=database_url)
    before = ledger_state(database_url, history=False)
    close(ledger, "2026-10")
    assert run("reopen-period", "2026-10", "--reason", "re-close", db=database_url).exit_code == 0
    assert ledger_state(database_url, history=False) == before
    assert run("db", "check", db=database_url).exit_code == 0


def test_a_corrected_birth_year_rerates_the_lists_whose_k_it_changes(
    ledger: Ledger, database_url: str
) -> None:
    """Born 2010, a junior under 2300 plays with K 40; born 1990, with 50 games, K 20."""
    database = database_url
    junior = player(ledger, "Young, Yan", rating=2000, birth_year=2010, games=50)
    other = player(ledger, "Elder, Eli", rating=2000, birth_year=1980, games=50)
    game(ledger, junior, other, "1-0", "2026-09-05")
    close(ledger, "2026-09")
    assert (listing(ledger)[junior].change, listing(ledger)[junior].k_applied) == (20, 40)
    corrected = run(
        "edit-player", str(junior), "--birth-year", "1990", "--reason", "passport", db=database
    )
    assert corrected.exit_code == 0, corrected.stderr
    assert "Re-rated standard for the K of the corrected birth year: 2026-09 (version 2)" in (
        corrected.stdout
    )
    assert "standard junior lists 2026-09" in corrected.stdout
    assert (listing(ledger)[junior].change, listing(ledger)[junior].k_applied) == (10, 20)
    original = _json("list", "--period", "2026-09", "--version", "1", db=database)
    assert next(row for row in original if row["id"] == junior)["change"] == 20


def test_a_corrected_sex_names_the_womens_lists_it_changes(
    ledger: Ledger, database_url: str
) -> None:
    database = database_url
    ana = player(ledger, "Novak, Ana", rating=2100, sex="M")
    close(ledger, "2026-08")
    close(ledger, "2026-09")
    corrected = run("edit-player", str(ana), "--sex", "F", "--reason", "typo", db=database)
    assert corrected.exit_code == 0, corrected.stderr
    assert "Lists changed: standard women's and girls' lists 2026-08 to 2026-09." in (
        corrected.stdout
    )
    assert _ids(_json("list", "--women", "--period", "2026-08", db=database)) == [ana]
    assert "Re-rated" not in corrected.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        pytest.param(
            ["1", "--federation", "UKR"], "error: player 1 already has these details", id="nothing"
        ),
        pytest.param(
            ["1", "--fide-id", "2002"],
            "error: FIDE ID 2002 is player 2's; if the two are one person, merge them",
            id="taken FIDE ID",
        ),
        pytest.param(
            ["1", "--federation", "UK"],
            "error: federation: 'UK' is not a FIDE federation code",
            id="code",
        ),
        pytest.param(
            ["1", "--federation", "RUS", "--from", "2026-09"],
            "error: the standard list of 2026-09 is already published;",
            id="from a published list",
        ),
        pytest.param(
            ["1", "--name", "Other, Ivan", "--from", "2026-12"],
            "error: from: only a new federation or title is carried from a later list",
            id="from without federation",
        ),
        pytest.param(["7", "--federation", "RUS"], "error: no player with ID 7;", id="no player"),
        pytest.param(["1", "--sex", "X"], "error: sex: 'X' is not M or F.", id="sex"),
    ],
)
def test_edit_player_refuses_with_one_line_and_writes_nothing(
    database_url: str, arguments: list[str], message: str
) -> None:
    run(
        "add-player",
        "--name",
        "Ivanov, Ivan",
        "--federation",
        "UKR",
        "--rating",
        "2000",
        "--games",
        "40",
        db=database_url,
    )
    run("add-player", "--name", "Petrov, Pyotr", "--fide-id", "2002", db=database_url)
    run("close-period", "2026-09", db=database_url)
    state = ledger_state(database_url)
    refused = run("edit-player", *arguments, "--reason", "why", db=database_url)
    assert (refused.exit_code, refused.stderr.count("\n")) == (1, 1)
    assert refused.stderr.startswith(message)
    assert ledger_state(database_url) == state


def test_edit_player_needs_a_reason(database_url: str) -> None:
    refused = run("edit-player", "1", "--federation", "RUS", db=database_url)
    assert refused.exit_code == 2
    assert "--reason" in refused.stderr


def test_the_revision_keeps_federations_and_transliterates_name_keys(
    empty_database_url: str,
) -> None:
    """A ledger at the revision before gets each list row's federation and title from its
    player, and every name key transliterated; the downgrade gives the old keys back."""
    engine = create_ledger_engine(empty_database_url)
    try:
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "8067fe6caf0f")
            connection.execute(
                text(
                    "INSERT INTO players (id, name, federation, title, name_key, sort_name) "
                    "VALUES (1, 'Иванов, Иван', 'UKR', 'GM', 'иван иванов', 'иванов иван')"
                )
            )
            for table in ("list_entries", "player_ratings"):
                period = ", period" if table == "list_entries" else ""
                value = ", '2026-09'" if table == "list_entries" else ""
                extra = (
                    ", previous_rating, change, listed, games, k_next"
                    if table == "list_entries"
                    else ", first_list"
                )
                extra_values = (
                    ", NULL, NULL, TRUE, 0, 10" if table == "list_entries" else ", '2026-09'"
                )
                connection.execute(
                    text(
                        f"INSERT INTO {table} (pool, player_id{period}, rating, games_completed, "
                        f"ever_2400, peak{extra}) VALUES ('standard', 1{value}, 2500, 30, TRUE, "
                        f"2500{extra_values})"
                    )
                )
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "head")
            for table in ("list_entries", "player_ratings"):
                shown = connection.execute(text(f"SELECT federation, title FROM {table}")).one()
                assert tuple(shown) == ("UKR", "GM")
            keys = connection.execute(text("SELECT name_key, sort_name FROM players")).one()
            assert tuple(keys) == (names.name_key("Ivanov, Ivan"), "ivanov ivan")
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "8067fe6caf0f")
            keys = connection.execute(text("SELECT name_key FROM players")).one()
            assert tuple(keys) == ("иван иванов",)
    finally:
        engine.dispose()
