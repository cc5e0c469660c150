"""Import files as people have them, and hostile ones, on both backends: what Excel writes in
Europe imports; a file, number or text the ledger cannot store is refused with one line per
problem naming the file and line (never a traceback, never a driver's message), and nothing
is written; stored text prints as text and spreadsheets do not run it."""

from __future__ import annotations

import csv
import io
import json
import os
import struct
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest
from sqlalchemy import update

from ledger.cli import MOST_PROBLEMS_PRINTED, options
from ledger.core.domain import KEPT
from ledger.core.records import LARGEST_ID
from ledger.formats.fide_list import open_fide_list
from ledger.formats.trf import read_trf
from ledger.storage.database import open_ledger
from ledger.storage.models import Event, Player

from builders import fingerprint, run

DATA = Path(__file__).parent / "data"
PLAYERS = """\
id,name,federation,sex,title,birth_year,rating,games,ever_2400
101,"Müller, Jörg",GER,M,,1990,2000,50,0
102,"Šebek, Zoë",CRO,M,,1991,2100,60,0
"""
GAMES = "date,white,black,result,event,round\n2026-10-03,101,102,1-0,Autumn Cup,1\n"
HUGE = "9" * 5000
"""A number past Python's 4,300-digit limit for converting text to int."""
COMBINED = (DATA / "fide" / "players_list_foa.txt").read_bytes()
COMBINED_XML = (DATA / "fide" / "players_list_xml_foa.xml").read_bytes()
SWISS = (DATA / "trf" / "swiss.trf").read_bytes()
ESCAPE = "\x1b[2J\x1b]0;owned\x07"
"""Clear the screen, and an OSC sequence that sets the terminal's title."""


def _write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return str(path)


@pytest.fixture
def players(database_url: str, tmp_path: Path) -> str:
    """A ledger with players 101 and 102."""
    result = run("import-players", _write(tmp_path, "players.csv", PLAYERS), db=database_url)
    assert result.exit_code == 0, result.stderr
    return database_url


def _refused(url: str, *arguments: str) -> list[str]:
    """The error lines of a command that must be refused without changing the ledger."""
    before = fingerprint(url)
    result = run(*arguments, db=url)
    assert result.exit_code in (1, 2), result.stdout
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert fingerprint(url) == before
    lines = result.stderr.splitlines()
    assert all(line.startswith("error: ") for line in lines), lines
    return lines


# -- CSV as Excel writes it in Europe -----------------------------------------------------


def test_a_semicolon_separated_windows_1252_csv_imports(database_url: str, tmp_path: Path) -> None:
    players = PLAYERS.replace(",", ";").replace('"Müller; Jörg"', "Müller, Jörg")
    players = players.replace('"Šebek; Zoë"', "Šebek, Zoë").replace("\n", "\r\n")
    games = "date;white;black;result;event;round\r\n2026-10-03;101;102;0,5-0,5;Autumn Cup;1\r\n"
    for name, text in (("players.csv", players), ("games.csv", games)):
        path = _write(tmp_path, name, text.encode("cp1252"))
        assert run(f"import-{name[:-4]}", path, db=database_url).exit_code == 0
    found = json.loads(run("find", "Sebek", "--format", "json", db=database_url).stdout)
    assert [player["name"] for player in found] == ["Šebek, Zoë"]
    (game,) = json.loads(run("games", "--format", "json", db=database_url).stdout)
    assert game["result"] == "1/2-1/2"


def test_a_utf8_csv_with_a_byte_order_mark_and_semicolons_imports(
    players: str, tmp_path: Path
) -> None:
    text = "\ufeffdate;white;black;result\n2026-10-03;101;102;0,5-0,5\n"
    assert run("import-games", _write(tmp_path, "games.csv", text), db=players).exit_code == 0


