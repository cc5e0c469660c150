"""PGN files read into games by their headers (ledger.formats.pgn), problems as file:line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import chess.pgn
import pytest

from ledger.core.domain import GameResult
from ledger.formats.pgn import PgnGame, read_pgn, without_moves
from ledger.formats.texts import decode

PGN = Path(__file__).parent / "data" / "pgn"
WHITE, BLACK, DRAW = GameResult.WHITE_WINS, GameResult.BLACK_WINS, GameResult.DRAW
OPEN, CLUB = "Riverside Open 2026", "Club Championship 2026"
MULLER, NOVAK, OVERGAARD, CARLSEN = (
    "Müller, Jörg",
    "Novak, Ana",
    "Øvergaard, Łukasz",
    "Carlsen, Magnus",
)
OBRIEN, DUPONT = "O'Brien, Seán", "Jean-Pierre Dupont"

# -- tiny builders ----------------------------------------------------------------------------


def game(moves: str = "1-0", /, **tags: str | None) -> str:
    """One game: a finished game by default; a tag given as None is left out."""
    tags = {"White": "A", "Black": "B", "Result": "1-0", "Date": "2026.03.07", **tags}
    headers = "".join(f'[{tag} "{value}"]\n' for tag, value in tags.items() if value is not None)
    return f"{headers}\n{moves}\n"


def read(*games: str) -> tuple[list[PgnGame], list[str]]:
    return read_pgn("\n".join(games).encode(), "f.pgn")


def only(text: str) -> PgnGame:
    games, problems = read(text)
    assert problems == []
    [one] = games
    return one


def D(text: str) -> dt.date:  # noqa: N802 - a one-letter builder, like beancount's A()
    return dt.date.fromisoformat(text)


# -- the sample files -------------------------------------------------------------------------

TWO_EVENTS = [
    PgnGame(1, 4, MULLER, NOVAK, 4612345, 14598765, WHITE, D("2026-03-07"), OPEN, 1, moves=True),
    PgnGame(2, 20, OVERGAARD, CARLSEN, None, 1503014, DRAW, D("2026-03-07"), OPEN, 1, moves=True),
    PgnGame(3, 37, NOVAK, OVERGAARD, 14598765, None, BLACK, D("2026-03-07"), OPEN, 2, moves=False),
    PgnGame(4, 50, CARLSEN, MULLER, 1503014, 4612345, DRAW, D("2026-03-08"), OPEN, 2, moves=True),
    PgnGame(5, 64, OBRIEN, DUPONT, None, None, WHITE, D("2026-04-02"), CLUB, 1, moves=True),
    PgnGame(6, 74, DUPONT, MULLER, None, 4612345, BLACK, D("2026-04-09"), CLUB, 2, moves=True),
    PgnGame(7, 85, MULLER, OBRIEN, None, None, DRAW, D("2026-04-16"), CLUB, 3, moves=False),
    PgnGame(8, 96, NOVAK, DUPONT, 14598765, None, WHITE, D("2026-04-16"), None, None, moves=True),
]
"""Comments over blank lines, variations, `%` lines, games with no moves but their result,
two blank lines between games, an unknown Date taken from the EventDate, FIDE IDs 0 and -."""


def test_two_events() -> None:
    assert read_pgn((PGN / "two-events.pgn").read_bytes(), "two-events.pgn") == (TWO_EVENTS, [])


def test_each_game_begins_on_the_line_of_its_first_header() -> None:
    lines = (PGN / "two-events.pgn").read_text(encoding="utf-8").splitlines()
    assert {lines[game.line - 1] for game in TWO_EVENTS} == {
        f'[Event "{event}"]' for event in (OPEN, CLUB, "?")
    }


def test_the_games_are_those_python_chess_reads() -> None:
    with (PGN / "two-events.pgn").open(encoding="utf-8") as handle:
        headers = iter(lambda: chess.pgn.read_headers(handle), None)
        names = [(tags["White"], tags["Black"]) for tags in headers]
    assert [(" ".join(w.split()), " ".join(b.split())) for w, b in names] == [
        (game.white, game.black) for game in TWO_EVENTS
    ]


@pytest.mark.parametrize(
    "line_end", [b"\r\n", b"\r"], ids=["CRLF line endings", "old Mac CR line endings"]
)
def test_line_endings_do_not_move_the_lines(line_end: bytes) -> None:
    content = (PGN / "two-events.pgn").read_bytes().replace(b"\n", line_end)
    assert read_pgn(content, "two-events.pgn") == (TWO_EVENTS, [])


def test_a_byte_order_mark_is_not_part_of_the_text() -> None:
    content = b"\xef\xbb\xbf" + (PGN / "two-events.pgn").read_bytes()
    assert read_pgn(content, "two-events.pgn") == (TWO_EVENTS, [])


def test_a_file_that_is_not_utf8_is_read_as_latin1() -> None:
    content = game(White="Müller, Jörg", Black="Ibáñez, Nuño").encode("latin-1")
    [one], problems = read_pgn(content, "f.pgn")
    assert (one.white, one.black, problems) == ("Müller, Jörg", "Ibáñez, Nuño", [])


@pytest.mark.parametrize(
    ("content", "text"),
    [
        ("Müller".encode(), "Müller"),
        (b"\xef\xbb\xbfM\xc3\xbcller", "Müller"),
        ("Müller".encode("latin-1"), "Müller"),
    ],
    ids=["UTF-8", "UTF-8 with a byte order mark", "Latin-1"],
)
def test_decode(content: bytes, text: str) -> None:
    assert decode(content) == text


def test_an_unfinished_game_is_a_problem_and_the_finished_one_is_kept() -> None:
    games, problems = read_pgn((PGN / "unfinished.pgn").read_bytes(), "unfinished.pgn")
    assert [game.white for game in games] == [MULLER]
    assert problems == [
        "unfinished.pgn:10: game 2: the result is * (unfinished); only finished games can be rated."
    ]


def test_bad_dates() -> None:
    games, problems = read_pgn((PGN / "bad-date.pgn").read_bytes(), "bad-date.pgn")
    assert [(game.number, game.line) for game in games] == [(3, 19)]
    assert problems == [
        "bad-date.pgn:1: game 1: the Date '2026.02.30' is not a date; PGN writes dates as "
        "YYYY.MM.DD.",
        "bad-date.pgn:10: game 2: the Date '2026.03.??' is not complete and there is no "
        "complete EventDate; give the day as YYYY.MM.DD.",
    ]


# -- headers ----------------------------------------------------------------------------------

HEADERS = {
    "names collapse their spaces": ({"White": "  Carlsen,   Magnus "}, "white", CARLSEN),
    "Round 3": ({"Round": "3"}, "round", 3),
    "Round 3.1, board 1 of round 3": ({"Round": "3.1"}, "round", 3),
    "Round 3.1.2": ({"Round": "3.1.2"}, "round", 3),
    "Round ? is unknown": ({"Round": "?"}, "round", None),
    "Round - is unknown": ({"Round": "-"}, "round", None),
    "Round blank is unknown": ({"Round": ""}, "round", None),
    "no Round": ({}, "round", None),
    "Event": ({"Event": " Riverside  Open 2026"}, "event", OPEN),
    "Event ? is none": ({"Event": "?"}, "event", None),
    "Event blank is none": ({"Event": " "}, "event", None),
    "no Event": ({}, "event", None),
    "WhiteFideId": ({"WhiteFideId": " 1503014 "}, "white_fide_id", 1503014),
    "BlackFideId": ({"BlackFideId": "4612345"}, "black_fide_id", 4612345),
    "FIDE ID 0 is none": ({"WhiteFideId": "0"}, "white_fide_id", None),
    "FIDE ID blank is none": ({"BlackFideId": ""}, "black_fide_id", None),
    "FIDE ID ? is none": ({"BlackFideId": "?"}, "black_fide_id", None),
    "result 1-0": ({"Result": "1-0"}, "result", WHITE),
    "result 0-1": ({"Result": "0-1"}, "result", BLACK),
    "result 1/2-1/2": ({"Result": "1/2-1/2"}, "result", DRAW),
    "Date": ({"Date": "2026.03.07"}, "date", D("2026-03-07")),
    "Date before EventDate": (
        {"Date": "2026.03.08", "EventDate": "2026.03.07"},
        "date",
        D("2026-03-08"),
    ),
    "unknown day: the EventDate": (
        {"Date": "2026.03.??", "EventDate": "2026.03.07"},
        "date",
        D("2026-03-07"),
    ),
    "unknown Date: the EventDate": (
        {"Date": "????.??.??", "EventDate": "2026.03.07"},
        "date",
        D("2026-03-07"),
    ),
    "no Date: the EventDate": ({"Date": None, "EventDate": "2026.03.07"}, "date", D("2026-03-07")),
}


@pytest.mark.parametrize(("tags", "field", "value"), list(HEADERS.values()), ids=list(HEADERS))
def test_headers(tags: dict[str, str | None], field: str, value: object) -> None:
    assert getattr(only(game(**tags)), field) == value


PROBLEMS = {
    "no White": ({"White": None}, "the White header is missing; a rated game needs both players."),
    "White ?": (
        {"White": "?"},
        "the White header names nobody ('?'); a rated game needs both players.",
    ),
    "Black blank": (
        {"Black": " "},
        "the Black header names nobody (' '); a rated game needs both players.",
    ),
    "no Result": ({"Result": None}, "the Result header is missing; give 1-0, 0-1 or 1/2-1/2."),
    "unfinished": (
        {"Result": "*"},
        "the result is * (unfinished); only finished games can be rated.",
    ),
    "a forfeit is not a PGN result": (
        {"Result": "+/-"},
        "the result '+/-' is not a game result; give 1-0, 0-1 or 1/2-1/2.",
    ),
    "an unknown result": (
        {"Result": "1-1"},
        "the result '1-1' is not a game result; give 1-0, 0-1 or 1/2-1/2.",
    ),
    "no Date": (
        {"Date": None},
        "the Date header is missing and there is no complete EventDate; give the day as "
        "YYYY.MM.DD.",
    ),
    "unknown day and EventDate": (
        {"Date": "2026.03.??", "EventDate": "2026.??.??"},
        "the Date '2026.03.??' is not complete and there is no complete EventDate; give the day "
        "as YYYY.MM.DD.",
    ),
    "Date with dashes": (
        {"Date": "2026-03-07"},
        "the Date '2026-03-07' is not a date; PGN writes dates as YYYY.MM.DD.",
    ),
    "30 February": (
        {"Date": "2026.02.30"},
        "the Date '2026.02.30' is not a date; PGN writes dates as YYYY.MM.DD.",
    ),
    "EventDate 30 February": (
        {"Date": "2026.02.??", "EventDate": "2026.02.30"},
        "the EventDate '2026.02.30' is not a date; PGN writes dates as YYYY.MM.DD.",
    ),
    "FIDE ID of letters": (
        {"WhiteFideId": "abc"},
        "WhiteFideId 'abc' is not a FIDE ID; give the player's FIDE number or leave it out.",
    ),
    "negative FIDE ID": (
        {"BlackFideId": "-5"},
        "BlackFideId '-5' is not a FIDE ID; give the player's FIDE number or leave it out.",
    ),
    "FIDE ID past 32 bits": (
        {"BlackFideId": "2147483648"},
        "BlackFideId '2147483648' is not a FIDE ID; give the player's FIDE number or leave it out.",
    ),
    "Round of letters": (
        {"Round": "final"},
        "the Round 'final' is not a round number; write it as 3 or 3.1.",
    ),
}


@pytest.mark.parametrize(("tags", "message"), list(PROBLEMS.values()), ids=list(PROBLEMS))
def test_header_problems(tags: dict[str, str | None], message: str) -> None:
    assert read(game(**tags)) == ([], [f"f.pgn:1: game 1: {message}"])


def test_every_problem_of_a_game_is_reported_in_order() -> None:
    bad = game(White=None, Black="?", Result="*", Date=None, WhiteFideId="x", Round="r")
    assert read(game(), bad) == (
        [only(game())],
        [
            "f.pgn:8: game 2: the White header is missing; a rated game needs both players.",
            "f.pgn:8: game 2: the Black header names nobody ('?'); a rated game needs both "
            "players.",
            "f.pgn:8: game 2: WhiteFideId 'x' is not a FIDE ID; give the player's FIDE number "
            "or leave it out.",
            "f.pgn:8: game 2: the result is * (unfinished); only finished games can be rated.",
            "f.pgn:8: game 2: the Date header is missing and there is no complete EventDate; "
            "give the day as YYYY.MM.DD.",
            "f.pgn:8: game 2: the Round 'r' is not a round number; write it as 3 or 3.1.",
        ],
    )


def test_lines_count_escapes_comments_and_blank_lines_before_a_game() -> None:
    text = "% exported\n\n; a comment line\n\n\n" + game(Result="*")
    assert read(text)[1] == [
        "f.pgn:6: game 1: the result is * (unfinished); only finished games can be rated."
    ]


def test_games_without_moves() -> None:
    games, problems = read(game("1-0"), game("1/2-1/2", Result="1/2-1/2"))
    assert ([(one.number, one.line, one.result) for one in games], problems) == (
        [(1, 1, WHITE), (2, 8, DRAW)],
        [],
    )


def test_a_game_without_moves_is_read_with_a_warning() -> None:
    """Comments (one left open included), escape lines, move numbers, NAGs and the result
    are not moves, nor are the comments and blank lines python-chess reads among a game's
    headers; a game that gives none may not have been played (a forfeit), which FIDE does
    not rate, so the file's games without moves are warned of, once, by line."""
    games, problems = read(
        game("1. e4 e5 2. Nf3 {best} 1-0"),
        game("{forfeit: White did not appear} 0-1", Result="0-1", White="C", Black="D"),
        game("1. $1 ; a line comment\n% an escape line\n1/2-1/2", Result="1/2-1/2"),
        game("1... Nf6 0-1", Result="0-1"),
        '[White "G"]\n[Black "H"]\n[Result "0-1"]\n[Date "2026.03.07"]\n\n',
        '[White "E"]\n% an escape line\n; a comment\n\n[Black "F"]\n[Result "1-0"]\n'
        '[Date "2026.03.07"]\n\n1-0 {a comment left open\n',
    )
    assert problems == []
    assert [one.moves for one in games] == [True, False, False, True, False, False]
    assert [str(warning) for warning in without_moves(games, "f.pgn")] == [
        "f.pgn:8: moves: 4 games give a result and no moves (game 2 at line 8, game 3 at "
        "line 15, game 5 at line 31, game 6 at line 37); each is rated as played. If one was "
        "not played (a forfeit), FIDE does not rate it: record it as a forfeit (+/- or -/+)."
    ]


