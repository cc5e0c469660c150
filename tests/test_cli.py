"""The command line as a user meets it: outputs, formats and every refusal, on both backends."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from ledger import services
from ledger.core.domain import KEPT

from builders import NOW, fingerprint, run

PLAYERS_CSV = """\
id,name,federation,sex,title,birth_year,rating,games,ever_2400
101,"Carlsen, Magnus",NOR,M,GM,1990,2830,1000,1
102,"Hou, Yifan",CHN,F,GM,1994,2630,800,yes
103,"Junior, Jo",ENG,M,,2012,1800,10,
104,"Newcomer, Nia",ENG,F,,2000,,,
"""
GAMES_CSV = """\
date,white,black,result,event,round
2026-10-03,101,102,1-0,Oslo Masters,1
2026-10-04,102,101,½-½,Oslo Masters,2
2026-10-05,103,104,1-0,,
2026-10-06,104,103,+/-,,
"""


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture
def filled(database_url: str, tmp_path: Path) -> str:
    """A ledger with four players and October's games recorded (not yet closed)."""
    assert (
        run("import-players", _file(tmp_path, "p.csv", PLAYERS_CSV), db=database_url).exit_code == 0
    )
    assert run("import-games", _file(tmp_path, "g.csv", GAMES_CSV), db=database_url).exit_code == 0
    return database_url


def test_add_player_prints_the_new_id(database_url: str) -> None:
    first = run("add-player", "--name", "Doe, Jane", "--sex", "F", db=database_url)
    chosen = run(
        "add-player",
        "--name",
        "Roe, Rick",
        "--id",
        "4100",
        "--rating",
        "2100",
        "--games",
        "55",
        "--federation",
        "eng",
        db=database_url,
    )
    after = run("add-player", "--name", "Poe, Pat", db=database_url)
    assert (first.exit_code, first.stdout, first.stderr) == (0, "1\n", "")
    assert chosen.stdout == "4100\n"
    assert after.stdout == "4101\n"


def test_add_game_prints_its_id_and_period_and_is_logged(filled: str) -> None:
    result = run(
        "add-game",
        "--white",
        "101",
        "--black",
        "103",
        "--result",
        "=",
        "--date",
        "2026-10-09",
        "--event",
        "Blitz night",
        "--round",
        "1",
        db=filled,
    )
    assert (result.exit_code, result.stdout) == (
        0,
        "Game 5 recorded in standard period 2026-10.\n",
    )
    logged = json.loads(run("log", "--format", "json", db=filled).stdout)
    assert [
        (e["action"], e["period"], e["summary"]) for e in logged if e["action"] == "add-game"
    ] == [("add-game", "2026-10", "game 5")]


def test_close_period_reports_what_it_published(filled: str) -> None:
    result = run("close-period", "2026-10", db=filled)
    assert result.exit_code == 0, result.stderr
    assert "Closed standard period 2026-10: 2 games rated, 2 not rated" in result.stdout
    assert "The list effective 2026-11-01 is published" in result.stdout


def test_list_json_has_the_documented_fields(filled: str) -> None:
    run("close-period", "2026-10", db=filled)
    result = run("list", "--format", "json", db=filled)
    rows = json.loads(result.stdout)
    assert [row["id"] for row in rows] == [101, 102, 103]
    carlsen = rows[0]
    assert set(carlsen) >= {
        "rank",
        "id",
        "name",
        "federation",
        "sex",
        "title",
        "birth_year",
        "rating",
        "change",
        "games",
        "k",
        "k_applied",
        "flag",
    }
    # 2830 vs 2630 from 2025-10: D = 200 (no cap needed), PD 0.76; +0.24 - 0.26 = -0.02; K 10.
    assert (carlsen["rating"], carlsen["change"], carlsen["games"], carlsen["k"]) == (
        2830,
        0,
        2,
        10,
    )
    assert carlsen["k_applied"] == 10
    assert rows[1]["flag"] == "w"
    assert rows[2] == rows[2] | {"rating": 1800, "games": 0, "k_applied": None, "change": 0}


def test_list_csv_and_top(filled: str) -> None:
    run("close-period", "2026-10", db=filled)
    result = run("list", "--format", "csv", "--top", "2", db=filled)
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [row["id"] for row in rows] == ["101", "102"]
    assert rows[0]["rank"] == "1"


