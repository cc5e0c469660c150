"""TRF16 and TRF-2026 tournament reports (FIDE's Tournament Report File), text <-> records.

This module owns the report's column layout: the header records the ledger uses (012 name,
022 city, 032 federation, 042 and 052 dates, 132 round dates) and the 001 player lines, with
one 10-column block per round from column 92. Reading turns a whole file into the event, its
players, its games (each pairing once, although both players' lines list it) and its byes,
with every problem as `file:line: message`; writing lays a report out again in the same
columns. Pure: bytes or text in, records out.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ledger.domain import GameResult
from ledger.records import problem


@dataclass(frozen=True, slots=True)
class TrfEvent:
    """The event, from the header records 012 to 132."""

    name: str
    city: str | None
    federation: str | None
    start_date: dt.date | None
    end_date: dt.date | None
    round_dates: tuple[dt.date | None, ...]
    """The 132 record's date of round r at index r - 1; it may list fewer rounds than there are."""


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    """A player of a 001 line; `line` is its line number in the file."""

    rank: int
    """The starting rank, the number by which the report's rounds name the player."""
    sex: str | None
    title: str | None
    name: str
    rating: int | None
    federation: str | None
    fide_id: int | None
    birth_year: int | None
    line: int


@dataclass(frozen=True, slots=True)
class TrfGame:
    """A pairing, once, with its result from White's side and the date of its round (132),
    else the event's end date."""

    round: int
    white: int
    black: int
    result: GameResult
    rated: bool
    """False for the not-rated codes W, D and L and for every forfeit."""
    date: dt.date
    lines: tuple[int, int]
    """The 001 lines of White and of Black, which both list the game."""


@dataclass(frozen=True, slots=True)
class TrfBye:
    """A round without a game for one player, dated like a game."""

    round: int
    player: int
    code: str
    """H half-point bye, F full-point bye, U pairing-allocated bye, Z zero-point bye."""
    date: dt.date
    line: int


@dataclass(frozen=True, slots=True)
class TournamentReport:
    """A whole report: the event, its players by starting rank, its games and its byes."""

    event: TrfEvent
    players: list[TrfPlayer]
    games: list[TrfGame]
    """Each pairing once, by round and then White's starting rank."""
    byes: list[TrfBye]


@dataclass(frozen=True, slots=True)
class _Entry:
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
class _PlayerSection:
    """What the 001 lines hold: the players, the line of each starting rank, and each
    player's round blocks by (starting rank, round), None where a block could not be read."""

    players: list[TrfPlayer]
    lines: dict[int, int]
    entries: dict[tuple[int, int], _Entry | None]


_Record = tuple[int, str]
"""A line's number and its text."""


class _Problems(list[tuple[int, str]]):
    """Each problem found: its line (0 for the whole file) and what is wrong there."""

    def add(self, line: int, message: str) -> None:
        self.append((line, message))


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_HEADER_CODES = ("012", "022", "032", "042", "052", "132")
_FIRST_ROUND_COLUMN = 92
_ROUND_WIDTH = 10
_DATE_FORMATS = ("%Y/%m/%d", "%Y-%m-%d", "%Y.%m.%d", "%d.%m.%Y", "%d/%m/%Y")
_ROUND_DATE = re.compile(r"([0-9]{2}|[0-9]{4})[/.-]([0-9]{2})[/.-]([0-9]{2})")
_BIRTH_DATE = re.compile(r"([0-9]{4})([/.-][0-9]{2}[/.-][0-9]{2})?")
_DIGITS = re.compile(r"[0-9]+")
_FEDERATION = re.compile(r"[A-Z]{3}")
_SEXES = {"": None, "m": "M", "w": "F", "f": "F"}
_WRITTEN_SEX = {"M": "m", "F": "w"}

