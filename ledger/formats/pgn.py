"""PGN files, read into games by their headers. Pure text in, records out; moves are not kept.

python-chess walks the games (its header reader skips moves, comments, variations and `%`
lines); this module checks the headers a rated game needs and reports every problem as
`file:line: game N: message`, the line being the game's first.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import re
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

import chess.pgn

from ledger.core import names, printable
from ledger.core.domain import GameResult
from ledger.core.errors import InvalidInput, RejectedRecords
from ledger.core.progress import NO_PROGRESS, Progress, counted
from ledger.core.records import LARGEST_ID, MOST_DIGITS, FileWarning, problem, whole_number
from ledger.formats.texts import file_text

T = TypeVar("T")
_DATE = re.compile(r"([0-9]{4})\.([0-9]{2})\.([0-9]{2})")
_ROUND = re.compile(r"([0-9]+)(?:\.[0-9]+)*")
_NUMBER = re.compile(r"[0-9]+")
_RESULTS = {
    result.value: result
    for result in (GameResult.WHITE_WINS, GameResult.BLACK_WINS, GameResult.DRAW)
}
_UNKNOWN = ("", "?", "-")
"""How PGN writes a value nobody knows."""


@dataclass(frozen=True, slots=True)
class PgnGame:
    """A finished game as its PGN headers give it; names are whitespace-collapsed."""

    number: int
    """1-based, in the order of the file."""
    line: int
    """The line the game begins on: its first header."""
    white: str
    black: str
    white_fide_id: int | None
    black_fide_id: int | None
    result: GameResult
    date: dt.date
    """The Date, or the EventDate where the Date has unknown (`??`) parts."""
    event: str | None
    round: int | None
    """The round before the dot: Round "3.1" (round 3, board 1) is 3."""
    moves: bool
    """Whether the file gives any move of the game (a result without moves may be a game
    that was not played: `without_moves`)."""


class PgnPeople:
    """The people of a PGN file: by FIDE ID where a header gives it (for that name in any
    game of the file), else by name (`ledger.core.names.name_key`)."""

    def __init__(self, games: list[PgnGame]) -> None:
        ids: dict[str, set[int]] = {}
        for game in games:
            for name, fide_id in sides(game):
                if fide_id is not None:
                    ids.setdefault(names.name_key(name), set()).add(fide_id)
        self._ids = {key: next(iter(found)) for key, found in ids.items() if len(found) == 1}

    def key(self, name: str, fide_id: int | None) -> Hashable:
        """The person a side names: their FIDE ID, else their name's key."""
        name_key = names.name_key(name)
        return fide_id if fide_id is not None else self._ids.get(name_key, name_key)


def sides(game: PgnGame) -> tuple[tuple[str, int | None], tuple[str, int | None]]:
    """White's and Black's name and FIDE ID."""
    return (game.white, game.white_fide_id), (game.black, game.black_fide_id)


def read_pgn(
    content: bytes, file_name: str, progress: Progress = NO_PROGRESS
) -> tuple[list[PgnGame], list[str]]:
    """Every good game of a PGN file, and every problem as `file:line: game N: message`.

    The text is read by `texts.decode`, line by line where the file mixes UTF-8 and Latin-1.
    Problems come in the order of the file; a file without games is one problem.
    """
    games: list[PgnGame] = []
    problems: list[str] = []
    try:
        text = file_text(content, file_name)
    except InvalidInput as error:
        return games, [str(error)]
    lines = io.StringIO(text, newline=None).read().split("\n")
    begun = [number for number, line in enumerate(lines, start=1) if line.startswith("[Event ")]
    read: list[int] = []
    stage = progress.stage(f"Reading {file_name}", len(begun), "games")
    for number, headers in enumerate(counted(_headers(text), stage), start=1):
        read.append(headers.line)
        try:
            games.append(_game(number, headers, moves=_has_moves(lines, headers)))
        except RejectedRecords as rejected:
            source = f"{file_name}:{headers.line}"
            problems += [problem(source, f"game {number}: {text}") for text in rejected.problems]
    if len(read) < len(begun):
        problems += _lost_games(lines, begun, read, file_name)
    if not games and not problems:
        problems.append(f"{file_name}: no games found.")
    return games, problems


def _lost_games(lines: list[str], begun: list[int], read: list[int], file_name: str) -> list[str]:
    """A problem for each game read whose moves ran on over the games after it: the games
    that begin (an `[Event` line) in the moves of another, which python-chess reads as part of
    them. Each names the line where a comment that is never closed opens, or the game that
    follows the moves without the empty line that ends them. (An `[Event` line among a
    game's headers is a tag given twice, refused as such.)"""
    lost: dict[int, list[int]] = {}
    for start in begun:
        owner = max((line for line in read if line <= start), default=None)
        if owner is not None and _moves_start(lines, owner) < start:
            lost.setdefault(owner, []).append(start)
    return [_lost(lines, owner, starts, file_name) for owner, starts in lost.items()]


