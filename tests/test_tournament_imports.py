"""Tournament reports (TRF) and PGN files into the ledger, and events back out as TRF."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy import func, select

from ledger.core.domain import ByeKind, GameResult
from ledger.storage.database import Ledger, open_ledger
from ledger.storage.models import Bye, Event, Game, Player

from builders import ALLOW_REPEAT_HINT, fingerprint, run

DATA = Path(__file__).parent / "data"
SWISS = DATA / "trf" / "swiss.trf"
ROUND_ROBIN = DATA / "trf" / "round_robin.trf"
TRF_2026 = DATA / "trf" / "trf2026.trf"
DEFECTIVE = DATA / "trf" / "defective.trf"
BILBAO = "Bilbao Autumn Open 2024"


def _games(ledger: Ledger) -> set[tuple[object, ...]]:
    """Every game as (round, White, Black, result, rated, date), by the players' names."""
    with ledger.reading() as session:
        white, black = Player.__table__.alias("white"), Player.__table__.alias("black")
        rows = session.execute(
            select(Game.round, white.c.name, black.c.name, Game.result, Game.rated, Game.date)
            .join(white, white.c.id == Game.white_id)
            .join(black, black.c.id == Game.black_id)
        )
        return {tuple(row) for row in rows}


def _count(ledger: Ledger, model: type[object]) -> int:
    with ledger.reading() as session:
        return session.scalar(select(func.count()).select_from(model)) or 0


def test_a_swiss_report_imports_its_games_byes_and_dates(database_url: str, ledger: Ledger) -> None:
    imported = run("import-trf", str(SWISS), db=database_url)
    assert imported.exit_code == 0, imported.stderr
    assert imported.stdout == (
        f"Imported event '{BILBAO}' (standard, period 2024-09): 9 players (0 matched, 9 new), "
        "20 games (17 to rate, 3 not rated), 4 byes from swiss.trf.\n"
    )
    games = _games(ledger)
    assert len(games) == 20
    assert {game[0] for game in games if game[5] == dt.date(2024, 9, 8)} == {5}
    assert (1, "Núñez, José", "O'Brien, Seán", GameResult.WHITE_WINS, True) in {
        game[:5] for game in games
    }
    not_rated = sorted((game[0], game[3]) for game in games if not game[4])
    assert not_rated == [
        (2, GameResult.BLACK_WINS_BY_FORFEIT),
        (3, GameResult.WHITE_WINS),
        (5, GameResult.DRAW),
    ]
    with ledger.reading() as session:
        byes = session.execute(select(Bye.round, Bye.kind).order_by(Bye.round)).all()
        event = session.scalars(select(Event)).one()
    assert [tuple(bye) for bye in byes] == [
        (1, ByeKind.UNPAIRED),
        (3, ByeKind.FULL_POINT),
        (4, ByeKind.ZERO_POINT),
        (5, ByeKind.HALF_POINT),
    ]
    assert (event.city, event.federation) == ("Bilbao", "ESP")
    assert (event.start_date, event.end_date) == (dt.date(2024, 9, 6), dt.date(2024, 9, 8))


def test_reports_from_every_layout_import(database_url: str) -> None:
    for report, summary in (
        (ROUND_ROBIN, "6 players (0 matched, 6 new), 15 games (15 to rate, 0 not rated), 0 byes"),
        (TRF_2026, "6 players (0 matched, 6 new), 8 games (8 to rate, 0 not rated), 2 byes"),
    ):
        imported = run("import-trf", str(report), db=database_url)
        assert imported.exit_code == 0, imported.stderr
        assert summary in imported.stdout


def test_players_are_matched_and_the_ledgers_ratings_rate_the_games(
    database_url: str, ledger: Ledger
) -> None:
    """Núñez by FIDE ID, Petersen by name and birth year (taking the report's FIDE ID); the
    not-rated codes and the forfeit are stored and never rated."""
    for name, extra in (
        ("Núñez, José", ["--fide-id", "2200001", "--rating", "2480"]),
        ("Petersen, Lars", ["--birth-year", "1988", "--rating", "2300"]),
        ("O'Brien, Seán", ["--fide-id", "2500001", "--rating", "2000"]),
        ("Fernández, Iñigo", ["--fide-id", "2200002", "--rating", "2150"]),
    ):
        assert (
            run("add-player", "--name", name, "--games", "50", *extra, db=database_url).exit_code
            == 0
        )
    imported = run("import-trf", str(SWISS), db=database_url)
    assert "9 players (4 matched, 5 new)" in imported.stdout
    with ledger.reading() as session:
        assert (
            session.scalar(select(Player.fide_id).where(Player.name == "Petersen, Lars")) == 1400002
        )
    assert run("close-period", "2024-09", db=database_url).exit_code == 0
    explained = run("explain", "2", db=database_url)
    assert explained.exit_code == 0, explained.stderr
    assert "not rated by the arbiter" in explained.stdout
    assert "O'Brien" in explained.stdout