_PLAYED_CODES = frozenset("10=WDL")
_GAME_CODES = _PLAYED_CODES | {"+", "-"}
_BYE_CODES = frozenset("HFUZ")
_OTHER_SIDE = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+"}
_RESULTS = {
    ("1", "0"): (GameResult.WHITE_WINS, True),
    ("0", "1"): (GameResult.BLACK_WINS, True),
    ("=", "="): (GameResult.DRAW, True),
    ("W", "L"): (GameResult.WHITE_WINS, False),
    ("L", "W"): (GameResult.BLACK_WINS, False),
    ("D", "D"): (GameResult.DRAW, False),
    ("+", "-"): (GameResult.WHITE_WINS_BY_FORFEIT, False),
    ("-", "+"): (GameResult.BLACK_WINS_BY_FORFEIT, False),
    ("-", "-"): (GameResult.DOUBLE_FORFEIT, False),
}
"""(White's code, Black's code) -> the result and whether the codes say it is rated."""
_CODES = {outcome: codes for codes, outcome in _RESULTS.items()}
_HALF_POINTS = dict.fromkeys("1W+FU", 2) | dict.fromkeys("=DH", 1) | dict.fromkeys("0L-Z", 0)
"""Each code's score in half points, FIDE's defaults (TRF-2026 record 162): a
pairing-allocated bye (U) scores as a win."""
_SAYS = {
    "1": "won",
    "0": "lost",
    "=": "drew",
    "W": "won a not-rated game",
    "L": "lost a not-rated game",
    "D": "drew a not-rated game",
    "+": "won by forfeit",
    "-": "lost by forfeit",
}
_WITH = {"w": " with White", "b": " with Black", "-": ""}


def decode(content: bytes) -> str:
    """The file's text: UTF-8 (without a byte-order mark) when it decodes, else Latin-1."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("latin-1")


def read_trf(content: bytes, file_name: str) -> tuple[TournamentReport | None, list[str]]:
    """The tournament report in a TRF16 or TRF-2026 file, or None and every problem.

    Problems read `file:line: message`, by line; those of the whole file (no event name, no
    player lines) read `file: message` and come first. Never raises for bad input.
    """
    problems = _Problems()
    records = _records(decode(content))
    event = _event(_headers(records, problems), problems)
    section = _player_section(records, problems)
    if not any(text.startswith("001") for _, text in records):
        problems.add(0, "the file has no player lines; each player needs a 001 record.")
    days = _round_days(event, section, problems)
    games = _games(section, days, problems)
    byes = _byes(section, days)
    if problems:
        return None, _messages(file_name, problems)
    return TournamentReport(event, sorted(section.players, key=_rank), games, byes), []


def _rank(player: TrfPlayer) -> int:
    return player.rank


def _messages(file_name: str, problems: _Problems) -> list[str]:
    return [
        problem(f"{file_name}:{line}" if line else file_name, message)
        for line, message in sorted(problems, key=lambda found: found[0])
    ]


def _records(text: str) -> list[_Record]:
    """The numbered lines that hold a record: neither blank nor a TRF-2026 `###` comment."""
    return [
        (number, line.rstrip())
        for number, line in enumerate(_LINE_BREAK.split(text), start=1)
        if line.strip() and not line.startswith("###")
    ]


def _headers(records: list[_Record], problems: _Problems) -> dict[str, _Record]:
    """The header records the ledger uses, by code; every other record is skipped."""
    headers: dict[str, _Record] = {}
    for number, text in records:
        code = text[:3]
        if code in headers:
            first = headers[code][0]
            problems.add(number, f"a second {code} record; line {first} has the first.")
        elif code in _HEADER_CODES:
            headers[code] = (number, text)
    return headers


def _event(headers: dict[str, _Record], problems: _Problems) -> TrfEvent:
    name = _header_text(headers, "012")
    if not name:
        line = headers["012"][0] if "012" in headers else 0
        problems.add(line, "the event has no name; write it in a 012 record from column 5.")
    federation = _header_text(headers, "032").upper()
    return TrfEvent(
        name=name,
        city=_header_text(headers, "022") or None,
        federation=federation if _FEDERATION.fullmatch(federation) else None,
        start_date=_header_date(headers, "042", "start date", problems),
        end_date=_header_date(headers, "052", "end date", problems),
        round_dates=_round_dates(headers.get("132"), problems),
    )


def _header_text(headers: dict[str, _Record], code: str) -> str:
    """A header record's data from column 5, spaces collapsed; empty when there is none."""
    return " ".join(headers[code][1][4:].split()) if code in headers else ""


def _header_date(
    headers: dict[str, _Record], code: str, what: str, problems: _Problems
) -> dt.date | None:
    text = _header_text(headers, code)
    if not text:
        return None
    for pattern in _DATE_FORMATS:
        with contextlib.suppress(ValueError):
            return dt.datetime.strptime(text, pattern).date()
    problems.add(headers[code][0], f"the {what} {text!r} is not a date; write it as YYYY/MM/DD.")
    return None