def _moves_start(lines: list[str], first: int) -> int:
    """The first line after the headers of the game that begins at line `first`."""
    number = first
    while number <= len(lines) and lines[number - 1].startswith("["):
        number += 1
    return number


def _lost(lines: list[str], owner: int, starts: list[int], file_name: str) -> str:
    count = f"{len(starts)} game{'s' if len(starts) > 1 else ''}"
    opened = _open_comment(lines, _moves_start(lines, owner), starts[0])
    if opened is not None:
        return (
            f"{file_name}:{opened}: a comment opens here with {{ and is not closed before "
            f"the game at line {starts[0]}, so {count} would be read as part of it; close the "
            "comment with }."
        )
    return (
        f"{file_name}:{starts[0]}: the game beginning here follows the moves of the game at "
        f"line {owner} without an empty line, so {count} would be read as part of it; leave "
        "an empty line after a game's moves."
    )


_SKIPPED = re.compile(r"[{};]")
"""What python-chess looks for in a game's moves it skips: a comment's start and end, and
`;`, which makes the rest of its line a comment."""


def _open_comment(lines: list[str], first: int, last: int) -> int | None:
    """The line where a `{` comment opens that is still open at line `last`, reading the
    lines from `first` on as python-chess skips a game's moves; None if none is."""
    opened = None
    for number in range(first, last):
        line = lines[number - 1]
        if opened is None and line.startswith("%"):
            continue
        for token in _SKIPPED.findall(line):
            if token == "{":
                opened = opened or number
            elif token == "}":
                opened = None
            elif opened is None:
                break
    return opened


@dataclass(frozen=True, slots=True)
class _Headers:
    """A game's headers, the lines it begins and ends on, and the tags given more than
    once."""

    line: int
    tags: dict[str, str] = field(default_factory=dict)
    repeated: list[str] = field(default_factory=list)
    moves_line: int = 0
    """The line python-chess read its moves from (past comments and blank lines among the
    headers), and the last line it read of the game."""
    last_line: int = 0


class _Lines(io.StringIO):
    """The text as python-chess reads it, line by line, counting the lines.

    Universal newlines: CRLF and CR line endings count as one line each, as in an editor.
    """

    lines_read = 0

    # typeshed's IO classes disagree on readline's types; its own subclasses ignore it too.
    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        line = super().readline(size)
        if line:
            self.lines_read += 1
        return line


class _HeaderVisitor(chess.pgn.BaseVisitor[_Headers]):
    """What `chess.pgn.read_headers` reads of a game, with the line it begins on.

    Like read_headers' own visitor it skips the moves. It also keeps the tags a game repeats,
    which python-chess would quietly overwrite.
    """

    def __init__(self, lines: _Lines) -> None:
        self.lines = lines
        self.headers = _Headers(0)

    def begin_game(self) -> None:
        # python-chess begins a game just after reading the game's first line.
        self.headers = _Headers(self.lines.lines_read)

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        if tagname in self.headers.tags:
            self.headers.repeated.append(tagname)
        self.headers.tags[tagname] = tagvalue

    def end_headers(self) -> chess.pgn.SkipType:
        # python-chess ends the headers having read the first line of the moves.
        self.headers = replace(self.headers, moves_line=self.lines.lines_read)
        return chess.pgn.SKIP

    def result(self) -> _Headers:
        return replace(self.headers, last_line=self.lines.lines_read)


def _headers(text: str) -> Iterator[_Headers]:
    lines = _Lines(text, newline=None)
    visitor = functools.partial(_HeaderVisitor, lines)
    while (headers := chess.pgn.read_game(lines, Visitor=visitor)) is not None:
        yield headers


def without_moves(games: list[PgnGame], file_name: str) -> list[FileWarning]:
    """One warning for the games the file gives a result and no moves, naming them: each is
    recorded as played and rated, though it may be a game that was not played, which FIDE
    does not rate (a forfeit: FIDE Rating Regulations 5)."""
    found = [game for game in games if not game.moves]
    if not found:
        return []
    named = ", ".join(f"game {game.number} at line {game.line}" for game in found[:NAMED_AT_MOST])
    more = len(found) - NAMED_AT_MOST
    if more > 0:
        named += f" and {more} more"
    gives = "gives" if len(found) == 1 else "give"
    return [
        FileWarning(
            file=file_name,
            line=found[0].line,
            field="moves",
            message=f"{printable.counted(len(found), 'game')} {gives} a result and no moves "
            f"({named}); each is rated as played. If one was not played (a forfeit), FIDE "
            "does not rate it: record it as a forfeit (+/- or -/+).",
        )
    ]


NAMED_AT_MOST = 10
"""The games without moves a warning names; it counts the rest."""

_NOT_MOVES = re.compile(
    r"\{[^}]*(?:\}|\Z)|;[^\n]*|^[%\[][^\n]*|\$[0-9]+|[0-9]+\.+|1-0|0-1|1/2-1/2|\*|\s+",
    re.MULTILINE,
)
"""What a game's moves hold that is not a move: comments (one left open runs to the end),
escape lines, NAGs, move numbers, the result; and a header line, read last where a game
ends without moves."""