def test_list_table_fits_eighty_columns(filled: str) -> None:
    run("close-period", "2026-10", db=filled)
    result = run("list", db=filled)
    assert result.exit_code == 0
    assert "Carlsen, Magnus" in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def test_every_command_takes_a_pool(filled: str) -> None:
    assert (
        run(
            "add-player",
            "--name",
            "R",
            "--rating",
            "1900",
            "--games",
            "3",
            "--pool",
            "rapid",
            db=filled,
        ).exit_code
        == 0
    )
    assert (
        run(
            "add-game",
            "--white",
            "105",
            "--black",
            "101",
            "--result",
            "1-0",
            "--date",
            "2026-10-07",
            "--pool",
            "rapid",
            db=filled,
        ).exit_code
        == 0
    )
    assert run("close-period", "2026-10", "--pool", "rapid", db=filled).exit_code == 0
    rapid = json.loads(run("list", "--pool", "rapid", "--format", "json", db=filled).stdout)
    assert [row["id"] for row in rapid] == [105]


def test_the_database_comes_from_the_environment(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEDGER_DATABASE_URL", database_url)
    assert run("add-player", "--name", "Env, Eve").stdout == "1\n"
    assert run("--db", database_url, "add-player", "--name", "Root, Ray").stdout == "2\n"


def test_the_default_database_is_ledger_db_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LEDGER_DATABASE_URL", raising=False)
    assert run("add-player", "--name", "Here, Hal").exit_code == 0
    assert (tmp_path / "ledger.db").exists()


BAD_INPUT = [
    pytest.param(
        ["add-game", "--white", "101", "--black", "999", "--result", "1-0", "--date", "2026-10-01"],
        "error: black: no player with ID 999.",
        id="unknown player",
    ),
    pytest.param(
        ["add-game", "--white", "101", "--black", "101", "--result", "1-0", "--date", "2026-10-01"],
        "error: black: player 101 cannot play themselves.",
        id="self",
    ),
    pytest.param(
        ["add-player", "--name", "X", "--id", "101"],
        "error: id: player 101 already exists.",
        id="taken id",
    ),
    pytest.param(
        ["add-player", "--name", "X", "--rating", "1200", "--games", "4"],
        "error: rating: 1200 cannot be a published rating",
        id="below the floor",
    ),
    pytest.param(
        ["add-player", "--name", "X", "--rating", "2000"],
        "error: games: a starting rating needs the number",
        id="rating without games",
    ),
    pytest.param(
        ["add-player", "--name", "X", "--sex", "Q"], "error: sex: 'Q' is not M or F.", id="bad sex"
    ),
    pytest.param(
        ["add-player", "--name", "X", "--federation", "NORWAY"],
        "error: federation: 'NORWAY' is not a FIDE federation code (the nearest are RWA, NOR)",
        id="bad federation",
    ),
    pytest.param(
        ["add-player", "--name", "  "], "error: name: a player needs a name.", id="empty name"
    ),
    pytest.param(
        ["add-player", "--name", "X", "--id", "3000000000"],
        "error: id: 3000000000 is not a valid ID; IDs run from 1 to 2147483647.",
        id="id too large",
    ),
    pytest.param(
        ["add-player", "--name", "X" * 201],
        "error: name: the name is longer than 200 characters.",
        id="name too long",
    ),
    pytest.param(
        ["add-player", "--name", "X", "--rating", "2000", "--games", "99999999999"],
        "error: games: a starting rating needs the number of rated games completed",
        id="games too many",
    ),
    pytest.param(
        [
            "add-game",
            "--white",
            "101",
            "--black",
            "102",
            "--result",
            "1-0",
            "--date",
            "2026-10-01",
            "--event",
            ".",
        ],
        "error: event: the name '.' has no letter or digit; give it one that shows.",
        id="an event named by a dot",
    ),
    pytest.param(
        [
            "add-game",
            "--white",
            "101",
            "--black",
            "102",
            "--result",
            "1-0",
            "--date",
            "2026-10-01",
            "--event",
            "..",
        ],
        "error: event: the name '..' has no letter or digit; give it one that shows.",
        id="an event named by two dots",
    ),
    pytest.param(
        [
            "add-game",
            "--white",
            "101",
            "--black",
            "102",
            "--result",
            "1-0",
            "--date",
            "2026-10-01",
            "--event",
            "Open \u2067Cup",
        ],
        "error: event: the name holds the right-to-left isolate U+2067, which reorders the "
        "text shown around it; names, titles and events are plain text.",
        id="an event with a right-to-left isolate",
    ),
    pytest.param(
        ["add-player", "--name", "Carlsen\u202e, Magnus"],
        "error: name: the name holds the right-to-left override U+202E, which reorders the "
        "text shown around it; names, titles and events are plain text.",
        id="a name with a right-to-left override",
    ),
    pytest.param(
        ["add-player", "--name", "\u200b\u200b"],
        "error: name: the name '\\u200b\\u200b' has no letter or digit; give it one that shows.",
        id="a name of zero-width spaces",
    ),
    pytest.param(
        ["add-player", "--name", "\u3164"],
        "error: name: the name '\u3164' has no letter or digit; give it one that shows.",
        id="a name of a Hangul filler",
    ),
    pytest.param(
        ["edit-player", "101", "--name", "\u202dHou, Yifan", "--reason", "x"],
        "error: name: the name holds the left-to-right override U+202D, which reorders the "
        "text shown around it; names, titles and events are plain text.",
        id="a name edited to hold a left-to-right override",
    ),
    pytest.param(
        ["correct-game", "1", "--result", "0-1", "--reason", "x" * 1001],
        "error: reason: the text is 1001 characters long; the log keeps at most 1000.",
        id="a reason longer than the log keeps",
    ),
    pytest.param(
        ["add-player", "--name", "X", "--operator", "o" * 101],
        "error: operator: the text is 101 characters long; the log keeps at most 100.",
        id="an operator longer than the log keeps",
    ),
    pytest.param(
        [
            "add-game",
            "--white",
            "101",
            "--black",
            "102",
            "--result",
            "1-0",
            "--date",
            "2026-10-01",
            "--round",
            "0",
        ],
        "error: round: 0 is not a round number.",
        id="round zero",
    ),
    pytest.param(
        ["close-period", "2026-11"],
        "error: period 2026-10 holds games and is still open",
        id="earlier open period",
    ),
    pytest.param(["list"], "error: no standard list has been published yet", id="no list yet"),
    pytest.param(
        ["add-game", "--white", "101", "--black", "102", "--result", "1-0", "--date", "2099-01-01"],
        "error: date: 2099-01-01 is in the future.",
        id="future game",
    ),
    pytest.param(
        ["add-player", "--name", "X", "--birth-year", "2999"],
        "error: birth-year: 2999 is not a birth year.",
        id="future birth year",
    ),
    pytest.param(
        ["add-player", "--name", "X", "--rating", "2000", "--games", "5", "--peak", "3000000000"],
        "error: peak: the peak 3000000000 must lie between the rating 2000 and 3500.",
        id="peak out of range",
    ),
]


MISTYPED = [
    pytest.param(
        ["add-game", "--white", "101", "--black", "102", "--result", "1-0", "--date", "0001-01-01"],
        f"error: date: 0001-01-01 is outside the ledger's periods; {KEPT}.",
        id="a day before the ledger's periods",
    ),
    pytest.param(
        ["add-game", "--white", "101", "--black", "102", "--result", "1-0", "--date", "1969-12-31"],
        f"error: date: 1969-12-31 is outside the ledger's periods; {KEPT}.",
        id="the day before the first period",
    ),
    pytest.param(
        ["edit-player", "101", "--federation", "ENG", "--from", "9999-12", "--reason", "x"],
        f"error: from: 9999-12 is outside the ledger's periods; {KEPT}.",
        id="a federation carried from the year 9999",
    ),
    pytest.param(
        ["edit-player", "101", "--title", "GM", "--from", "2100-01", "--reason", "x"],
        f"error: from: 2100-01 is outside the ledger's periods; {KEPT}.",
        id="a title carried from after the last period",
    ),
    pytest.param(
        ["list", "--period", "0001-01"],
        f"error: period: 0001-01 is outside the ledger's periods; {KEPT}.",
        id="a list of the year 1",
    ),
    pytest.param(
        ["list", "--as-of", "9999-12-31"],
        f"error: as-of: 9999-12-31 is outside the ledger's periods; {KEPT}.",
        id="a list in force in the year 9999",
    ),
    pytest.param(
        ["games", "--period", "1969-12"],
        f"error: period: 1969-12 is outside the ledger's periods; {KEPT}.",
        id="games of the period before the first",
    ),
    pytest.param(
        ["close-period", "0001-01"],
        f"error: period: 0001-01 is outside the ledger's periods; {KEPT}.",
        id="a close of the year 1",
    ),
    pytest.param(
        ["find", "Carl\x00sen"],
        "error: the argument 'Carl\\x00sen' holds the character NUL, which no text holds.",
        id="a NUL in a search",
    ),
    pytest.param(
        ["event", "Oslo\x00Masters"],
        "error: the argument 'Oslo\\x00Masters' holds the character NUL, which no text holds.",
        id="a NUL in an event's name",
    ),
]
"""Values the command line cannot take (out of the ledger's periods, a NUL): usage errors,
exit 2, with the same one line and nothing written."""


@pytest.mark.parametrize(
    ("arguments", "message", "code"),
    [
        *(pytest.param(*each.values, 1, id=each.id) for each in BAD_INPUT),
        *(pytest.param(*each.values, 2, id=each.id) for each in MISTYPED),
    ],
)
def test_bad_input_is_refused_with_one_line(
    filled: str, arguments: list[str], message: str, code: int
) -> None:
    before = fingerprint(filled)
    result = run(*arguments, db=filled)
    assert result.exit_code == code
    assert result.stdout == ""
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1
    assert fingerprint(filled) == before


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param(["add-game", "--white", "abc"], id="not a number"),
        pytest.param(["list", "--top", "0"], id="top below one"),
        pytest.param(["list", "--format", "xml"], id="unknown format"),
        pytest.param(["no-such-command"], id="unknown command"),
        pytest.param(
            ["edit-player", "99999999999999999999", "--reason", "typo"],
            id="an ID no player can have",
        ),
        pytest.param(["games", "--player", "99999999999999999999"], id="games of no player"),
        pytest.param(["export-list"], id="export without a format"),
        pytest.param(
            [
                "add-game",
                "--white",
                "101",
                "--black",
                "102",
                "--result",
                "1-0",
                "--date",
                "2026-13-01",
            ],
            id="bad date",
        ),
        pytest.param(
            [
                "add-game",
                "--white",
                "101",
                "--black",
                "102",
                "--result",
                "2-0",
                "--date",
                "2026-10-01",
            ],
            id="bad result",
        ),
        pytest.param(["games", "--pool", "bullet"], id="unknown pool"),
        pytest.param(["close-period", "2026-13"], id="bad period"),
    ],
)
def test_usage_errors_exit_2_with_one_line(filled: str, arguments: list[str]) -> None:
    result = run(*arguments, db=filled)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1


