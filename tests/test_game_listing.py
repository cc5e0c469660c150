"""`ledger games`: every recorded game with its ID, and whether and why it was rated."""

from __future__ import annotations

import csv
import io
import json

from ledger.storage.database import Ledger, open_ledger

from builders import close, game, player, run


def _ledger(ledger: Ledger) -> dict[str, int]:
    ids = {
        "rated": player(ledger, "Rated, Rita", rating=2000),
        "other": player(ledger, "Other, Otto", rating=1900),
        "new": player(ledger, "New, Nina"),
        "fresh": player(ledger, "Fresh, Fred"),
    }
    game(ledger, ids["rated"], ids["other"], "1-0", "2026-09-02", event="Club", round=1)
    game(ledger, ids["rated"], ids["new"], "0-1", "2026-09-03", event="Club", round=2)
    game(ledger, ids["new"], ids["fresh"], "1/2-1/2", "2026-09-04", event="Club", round=3)
    game(ledger, ids["other"], ids["rated"], "+/-", "2026-09-05", event="Club", round=4)
    close(ledger, "2026-09")
    game(ledger, ids["other"], ids["rated"], "1-0", "2026-10-01", event="Autumn Cup", round=1)
    return ids


def test_games_say_whether_and_why_each_was_rated(ledger: Ledger, database_url: str) -> None:
    _ledger(ledger)
    listed = json.loads(run("games", "--format", "json", db=database_url).stdout)
    shown = [
        (g["id"], g["event"], g["round"], g["result"], g["rated"], g["status"]) for g in listed
    ]
    assert shown == [
        (1, "Club", 1, "1-0", "rated", "rated"),
        (2, "Club", 2, "0-1", "toward Black's first rating (8.2)", "toward-first-rating"),
        (3, "Club", 3, "1/2-1/2", "no: both unrated", "both-unrated"),
        (4, "Club", 4, "+/-", "no: forfeit", "forfeit"),
        (5, "Autumn Cup", 1, "1-0", "open", "open"),
    ]


def test_games_filter_by_player_event_and_period(ledger: Ledger, database_url: str) -> None:
    ids = _ledger(ledger)

    def shown(*options: str) -> list[str]:
        result = run("games", *options, "--format", "csv", db=database_url)
        assert result.exit_code == 0, result.stderr
        return [row["id"] for row in csv.DictReader(io.StringIO(result.stdout))]

    assert shown("--player", str(ids["new"])) == ["2", "3"]
    assert shown("--event", "autumn") == ["5"]
    assert shown("--period", "2026-09", "--player", str(ids["other"])) == ["1", "4"]
    assert shown("--period", "2025-01") == []
    assert shown("--event", "%") == []  # a % in the text is a %, not a wildcard


def test_games_table_fits_eighty_columns(ledger: Ledger, database_url: str) -> None:
    _ledger(ledger)
    table = run("games", db=database_url)
    assert table.exit_code == 0, table.stderr
    assert max(len(line) for line in table.stdout.splitlines()) <= 80
    assert "Rita" in table.stdout
    nothing = run("games", "--event", "nowhere", db=database_url)
    assert nothing.stdout == "No games match.\n"


def test_games_refuses_a_bad_period(database_url: str) -> None:
    refused = run("games", "--period", "2026-13", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        2,
        "error: period: '2026-13' is not a period; write it as YYYY-MM, e.g. 2026-10.\n",
    )


def test_an_event_is_found_by_its_name_in_any_case_on_postgresql(postgresql_url: str) -> None:
    """PostgreSQL matches `--event` by the database's collation, accented capitals
    included (SQLite's LIKE folds only ASCII letters)."""
    ledger = open_ledger(postgresql_url)
    try:
        white, black = player(ledger, "White"), player(ledger, "Black")
        game(ledger, white, black, "1-0", "2026-09-02", event="Échecs d'Automne", round=1)
    finally:
        ledger.dispose()
    found = run("games", "--event", "échecs", "--format", "csv", db=postgresql_url)
    assert found.exit_code == 0, found.stderr
    assert [row["event"] for row in csv.DictReader(io.StringIO(found.stdout))] == [
        "Échecs d'Automne"
    ]