def _has_moves(lines: list[str], headers: _Headers) -> bool:
    """Whether any move is among the lines python-chess read as the game's moves."""
    movetext = "\n".join(lines[headers.moves_line - 1 : headers.last_line])
    return bool(_NOT_MOVES.sub("", movetext))


def _game(number: int, headers: _Headers, *, moves: bool) -> PgnGame:
    """The game its headers describe; raises RejectedRecords with every problem they have."""
    problems = [_repeated(headers.repeated)] if headers.repeated else []

    def read(parse: Callable[[Mapping[str, str]], T]) -> T | None:
        try:
            return parse(headers.tags)
        except InvalidInput as error:
            problems.append(str(error))
            return None

    white = read(lambda tags: _player(tags, "White"))
    black = read(lambda tags: _player(tags, "Black"))
    white_id = read(lambda tags: _fide_id(tags, "WhiteFideId"))
    black_id = read(lambda tags: _fide_id(tags, "BlackFideId"))
    result, date, round_number = read(_result), read(_date), read(_round)
    # Each None of a required field has left its problem; the test is for the type checker.
    if problems or white is None or black is None or result is None or date is None:
        raise RejectedRecords(problems)
    event = _collapsed(headers.tags.get("Event", "")) or None
    return PgnGame(
        number=number,
        line=headers.line,
        white=white,
        black=black,
        white_fide_id=white_id,
        black_fide_id=black_id,
        result=result,
        date=date,
        event=event,
        round=round_number,
        moves=moves,
    )


def _repeated(tags: list[str]) -> str:
    """Tags given twice: most likely two games run together, the first without its result."""
    names = list(dict.fromkeys(tags))
    given = "header is" if len(names) == 1 else "headers are"
    return (
        f"the {', '.join(names)} {given} given twice; if two games run together here, "
        "end the first with its result (1-0, 0-1, 1/2-1/2 or *)."
    )


def _collapsed(text: str) -> str:
    text = " ".join(text.split())
    return "" if text in _UNKNOWN else text


def _player(tags: Mapping[str, str], tag: str) -> str:
    if tag not in tags:
        raise InvalidInput(f"the {tag} header is missing; a rated game needs both players.")
    name = _collapsed(tags[tag])
    if not name:
        raise InvalidInput(
            f"the {tag} header names nobody ({tags[tag]!r}); a rated game needs both players."
        )
    return name


def _fide_id(tags: Mapping[str, str], tag: str) -> int | None:
    """The player's FIDE ID; none when unknown or 0, as many programs write an unknown one."""
    text = tags.get(tag, "").strip()
    if text in _UNKNOWN:
        return None
    if not _NUMBER.fullmatch(text) or len(text) > MOST_DIGITS or int(text) > LARGEST_ID:
        raise InvalidInput(
            f"{tag} {_quoted(text)} is not a FIDE ID; give the player's FIDE number or leave "
            "it out."
        )
    return int(text) or None


def _result(tags: Mapping[str, str]) -> GameResult:
    if "Result" not in tags:
        raise InvalidInput("the Result header is missing; give 1-0, 0-1 or 1/2-1/2.")
    text = tags["Result"].strip()
    if text == "*":
        raise InvalidInput("the result is * (unfinished); only finished games can be rated.")
    if text not in _RESULTS:
        raise InvalidInput(f"the result {text!r} is not a game result; give 1-0, 0-1 or 1/2-1/2.")
    return _RESULTS[text]


def _date(tags: Mapping[str, str]) -> dt.date:
    """The Date, or the EventDate where the Date has unknown (`??`) parts."""
    text = tags.get("Date", "").strip()
    if text and "?" not in text:
        return _calendar_date(text, "Date")
    event_date = tags.get("EventDate", "").strip()
    if event_date and "?" not in event_date:
        return _calendar_date(event_date, "EventDate")
    date = f"the Date {text!r} is not complete" if text else "the Date header is missing"
    raise InvalidInput(f"{date} and there is no complete EventDate; give the day as YYYY.MM.DD.")


def _calendar_date(text: str, tag: str) -> dt.date:
    match = _DATE.fullmatch(text)
    try:
        if match:
            return dt.date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        pass
    raise InvalidInput(f"the {tag} {text!r} is not a date; PGN writes dates as YYYY.MM.DD.")


def _round(tags: Mapping[str, str]) -> int | None:
    text = tags.get("Round", "").strip()
    if text in _UNKNOWN:
        return None
    match = _ROUND.fullmatch(text)
    if match is None:
        raise InvalidInput(
            f"the Round {_quoted(text)} is not a round number; write it as 3 or 3.1."
        )
    try:
        return whole_number(match[1])
    except InvalidInput as error:
        raise InvalidInput(f"the Round {error}") from None


def _quoted(text: str) -> str:
    """A header's value for a one-line message: quoted, and cut short where it is long."""
    return repr(text) if len(text) <= 40 else f"{text[:40]!r}... ({len(text)} characters)"
