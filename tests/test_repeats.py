"""No game rated twice: a game the ledger or the same file already holds is refused, by
add-game and by every import, naming the recorded game; `--allow-repeat` records a game
played again; a player's second game in one round is refused; `db check` lists both."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path

import pytest
from sqlalchemy import func, inspect, select, text

from ledger.core.domain import Pool
from ledger.core.errors import Conflict, RejectedRecords
from ledger.services.imports import import_games
from ledger.storage.database import Ledger, open_ledger
from ledger.storage.models import Game, Import

from builders import ALLOW_REPEAT_HINT, fingerprint, player, run

TRF = Path(__file__).parent / "data" / "trf" / "round_robin.trf"
EVENT = "October Open"


def _october() -> list[str]:
    """A 7-round event of 14 players (the circle method: 49 games), as CSV rows."""
    ranks = list(range(1, 15))
    rows = []
    for round_ in range(1, 8):
        for board in range(7):
            white, black = ranks[board], ranks[13 - board]
            rows.append(f"2026-10-{round_ + 2:02d},{white},{black},1-0,{EVENT},{round_}")
        ranks = [ranks[0], ranks[-1], *ranks[1:-1]]
    return rows


HEADER = "date,white,black,result,event,round"


def _csv(tmp_path: Path, name: str, rows: list[str]) -> str:
    path = tmp_path / name
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def october(ledger: Ledger, database_url: str, tmp_path: Path) -> str:
    """Fourteen players and October's event imported from oct.csv (games 1 to 49)."""
    for number in range(1, 15):
        player(ledger, f"Player, {number}")
    imported = run("import-games", _csv(tmp_path, "oct.csv", _october()), db=database_url)
    assert imported.stdout == "Imported 49 games from oct.csv.\n", imported.stderr
    return database_url


def _games(url: str) -> int:
    ledger = open_ledger(url)
    try:
        with ledger.reading() as session:
            return session.scalar(select(func.count()).select_from(Game)) or 0
    finally:
        ledger.dispose()


def test_a_bigger_file_with_the_same_games_is_refused_naming_them(
    october: str, tmp_path: Path
) -> None:
    plus = _csv(tmp_path, "oct-plus.csv", [*_october(), "2026-10-20,1,2,0-1,,"])
    before = fingerprint(october)
    refused = run("import-games", plus, db=october)
    assert refused.exit_code == 1
    lines = refused.stderr.splitlines()
    assert lines[:2] == [
        "error: oct-plus.csv:2: the same game as game 1, already in the ledger.",
        "error: oct-plus.csv:3: the same game as game 2, already in the ledger.",
    ]
    assert lines[-2:] == ["error: 49 problems; nothing was written.", f"error: {ALLOW_REPEAT_HINT}"]
    assert len(lines) == 51
    assert fingerprint(october) == before


def test_allow_repeat_records_the_games_again(october: str, tmp_path: Path) -> None:
    plus = _csv(tmp_path, "oct-plus.csv", [*_october(), "2026-10-20,1,2,0-1,,"])
    accepted = run("import-games", plus, "--allow-repeat", db=october)
    assert (accepted.exit_code, accepted.stdout) == (0, "Imported 50 games from oct-plus.csv.\n")
    assert _games(october) == 99


def test_one_game_imported_reads_one_game(october: str, tmp_path: Path) -> None:
    one = run("import-games", _csv(tmp_path, "one.csv", ["2026-10-20,1,2,0-1,,"]), db=october)
    assert one.stdout == "Imported 1 game from one.csv.\n"


def _add_game(url: str, white: int, black: int, date: str, *more: str) -> tuple[int, str, str]:
    added = run(
        "add-game",
        "--white",
        str(white),
        "--black",
        str(black),
        "--result",
        "1-0",
        "--date",
        date,
        *more,
        db=url,
    )
    return added.exit_code, added.stdout, added.stderr


def test_add_game_refuses_a_recorded_game_and_allows_a_repeat(october: str) -> None:
    first = ("2026-10-03", "--event", EVENT, "--round", "1")
    assert _add_game(october, 1, 14, *first) == (
        1,
        "",
        f"error: the same game as game 1, already in the ledger.\nerror: {ALLOW_REPEAT_HINT}\n",
    )
    assert _add_game(october, 1, 14, *first, "--allow-repeat") == (
        0,
        "Game 50 recorded in standard period 2026-10.\n",
        "",
    )