def _round_dates(header: _Record | None, problems: _Problems) -> tuple[dt.date | None, ...]:
    """The 132 record's dates, YY/MM/DD (20YY) or YYYY/MM/DD in each round's columns."""
    if header is None:
        return ()
    number, text = header
    dates: list[dt.date | None] = []
    for round, block in _blocks(text):
        try:
            dates.append(_round_date(block.strip()))
        except ValueError:
            first = _column(round, 0)
            problems.add(
                number,
                f"round {round}: the date {block.strip()!r} is not a date; write it "
                f"as YY/MM/DD in columns {first}-{first + 7}.",
            )
            dates.append(None)
    return tuple(dates)


def _round_date(text: str) -> dt.date | None:
    if not text:
        return None
    match = _ROUND_DATE.fullmatch(text)
    if match is None:
        raise ValueError(text)
    year = int(match[1]) + (2000 if len(match[1]) == 2 else 0)
    return dt.date(year, int(match[2]), int(match[3]))


def _blocks(text: str) -> Iterator[tuple[int, str]]:
    """Each round's 10 columns from column 92 on, padded with spaces, numbered from 1."""
    rest = text[_FIRST_ROUND_COLUMN - 1 :]
    for start in range(0, len(rest), _ROUND_WIDTH):
        yield start // _ROUND_WIDTH + 1, rest[start : start + _ROUND_WIDTH].ljust(_ROUND_WIDTH)


def _column(round: int, offset: int) -> int:
    """The column of a round's block, `offset` columns into it."""
    return _FIRST_ROUND_COLUMN + _ROUND_WIDTH * (round - 1) + offset


def _player_section(records: list[_Record], problems: _Problems) -> _PlayerSection:
    section = _PlayerSection([], {}, {})
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


def _starting_rank(
    number: int, text: str, lines: dict[int, int], problems: _Problems
) -> int | None:
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
    return text or None


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
    if text and not _FEDERATION.fullmatch(text.upper()):
        raise ValueError(f"the federation {text!r} is not a three-letter code.")
    return text.upper() or None


def _birth_year(text: str) -> int | None:
    """The year of a birth date; blank or year 0000 means none."""
    if not text:
        return None
    match = _BIRTH_DATE.fullmatch(text)
    if match is None:
        raise ValueError(f"the birth date {text!r} is not YYYY/MM/DD, YYYY/00/00 or YYYY.")
    return int(match[1]) or None


_PLAYER_COLUMNS: tuple[tuple[str, int, int, Callable[[str], Any]], ...] = (
    ("sex", 10, 10, _sex),
    ("title", 11, 13, _title),
    ("name", 15, 47, _name),
    ("rating", 49, 52, _optional_number("rating")),
    ("federation", 54, 56, _federation),
    ("fide_id", 58, 68, _optional_number("FIDE ID")),
    ("birth_year", 70, 79, _birth_year),
)
"""The player's columns of a 001 line (TRF16): field, first and last column, parser."""


def _player(number: int, text: str, rank: int, problems: _Problems) -> TrfPlayer | None:
    """The player of a 001 line, or None when a column cannot be read (each a problem)."""
    fields: dict[str, Any] = {}
    for field, first, last, parse in _PLAYER_COLUMNS:
        try:
            fields[field] = parse(text[first - 1 : last].strip())
        except ValueError as error:
            columns = f"column {first}" if first == last else f"columns {first}-{last}"
            problems.add(number, f"{columns}: {error}")
    if len(fields) < len(_PLAYER_COLUMNS):
        return None
    return TrfPlayer(rank=rank, line=number, **fields)


def _entries(
    number: int, text: str, rank: int, problems: _Problems
) -> dict[tuple[int, int], _Entry | None]:
    """A 001 line's rounds by (rank, round); an entirely blank block is no round at all."""
    entries: dict[tuple[int, int], _Entry | None] = {}
    for round, block in _blocks(text):
        if not block.strip():
            continue
        try:
            entries[rank, round] = _entry(round, rank, number, block)
        except ValueError as error:
            problems.add(number, f"round {round}: {error}")
            entries[rank, round] = None
    return entries