CSV_REFUSALS = {
    "another separator": (
        b"date|white|black|result\n2026-10-03|101|102|1-0\n",
        "error: games.csv:1: the separator is wrong: the header date|white|black|result is one "
        "column; separate the columns date,white,black,result by commas or semicolons.",
    ),
    "UTF-16": (
        "date,white,black,result\n2026-10-03,101,102,1-0\n".encode("utf-16"),
        "error: games.csv: the encoding is wrong: the file holds NUL bytes, as UTF-16 text "
        "(Excel's 'Unicode text') or a binary file does; save it as UTF-8 (or Windows-1252) "
        "text.",
    ),
    "20,000 unknown columns": (
        ("date,white,black,result," + ",".join(f"c{i}" for i in range(20_000)) + "\n").encode(),
        "error: games.csv:1: unknown column(s) c0, c1, c2, c3, c4, and 19995 more; the header "
        "needs date,white,black,result and may hold event,round.",
    ),
    "a number of 5,000 digits": (
        f"date,white,black,result\n2026-10-03,{HUGE},102,1-0\n".encode(),
        "error: games.csv:2: white: 999999999999... (5000 digits) is too large a number; no "
        "number the ledger stores has more than 18 digits.",
    ),
    "a round beyond any column": (
        b"date,white,black,result,event,round\n2026-10-03,101,102,1-0,Cup,99999999999\n",
        "error: games.csv:2: round: 99999999999 is not a round number.",
    ),
    "an escape sequence in an event": (
        f"date,white,black,result,event\n2026-10-03,101,102,1-0,Cup{ESCAPE}\n".encode(),
        "error: games.csv:2: event: the name holds the control character \\x1b; names, titles and "
        "events are plain text.",
    ),
    "a byte Windows-1252 leaves unused": (
        b"date,white,black,result,event\n2026-10-03,101,102,1-0,Caf\xe9 \x81\n",
        "error: games.csv:2: event: the name holds the control character \\x81; the file's "
        "encoding is wrong (save it as UTF-8).",
    ),
    "a NUL byte in an event": (
        b"date,white,black,result,event\n2026-10-03,101,102,1-0,C\x00up\n",
        "error: games.csv: the encoding is wrong: the file holds NUL bytes",
    ),
    "a game before the ledger's periods": (
        b"date,white,black,result\n1969-12-31,101,102,1-0\n",
        f"error: games.csv:2: date: 1969-12-31 is outside the ledger's periods; {KEPT}.",
    ),
    "an event named by two dots": (
        b"date,white,black,result,event\n2026-10-03,101,102,1-0,..\n",
        "error: games.csv:2: event: the name '..' has no letter or digit; give it one that shows.",
    ),
    "an event with a right-to-left override": (
        "date,white,black,result,event\n2026-10-03,101,102,1-0,Cup \u202epO\n".encode(),
        "error: games.csv:2: event: the name holds the right-to-left override U+202E, which "
        "reorders the text shown around it; names, titles and events are plain text.",
    ),
}


@pytest.mark.parametrize(("content", "message"), CSV_REFUSALS.values(), ids=list(CSV_REFUSALS))
def test_a_games_csv_is_refused_with_the_reason(
    players: str, tmp_path: Path, content: bytes, message: str
) -> None:
    (line,) = _refused(players, "import-games", _write(tmp_path, "games.csv", content))
    assert line.startswith(message)