def test_a_game_without_event_and_round_repeats_in_either_colour(october: str) -> None:
    assert _add_game(october, 1, 2, "2026-10-25")[0] == 0
    refused = _add_game(october, 2, 1, "2026-10-25")
    assert refused[:2] == (1, "")
    assert refused[2].startswith("error: the same game as game 50, already in the ledger.\n")
    assert _add_game(october, 2, 1, "2026-10-25", "--allow-repeat")[0] == 0
    assert _add_game(october, 2, 1, "2026-10-26")[0] == 0, "another day is another game"
    assert _add_game(october, 2, 1, "2026-10-25", "--round", "1")[0] == 0, "a numbered game"


def test_a_late_game_repeating_a_rated_one_is_refused(october: str) -> None:
    assert run("close-period", "2026-10", db=october).exit_code == 0
    refused = _add_game(
        october, 1, 14, "2026-10-03", "--event", EVENT, "--round", "1", "--late", "--reason", "x"
    )
    assert refused[:2] == (1, "")
    assert refused[2].startswith("error: the same game as game 1, already in the ledger.\n")
    late = ("2026-10-30", "--late", "--reason", "mailed late")
    code, printed, _ = _add_game(october, 1, 2, *late)
    assert (code, printed.splitlines()[0]) == (0, "Game 50 recorded in standard period 2026-10.")
    assert printed.splitlines()[1].startswith("Re-rated standard: ")


def test_a_second_game_in_a_round_is_refused(october: str, tmp_path: Path) -> None:
    assert _add_game(october, 1, 3, "2026-10-03", "--event", EVENT, "--round", "1") == (
        1,
        "",
        f"error: player 1 already has a game in round 1 of {EVENT!r}: game 1, already in the "
        f"ledger; a player plays one game a round.\nerror: {ALLOW_REPEAT_HINT}\n",
    )
    cup = _csv(tmp_path, "cup.csv", ["2026-10-10,1,2,1-0,Cup,1", "2026-10-10,3,1,1-0,Cup,1"])
    refused = run("import-games", cup, db=october)
    assert refused.stderr.splitlines() == [
        "error: cup.csv:3: player 1 already has a game in round 1 of 'Cup': cup.csv:2; a "
        "player plays one game a round.",
        f"error: {ALLOW_REPEAT_HINT}",
    ]
    assert run("import-games", cup, "--allow-repeat", db=october).exit_code == 0


def test_the_same_game_twice_in_one_file_is_refused(october: str, tmp_path: Path) -> None:
    twice = _csv(tmp_path, "twice.csv", ["2026-10-20,1,2,1-0,,", "2026-10-20,2,1,0-1,,"])
    refused = run("import-games", twice, db=october)
    assert refused.stderr.splitlines() == [
        "error: twice.csv:3: the same game as twice.csv:2.",
        f"error: {ALLOW_REPEAT_HINT}",
    ]
    assert run("import-games", twice, "--allow-repeat", db=october).exit_code == 0


def test_games_of_a_report_entered_again_are_refused(
    database_url: str, ledger: Ledger, tmp_path: Path
) -> None:
    assert run("import-trf", str(TRF), db=database_url).exit_code == 0
    with ledger.reading() as session:
        recorded = session.execute(
            text(
                "SELECT g.id, g.date, g.white_id, g.black_id, e.name, g.round FROM games g "
                "JOIN events e ON e.id = g.event_id ORDER BY g.id"
            )
        ).all()
    rows = [
        f"{date},{white},{black},1-0,{name},{round_}"
        for _, date, white, black, name, round_ in recorded
    ]
    again = _csv(tmp_path, "again.csv", rows)
    refused = run("import-games", again, db=database_url)
    assert refused.exit_code == 1
    assert refused.stderr.splitlines()[0] == (
        f"error: again.csv:2: the same game as game {recorded[0].id}, already in the ledger."
    )
    late = run("import-trf", str(TRF), "--replace", "--allow-repeat", db=database_url)
    assert late.exit_code == 0, late.stderr