def test_closing_twice_is_refused(filled: str) -> None:
    assert run("close-period", "2026-10", db=filled).exit_code == 0
    again = run("close-period", "2026-10", db=filled)
    assert again.exit_code == 1
    assert again.stderr == (
        "error: period 2026-10 is already closed; correct a game of it with `ledger "
        "correct-game GAME` (`ledger games --period 2026-10` lists them), add a missed one "
        "with `ledger add-game --late`, or reopen it with `ledger reopen-period 2026-10`.\n"
    )


BEFORE_THE_FIRST_LIST = (
    "standard period 2026-09 is before the pool's first list, 2026-10, whose ratings stand for "
    "every game played before it; the ledger rates games from 2026-10 on (to rate 2026-09's "
    "games first, reopen the lists back to 2026-10)."
)
A_GAME_IN_SEPTEMBER = (
    "--white",
    "101",
    "--black",
    "102",
    "--result",
    "1-0",
    "--date",
    "2026-09-15",
)


@pytest.mark.parametrize(
    ("arguments", "line"),
    [
        pytest.param(
            ("add-game", *A_GAME_IN_SEPTEMBER), f"date: {BEFORE_THE_FIRST_LIST}", id="add"
        ),
        pytest.param(
            ("add-game", *A_GAME_IN_SEPTEMBER, "--late", "--reason", "arbiter's report"),
            BEFORE_THE_FIRST_LIST,
            id="add-late",
        ),
        pytest.param(("close-period", "2026-09"), BEFORE_THE_FIRST_LIST, id="close"),
        pytest.param(
            ("reopen-period", "2026-09", "--reason", "a game was missed"),
            BEFORE_THE_FIRST_LIST,
            id="reopen",
        ),
        pytest.param(
            ("rerate", "--from", "2026-09", "--reason", "check"), BEFORE_THE_FIRST_LIST, id="rerate"
        ),
    ],
)
def test_a_month_before_the_first_list_is_refused_in_one_sentence(
    filled: str, arguments: tuple[str, ...], line: str
) -> None:
    """Once a dead end: add-game said the month was closed and to use --late, --late that it
    had no list, close-period that it was closed, reopen-period to reopen another month."""
    assert run("close-period", "2026-10", db=filled).exit_code == 0
    before = fingerprint(filled)
    refused = run(*arguments, db=filled)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (1, "", f"error: {line}\n")
    assert fingerprint(filled) == before


