"""Real tournament reports, as arbiters' programs wrote them (tests/data/README): each imports
or is refused with a sentence a user can act on; `ledger event` and the web show every player
with the report's own points, in the report's order; `export-trf` gives the report the event
was rated from, the same before and after the close and a list later; and the close agrees
with the independent FIDE oracle (tests/fide_oracle.py). A real PGN of a FIDE event imports
every game, player and result as the file gives them. On both backends.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from fastapi.testclient import TestClient

from ledger.formats.trf import TrfGame, read_trf
from ledger.web import create_app

import fide_oracle as oracle
from builders import fingerprint, run

TRF = Path(__file__).parent / "data" / "trf"
CHAMPIONSHIP = TRF / "crete-championship-2025.trf"
"""The Cretan inter-club team championship of March-April 2025: 163 players, 4 rounds, 85
reserves who only had zero-point byes, forfeits with colours and a double forfeit, team
records, and eight players whose points count forfeit wins the rounds write as losses."""
CHAMPIONSHIP_NAME = "Διασυλλογικό Πρωτάθλημα Π.Ο.Α Κρήτης 2025"
FRIENDSHIP_CUP = TRF / "crete-friendship-cup-2024.trf"
"""The Cretan Friendship Cup of November 2024, rapid: one player listed twice (two lines
with one FIDE ID)."""
TATA_STEEL = Path(__file__).parent / "data" / "pgn" / "tata-steel-masters-2022.pgn"
"""The 84th Tata Steel Masters (Wijk aan Zee, 15-30 January 2022): a round robin of 14
players in 13 rounds, 91 games with their FIDE IDs and ratings; four of Dubov's losses
have a result and no moves."""
TATA_STEEL_NAME = "84th Tata Steel Masters"


class ReportLine(NamedTuple):
    """A 001 line's columns, read by hand (not by the ledger's reader)."""

    number: int
    sex: str
    name: str
    rating: int | None
    federation: str
    fide_id: int | None
    birth_year: int | None
    points: Decimal
    rank: int
    rounds: list[str]


def report_lines(path: Path) -> list[ReportLine]:
    lines = []
    for text in path.read_text(encoding="utf-8").splitlines():
        if not text.startswith("001"):
            continue
        rounds = [text[start : start + 8] for start in range(91, len(text.rstrip()), 10)]
        lines.append(
            ReportLine(
                number=int(text[4:8]),
                sex=text[9],
                name=text[14:47].strip(),
                rating=int(text[48:52]) or None,
                federation=text[53:56],
                fide_id=int(text[57:68]) or None,
                birth_year=int(text[69:73].strip() or 0) or None,
                points=Decimal(text[80:84]),
                rank=int(text[85:89]),
                rounds=rounds,
            )
        )
    return lines


class PgnGame(NamedTuple):
    """A game's headers, read by hand (not by the ledger's reader)."""

    round: int
    white: str
    black: str
    result: str
    white_fide_id: int
    black_fide_id: int


def pgn_games(path: Path) -> list[PgnGame]:
    games = []
    for text in path.read_text(encoding="utf-8").split("[Event ")[1:]:
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', text, re.MULTILINE))
        games.append(
            PgnGame(
                round=int(tags["Round"].split(".")[0]),
                white=tags["White"],
                black=tags["Black"],
                result=tags["Result"],
                white_fide_id=int(tags["WhiteFideId"]),
                black_fide_id=int(tags["BlackFideId"]),
            )
        )
    return games


def players_csv(path: Path, tmp_path: Path) -> Path:
    """The report's players with the ratings it gives them, as a federation's players file
    in the fewest columns (`name,federation,rating`, with the FIDE ID, sex and birth year)."""
    rows = ["name,federation,rating,fide_id,sex,birth_year"]
    for line in report_lines(path):
        sex = {"m": "M", "f": "F", "w": "F"}[line.sex]
        rows.append(
            f'"{line.name}",{line.federation},{line.rating or ""},{line.fide_id or ""},'
            f"{sex},{line.birth_year or ''}"
        )
    csv = tmp_path / "players.csv"
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return csv


def json_of(*args: str, db: str) -> Any:
    shown = run(*args, "--format", "json", db=db)
    assert shown.exit_code == 0, shown.stderr
    return json.loads(shown.stdout)


def test_a_real_team_swiss_shows_every_player_with_the_reports_points_in_its_order(
    database_url: str,
) -> None:
    imported = run("import-trf", str(CHAMPIONSHIP), db=database_url)
    assert imported.exit_code == 0, imported.stderr
    assert "163 players (0 matched, 163 new), 152 games" in imported.stdout
    events = json_of("events", db=database_url)
    assert [event["players"] for event in events] == [163]
    table = json_of("event", CHAMPIONSHIP_NAME, db=database_url)
    lines = sorted(report_lines(CHAMPIONSHIP), key=lambda line: line.rank)
    assert [(row["rank"], row["number"], row["name"]) for row in table["rows"]] == [
        (line.rank, line.number, line.name) for line in lines
    ]
    assert [Decimal(str(row["score"])) for row in table["rows"]] == [line.points for line in lines]
    reserve = next(row for row in table["rows"] if row["number"] == 11)
    assert [(cell["round"], cell["bye"], cell["result"]) for cell in reserve["games"]] == [
        (round, "Z", "0") for round in (1, 2, 3, 4)
    ]
    shown = run("event", CHAMPIONSHIP_NAME, db=database_url)
    assert shown.exit_code == 0, shown.stderr
    assert re.search(r"│\s+1 │\s+85 │ Christodoulaki,Antonia Emm", shown.stdout)


def test_the_reports_warnings_name_their_lines_and_the_report_imports(database_url: str) -> None:
    """Eight players' points count forfeit wins that their rounds write as losses (`0000 - -`):
    each is a warning with its line; the report's own points are kept."""
    imported = run("import-trf", str(CHAMPIONSHIP), "--check", db=database_url)
    assert imported.exit_code == 0, imported.stderr
    warned = [line.split(": ")[1] for line in imported.stderr.splitlines()]
    assert warned == [
        f"crete-championship-2025.trf:{line}" for line in (74, 81, 94, 101, 114, 121, 135, 142)
    ]
    assert "the report gives 4.0 points, but the rounds score 3.0" in imported.stderr