def _entry(round: int, rank: int, number: int, block: str) -> _Entry:
    """A block: opponent (4 columns), blank, colour, blank, result, two blanks."""
    if (block[4] + block[6] + block[8:]).strip():
        raise ValueError(
            f"{block.rstrip()!r} does not fit the round's columns: the opponent in "
            f"{_column(round, 0)}-{_column(round, 3)}, the colour in {_column(round, 5)}, "
            f"the result in {_column(round, 7)}."
        )
    opponent_text = block[:4].strip()
    if opponent_text and not _DIGITS.fullmatch(opponent_text):
        raise ValueError(f"the opponent {opponent_text!r} is not a starting rank.")
    opponent = int(opponent_text or "0") or None
    colour = block[5].lower() if block[5] != " " else "-"
    if colour not in _WITH:
        raise ValueError(f"the colour {block[5]!r} is not w, b or -.")
    if opponent is None:
        return _Entry(round, rank, None, colour, _bye_code(block[7].upper()), number)
    return _Entry(round, rank, opponent, colour, _game_code(block[7].upper(), colour), number)


def _bye_code(code: str) -> str:
    """The code of a block without an opponent; blank or a lone forfeit loss is an absence."""
    if code in (" ", "-"):
        return "Z"
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


def _round_days(
    event: TrfEvent, section: _PlayerSection, problems: _Problems
) -> dict[int, dt.date]:
    """The date of each round the lines list: its 132 date, else the event's end date."""
    first_lines: dict[int, int] = {}
    for rank, round in section.entries:
        first_lines.setdefault(round, section.lines[rank])
    days: dict[int, dt.date] = {}
    for round, line in first_lines.items():
        listed = event.round_dates[round - 1] if round <= len(event.round_dates) else None
        day = listed or event.end_date
        if day is None:
            problems.add(
                line,
                f"round {round} has no date: the 132 record gives none and there is "
                "no end date; add the round's date to 132 or an end date (052).",
            )
        else:
            days[round] = day
    return days


def _readable(section: _PlayerSection) -> Iterator[_Entry]:
    return (entry for entry in section.entries.values() if entry is not None)


def _byes(section: _PlayerSection, days: dict[int, dt.date]) -> list[TrfBye]:
    byes = [
        TrfBye(entry.round, entry.player, entry.code, days[entry.round], entry.line)
        for entry in _readable(section)
        if entry.opponent is None and entry.round in days
    ]
    return sorted(byes, key=lambda bye: (bye.round, bye.player))


def _games(section: _PlayerSection, days: dict[int, dt.date], problems: _Problems) -> list[TrfGame]:
    """Each pairing once, where both players' lines agree on it; else a problem."""
    games: list[TrfGame] = []
    for entry in _readable(section):
        if entry.opponent is None:
            continue
        other = section.entries.get((entry.opponent, entry.round))
        unmatched = _unmatched(entry, section)
        if unmatched:
            problems.add(entry.line, f"round {entry.round}: {unmatched}")
        elif other is not None and entry.player < entry.opponent:
            try:
                white, black = _white_and_black(entry, other)
            except ValueError as error:
                problems.add(entry.line, f"round {entry.round}: {error}")
                continue
            if entry.round in days:
                games.append(_game(white, black, days[entry.round]))
    return sorted(games, key=lambda game: (game.round, game.white))


def _unmatched(entry: _Entry, section: _PlayerSection) -> str | None:
    """What is wrong with a block's opponent; None when the opponent's line names this
    player back in the same round (or that block could not be read, already a problem)."""
    opponent = entry.opponent
    if opponent == entry.player:
        return f"the opponent is {opponent}, this line's own starting rank."
    if opponent not in section.lines:
        return f"the opponent {opponent} is not a player; no 001 line has that starting rank."
    key = (opponent, entry.round)
    other = section.entries.get(key)
    if key in section.entries and (other is None or other.opponent == entry.player):
        return None
    if other is None:
        says = f"has nothing for {opponent} in round {entry.round}"
    elif other.opponent is None:
        says = f"gives {opponent} a bye ({other.code})"
    else:
        says = f"pairs {opponent} with {other.opponent}"
    return (
        f"this line pairs {entry.player} with {opponent}, but line {section.lines[opponent]} "
        f"{says}; the two lines must agree."
    )


