"""Reading a TRF file's lines: the numbered records, and the 001 lines into the players and
each player's round blocks (opponent, colour and result code, 10 columns per round from column
92). Every problem and warning is kept with its line; `ledger.formats.trf.header` reads the
header records, and `ledger.formats.trf.pairings` makes games and byes of the blocks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from ledger.core.errors import InvalidInput
from ledger.core.fide_codes import federation_code, title_code
from ledger.formats.trf.records import FIRST_ROUND_COLUMN, ROUND_WIDTH, TrfPlayer


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One round's block of a 001 line."""

    round: int
    player: int
    opponent: int | None
    colour: str
    """w, b or - (none, as for a bye or a forfeit)."""
    code: str
    """The result code in upper case; an absence without a code reads as Z."""
    line: int


@dataclass(frozen=True, slots=True)
class PlayerSection:
    """What the 001 lines hold: the players, the line of each starting rank, and each
    player's round blocks by (starting rank, round), None where a block could not be read."""

    players: list[TrfPlayer]
    lines: dict[int, int]
    entries: dict[tuple[int, int], RoundEntry | None]


Record = tuple[int, str]
"""A line's number and its text."""


class Problems(list[tuple[int, str]]):
    """Each problem found: its line (0 for the whole file) and what is wrong there; and each
    warning: a field that the format marks "warning if wrong", left empty, with its line."""

    def __init__(self) -> None:
        super().__init__()
        self.warnings: list[tuple[int, str, str]] = []

    def add(self, line: int, message: str) -> None:
        self.append((line, message))

    def warn(self, line: int, field: str, message: str) -> None:
        self.warnings.append((line, field, message))


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BIRTH_DATE = re.compile(r"(?P<year>[0-9]{4})([/.-][0-9]{2}[/.-][0-9]{2})?")
_BIRTH_DATE_DAY_FIRST = re.compile(r"[0-9]{2}[/.-][0-9]{2}[/.-](?P<year>[0-9]{4})")
_DIGITS = re.compile(r"[0-9]+")
_POINTS = re.compile(r"([0-9]{1,3})(?:[.,]([0-9]{1,2}))?")
_SEXES = {"": None, "m": "M", "w": "F", "f": "F"}
_COLOURS = frozenset("wb-")

_PLAYED_CODES = frozenset("10=WDL")
_GAME_CODES = _PLAYED_CODES | {"+", "-"}
_BYE_CODES = frozenset("HFUZ")


def numbered_records(text: str) -> list[Record]:
    """The numbered lines that hold a record: neither blank nor a TRF-2026 `###` comment."""
    return [
        (number, line.rstrip())
        for number, line in enumerate(_LINE_BREAK.split(text), start=1)
        if line.strip() and not line.startswith("###")
    ]


def blocks(text: str) -> Iterator[tuple[int, str]]:
    """Each round's 10 columns from column 92 on, padded with spaces, numbered from 1."""
    rest = text[FIRST_ROUND_COLUMN - 1 :]
    for start in range(0, len(rest), ROUND_WIDTH):
        yield start // ROUND_WIDTH + 1, rest[start : start + ROUND_WIDTH].ljust(ROUND_WIDTH)


def column(round: int, offset: int) -> int:
    """The column of a round's block, `offset` columns into it."""
    return FIRST_ROUND_COLUMN + ROUND_WIDTH * (round - 1) + offset


def read_players(records: list[Record], problems: Problems) -> PlayerSection:
    section = PlayerSection([], {}, {})
    for number, text in records:
        if not text.startswith("001"):
            continue
        rank = _starting_rank(number, text, section.lines, problems)
        if rank is None:
            continue
        section.lines[rank] = number
        player = _player(number, text, rank, problems)
        if player is not None:
            section.players.append(player)
        section.entries.update(_entries(number, text, rank, problems))
    return section


def _starting_rank(number: int, text: str, lines: dict[int, int], problems: Problems) -> int | None:
    """Columns 5-8, or None (and a problem) when they are not a rank of their own."""
    field = text[4:8].strip()
    if not _DIGITS.fullmatch(field) or int(field) == 0:
        problems.add(
            number, f"columns 5-8: the starting rank {field!r} is not a number from 1 to 9999."
        )
        return None
    rank = int(field)
    if rank in lines:
        problems.add(
            number,
            f"starting rank {rank} is taken by line {lines[rank]}; "
            "each player needs a rank of their own.",
        )
        return None
    return rank


def _sex(text: str) -> str | None:
    if text.lower() not in _SEXES:
        raise ValueError(f"the sex {text!r} is not m, w or f.")
    return _SEXES[text.lower()]


def _title(text: str) -> str | None:
    try:
        return title_code(text) if text else None
    except InvalidInput as error:
        raise ValueError(str(error)) from None


def _name(text: str) -> str:
    name = " ".join(text.split())
    if not name:
        raise ValueError("the player has no name.")
    return name


def _optional_number(what: str) -> Callable[[str], int | None]:
    """A column holding a number, where blank or 0 means none."""

    def parse(text: str) -> int | None:
        if not text:
            return None
        if not _DIGITS.fullmatch(text):
            raise ValueError(f"the {what} {text!r} is not a number.")
        return int(text) or None

    return parse


def _federation(text: str) -> str | None:
    try:
        return federation_code(text) if text else None
    except InvalidInput as error:
        raise ValueError(str(error)) from None