def test_a_month_before_the_first_list_is_rated_once_that_list_is_reopened(filled: str) -> None:
    """What the refusal says to do works: reopen back to the first list, record the month's
    games, close it and the first list again."""
    assert run("close-period", "2026-10", db=filled).exit_code == 0
    assert run("reopen-period", "2026-10", "--reason", "September", db=filled).exit_code == 0
    assert run("add-game", *A_GAME_IN_SEPTEMBER, db=filled).exit_code == 0
    assert run("close-period", "2026-09", db=filled).exit_code == 0
    assert run("close-period", "2026-10", db=filled).exit_code == 0
    september = json.loads(run("list", "--period", "2026-09", "--format", "json", db=filled).stdout)
    assert {row["id"]: row["games"] for row in september}[101] == 1


def test_before_an_imported_first_list_nothing_is_offered_to_reopen(database_url: str) -> None:
    fide_list = Path(__file__).parent / "data" / "fide" / "standard_list.txt"
    imported = run("import-fide-list", str(fide_list), "--period", "2026-10", db=database_url)
    assert imported.exit_code == 0, imported.stderr
    refused = run("close-period", "2026-08", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: standard period 2026-08 is before the pool's first list, 2026-10, whose ratings "
        "stand for every game played before it; the ledger rates games from 2026-10 on (that "
        "list was imported from FIDE).\n",
    )