def test_check_shows_the_import_and_writes_nothing(database_url: str) -> None:
    before = fingerprint(database_url)
    checked = run("import-trf", str(SWISS), "--check", db=database_url)
    assert checked.exit_code == 0, checked.stderr
    assert checked.stdout.startswith("swiss.trf is ready to import: event 'Bilbao")
    assert checked.stdout.endswith("Nothing was written.\n")
    assert fingerprint(database_url) == before


def test_a_defective_report_is_refused_by_line_and_writes_nothing(database_url: str) -> None:
    before = fingerprint(database_url)
    refused = run("import-trf", str(DEFECTIVE), db=database_url)
    assert refused.exit_code == 1
    lines = refused.stderr.splitlines()
    assert (
        lines[0]
        == "error: defective.trf: the event has no name; write it in a 012 record from column 5."
    )
    assert [line.split(":")[2] for line in lines[1:-1]] == ["3", "6", "9", "10"]
    assert "line 7" in lines[2]
    assert lines[-1] == "error: 5 problems; nothing was written."
    assert fingerprint(database_url) == before


def test_a_report_of_a_known_event_needs_replace_while_its_period_is_open(
    database_url: str, ledger: Ledger
) -> None:
    assert run("import-trf", str(SWISS), db=database_url).exit_code == 0
    again = run("import-trf", str(SWISS), db=database_url)
    assert again.exit_code == 1
    assert again.stderr == (
        f"error: event '{BILBAO}' is already in the ledger (period 2024-09); import the report "
        "with --replace to put it in place of the event's games.\n"
    )
    replaced = run("import-trf", str(SWISS), "--replace", db=database_url)
    assert replaced.exit_code == 0, replaced.stderr
    assert "Replaced event" in replaced.stdout
    assert "9 players (9 matched, 0 new)" in replaced.stdout
    assert (_count(ledger, Player), _count(ledger, Game), _count(ledger, Bye)) == (9, 20, 4)
    assert run("close-period", "2024-09", db=database_url).exit_code == 0
    closed = run("import-trf", str(SWISS), "--replace", db=database_url)
    assert closed.exit_code == 1
    assert "was rated in period 2024-09, which is closed" in closed.stderr


@pytest.mark.parametrize("report", [SWISS, ROUND_ROBIN, TRF_2026], ids=lambda path: path.stem)
def test_an_exported_event_imports_back_to_the_same_games(
    report: Path, database_url: str, ledger: Ledger, tmp_path: Path
) -> None:
    assert run("import-trf", str(report), db=database_url).exit_code == 0
    with ledger.reading() as session:
        name = session.scalars(select(Event.name)).one()
    exported = tmp_path / "event.trf"
    written = run("export-trf", name, "-o", str(exported), db=database_url)
    assert written.exit_code == 0, written.stderr
    again = f"sqlite:///{tmp_path / 'again.db'}"
    assert run("import-trf", str(exported), db=again).exit_code == 0
    other = open_ledger(again)
    try:
        assert _games(other) == _games(ledger)
    finally:
        other.dispose()


def test_export_trf_of_an_unknown_event_is_refused(database_url: str) -> None:
    refused = run("export-trf", "Nowhere Open", db=database_url)
    assert refused.exit_code == 1
    assert refused.stderr.startswith("error: no standard event named 'Nowhere Open'")


def test_pgn_games_import_by_their_headers(database_url: str, ledger: Ledger) -> None:
    assert (
        run(
            "add-player", "--name", "Magnus Carlsen", "--fide-id", "1503014", db=database_url
        ).exit_code
        == 0
    )
    imported = run("import-pgn", str(DATA / "pgn" / "two-events.pgn"), db=database_url)
    assert imported.exit_code == 0, imported.stderr
    assert imported.stdout.startswith("Imported 8 games in 2 events from two-events.pgn")
    assert "1 player matched" in imported.stdout
    assert len(_games(ledger)) == 8
    again = run("import-pgn", str(DATA / "pgn" / "two-events.pgn"), db=database_url)
    assert again.exit_code == 1
    assert "was already imported" in again.stderr