PLAYER_REFUSALS = {
    "an escape sequence in a name": (
        f'201,"Evil{ESCAPE}",ENG,M,,1990,,,\n',
        "error: players.csv:2: name: the name holds the control character \\x1b; names, titles "
        "and events are plain text.",
    ),
    "a C1 control in a name": (
        '201,"Evil\u009b2J",ENG,M,,1990,,,\n',
        "error: players.csv:2: name: the name holds the control character \\x9b; the file's "
        "encoding is wrong (save it as UTF-8).",
    ),
    "a rating of 5,000 digits": (
        f'201,"Doe, Jane",ENG,F,,1990,{HUGE},10,\n',
        "error: players.csv:2: rating: 999999999999... (5000 digits) is too large a number",
    ),
    "games beyond any column": (
        '201,"Doe, Jane",ENG,F,,1990,2000,3000000000,\n',
        "error: players.csv:2: games: a starting rating needs the number of rated games",
    ),
    "a title that is not FIDE's": (
        '201,"Doe, Jane",ENG,F,GRANDMASTER,1990,,,\n',
        "error: players.csv:2: title: 'GRANDMASTER' is not a FIDE title; the titles are GM, "
        "IM, FM, CM, WGM, WIM, WFM and WCM (also written g, m, f, c, wg, wm, wf and wc).",
    ),
    "a federation that is not FIDE's": (
        '201,"Doe, Jane",DEU,F,,1990,,,\n',
        "error: players.csv:2: federation: 'DEU' is not a FIDE federation code (the nearest "
        "are ECU, DEN); give FIDE's three-letter code, such as ENG, GER, NOR or USA.",
    ),
    "a name of invisible characters": (
        '201,"\u2060\u200b\ufeff",ENG,F,,1990,,,\n',
        "error: players.csv:2: name: the name '\\u2060\\u200b\\ufeff' has no letter or "
        "digit; give it one that shows.",
    ),
    "a name with a right-to-left override": (
        '201,"Doe\u202e, Jane",ENG,F,,1990,,,\n',
        "error: players.csv:2: name: the name holds the right-to-left override U+202E",
    ),
}


@pytest.mark.parametrize(("row", "message"), PLAYER_REFUSALS.values(), ids=list(PLAYER_REFUSALS))
def test_a_players_csv_is_refused_with_the_reason(
    database_url: str, tmp_path: Path, row: str, message: str
) -> None:
    header = PLAYERS.splitlines()[0]
    path = _write(tmp_path, "players.csv", f"{header}\n{row}")
    (line,) = _refused(database_url, "import-players", path)
    assert line.startswith(message)


# -- IDs the ledger can address -----------------------------------------------------------


def test_no_player_gets_an_id_beyond_the_largest(database_url: str, tmp_path: Path) -> None:
    assert run("add-player", "--name", "Last", "--id", str(LARGEST_ID), db=database_url).stdout == (
        f"{LARGEST_ID}\n"
    )
    assert _refused(database_url, "add-player", "--name", "Next") == [
        "error: id: the ledger is full at ID 2147483647, the largest an ID can be; give the new "
        "player a lower ID that no player has (--id, or the file's id column)."
    ]
    header = PLAYERS.splitlines()[0]
    path = _write(tmp_path, "more.csv", f'{header}\n,"Doe, Jane",ENG,F,,1990,,,\n')
    (line,) = _refused(database_url, "import-players", path)
    assert line.startswith("error: more.csv:2: id: the ledger is full at ID 2147483647")
    assert run("add-player", "--name", "Lower", "--id", "5", db=database_url).stdout == "5\n"


# -- Not a file -----------------------------------------------------------------------------

IMPORTS = ("import-players", "import-games", "import-trf", "import-pgn", "import-fide-list")


@pytest.mark.parametrize("command", IMPORTS)
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_refused_before_it_is_read(
    database_url: str, command: str, device: str
) -> None:
    assert _refused(database_url, command, device) == [
        f"error: {device} is a device, not a file to import; give the path of the file itself."
    ]


@pytest.mark.parametrize("command", IMPORTS)
def test_a_named_pipe_without_a_writer_is_refused_at_once(
    database_url: str, tmp_path: Path, command: str
) -> None:
    pipe = tmp_path / "list.txt"
    os.mkfifo(pipe)
    assert _refused(database_url, command, str(pipe)) == [
        f"error: {pipe} is a named pipe, not a file to import; give the path of the file itself."
    ]


@pytest.mark.parametrize("command", IMPORTS)
def test_a_directory_is_refused(database_url: str, tmp_path: Path, command: str) -> None:
    (line,) = _refused(database_url, command, str(tmp_path))
    assert "is a folder" in line