def _pgn(tmp_path: Path, name: str, rounds: list[str]) -> str:
    blocks = [
        "\n".join(
            [
                '[Event "Club Night"]',
                '[Date "2026.10.06"]',
                f'[Round "{round_}"]',
                '[White "Able, Ann"]',
                '[Black "Baker, Bob"]',
                '[Result "1-0"]',
            ]
        )
        + "\n\n1-0\n"
        for round_ in rounds
    ]
    path = tmp_path / name
    path.write_text("\n".join(blocks), encoding="utf-8")
    return str(path)


def test_pgn_games_imported_again_in_another_file_are_refused(
    database_url: str, tmp_path: Path
) -> None:
    assert run("import-pgn", _pgn(tmp_path, "club.pgn", ["1"]), db=database_url).exit_code == 0
    bigger = _pgn(tmp_path, "club-all.pgn", ["1", "2"])
    refused = run("import-pgn", bigger, db=database_url)
    assert refused.stderr.splitlines() == [
        "error: club-all.pgn:1: the same game as game 1, already in the ledger.",
        f"error: {ALLOW_REPEAT_HINT}",
    ]
    assert run("import-pgn", bigger, "--allow-repeat", db=database_url).exit_code == 0
    assert _games(database_url) == 3


def test_db_check_lists_repeats_and_two_games_in_a_round(october: str, ledger: Ledger) -> None:
    round_one = ("2026-10-03", "--event", EVENT, "--round", "1", "--allow-repeat")
    assert _add_game(october, 1, 14, *round_one)[0] == 0  # game 50 repeats game 1
    assert _add_game(october, 1, 3, *round_one)[0] == 0  # game 51: players 1 and 3 again
    assert run("close-period", "2026-10", db=october).exit_code == 0
    for _ in range(2):  # games 52 and 53: a blitz match
        assert _add_game(october, 2, 5, "2026-11-05", "--allow-repeat")[0] == 0
    with ledger.reading() as session:
        three = session.scalar(
            select(Game.id).where(Game.round == 1, (Game.white_id == 3) | (Game.black_id == 3))
        )
    checked = run("db", "check", db=october)
    assert (checked.exit_code, checked.stderr) == (0, "")
    assert checked.stdout.splitlines() == [
        f"standard: game 50 repeats game 1 (2026-10-03, 1 v 14, {EVENT!r} round 1), in closed "
        "period 2026-10.",
        "standard: game 53 repeats game 52 (2026-11-05, 2 v 5), in open period 2026-11.",
        f"standard: player 1 has two games in round 1 of {EVENT!r}: games 1 and 51, in closed "
        "period 2026-10.",
        f"standard: player 3 has two games in round 1 of {EVENT!r}: games {three} and 51, in "
        "closed period 2026-10.",
        "The ledger agrees with itself; 4 findings to review (above): a game recorded twice is "
        "deleted with `ledger delete-game GAME`, one played again (recorded with "
        "--allow-repeat) stays.",
    ]


_COPY = (
    "INSERT INTO games (pool, period, date, event_id, round, white_id, black_id, result, rated) "
    "SELECT pool, period, date, {event}, {round}, {white}, {black}, result, rated FROM games "
    "WHERE id = {id}"
)


def test_db_check_finds_repeats_written_in_the_tables(october: str, ledger: Ledger) -> None:
    same = {"event": "event_id", "round": "round", "white": "white_id", "black": "black_id"}
    loose = {"event": "NULL", "round": "NULL"}
    with ledger.engine.begin() as connection:
        connection.execute(text(_COPY.format(**same, id=49)))
        for white, black in (("white_id", "black_id"), ("black_id", "white_id")):
            connection.execute(text(_COPY.format(**loose, white=white, black=black, id=1)))
    date, white, black, *_ = _october()[48].split(",")
    checked = run("db", "check", db=october)
    assert checked.exit_code == 0
    assert checked.stdout.splitlines()[:2] == [
        f"standard: game 50 repeats game 49 ({date}, {white} v {black}, {EVENT!r} round 7), in "
        "open period 2026-10.",
        "standard: game 52 repeats game 51 (2026-10-03, 14 v 1), in open period 2026-10.",
    ]