def _white_and_black(first: _Entry, second: _Entry) -> tuple[_Entry, _Entry]:
    """The blocks of White and Black; two forfeit blocks without colours make the lower
    starting rank White. Raises ValueError when the blocks disagree."""
    colours = first.colour + second.colour
    complementary = _OTHER_SIDE[first.code] == second.code or first.code == second.code == "-"
    if complementary and colours in ("wb", "--"):
        return first, second
    if complementary and colours == "bw":
        return second, first
    raise ValueError(
        f"this line says {_says(first)}, but line {second.line} says {_says(second)}; "
        "the two lines must agree."
    )


def _says(entry: _Entry) -> str:
    return f"{entry.player} {_SAYS[entry.code]}{_WITH[entry.colour]} against {entry.opponent}"


def _game(white: _Entry, black: _Entry, date: dt.date) -> TrfGame:
    result, rated = _RESULTS[white.code, black.code]
    return TrfGame(
        white.round, white.player, black.player, result, rated, date, (white.line, black.line)
    )


def write_trf(report: TournamentReport) -> str:
    """The report as a TRF16 file in the columns read_trf reads, each line ending in CRLF.

    Points (columns 81-84) and rank (86-89) come from the rounds, scored as FIDE scores by
    default, ranked by points and then starting rank. Names longer than the 33 columns of
    15-47 and titles longer than 3 are cut to fit.
    """
    blocks = _written_blocks(report)
    points = {
        rank: sum(_HALF_POINTS[block[-1]] for block in rounds.values())
        for rank, rounds in blocks.items()
    }
    ranking = sorted(blocks, key=lambda rank: (-points[rank], rank))
    places = {rank: place for place, rank in enumerate(ranking, start=1)}
    lines = _header_lines(report) + [
        _player_line(player, blocks[player.rank], points[player.rank], places[player.rank])
        for player in sorted(report.players, key=_rank)
    ]
    return "".join(f"{line}\r\n" for line in lines)


def _written_blocks(report: TournamentReport) -> dict[int, dict[int, str]]:
    """Each player's rounds as written: opponent, colour and result code, by round."""
    blocks: dict[int, dict[int, str]] = {player.rank: {} for player in report.players}
    for game in report.games:
        white_code, black_code = _CODES[game.result, game.rated and game.result.is_played]
        blocks[game.white][game.round] = f"{game.black:>4} w {white_code}"
        blocks[game.black][game.round] = f"{game.white:>4} b {black_code}"
    for bye in report.byes:
        blocks[bye.player][bye.round] = f"0000 - {bye.code}"
    return blocks


def _header_lines(report: TournamentReport) -> list[str]:
    event = report.event
    rated = sum(1 for player in report.players if player.rating is not None)
    records = (
        ("012", event.name),
        ("022", event.city),
        ("032", event.federation),
        ("042", _long_date(event.start_date)),
        ("052", _long_date(event.end_date)),
        ("062", str(len(report.players))),
        ("072", str(rated)),
    )
    lines = [f"{code} {text}" for code, text in records if text]
    if any(event.round_dates):
        dates = "".join(f"{_short_date(date):<{_ROUND_WIDTH}}" for date in event.round_dates)
        lines.append(f"{'132':<{_FIRST_ROUND_COLUMN - 1}}{dates}".rstrip())
    return lines


def _long_date(date: dt.date | None) -> str:
    return f"{date.year:04d}/{date.month:02d}/{date.day:02d}" if date else ""


def _short_date(date: dt.date | None) -> str:
    """YY/MM/DD, as 132 writes a round's date; YYYY/MM/DD outside 2000-2099."""
    if date and 2000 <= date.year <= 2099:
        return f"{date.year % 100:02d}/{date.month:02d}/{date.day:02d}"
    return _long_date(date)


def _player_line(player: TrfPlayer, blocks: dict[int, str], half_points: int, place: int) -> str:
    sex = _WRITTEN_SEX.get(player.sex or "", " ")
    title = (player.title or "")[:3]
    birth = f"{player.birth_year:04d}/00/00" if player.birth_year else ""
    points = f"{half_points // 2}.{5 * (half_points % 2)}"
    fields = (
        f"001 {player.rank:>4} {sex}{title:>3} {player.name[:33]:<33} "
        f"{player.rating or '':>4} {player.federation or '':<3} {player.fide_id or '':>11} "
        f"{birth:<10} {points:>4} {place:>4}"
    )
    rounds = "".join(
        f"  {blocks.get(round, ''):<8}" for round in range(1, max(blocks, default=0) + 1)
    )
    return (fields + rounds).rstrip()