def test_a_file_larger_than_any_import_is_refused(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(options, "LARGEST_IMPORT", 1 << 20)
    path = _write(tmp_path, "games.csv", GAMES + "2026-10-03,101,102,1-0,Cup,1\n" * 50_000)
    assert _refused(database_url, "import-games", path) == [
        f"error: {path} is larger than 1 MB; no CSV, TRF or PGN file the ledger reads is so large."
    ]


def test_a_line_longer_than_any_file_has_is_refused(database_url: str, tmp_path: Path) -> None:
    path = _write(tmp_path, "long.pgn", '[Event "' + "x" * (2 << 20) + '"]\n')
    assert _refused(database_url, "import-pgn", path) == [
        "error: long.pgn:1: the line is longer than 1048576 bytes; the file is not one the "
        "ledger reads."
    ]


def test_a_fide_list_line_longer_than_any_row_is_refused(database_url: str, tmp_path: Path) -> None:
    header = COMBINED.split(b"\r\n", 1)[0]
    path = _write(tmp_path, "list.txt", header + b"\r\n" + b"1" * 70_000 + b"\r\n")
    assert _refused(database_url, "import-fide-list", path, "--period", "2026-10") == [
        "error: list.txt:2: the line is longer than 65536 bytes; FIDE's rows are under 200 "
        "characters, so this is not a FIDE list."
    ]


def _zip_claiming(size: int) -> bytes:
    """A zipped list whose central directory says the member unpacks to `size` bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("players_list_foa.txt", COMBINED, zipfile.ZIP_DEFLATED)
    data = bytearray(buffer.getvalue())
    directory = data.rindex(b"PK\x01\x02")
    data[directory + 24 : directory + 28] = struct.pack("<I", size)
    return bytes(data)


def test_a_zip_member_that_unpacks_beyond_any_list_is_refused(
    database_url: str, tmp_path: Path
) -> None:
    path = _write(tmp_path, "list.zip", _zip_claiming(0xF000_0000))
    assert _refused(database_url, "import-fide-list", path, "--period", "2026-10") == [
        "error: list.zip/players_list_foa.txt unpacks to 4026531840 bytes, more than any FIDE "
        "list (2 GB); it is not imported."
    ]


# -- FIDE lists cut off -----------------------------------------------------------------------


def _cut(content: bytes, keep: int) -> bytes:
    """The list up to `keep` characters into its last row."""
    body, last = content.rstrip(b"\r\n").rsplit(b"\r\n", 1)
    return body + b"\r\n" + last[:keep]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(
            _cut(COMBINED, 40),
            "the row stops at character 33, before B-day (character 153); FIDE's rows are 162 "
            "characters long",
            id="in the name",
        ),
        pytest.param(
            _cut(COMBINED, 40) + b"\r\n",
            "the row stops at character 33, before B-day",
            id="in the name, with a line end",
        ),
        pytest.param(
            _cut(COMBINED, 154),
            "the row stops at character 154, before the last column starts",
            id="in the birth year",
        ),
    ],
)
def test_a_fide_list_cut_off_in_a_row_is_refused(
    database_url: str, tmp_path: Path, content: bytes, message: str
) -> None:
    path = _write(tmp_path, "list.txt", content)
    (line,) = _refused(database_url, "import-fide-list", path, "--period", "2026-10")
    rows = COMBINED.rstrip(b"\r\n").count(b"\r\n") + 1
    assert line.startswith(f"error: list.txt:{rows}: the list breaks off in the middle of its ")
    assert message in line
    assert line.endswith("download the file again: a list cut off is not imported.")


def test_a_fide_xml_list_with_a_text_longer_than_any_element_is_refused(
    database_url: str, tmp_path: Path
) -> None:
    path = _write(tmp_path, "list.xml", _xml_with("name", "x" * (2 << 20)))
    assert _refused(database_url, "import-fide-list", path, "--period", "2026-10") == [
        "error: list.xml: the XML runs more than 1048576 characters without a tag; a FIDE "
        "list's elements are short, so a list that long is not imported."
    ]


def test_a_fide_list_without_a_final_line_end_imports(database_url: str, tmp_path: Path) -> None:
    path = _write(tmp_path, "list.txt", COMBINED.rstrip(b"\r\n"))
    result = run("import-fide-list", path, "--period", "2026-10", db=database_url)
    assert result.exit_code == 0, result.stderr


def _xml_with(element: str, value: str) -> bytes:
    start, rest = COMBINED_XML.split(f"<{element}>".encode(), 1)
    return start + f"<{element}>{value}".encode() + rest[rest.index(b"<") :]


@pytest.mark.parametrize(
    ("element", "value", "message"),
    [
        pytest.param("fideid", HUGE, "fideid: 999999999999... (5000 digits) is too large", id="id"),
        pytest.param("k", HUGE, "k: 999999999999... (5000 digits) is too large", id="K digits"),
        pytest.param("k", "99999999999", "standard K: 99999999999 is not a K factor", id="K"),
        pytest.param(
            "k",
            "99",
            "standard K: 99 is not a K factor; a list gives one of 40, 30, 25, 20, 15, 10 (8.3.3).",
            id="K 99",
        ),
        pytest.param("games", "3000000000", "standard games: 3000000000 is more games", id="games"),
        pytest.param("o_title", "x" * 101, "other titles: the text is longer than 100", id="title"),
        pytest.param("name", "Evil\u009b2J", "name: the name holds the control char", id="name"),
    ],
)
def test_a_fide_list_value_the_ledger_cannot_store_is_refused(
    database_url: str, tmp_path: Path, element: str, value: str, message: str
) -> None:
    path = _write(tmp_path, "list.xml", _xml_with(element, value))
    lines = _refused(database_url, "import-fide-list", path, "--period", "2026-10", "--strict")
    assert message in lines[0], lines
    assert lines[0].startswith("error: list.xml:1: ")


# -- TRF and PGN ------------------------------------------------------------------------------


def test_a_trf_city_longer_than_its_column_is_refused(database_url: str, tmp_path: Path) -> None:
    content = SWISS.replace(b"022 Bilbao", b"022 " + b"Bilbao " * 20)
    assert _refused(database_url, "import-trf", _write(tmp_path, "r.trf", content)) == [
        "error: r.trf:2: city: the text is longer than 100 characters."
    ]


def test_a_trf_name_with_an_escape_sequence_is_refused(database_url: str, tmp_path: Path) -> None:
    content = SWISS.replace(b"012 Bilbao Autumn Open 2024", f"012 Bilbao{ESCAPE}".encode())
    lines = _refused(database_url, "import-trf", _write(tmp_path, "r.trf", content))
    assert lines[0].startswith("error: r.trf:")
    assert "event: the name holds the control character \\x1b; names" in lines[0]


PGN_GAME = '[Event "{event}"]\n[Date "2026.10.03"]\n[Round "{round}"]\n[White "{white}"]\n'
PGN_GAME += '[Black "Novak, Ana"]\n[Result "1-0"]\n{ids}\n1-0\n\n'


def _pgn(event: str = "Cup", round: str = "1", white: str = "Müller, Jörg", ids: str = "") -> str:
    return PGN_GAME.format(event=event, round=round, white=white, ids=ids)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        pytest.param(
            _pgn(round=HUGE),
            "error: g.pgn:1: game 1: the Round 999999999999... (5000 digits) is too large a "
            "number; no number the ledger stores has more than 18 digits.",
            id="a round of 5,000 digits",
        ),
        pytest.param(
            _pgn(ids=f'[WhiteFideId "{HUGE}"]'),
            "error: g.pgn:1: game 1: WhiteFideId '9999999999999999999999999999999999999999'... "
            "(5000 characters) is not a FIDE ID; give the player's FIDE number or leave it out.",
            id="a FIDE ID of 5,000 digits",
        ),
        pytest.param(
            _pgn().replace("2026.10.03", "1969.12.31"),
            f"error: g.pgn:1: date: 1969-12-31 is outside the ledger's periods; {KEPT}.",
            id="a game before the ledger's periods",
        ),
        pytest.param(
            _pgn(event="."),
            "error: g.pgn:1: event: the name '.' has no letter or digit; give it one that shows.",
            id="an event named by a dot",
        ),
        pytest.param(
            _pgn(white=f"Evil{ESCAPE}"),
            "error: g.pgn:1: name: the name holds the control character \\x1b; names, titles and "
            "events are plain text.",
            id="an escape sequence in a name",
        ),
    ],
)
def test_a_pgn_value_the_ledger_cannot_store_is_refused(
    database_url: str, tmp_path: Path, game: str, message: str
) -> None:
    assert _refused(database_url, "import-pgn", _write(tmp_path, "g.pgn", game)) == [message]


def test_a_pgn_whose_comment_runs_over_the_games_after_it_is_refused(
    database_url: str, tmp_path: Path
) -> None:
    games = [_pgn(round=str(number)) for number in range(1, 101)]
    games[1] = games[1].replace("\n1-0\n", "\n1. e4 { a stray brace 1-0\n")
    path = _write(tmp_path, "g.pgn", "".join(games))
    assert _refused(database_url, "import-pgn", path) == [
        "error: g.pgn:17: a comment opens here with { and is not closed before the game at "
        "line 19, so 98 games would be read as part of it; close the comment with }."
    ]
    assert run("log", "--format", "json", db=database_url).stdout == "[]\n"


def test_a_pgn_game_without_the_empty_line_after_its_moves_is_refused(
    database_url: str, tmp_path: Path
) -> None:
    games = [_pgn(round=str(number), ids='[Site "Oslo"]') for number in range(1, 4)]
    path = _write(tmp_path, "g.pgn", "".join(games).replace("\n\n", "\n"))
    assert _refused(database_url, "import-pgn", path) == [
        "error: g.pgn:9: the game beginning here follows the moves of the game at line 1 "
        "without an empty line, so 2 games would be read as part of it; leave an empty line "
        "after a game's moves."
    ]


def test_a_trf_report_of_1995_imports_as_1995(database_url: str, tmp_path: Path) -> None:
    report = (DATA / "trf" / "round_robin.trf").read_bytes()
    report = report.replace(b"2025/04/1", b"1995/04/1").replace(b"25/04/1", b"95/04/1")
    result = run("import-trf", _write(tmp_path, "r.trf", report), db=database_url)
    assert result.exit_code == 0, result.stderr
    games = json.loads(
        run("games", "--period", "1995-04", "--format", "json", db=database_url).stdout
    )
    assert {game["date"] for game in games} == {f"1995-04-{day}" for day in range(10, 15)}


def test_a_fide_list_of_a_period_before_the_ledgers_is_refused(
    database_url: str, tmp_path: Path
) -> None:
    path = _write(tmp_path, "list.txt", COMBINED)
    assert _refused(database_url, "import-fide-list", path, "--period", "0001-01") == [
        f"error: period: 0001-01 is outside the ledger's periods; {KEPT}."
    ]


def test_a_pgn_mixing_utf8_and_latin1_keeps_its_names(database_url: str, tmp_path: Path) -> None:
    content = _pgn().encode() + _pgn(round="2").encode("latin-1")
    result = run("import-pgn", _write(tmp_path, "g.pgn", content), db=database_url)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith("0 players matched, 2 new.\n")
    games = json.loads(run("games", "--format", "json", db=database_url).stdout)
    assert [game["white_name"] for game in games] == ["Müller, Jörg", "Müller, Jörg"]


# -- Stored text on output ---------------------------------------------------------------------


def _store_escapes(url: str) -> None:
    """Names and an event as a ledger from before the refusal may hold them."""
    ledger = open_ledger(url)
    try:
        with ledger.transaction() as session:
            evil = {"name": f"Evil{ESCAPE}", "fide_id": 4100101}
            session.execute(update(Player).where(Player.id == 101).values(evil))
            session.execute(update(Event).values(name=f"Cup{ESCAPE}"))
    finally:
        ledger.dispose()


@pytest.fixture
def escapes(players: str, tmp_path: Path) -> str:
    assert run("import-games", _write(tmp_path, "g.csv", GAMES), db=players).exit_code == 0
    assert run("close-period", "2026-10", db=players).exit_code == 0
    _store_escapes(players)
    return players


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param(("find", "Muller"), id="find"),
        pytest.param(("player", "101"), id="player"),
        pytest.param(("games",), id="games"),
        pytest.param(("event", f"Cup{ESCAPE}"), id="event"),
        pytest.param(("list",), id="list"),
        pytest.param(("events",), id="events"),
        pytest.param(("find", "Muller", "--format", "csv"), id="find as CSV"),
    ],
)
def test_stored_control_characters_print_escaped(escapes: str, arguments: tuple[str, ...]) -> None:
    result = run(*arguments, db=escapes)
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert "\x07" not in result.stdout
    assert "\\x1b[2J" in result.stdout


def test_the_log_prints_a_file_name_escaped(players: str, tmp_path: Path) -> None:
    assert run("import-games", _write(tmp_path, f"g{ESCAPE}.csv", GAMES), db=players).exit_code == 0
    result = run("log", db=players)
    assert "\x1b" not in result.stdout
    assert "\\x1b[2J" in result.stdout


def test_a_fide_xml_export_of_stored_control_characters_reads_back(
    escapes: str, tmp_path: Path
) -> None:
    out = tmp_path / "list.xml"
    exported = run(
        "export-list", "--format", "fide-xml", "--pool", "standard", "-o", str(out), db=escapes
    )
    assert exported.exit_code == 0, exported.stderr
    ElementTree.parse(out)
    reader = open_fide_list(io.BytesIO(out.read_bytes()), "list.xml")
    names = [row.name for row in reader.rows()]
    assert reader.problems == []
    assert "Evil\\x1b[2J\\x1b]0;owned\\x07" in names


def test_a_trf_export_of_stored_control_characters_reads_back(escapes: str, tmp_path: Path) -> None:
    out = tmp_path / "cup.trf"
    exported = run("export-trf", f"Cup{ESCAPE}", "-o", str(out), db=escapes)
    assert exported.exit_code == 0, exported.stderr
    report, problems = read_trf(out.read_bytes(), "cup.trf")
    assert problems == []
    assert report is not None
    assert report.event.name == "Cup\\x1b[2J\\x1b]0;owned\\x07"
    assert "Evil\\x1b[2J" in report.players[0].name + report.players[1].name


# -- CSV opened in a spreadsheet ------------------------------------------------------------

FORMULAS = ("=HYPERLINK(1) Alpha", "+1+2 Alpha", "-2-3 Alpha", "@SUM(A1) Alpha")


@pytest.fixture
def formulas(database_url: str, tmp_path: Path) -> str:
    header = PLAYERS.splitlines()[0]
    rows = "".join(f'{201 + i},"{name}",ENG,M,,1990,2000,50,0\n' for i, name in enumerate(FORMULAS))
    imported = run(
        "import-players", _write(tmp_path, "p.csv", f"{header}\n{rows}"), db=database_url
    )
    assert imported.exit_code == 0, imported.stderr
    games = "date,white,black,result,event\n2026-10-03,201,202,1-0,=cmd|' /C calc'!A0\n"
    assert run("import-games", _write(tmp_path, "g.csv", games), db=database_url).exit_code == 0
    assert run("close-period", "2026-10", db=database_url).exit_code == 0
    return database_url


def _cells(text: str, column: str) -> list[str]:
    return [row[column] for row in csv.DictReader(io.StringIO(text))]


@pytest.mark.parametrize(
    ("arguments", "column"),
    [
        pytest.param(("list", "--format", "csv"), "name", id="list"),
        pytest.param(("export-list", "--format", "csv"), "name", id="export-list"),
        pytest.param(("find", "Alpha", "--format", "csv"), "name", id="find"),
    ],
)
def test_csv_cells_that_start_a_formula_are_neutralised(
    formulas: str, arguments: tuple[str, ...], column: str
) -> None:
    result = run(*arguments, db=formulas)
    assert result.exit_code == 0, result.stderr
    names = _cells(result.stdout, column)
    assert sorted(names) == sorted(f"'{name}" for name in FORMULAS)


def test_csv_game_events_are_neutralised_and_numbers_kept(formulas: str) -> None:
    result = run("games", "--format", "csv", db=formulas)
    (game,) = csv.DictReader(io.StringIO(result.stdout))
    assert game["event"] == "'=cmd|' /C calc'!A0"
    changes = _cells(run("list", "--format", "csv", db=formulas).stdout, "change")
    assert any(change.startswith("-") for change in changes)


def test_tables_and_json_show_names_as_they_are(formulas: str) -> None:
    found = json.loads(run("find", "Alpha", "--format", "json", db=formulas).stdout)
    assert sorted(player["name"] for player in found) == sorted(FORMULAS)
    assert "'=HYPERLINK" not in run("list", db=formulas).stdout


def test_a_file_of_endless_problems_prints_the_first_thousand_and_the_count(
    database_url: str, tmp_path: Path
) -> None:
    path = _write(tmp_path, "endless.trf", "012 Endless\n" + "132\n" * 1_500)
    refused = _refused(database_url, "import-trf", path)
    assert len(refused) == MOST_PROBLEMS_PRINTED + 1
    assert refused[0] == (
        "error: endless.trf: the file has no player lines; each player needs a 001 record."
    )
    assert refused[-1] == (
        f"error: 1,500 problems (the first {MOST_PROBLEMS_PRINTED:,} printed); nothing was written."
    )


CHECKED_PGN = (
    '[Event "Autumn Cup"]\n[Date "2026.10.03"]\n[White "Ann"]\n[Black "Bob"]\n'
    '[Result "1-0"]\n\n1-0\n'
)


@pytest.mark.parametrize(
    ("command", "name", "content", "broken", "said"),
    [
        (
            "import-games",
            "games.csv",
            GAMES,
            GAMES.replace(",102,", ",999,"),
            "games.csv is ready to import: 1 game.",
        ),
        (
            "import-pgn",
            "games.pgn",
            CHECKED_PGN,
            CHECKED_PGN.replace("1-0", "*"),
            "games.pgn is ready to import: 1 game in 1 event (0 players matched, 2 new).",
        ),
    ],
    ids=["csv", "pgn"],
)
def test_a_games_file_is_checked_without_writing(
    players: str, tmp_path: Path, command: str, name: str, content: str, broken: str, said: str
) -> None:
    """`--check` tries the import on the ledger and rolls it back, as `import-trf` does."""
    before = fingerprint(players)
    checked = run(command, _write(tmp_path, name, content), "--check", db=players)
    assert checked.exit_code == 0, checked.stderr
    assert checked.stdout == f"{said} Nothing was written.\n"
    assert fingerprint(players) == before
    refused = run(command, _write(tmp_path, name, broken), "--check", db=players)
    assert refused.exit_code == 1
    assert refused.stderr.startswith("error: ")
    assert fingerprint(players) == before


def test_a_late_file_checked_says_what_it_would_re_rate(players: str, tmp_path: Path) -> None:
    assert run("close-period", "2026-10", db=players).exit_code == 0
    before = fingerprint(players)
    path = _write(tmp_path, "late.csv", GAMES)
    checked = run("import-games", path, "--late", "--reason", "late", "--check", db=players)
    assert checked.exit_code == 0, checked.stderr
    assert checked.stdout == (
        "late.csv is ready to import: 1 game. Nothing was written.\n"
        "It would re-rate standard: 1 game rated, 2 players rated; new versions of the lists "
        "of: 2026-10.\n"
    )
    assert fingerprint(players) == before