def _birth_year(text: str) -> int | None:
    """The year of a birth date (YYYY/MM/DD, YYYY/00/00, YYYY, or DD.MM.YYYY as some
    national programs write it); blank or year 0000 means none."""
    if not text:
        return None
    match = _BIRTH_DATE.fullmatch(text) or _BIRTH_DATE_DAY_FIRST.fullmatch(text)
    if match is None:
        raise ValueError(f"the birth date {text!r} is not YYYY/MM/DD, YYYY/00/00 or YYYY.")
    return int(match["year"]) or None


def _points(text: str) -> int | None:
    """Points as the report writes them (`11.5`), in hundredths; blank means none."""
    if not text:
        return None
    match = _POINTS.fullmatch(text)
    if match is None:
        raise ValueError(f"the points {text!r} are not a number such as 11.5.")
    return int(match[1]) * 100 + int(f"{match[2] or ''}00"[:2])


class _Column(NamedTuple):
    """A player's column of a 001 line (TRF16): its field, first and last column, parser,
    and the name of a field the format marks "warning if wrong" (None: a problem)."""

    field: str
    first: int
    last: int
    parse: Callable[[str], Any]
    warned: str | None


_PLAYER_COLUMNS = (
    _Column("sex", 10, 10, _sex, "sex"),
    _Column("title", 11, 13, _title, "title"),
    _Column("name", 15, 47, _name, None),
    _Column("rating", 49, 52, _optional_number("rating"), "FIDE rating"),
    _Column("federation", 54, 56, _federation, "federation"),
    _Column("fide_id", 58, 68, _optional_number("FIDE ID"), None),
    _Column("birth_year", 70, 79, _birth_year, "birth date"),
    _Column("points", 81, 84, _points, "points"),
    _Column("place", 86, 89, _optional_number("rank"), "rank"),
)
"""A name the ledger needs, and FIDE's numbers, which match players, are problems where they
cannot be read; the other fields are warnings, the field left empty (TRF16's table marks
them "warning if wrong"; points and rank matter to pairing and ranking, not to rating, and
the ledger scores and ranks a report by its rounds without them)."""


def _player(number: int, text: str, rank: int, problems: Problems) -> TrfPlayer | None:
    """The player of a 001 line, or None when a column that is not a warning cannot be
    read (each a problem)."""
    fields: dict[str, Any] = {}
    for column in _PLAYER_COLUMNS:
        try:
            fields[column.field] = column.parse(text[column.first - 1 : column.last].strip())
        except ValueError as error:
            first, last = column.first, column.last
            columns = f"column {first}" if first == last else f"columns {first}-{last}"
            if column.warned is None:
                problems.add(number, f"{columns}: {error}")
                continue
            problems.warn(number, column.warned, f"{columns}: {error} It is left empty.")
            fields[column.field] = None
    if len(fields) < len(_PLAYER_COLUMNS):
        return None
    return TrfPlayer(rank=rank, line=number, **fields)


def _entries(
    number: int, text: str, rank: int, problems: Problems
) -> dict[tuple[int, int], RoundEntry | None]:
    """A 001 line's rounds by (rank, round); an entirely blank block is no round at all."""
    entries: dict[tuple[int, int], RoundEntry | None] = {}
    for round, block in blocks(text):
        if not block.strip():
            continue
        try:
            entries[rank, round] = _entry(round, rank, number, block)
        except ValueError as error:
            problems.add(number, f"round {round}: {error}")
            entries[rank, round] = None
    return entries


def _entry(round: int, rank: int, number: int, block: str) -> RoundEntry:
    """A block: opponent (4 columns), blank, colour, blank, result, two blanks."""
    if (block[4] + block[6] + block[8:]).strip():
        raise ValueError(
            f"{block.rstrip()!r} does not fit the round's columns: the opponent in "
            f"{column(round, 0)}-{column(round, 3)}, the colour in {column(round, 5)}, "
            f"the result in {column(round, 7)}."
        )
    opponent_text = block[:4].strip()
    if opponent_text and not _DIGITS.fullmatch(opponent_text):
        raise ValueError(f"the opponent {opponent_text!r} is not a starting rank.")
    opponent = int(opponent_text or "0") or None
    colour = block[5].lower() if block[5] != " " else "-"
    if colour not in _COLOURS:
        raise ValueError(f"the colour {block[5]!r} is not w, b or -.")
    if opponent is None:
        return RoundEntry(round, rank, None, colour, _bye_code(block[7].upper()), number)
    return RoundEntry(round, rank, opponent, colour, _game_code(block[7].upper(), colour), number)


_OLD_STYLE_BYES = {" ": "Z", "-": "Z", "0": "Z", "+": "F", "1": "F", "=": "H"}
"""Codes some programs write without an opponent for a bye: blank or a loss is an absence
(Z), a win a full-point bye (F), a draw a half-point bye (H)."""


def _bye_code(code: str) -> str:
    """The code of a block without an opponent."""
    if code in _OLD_STYLE_BYES:
        return _OLD_STYLE_BYES[code]
    if code in _GAME_CODES:
        raise ValueError(f"the result {code} needs an opponent; a bye is H, F, U or Z.")
    return _known(code)


def _game_code(code: str, colour: str) -> str:
    if code == " ":
        raise ValueError("the game has no result.")
    if code in _BYE_CODES:
        raise ValueError(f"a bye ({code}) has no opponent; write 0000 as the opponent.")
    if colour == "-" and code in _PLAYED_CODES:
        raise ValueError(f"the game was played ({code}), so it needs its colour, w or b.")
    return _known(code)


def _known(code: str) -> str:
    if code not in _GAME_CODES | _BYE_CODES:
        raise ValueError(
            f"{code!r} is not a TRF result code; use 1 = 0 (played), + - (forfeit), "
            "W D L (not rated) or H F U Z (byes)."
        )
    return code