def test_the_same_file_imported_at_once_twice_is_already_imported(
    october: str, ledger: Ledger
) -> None:
    """The second import waits for the first, then says the file was imported, not that
    the database refused a duplicate."""
    content = f"{HEADER}\n2026-10-20,1,2,0-1,,\n".encode()
    now = dt.datetime(2026, 12, 1, 12, 0)
    refusals: list[Exception] = []

    def second() -> None:
        try:
            with ledger.transaction() as session:
                import_games(session, Pool.STANDARD, "copy.csv", content, now)
        except Conflict as refused:
            refusals.append(refused)

    with ledger.transaction() as session:
        import_games(session, Pool.STANDARD, "first.csv", content, now)
        waiting = threading.Thread(target=second)
        waiting.start()
        waiting.join(timeout=1)
    waiting.join()
    assert [str(refused) for refused in refusals] == [
        "copy.csv was already imported on 2026-12-01 12:00 (as first.csv); nothing was written."
    ]
    with ledger.reading() as session:
        assert session.scalar(select(func.count()).select_from(Import)) == 2


def test_the_same_games_in_two_files_imported_at_once_are_refused_once(
    october: str, ledger: Ledger
) -> None:
    """The second import waits for the first (the pool's lock), then finds its games."""
    game = "2026-10-20,1,2,0-1,,"
    now = dt.datetime(2026, 12, 1, 12, 0)
    refusals: list[Exception] = []

    def second() -> None:
        content = f"{HEADER}\n{game}\n2026-10-21,3,4,1-0,,\n".encode()
        try:
            with ledger.transaction() as session:
                import_games(session, Pool.STANDARD, "two.csv", content, now)
        except RejectedRecords as refused:
            refusals.append(refused)

    with ledger.transaction() as session:
        import_games(session, Pool.STANDARD, "one.csv", f"{HEADER}\n{game}\n".encode(), now)
        waiting = threading.Thread(target=second)
        waiting.start()
        waiting.join(timeout=1)
    waiting.join()
    assert [str(refused) for refused in refusals] == [
        "two.csv:2: the same game as game 50, already in the ledger."
    ]
    assert _games(october) == 50


def test_add_player_warns_of_a_likely_duplicate(database_url: str) -> None:
    first = run("add-player", "--name", "Müller, Jörg", "--birth-year", "1990", db=database_url)
    again = run("add-player", "--name", "Jörg Müller", "--birth-year", "1990", db=database_url)
    other = run("add-player", "--name", "Müller, Jörg", "--birth-year", "1991", db=database_url)
    assert (first.stdout, first.stderr) == ("1\n", "")
    assert (again.exit_code, again.stdout, again.stderr) == (
        0,
        "2\n",
        'warning: player 2 "Jörg Müller" (born 1990) may be the same person as 1 '
        '"Müller, Jörg"; merge them with `ledger merge-players 1 2` if so.\n',
    )
    assert (other.stdout, other.stderr) == ("3\n", "")


def test_import_players_warns_of_likely_duplicates(database_url: str, tmp_path: Path) -> None:
    assert run("add-player", "--name", "Doe, Jane", "--birth-year", "1980", db=database_url)
    path = tmp_path / "players.csv"
    path.write_text(
        "id,name,federation,sex,title,birth_year,rating,games,ever_2400\n"
        ',Jane Doe,,F,,1980,,,\n,"Roe, Rita",,F,,1999,,,\n,"Roe, Rita",,F,,1999,,,\n',
        encoding="utf-8",
    )
    imported = run("import-players", str(path), db=database_url)
    assert (imported.exit_code, imported.stdout) == (0, "Imported 3 players from players.csv.\n")
    assert imported.stderr.splitlines() == [
        'warning: player 2 "Jane Doe" (born 1980) may be the same person as 1 "Doe, Jane"; '
        "merge them with `ledger merge-players 1 2` if so.",
        'warning: player 4 "Roe, Rita" (born 1999) may be the same person as 3 "Roe, Rita"; '
        "merge them with `ledger merge-players 3 4` if so.",
    ]


def test_the_migrated_schema_finds_games_by_white_and_date(ledger: Ledger) -> None:
    """Revision f2233e654eaa: the index the lookup of a batch's loose games reads."""
    indexes = {
        index["name"]: index["column_names"]
        for index in inspect(ledger.engine).get_indexes("games")
    }
    assert indexes["ix_games_white_id_date"] == ["white_id", "date"]