def test_an_unfinished_pgn_game_refuses_the_file(database_url: str) -> None:
    before = fingerprint(database_url)
    refused = run("import-pgn", str(DATA / "pgn" / "unfinished.pgn"), db=database_url)
    assert refused.exit_code == 1
    assert refused.stderr.startswith("error: unfinished.pgn:10: game 2: the result is *")
    assert fingerprint(database_url) == before


def _pgn(tmp_path: Path, name: str, games: list[tuple[str, str, str, str, str]]) -> Path:
    """A PGN file of games given as (white, black, white FIDE ID, round, result)."""
    blocks = []
    for white, black, white_id, round_, result in games:
        tags = [
            '[Event "Club Night"]',
            '[Date "2026.10.06"]',
            f'[Round "{round_}"]',
            f'[White "{white}"]',
            f'[Black "{black}"]',
            f'[Result "{result}"]',
        ]
        if white_id:
            tags.append(f'[WhiteFideId "{white_id}"]')
        blocks.append("\n".join(tags) + f"\n\n{result}\n")
    path = tmp_path / name
    path.write_text("\n".join(blocks), encoding="utf-8")
    return path


def test_pgn_names_match_ledger_players_and_one_person_once(
    database_url: str, ledger: Ledger, tmp_path: Path
) -> None:
    """A side without a FIDE ID matches the one ledger player of that name (who has a FIDE
    ID), and a person given by FIDE ID in one game and by name in another is one player."""
    added = run("add-player", "--name", "Núñez, José", "--fide-id", "2200001", db=database_url)
    assert added.exit_code == 0
    path = _pgn(
        tmp_path,
        "club.pgn",
        [
            ("José Núñez", "Newbie, Ned", "", "1", "1-0"),
            ("Newbie, Ned", "Other, Olga", "4600999", "2", "0-1"),
        ],
    )
    imported = run("import-pgn", str(path), db=database_url)
    assert imported.exit_code == 0, imported.stderr
    assert "1 player matched, 2 new" in imported.stdout
    with ledger.reading() as session:
        assert session.scalar(select(func.count()).select_from(Player)) == 3


def test_the_same_pgn_game_twice_refuses_the_file(database_url: str, tmp_path: Path) -> None:
    path = _pgn(tmp_path, "twice.pgn", [("A, Al", "B, Bo", "", "1", "1-0")] * 2)
    before = fingerprint(database_url)
    refused = run("import-pgn", str(path), db=database_url)
    assert refused.exit_code == 1
    assert refused.stderr.splitlines() == [
        "error: twice.pgn:10: the same game as twice.pgn:1.",
        f"error: {ALLOW_REPEAT_HINT}",
    ]
    assert fingerprint(database_url) == before


def test_a_report_without_fide_ids_matches_by_name_and_birth_year(
    database_url: str, ledger: Ledger, tmp_path: Path
) -> None:
    added = run(
        "add-player",
        "--name",
        "Rossi, Giulia",
        "--fide-id",
        "860001",
        "--birth-year",
        "2012",
        db=database_url,
    )
    assert added.exit_code == 0
    imported = run("import-trf", str(SWISS), db=database_url)
    assert "9 players (1 matched, 8 new)" in imported.stdout
    with ledger.reading() as session:
        assert session.scalar(select(func.count()).select_from(Player)) == 9


def test_two_lines_of_one_player_are_refused(database_url: str, tmp_path: Path) -> None:
    text = SWISS.read_bytes().decode("latin-1")
    twice = text.replace("    1400002 1988", "    2200001 1988")  # Petersen takes Núñez's ID
    path = tmp_path / "twice.trf"
    path.write_bytes(twice.encode("latin-1"))
    refused = run("import-trf", str(path), db=database_url)
    assert refused.exit_code == 1
    assert refused.stderr == (
        "error: twice.trf:15: FIDE ID 2200001 is also given at twice.trf:13; one person has one "
        "FIDE ID: correct the ID of one of the two, or list the person once.\n"
    )


def test_export_trf_refuses_two_games_of_one_player_in_a_round(database_url: str) -> None:
    for name in ("A", "B", "C"):
        assert run("add-player", "--name", name, db=database_url).exit_code == 0
    for white, black in (("1", "2"), ("1", "3")):
        played = run(
            "add-game",
            "--white",
            white,
            "--black",
            black,
            "--result",
            "1-0",
            "--date",
            "2026-10-03",
            "--event",
            "Club",
            "--round",
            "1",
            "--allow-repeat",
            db=database_url,
        )
        assert played.exit_code == 0, played.stderr
    refused = run("export-trf", "Club", db=database_url)
    assert refused.exit_code == 1
    assert refused.stderr == (
        "error: event 'Club': player 1 has two games in round 1; a tournament report holds "
        "one per player and round.\n"
    )