def test_the_web_shows_the_same_table(database_url: str) -> None:
    assert run("import-trf", str(CHAMPIONSHIP), db=database_url).exit_code == 0
    with TestClient(create_app(database_url)) as client:
        page = client.get(f"/events/standard/{CHAMPIONSHIP_NAME}")
        answer = client.get(f"/api/v1/events/standard/{CHAMPIONSHIP_NAME}")
    assert page.status_code == answer.status_code == 200
    assert page.text.count('<td class="name">') == 163
    assert '<abbr title="zero-point bye">Z</abbr> 0' in page.text
    assert answer.json()["rows"] == json_of("event", CHAMPIONSHIP_NAME, db=database_url)["rows"]


def _rated_championship(database_url: str, tmp_path: Path) -> None:
    """The championship's players with the report's ratings, then the report."""
    players = run("import-players", str(players_csv(CHAMPIONSHIP, tmp_path)), db=database_url)
    assert players.exit_code == 0, players.stderr
    imported = run("import-trf", str(CHAMPIONSHIP), db=database_url)
    assert imported.exit_code == 0, imported.stderr
    assert "163 players (163 matched, 0 new)" in imported.stdout


def test_a_real_report_exports_as_it_was_rated_before_and_after_the_close(
    database_url: str, tmp_path: Path
) -> None:
    _rated_championship(database_url, tmp_path)
    before = run("export-trf", CHAMPIONSHIP_NAME, db=database_url)
    assert before.exit_code == 0, before.stderr
    assert run("close-period", "2025-04", db=database_url).exit_code == 0
    after = run("export-trf", CHAMPIONSHIP_NAME, db=database_url)
    assert run("close-period", "2025-05", db=database_url).exit_code == 0
    a_list_later = run("export-trf", CHAMPIONSHIP_NAME, db=database_url)
    assert before.stdout == after.stdout == a_list_later.stdout
    report, problems = read_trf(after.stdout.encode(), "exported.trf")
    assert problems == []
    assert report is not None
    original, _ = read_trf(CHAMPIONSHIP.read_bytes(), CHAMPIONSHIP.name)
    assert original is not None
    assert [(p.rank, p.rating, p.points, p.place) for p in report.players] == [
        (p.rank, p.rating, p.points, p.place) for p in original.players
    ]
    assert [_game(game) for game in report.games] == [_game(game) for game in original.games]
    assert [(bye.round, bye.player, bye.code, bye.date) for bye in report.byes] == [
        (bye.round, bye.player, bye.code, bye.date) for bye in original.byes
    ]
    assert report.event.records == original.event.records
    header = after.stdout.splitlines()
    assert "102 FA Stefanatos Charalabos" in header
    assert "142 4" in header
    assert f"072 {sum(1 for line in report_lines(CHAMPIONSHIP) if line.rating)}" in header
    assert header[-1].startswith("013 Ο.Φ.Σ.Χ.")


def _game(game: TrfGame) -> tuple[object, ...]:
    return (game.round, game.white, game.black, game.result, game.rated, game.date, game.colours)