def test_a_warning_names_ten_games_without_moves_and_counts_the_rest() -> None:
    games, _ = read(*[game("1-0")] * 12)
    [warning] = without_moves(games, "f.pgn")
    assert "(game 1 at line 1, " in warning.message
    assert "game 10 at line 64 and 2 more)" in warning.message
    assert without_moves(games[:1], "f.pgn")[0].message.startswith(
        "1 game gives a result and no moves (game 1 at line 1);"
    )


def test_two_games_run_together_are_not_taken_for_one() -> None:
    """python-chess reads headers across one blank line, so a game without its result (the
    end of its moves) merges with the next; the repeated headers show it."""
    text = '[White "A"]\n[Black "B"]\n\n[White "C"]\n[Black "D"]\n\n1-0\n'
    assert read(text) == (
        [],
        [
            "f.pgn:1: game 1: the White, Black headers are given twice; if two games run "
            "together here, end the first with its result (1-0, 0-1, 1/2-1/2 or *).",
            "f.pgn:1: game 1: the Result header is missing; give 1-0, 0-1 or 1/2-1/2.",
            "f.pgn:1: game 1: the Date header is missing and there is no complete EventDate; "
            "give the day as YYYY.MM.DD.",
        ],
    )


def test_a_game_without_headers_is_a_game_with_problems() -> None:
    _, problems = read(game(), "1. e4 e5 1-0\n")
    assert problems[0] == (
        "f.pgn:8: game 2: the White header is missing; a rated game needs both players."
    )


@pytest.mark.parametrize(
    "content",
    [b"", b"\n\n", b"% nothing but an escape line\n\n"],
    ids=["empty", "blank lines", "an escape line"],
)
def test_a_file_without_games(content: bytes) -> None:
    assert read_pgn(content, "f.pgn") == ([], ["f.pgn: no games found."])
