"""CSV files of players and games, read into records. Pure text in, records out.

The whole file is read before anything is written; every problem is reported as
`file:line: message`, and a file with any problem is refused whole.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from ledger.core.domain import GameResult, parse_date
from ledger.core.errors import InvalidInput, RejectedRecords
from ledger.core.progress import NO_PROGRESS, STEP, Progress
from ledger.core.records import NewGame, NewPlayer, new_game, new_player, problem, whole_number

if TYPE_CHECKING:
    from _csv import Reader as _CsvReader

PLAYER_COLUMNS = ("name", "federation", "rating")
PLAYER_OPTIONAL_COLUMNS = (
    "id",
    "fide_id",
    "sex",
    "title",
    "birth_year",
    "games",
    "ever_2400",
    "peak",
)
DEFAULT_GAMES = 30
"""The rated games completed of a rated player whose row gives none: as many as make an
established player's K (20, 8.3.3; 40 for a junior under 2300, 10 once 2400), as a
federation's list of rated players has it."""
GAME_COLUMNS = ("date", "white", "black", "result")
GAME_OPTIONAL_COLUMNS = ("event", "round")

T = TypeVar("T")
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
_TRUE = {"1", "true", "yes", "y", "x"}
_FALSE = {"", "0", "false", "no", "n"}


@dataclass(frozen=True, slots=True)
class ReadFile(Generic[T]):
    """The records read from a file, and a `file:line: message` for every bad row."""

    records: list[T]
    problems: list[str]


def by_line(problems: list[str], file_name: str) -> list[str]:
    """Problems of one file in the order of their line numbers."""

    def line(text: str) -> int:
        number = text[len(file_name) + 1 :].split(":", 1)[0]
        return int(number) if number.isdigit() else 0

    return sorted(problems, key=line)


def read_players(
    text: str, file_name: str, today: dt.date, progress: Progress = NO_PROGRESS
) -> ReadFile[NewPlayer]:
    """Players from a CSV with the columns `name,federation,rating` and, in any order, any of
    `id,fide_id,sex,title,birth_year,games,ever_2400,peak`. An empty rating means unrated;
    an empty or missing `id` takes the next free one; a rated player without `games` has
    completed `DEFAULT_GAMES`. Every problem of a row is reported: each value that cannot be
    read, else each field the player's checks refuse."""
    return _read(
        text,
        file_name,
        PLAYER_COLUMNS,
        PLAYER_OPTIONAL_COLUMNS,
        lambda at: _player_reader(at, today),
        progress,
    )


def read_games(
    text: str, file_name: str, today: dt.date, progress: Progress = NO_PROGRESS
) -> ReadFile[NewGame]:
    """Games from a CSV with header `date,white,black,result` (and optionally `event,round`).

    A game given twice is refused where games are recorded (`ledger.services.repeats`).
    """
    return _read(
        text,
        file_name,
        GAME_COLUMNS,
        GAME_OPTIONAL_COLUMNS,
        lambda at: _game_reader(at, today),
        progress,
    )


_Row = Callable[[list[str], str], T]
"""A record of a row's fields (each column at its place in the header), and its source."""


def _player_reader(at: dict[str, int], today: dt.date) -> _Row[NewPlayer]:
    numbers = {
        column: _numbers(column) for column in ("id", "fide_id", "birth_year", "rating", "games")
    }
    numbers["peak"] = _numbers("peak")
    flags = _Remembered(lambda text: _flag("ever_2400", text.strip().lower()))

    def player(fields: list[str], source: str) -> NewPlayer:
        try:
            values = {column: read[fields[at[column]]] for column, read in numbers.items()}
            ever_2400 = flags[fields[at["ever_2400"]]]
        except InvalidInput:
            readers = [(read, fields[at[column]]) for column, read in numbers.items()]
            raise RejectedRecords(
                _unreadable(source, [*readers, (flags, fields[at["ever_2400"]])])
            ) from None
        rated = values["rating"] is not None
        return new_player(
            id=values["id"],
            name=fields[at["name"]].strip(),
            fide_id=values["fide_id"],
            federation=fields[at["federation"]].strip() or None,
            sex=fields[at["sex"]].strip() or None,
            title=fields[at["title"]].strip() or None,
            birth_year=values["birth_year"],
            rating=values["rating"],
            games=DEFAULT_GAMES if rated and values["games"] is None else values["games"],
            ever_2400=ever_2400,
            peak=values["peak"],
            source=source,
            today=today,
        )

    return player