def test_the_close_of_a_real_report_agrees_with_the_fide_oracle(
    database_url: str, tmp_path: Path
) -> None:
    _rated_championship(database_url, tmp_path)
    closed = run("close-period", "2025-04", db=database_url)
    assert closed.exit_code == 0, closed.stderr
    lines = report_lines(CHAMPIONSHIP)
    # The players file gave no IDs: the ledger numbered its rows from 1, in the report's order.
    assert json_of("player", "163", db=database_url)["name"] == lines[-1].name
    players = [
        {
            "id": index,
            "name": line.name,
            "rating": line.rating,
            "games": 30,  # the players file's default for a rated player
            "birth_year": line.birth_year,
            "sex": "F" if line.sex in "fw" else "M",
        }
        for index, line in enumerate(lines, start=1)
    ]
    games = [
        {
            "period": "2025-04",
            "event": CHAMPIONSHIP_NAME,
            "white": game["white"],
            "black": game["black"],
            "result": game["result"],
        }
        for game in json_of("games", "--period", "2025-04", db=database_url)
    ]
    expected = oracle.simulate(players, games, ["2025-04"])["2025-04"]
    listed = {row["id"]: row for row in json_of("list", db=database_url)}
    assert set(listed) == set(expected)
    for player_id, row in expected.items():
        got = listed[player_id]
        assert (got["rating"], got["change"], got["games"], got["k_applied"], got["k"]) == (
            row["rating"],
            row["change"],
            row["games"],
            row["k_applied"],
            row["k"],
        ), player_id


def test_a_report_that_lists_one_person_twice_is_refused_with_what_to_do(
    database_url: str,
) -> None:
    before = fingerprint(database_url)
    refused = run("import-trf", str(FRIENDSHIP_CUP), "--pool", "rapid", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: crete-friendship-cup-2024.trf:146: FIDE ID 42143365 is also given at "
        "crete-friendship-cup-2024.trf:73; one person has one FIDE ID: correct the ID of one of "
        "the two, or list the person once.\n",
    )
    assert fingerprint(database_url) == before


@pytest.mark.parametrize("report", [CHAMPIONSHIP, FRIENDSHIP_CUP], ids=lambda path: path.stem)
def test_the_real_reports_read_whole(report: Path) -> None:
    """Both read without problems (the duplicate is the ledger's to refuse, not the format's)."""
    read, problems = read_trf(report.read_bytes(), report.name)
    assert problems == []
    assert read is not None
    assert len(read.players) == len(report_lines(report))


def test_a_real_pgn_of_a_fide_event_imports_every_game_player_and_result(
    database_url: str,
) -> None:
    imported = run("import-pgn", str(TATA_STEEL), db=database_url)
    assert imported.exit_code == 0, imported.stderr
    assert imported.stdout == (
        "Imported 91 games in 1 event from tata-steel-masters-2022.pgn: 0 players matched, "
        "14 new.\n"
    )
    assert imported.stderr == (
        "warning: tata-steel-masters-2022.pgn:1216: moves: 4 games give a result and no moves "
        "(game 49 at line 1216, game 77 at line 1918, game 84 at line 2081, game 91 at line "
        "2252); each is rated as played. If one was not played (a forfeit), FIDE does not "
        "rate it: record it as a forfeit (+/- or -/+).\n"
    )  # Dubov's four forfeits, as the file gives them
    assert [
        (event["name"], event["start_date"], event["end_date"], event["players"], event["games"])
        for event in json_of("events", db=database_url)
    ] == [(TATA_STEEL_NAME, "2022-01-15", "2022-01-30", 14, 91)]
    file = pgn_games(TATA_STEEL)
    assert Counter(game.result for game in file) == {"1-0": 26, "0-1": 16, "1/2-1/2": 49}
    games = json_of("games", db=database_url)
    assert sorted(
        (game["round"], game["white_name"], game["black_name"], game["result"]) for game in games
    ) == sorted((game.round, game.white, game.black, game.result) for game in file)
    fide_ids = {game.white: game.white_fide_id for game in file} | {
        game.black: game.black_fide_id for game in file
    }
    players = {game["white"] for game in games} | {game["black"] for game in games}
    assert len(players) == len(fide_ids) == 14
    for player_id in players:
        shown = json_of("player", str(player_id), db=database_url)
        assert shown["fide_id"] == fide_ids[shown["name"]], shown["name"]


def test_a_real_pgn_of_a_fide_event_shows_every_players_score(database_url: str) -> None:
    """The final standings: Carlsen 9.5 of 13, then Mamedyarov and Rapport on 8."""
    assert run("import-pgn", str(TATA_STEEL), db=database_url).exit_code == 0
    scores: Counter[str] = Counter()
    for game in pgn_games(TATA_STEEL):
        white, black = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (0.5, 0.5)}[game.result]
        scores.update({game.white: white, game.black: black})
    table = json_of("event", TATA_STEEL_NAME, db=database_url)
    assert table["rounds"] == 13
    assert [(row["rank"], row["name"], row["score"]) for row in table["rows"][:3]] == [
        (1, "Carlsen, Magnus", 9.5),
        (2, "Mamedyarov, Shakhriyar", 8),
        (3, "Rapport, Richard", 8),
    ]
    assert [row["score"] for row in table["rows"]] == sorted(scores.values(), reverse=True)
    assert {row["name"]: row["score"] for row in table["rows"]} == scores
    assert all(len(row["games"]) == 13 for row in table["rows"])
