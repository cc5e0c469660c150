"""Files as federations and arbiters write them: FIDE's title codes, FIDE's list files named
by their pool, what a FIDE TXT leaves out, players' CSVs in the fewest columns, games before
their players, late files recorded by one re-rate, and reports exported as they were. On both
backends.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from ledger.core.domain import Pool
from ledger.storage.database import Ledger
from ledger.storage.models import Player, PlayerRating
from ledger.web import create_app

from builders import fingerprint, run

DATA = Path(__file__).parent / "data"
SWISS = DATA / "trf" / "swiss.trf"
BILBAO = "Bilbao Autumn Open 2024"
STANDARD_LIST = DATA / "fide" / "standard_list.txt"


def _ok(*args: str, db: str) -> str:
    done = run(*args, db=db)
    assert done.exit_code == 0, done.stderr
    return done.stdout


def _json(*args: str, db: str) -> Any:
    return json.loads(_ok(*args, "--format", "json", db=db))


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# -- titles and federations ---------------------------------------------------------------


def test_fide_title_codes_are_stored_as_fide_writes_them(
    database_url: str, ledger: Ledger, tmp_path: Path
) -> None:
    _ok("add-player", "--name", "Short, Code", "--title", "g", "--rating", "2500",
        "--games", "50", db=database_url)  # fmt: skip
    players = _file(tmp_path, "players.csv", "name,federation,rating,title\nWoman,NOR,2300,wg\n")
    _ok("import-players", players, db=database_url)
    with ledger.reading() as session:
        assert set(session.scalars(select(Player.title))) == {"GM", "WGM"}
    _ok("close-period", "2026-10", db=database_url)
    assert [row["name"] for row in _json("list", "--title", "GM", db=database_url)] == [
        "Short, Code"
    ]


def test_an_unknown_title_or_federation_is_refused_naming_the_accepted_ones(
    database_url: str,
) -> None:
    refused = run("add-player", "--name", "X", "--title", "GMX", "--federation", "XYZ",
                  db=database_url)  # fmt: skip
    assert refused.exit_code == 1
    assert refused.stderr.splitlines() == [
        "error: title: 'GMX' is not a FIDE title; the titles are GM, IM, FM, CM, WGM, WIM, WFM "
        "and WCM (also written g, m, f, c, wg, wm, wf and wc).",
        "error: federation: 'XYZ' is not a FIDE federation code; give FIDE's three-letter code, "
        "such as ENG, GER, NOR or USA.",
        "error: 2 problems; nothing was written.",
    ]


# -- FIDE's list files ----------------------------------------------------------------------


def test_fides_blitz_list_lands_in_the_blitz_pool_by_its_name(
    database_url: str, ledger: Ledger, tmp_path: Path
) -> None:
    blitz = tmp_path / "blitz_rating_list.txt"
    shutil.copyfile(STANDARD_LIST, blitz)
    refused = run("import-fide-list", str(blitz), "--pool", "rapid", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: blitz_rating_list.txt is FIDE's blitz list by its name, but it was given as the "
        "rapid list; import it with --pool blitz, or rename a file that holds the rapid list.\n",
    )
    _ok("import-fide-list", str(blitz), db=database_url)
    with ledger.reading() as session:
        assert set(session.scalars(select(PlayerRating.pool))) == {Pool.BLITZ}


def test_a_fide_txt_says_what_it_left_out_and_the_ledger_ids_keep_everyone(
    database_url: str, tmp_path: Path
) -> None:
    players = _file(
        tmp_path,
        "players.csv",
        "name,federation,rating,fide_id\n"
        '"Listed, Lena",NOR,2100,1500001\n"Local, Lars",NOR,1900,\n"Local, Liv",NOR,1800,\n',
    )
    _ok("import-players", players, db=database_url)
    _ok("add-player", "--name", "New, Nils", "--federation", "NOR", db=database_url)
    _ok("add-player", "--name", "New, Nora", "--fide-id", "1500002", db=database_url)
    _ok("close-period", "2026-10", db=database_url)
    combined = run("export-list", "--format", "fide-txt", db=database_url)
    assert len(combined.stdout.splitlines()[1:]) == 2  # Lena and Nora, unrated
    assert combined.stderr.startswith("warning: 3 players without a FIDE ID were left out")
    written = run("export-list", "--format", "fide-txt", "--pool", "standard", db=database_url)
    assert written.exit_code == 0
    assert [line[15:30].strip() for line in written.stdout.splitlines()[1:]] == ["Listed, Lena"]
    assert written.stderr == (
        "warning: 2 players without a FIDE ID were left out: FIDE's layout lists players by "
        "FIDE ID. `--ids ledger` writes the same layout with the ledger's IDs, every player in "
        "it (a national list).\n"
    )
    national = run("export-list", "--format", "fide-txt", "--pool", "standard", "--ids", "ledger",
                   db=database_url)  # fmt: skip
    assert (national.exit_code, national.stderr) == (0, "")
    rows = national.stdout.splitlines()[1:]
    assert [(row[:15].strip(), row[15:30].strip()) for row in rows] == [
        ("1", "Listed, Lena"),
        ("2", "Local, Lars"),
        ("3", "Local, Liv"),
    ]
    everyone = run("export-list", "--format", "fide-txt", "--ids", "ledger", db=database_url)
    assert len(everyone.stdout.splitlines()[1:]) == 5
    misused = run("export-list", "--format", "csv", "--ids", "ledger", db=database_url)
    assert (misused.exit_code, misused.stderr) == (
        2,
        "error: ids: --ids ledger goes with --format fide-txt or fide-xml.\n",
    )
    unknown = run("export-list", "--format", "fide-txt", "--ids", "national", db=database_url)
    assert (unknown.exit_code, unknown.stderr) == (
        2,
        "error: ids: 'national' is not fide or ledger.\n",
    )
    with TestClient(create_app(database_url)) as client:
        txt = client.get("/lists/standard/latest/download.txt")
        ledger_ids = client.get("/lists/standard/latest/download.txt?ids=ledger")
    assert txt.headers["Ledger-Left-Out"].startswith("2 players without a FIDE ID:")
    assert txt.text == written.stdout.replace("\n", "\r\n") or txt.text == written.stdout
    assert "Ledger-Left-Out" not in ledger_ids.headers
    assert len(ledger_ids.text.splitlines()) == 4


# -- players' and games' CSVs ----------------------------------------------------------------


def test_a_players_csv_in_the_fewest_columns_imports_with_the_defaults(
    database_url: str, tmp_path: Path
) -> None:
    players = _file(tmp_path, "players.csv", 'name,federation,rating\n"Berg, Ada",NOR,2100\n'
                    '"Dahl, Bo",SWE,\n')  # fmt: skip
    assert (
        _ok("import-players", players, db=database_url) == "Imported 2 players from players.csv.\n"
    )
    card = _json("player", "1", db=database_url)
    assert card["name"] == "Berg, Ada"
    _ok("close-period", "2026-10", db=database_url)
    (row,) = _json("list", db=database_url)
    assert (row["id"], row["rating"], row["k"]) == (1, 2100, 20)  # 30 games completed: K 20


def test_a_players_csv_reports_every_problem_of_every_line(
    database_url: str, tmp_path: Path
) -> None:
    players = _file(
        tmp_path,
        "players.csv",
        "name,federation,rating,birth_year,title\nOne,XYZ,99999,1990,GMX\nTwo,NOR,abc,old,\n",
    )
    refused = run("import-players", players, db=database_url)
    assert refused.exit_code == 1
    assert refused.stderr.splitlines() == [
        "error: players.csv:2: title: 'GMX' is not a FIDE title; the titles are GM, IM, FM, CM, "
        "WGM, WIM, WFM and WCM (also written g, m, f, c, wg, wm, wf and wc).",
        "error: players.csv:2: federation: 'XYZ' is not a FIDE federation code; give FIDE's "
        "three-letter code, such as ENG, GER, NOR or USA.",
        "error: players.csv:2: rating: 99999 cannot be a published rating; ratings run from "
        "1400 (FIDE 7.1.4) to 3500.",
        "error: players.csv:3: birth_year: 'old' is not a whole number.",
        "error: players.csv:3: rating: 'abc' is not a whole number.",
        "error: 5 problems; nothing was written.",
    ]


def test_games_before_their_players_are_refused_once_with_what_to_do(
    database_url: str, tmp_path: Path
) -> None:
    _ok("add-player", "--name", "Known", db=database_url)
    rows = "".join(f"2025-10-0{n},{n},{n + 10},1-0,,\n" for n in range(1, 6))
    games = _file(tmp_path, "games.csv", f"date,white,black,result,event,round\n{rows}")
    refused = run("import-games", games, db=database_url)
    assert (refused.exit_code, refused.stderr.splitlines()) == (
        1,
        [
            "error: games.csv: 9 of the 10 players the games name are not in the ledger (IDs 2, "
            "3, 4, 5, 11 and 4 more).",
            "error: import the players first, with their ledger IDs: `ledger import-players "
            "PLAYERS.csv`; then import the games again.",
        ],
    )


# -- late files: one re-rate, one new version of each list ---------------------------------


def _closed_october(database_url: str, tmp_path: Path) -> str:
    players = _file(tmp_path, "players.csv", "id,name,federation,rating\n1,A,NOR,2000\n"
                    "2,B,NOR,1900\n3,C,NOR,1800\n")  # fmt: skip
    _ok("import-players", players, db=database_url)
    _ok("close-period", "2025-09", db=database_url)
    _ok("close-period", "2025-10", db=database_url)
    return _file(tmp_path, "late.csv", "date,white,black,result\n2025-09-05,1,2,1-0\n"
                 "2025-09-06,2,3,1/2-1/2\n")  # fmt: skip


def test_a_late_games_file_is_one_re_rate_and_one_new_version_of_each_list(
    database_url: str, tmp_path: Path
) -> None:
    late = _closed_october(database_url, tmp_path)
    refused = run("import-games", late, db=database_url)
    assert refused.exit_code == 1
    assert "period 2025-09 is closed" in refused.stderr
    done = run("import-games", late, "--late", "--reason", "mailed late", db=database_url)
    assert done.exit_code == 0, done.stderr
    assert "lists published: 2025-09 (version 2), 2025-10 (version 2)" in done.stdout
    logged = _json("log", "--action", "import-games", db=database_url)
    assert [entry["reason"] for entry in logged] == ["mailed late"]
    september = _json("list", "--period", "2025-09", db=database_url)
    assert {row["id"]: row["games"] for row in september} == {1: 1, 2: 2, 3: 1}


def test_a_late_file_with_a_bad_line_is_refused_whole(database_url: str, tmp_path: Path) -> None:
    _closed_october(database_url, tmp_path)
    bad = _file(tmp_path, "bad.csv", "date,white,black,result\n2025-09-05,1,2,1-0\n"
                "2025-09-06,2,99,1-0\n")  # fmt: skip
    before = fingerprint(database_url)
    refused = run("import-games", bad, "--late", "--reason", "mailed late", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: bad.csv:3: black: no player with ID 99.\n",
    )
    assert fingerprint(database_url) == before


def test_late_needs_a_closed_period_and_a_reason(database_url: str, tmp_path: Path) -> None:
    _closed_october(database_url, tmp_path)
    early = _file(tmp_path, "early.csv", "date,white,black,result\n2025-11-05,1,2,1-0\n")
    refused = run("import-games", early, "--late", "--reason", "why", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: standard period 2025-11 is still open; import the file without --late, its "
        "games are rated when the period closes.\n",
    )
    unexplained = run("import-games", early, "--late", db=database_url)
    assert (unexplained.exit_code, unexplained.stderr) == (
        2,
        "error: reason: --late and --reason go together: a late game or file needs a reason.\n",
    )


def test_a_late_report_and_a_late_pgn_are_recorded_whole(database_url: str, tmp_path: Path) -> None:
    players = _file(tmp_path, "players.csv", "name,federation,rating\nAnchor,ESP,2000\n")
    _ok("import-players", players, db=database_url)
    _ok("close-period", "2024-09", db=database_url)
    refused = run("import-trf", str(SWISS), db=database_url)
    assert refused.exit_code == 1
    done = run("import-trf", str(SWISS), "--late", "--reason", "report came late",
               db=database_url)  # fmt: skip
    assert done.exit_code == 0, done.stderr
    assert "lists published: 2024-09 (version 2)" in done.stdout
    pgn = _file(
        tmp_path,
        "late.pgn",
        '[Event "Club"]\n[Date "2024.09.20"]\n[White "Anchor"]\n[Black "Núñez, José"]\n'
        '[Result "0-1"]\n\n0-1\n',
    )
    played = run("import-pgn", pgn, "--late", "--reason", "found later", db=database_url)
    assert played.exit_code == 0, played.stderr
    assert "lists published: 2024-09 (version 3)" in played.stdout


# -- reports exported as they were -----------------------------------------------------------


def test_a_forfeit_without_colours_is_exported_without_them(database_url: str) -> None:
    _ok("import-trf", str(SWISS), db=database_url)
    exported = _ok("export-trf", BILBAO, db=database_url)
    (paul,) = [line for line in exported.splitlines() if "Schmidt, Paul" in line]
    assert paul[101:109] == "   6 - +"
    assert "102 IA Etxeberria, Miren" in exported.splitlines()


def _player_line(number: int, name: str, points: str, *rounds: str) -> str:
    """A 001 line in TRF16's columns."""
    line = (
        f"001 {number:>4} m    {name:<33} {'':>4} {'':<3} {'':>11} {'':<10} {points:>4} {number:>4}"
    )
    return (line + "".join(f"  {block:<8}" for block in rounds)).rstrip()


def test_two_lines_of_one_report_are_two_people_to_a_merge(
    database_url: str, tmp_path: Path
) -> None:
    """A report's player who played no round is still one of its players (and two of its
    lines are two people)."""
    lines = [
        _player_line(1, "One", "1.0", "   2 w 1"),
        _player_line(2, "Two", "0.0", "   1 b 0"),
        _player_line(3, "Three", "0.0", ""),
    ]
    report = _file(tmp_path, "club.trf", "\n".join(["012 Club Cup", "052 2025/05/04", *lines]))
    _ok("import-trf", report, db=database_url)
    assert [row["name"] for row in _json("event", "Club Cup", db=database_url)["rows"]] == [
        "One",
        "Two",
        "Three",
    ]
    assert [event["players"] for event in _json("events", db=database_url)] == [3]
    refused = run("merge-players", "1", "3", db=database_url)
    assert refused.exit_code == 1
    assert "each have a line of the report of Club Cup, so they are two people" in refused.stderr