def _game_reader(at: dict[str, int], today: dt.date) -> _Row[NewGame]:
    date, white, black, result, event, round_ = (
        at[column] for column in GAME_COLUMNS + GAME_OPTIONAL_COLUMNS
    )
    dates = _Remembered(lambda text: _field("date", text.strip(), parse_date))
    whites, blacks = _players("white"), _players("black")
    results = _Remembered(lambda text: _field("result", text.strip(), GameResult.parse))
    rounds = _numbers("round")

    def game(fields: list[str], source: str) -> NewGame:
        try:
            day, outcome = dates[fields[date]], results[fields[result]]
            white_id, black_id = whites[fields[white]], blacks[fields[black]]
            number = rounds[fields[round_]]
        except InvalidInput:
            values: list[tuple[Mapping[str, object], str]] = [
                (dates, fields[date]),
                (whites, fields[white]),
                (blacks, fields[black]),
                (results, fields[result]),
                (rounds, fields[round_]),
            ]
            raise RejectedRecords(_unreadable(source, values)) from None
        return new_game(
            date=day,
            white=white_id,
            black=black_id,
            result=outcome,
            event=fields[event].strip() or None,
            round=number,
            source=source,
            today=today,
        )

    return game


def _unreadable(source: str, values: Sequence[tuple[Mapping[str, object], str]]) -> list[str]:
    """A problem for each of a row's values (a column's reader, and its text) that cannot be
    read: a row is refused with all of them at once."""
    problems = []
    for column, text in values:
        try:
            column[text]
        except InvalidInput as error:
            problems.append(problem(source, str(error)))
    return problems


class _Remembered(dict[str, T]):
    """A column's values as read from each text it holds, each text read once: a file
    repeats its dates, results, players and ratings on many rows. A text that cannot be
    read raises each time."""

    def __init__(self, read: Callable[[str], T]) -> None:
        super().__init__()
        self.read = read

    def __missing__(self, text: str) -> T:
        self[text] = value = self.read(text)
        return value


def _numbers(column: str) -> _Remembered[int | None]:
    return _Remembered(lambda text: _whole(column, text))


def _players(column: str) -> _Remembered[int]:
    return _Remembered(lambda text: _player_id(column, text))


def _read(
    text: str,
    file_name: str,
    required: tuple[str, ...],
    optional: tuple[str, ...],
    reader: Callable[[dict[str, int]], _Row[T]],
    progress: Progress,
) -> ReadFile[T]:
    """The records of a file's rows, and a problem for each row that makes none.

    Each row gets one more field, empty, where the columns the header leaves out are read.
    """
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=_separator(text))
    columns = _header(rows, file_name, required, optional)
    width = len(columns)
    record = reader({name: _place(columns, name) for name in required + optional})
    records: list[T] = []
    problems: list[str] = []
    stage = progress.stage(f"Reading {file_name}", text.count("\n") - text.endswith("\n"))
    number = 0
    try:
        # Counted here, not with `progress.counted`: that takes rows a batch ahead, and each
        # row's problem names the line the reader is at (`rows.line_num`).
        for number, fields in enumerate(rows, start=1):
            if number % STEP == 0:
                stage.advance(STEP)
            if not fields:
                continue  # a blank line
            source = f"{file_name}:{rows.line_num}"
            if len(fields) != width:
                problems.append(
                    problem(source, "the row does not have as many fields as the header.")
                )
                continue
            fields.append("")
            try:
                records.append(record(fields, source))
            except RejectedRecords as refused:
                problems += refused.problems
            except InvalidInput as error:
                message = str(error)
                problems.append(message if message.startswith(source) else problem(source, message))
    except csv.Error as error:
        raise RejectedRecords([f"{file_name}:{rows.line_num}: {error}"]) from None
    stage.advance(number % STEP)
    if not records and not problems:
        raise RejectedRecords([f"{file_name}: the file has a header but no rows."])
    return ReadFile(records, problems)