def _nothing_to_publish(url: str, pool: str) -> None:
    before = fingerprint(url)
    refused = run("close-period", "2026-10", "--pool", pool, db=url)
    option = "" if pool == "standard" else f" --pool {pool}"
    assert (refused.exit_code, refused.stderr) == (
        1,
        f"error: {pool} period 2026-10 has nothing to publish: no player has a {pool} rating "
        "and the period has no game; add players with their ratings first (`ledger "
        f"import-players FILE.csv{option}`), or record the period's games.\n",
    )
    assert fingerprint(url) == before


def test_a_close_in_a_ledger_with_no_players_and_no_games_is_refused(database_url: str) -> None:
    """It published an empty list, "0 games rated"."""
    _nothing_to_publish(database_url, "standard")


def test_a_first_close_of_a_pool_with_no_rating_and_no_game_is_refused(filled: str) -> None:
    _nothing_to_publish(filled, "rapid")


def test_closing_a_month_not_ended_never_suggests_one_not_ended_either(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the first days of a month, with its games coming in, closing next month named this
    month as the one to close first."""
    monkeypatch.setattr(services, "utc_now", lambda: NOW)  # 2030-01-01
    run("add-player", "--name", "A, Al", "--rating", "2000", "--games", "40", db=database_url)
    run("add-player", "--name", "B, Bo", "--rating", "2000", "--games", "40", db=database_url)
    added = run(
        "add-game",
        "--white",
        "1",
        "--black",
        "2",
        "--result",
        "1-0",
        "--date",
        "2030-01-01",
        db=database_url,
    )
    assert added.exit_code == 0, added.stderr
    refused = run("close-period", "2030-02", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: period 2030-02 has not ended yet; close it from 2030-03-01, once its games are "
        "in.\n",
    )


def test_a_game_in_a_closed_period_is_refused(filled: str) -> None:
    run("close-period", "2026-10", db=filled)
    late = run(
        "add-game",
        "--white",
        "101",
        "--black",
        "102",
        "--result",
        "1-0",
        "--date",
        "2026-10-30",
        db=filled,
    )
    assert late.exit_code == 1
    assert late.stderr.startswith("error: date: period 2026-10 is closed; a game dated 2026-10-30")


def _count_games(db: str) -> int:
    run("close-period", "2026-10", db=db)
    rows = json.loads(run("list", "--format", "json", db=db).stdout)
    return sum(row["games"] for row in rows)


def test_a_period_that_has_not_ended_cannot_be_closed(database_url: str) -> None:
    result = run("close-period", "2099-01", db=database_url)
    assert result.exit_code == 1
    assert result.stderr == (
        "error: period 2099-01 has not ended yet; close it from 2099-02-01, once its games "
        "are in.\n"
    )


def test_a_bad_import_names_every_line_and_writes_nothing(filled: str, tmp_path: Path) -> None:
    bad = _file(
        tmp_path,
        "bad.csv",
        "date,white,black,result\n2026-10-08,101,102,1-0\n"
        "2026-10-09,101,999,1-0\n2026-10-32,101,102,1-0\n2026-10-09,102,101,win\n"
        "2026-10-31,x,102,won\n",
    )
    result = run("import-games", bad, db=filled)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: bad.csv:3: black: no player with ID 999.",
        "error: bad.csv:4: date: '2026-10-32' is not a date; write it as YYYY-MM-DD.",
        "error: bad.csv:5: result: 'win' is not a result; "
        "use 1-0, 0-1, 1/2-1/2 (or =), +/-, -/+ or -/-.",
        "error: bad.csv:6: white: 'x' is not a whole number.",
        "error: bad.csv:6: result: 'won' is not a result; "
        "use 1-0, 0-1, 1/2-1/2 (or =), +/-, -/+ or -/-.",
        "error: 5 problems; nothing was written.",
    ]
    assert _count_games(filled) == 4


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("", "bad.csv:1: the file is empty", id="empty"),
        pytest.param("date,white,black\n", "bad.csv:1: missing column(s) result", id="missing"),
        pytest.param("date,white,black,result,colour\n", "unknown column(s) colour", id="unknown"),
        pytest.param(
            "date,white,black,result\n", "bad.csv: the file has a header but no rows", id="no rows"
        ),
        pytest.param(
            "date,white,black,result,white\n2026-10-08,101,102,1-0,103\n",
            "bad.csv:1: column(s) white appear twice.",
            id="repeated column",
        ),
        pytest.param(
            "date,white,black,result\n2026-10-08,101,0_102,1-0\n",
            "bad.csv:2: black: '0_102' is not a whole number.",
            id="not a plain number",
        ),
        pytest.param(
            "date,white,black,result,event,round\n2026-10-08,101,102,1-0,Cup,1\n"
            "2026-10-08,101,102,1-0,Cup,1\n",
            "bad.csv:3: the same game as bad.csv:2.",
            id="repeated game",
        ),
        pytest.param(
            "date,white,black,result\n2026-10-08,101,102\n",
            "bad.csv:2: the row does not have as many fields",
            id="short row",
        ),
    ],
)
def test_malformed_game_files_are_refused(
    filled: str, tmp_path: Path, text: str, message: str
) -> None:
    result = run("import-games", _file(tmp_path, "bad.csv", text), db=filled)
    assert result.exit_code == 1
    assert message in result.stderr.splitlines()[0]


def test_a_bad_player_import_writes_nothing(database_url: str, tmp_path: Path) -> None:
    text = PLAYERS_CSV + '105,"Dup, Dan",ENG,M,,1990,abc,4,\n106,"Twice, Tim",ENG,M,,1990,,,\n'
    text += '106,"Again, Al",ENG,M,,1990,,,\n'
    result = run("import-players", _file(tmp_path, "players.csv", text), db=database_url)
    assert result.stderr.splitlines()[:2] == [
        "error: players.csv:6: rating: 'abc' is not a whole number.",
        "error: players.csv:8: id: 106 appears twice.",
    ]
    assert run("add-player", "--name", "First", db=database_url).stdout == "1\n"


def test_importing_the_same_file_twice_is_refused(filled: str, tmp_path: Path) -> None:
    again = run("import-games", _file(tmp_path, "copy.csv", GAMES_CSV), db=filled)
    assert again.exit_code == 1
    assert again.stderr.startswith("error: copy.csv was already imported on ")
    assert _count_games(filled) == 4


def test_a_copy_with_other_line_endings_is_the_same_file(filled: str, tmp_path: Path) -> None:
    copy = tmp_path / "copy.csv"
    copy.write_bytes(GAMES_CSV.replace("\n", "\r\n").encode() + b"\r\n")
    again = run("import-games", str(copy), db=filled)
    assert again.exit_code == 1
    assert "copy.csv was already imported" in again.stderr


def test_a_missing_file_is_a_usage_error(database_url: str) -> None:
    result = run("import-games", "nowhere.csv", db=database_url)
    assert result.exit_code == 2
    assert "nowhere.csv" in result.stderr