def _place(columns: list[str], name: str) -> int:
    """Where a row holds the column: its place in the header, or after the row's last field
    for an optional column the header leaves out."""
    return columns.index(name) if name in columns else len(columns)


def _separator(text: str) -> str:
    """The header's separator: a semicolon where it has more of them than commas (as a
    spreadsheet saves CSV where the comma is the decimal sign), else a comma."""
    header = text.split("\n", 1)[0]
    return ";" if header.count(";") > header.count(",") else ","


def _header(
    rows: _CsvReader,
    file_name: str,
    required: tuple[str, ...],
    optional: tuple[str, ...],
) -> list[str]:
    try:
        header = next(rows, None)
    except csv.Error as error:
        raise RejectedRecords([f"{file_name}:1: {error}"]) from None
    if not header:
        raise RejectedRecords([f"{file_name}:1: the file is empty; expected a header line."])
    columns = [name.strip().lower() for name in header]
    repeated = sorted({name for name in columns if columns.count(name) > 1})
    if repeated:
        raise RejectedRecords([f"{file_name}:1: column(s) {_shown(repeated)} appear twice."])
    missing = [name for name in required if name not in columns]
    unknown = [name for name in columns if name not in required + optional]
    if missing and _one_column_of_several(columns, required):
        raise RejectedRecords(
            [
                f"{file_name}:1: the separator is wrong: the header {_shown(columns)} is one "
                f"column; separate the columns {','.join(required)} by commas or semicolons."
            ]
        )
    if missing or unknown:
        parts = [f"missing column(s) {', '.join(missing)}"] if missing else []
        parts += [f"unknown column(s) {_shown(unknown)}"] if unknown else []
        raise RejectedRecords(
            [
                f"{file_name}:1: {'; '.join(parts)}; the header needs {','.join(required)} "
                f"and may hold {','.join(optional)}."
            ]
        )
    return columns


MOST_NAMES_SHOWN = 5
"""A message names this many columns of a longer list, and the count of the rest."""
_LONGEST_NAME_SHOWN = 40


def _one_column_of_several(columns: list[str], required: tuple[str, ...]) -> bool:
    """A header read as one column that holds the names of several: another separator."""
    return len(columns) == 1 and sum(name in columns[0] for name in required) > 1


def _shown(names: list[str]) -> str:
    """Column names from a file for a one-line message: as written, or quoted with escapes
    where a name is empty or holds characters a terminal would not show as text; the first
    few of a long list, and how many more."""
    shown = [_name_shown(name) for name in names[:MOST_NAMES_SHOWN]]
    if len(names) > MOST_NAMES_SHOWN:
        shown.append(f"and {len(names) - MOST_NAMES_SHOWN} more")
    return ", ".join(shown)


def _name_shown(name: str) -> str:
    if len(name) > _LONGEST_NAME_SHOWN:
        return f"{name[:_LONGEST_NAME_SHOWN]!r}... ({len(name)} characters)"
    return name if name and name.isprintable() else repr(name)


def _field(column: str, text: str, parse: Callable[[str], T]) -> T:
    try:
        return parse(text)
    except InvalidInput as error:
        raise InvalidInput(f"{column}: {error}") from None


def _whole(column: str, text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not _WHOLE_NUMBER.fullmatch(text):
        raise InvalidInput(f"{column}: {text!r} is not a whole number.")
    try:
        return whole_number(text)
    except InvalidInput as error:
        raise InvalidInput(f"{column}: {error}") from None


def _player_id(column: str, text: str) -> int:
    player_id = _whole(column, text)
    if player_id is None:
        raise InvalidInput(f"{column}: a game needs both players' IDs.")
    return player_id


def _flag(column: str, text: str) -> bool:
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InvalidInput(f"{column}: {text!r} is not yes/no (1/0, true/false).")
