"""CSV files of players and games, read into records. Pure text in, records out.

The whole file is read before anything is written; every problem is reported as
`file:line: message`, and a file with any problem is refused whole.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from ledger.core.domain import GameResult, parse_date
from ledger.core.errors import InvalidInput, RejectedRecords
from ledger.core.progress import NO_PROGRESS, Progress, counted
from ledger.core.records import NewGame, NewPlayer, new_game, new_player, problem, whole_number

PLAYER_COLUMNS = (
    "id",
    "name",
    "federation",
    "sex",
    "title",
    "birth_year",
    "rating",
    "games",
    "ever_2400",
)
PLAYER_OPTIONAL_COLUMNS = ("fide_id", "peak")
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
    """Players from a CSV with header `id,name,federation,sex,title,birth_year,rating,games,
    ever_2400` (and optionally `fide_id`, `peak`); an empty rating means unrated."""
    return _read(
        text,
        file_name,
        PLAYER_COLUMNS,
        PLAYER_OPTIONAL_COLUMNS,
        lambda fields, source: _player(fields, source, today),
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
        lambda fields, source: _game(fields, source, today),
        progress,
    )


def _player(fields: dict[str, str], source: str, today: dt.date) -> NewPlayer:
    return new_player(
        id=_whole(fields, "id"),
        name=fields["name"],
        fide_id=_whole(fields, "fide_id"),
        federation=fields["federation"] or None,
        sex=fields["sex"] or None,
        title=fields["title"] or None,
        birth_year=_whole(fields, "birth_year"),
        rating=_whole(fields, "rating"),
        games=_whole(fields, "games"),
        ever_2400=_flag(fields, "ever_2400"),
        peak=_whole(fields, "peak"),
        source=source,
        today=today,
    )


def _game(fields: dict[str, str], source: str, today: dt.date) -> NewGame:
    return new_game(
        date=_field(fields, "date", parse_date),
        white=_player_id(fields, "white"),
        black=_player_id(fields, "black"),
        result=_field(fields, "result", GameResult.parse),
        event=fields.get("event") or None,
        round=_whole(fields, "round"),
        source=source,
        today=today,
    )


def _read(
    text: str,
    file_name: str,
    required: tuple[str, ...],
    optional: tuple[str, ...],
    record: Callable[[dict[str, str], str], T],
    progress: Progress,
) -> ReadFile[T]:
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=_separator(text))
    reader.fieldnames = _header(reader, file_name, required, optional)
    records: list[T] = []
    problems: list[str] = []
    stage = progress.stage(f"Reading {file_name}", text.count("\n") - text.endswith("\n"))
    for line, fields in counted(_rows(reader, file_name), stage):
        source = f"{file_name}:{line}"
        try:
            records.append(record(_cleaned(fields, optional), source))
        except InvalidInput as error:
            message = str(error)
            problems.append(message if message.startswith(source) else problem(source, message))
    if not records and not problems:
        raise RejectedRecords([f"{file_name}: the file has a header but no rows."])
    return ReadFile(records, problems)


def _separator(text: str) -> str:
    """The header's separator: a semicolon where it has more of them than commas (as a
    spreadsheet saves CSV where the comma is the decimal sign), else a comma."""
    header = text.split("\n", 1)[0]
    return ";" if header.count(";") > header.count(",") else ","


def _cleaned(fields: dict[str | None, str | None], optional: tuple[str, ...]) -> dict[str, str]:
    if None in fields or None in fields.values():
        raise InvalidInput("the row does not have as many fields as the header.")
    return dict.fromkeys(optional, "") | {
        str(key): (value or "").strip() for key, value in fields.items()
    }


def _rows(
    reader: csv.DictReader[str], file_name: str
) -> Iterator[tuple[int, dict[str | None, str | None]]]:
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise RejectedRecords([f"{file_name}:{reader.line_num}: {error}"]) from None
        yield reader.line_num, fields


def _header(
    reader: csv.DictReader[str],
    file_name: str,
    required: tuple[str, ...],
    optional: tuple[str, ...],
) -> list[str]:
    try:
        header = reader.fieldnames
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
            [f"{file_name}:1: {'; '.join(parts)}; the header must be {','.join(required)}."]
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


def _field(fields: dict[str, str], column: str, parse: Callable[[str], T]) -> T:
    try:
        return parse(fields[column])
    except InvalidInput as error:
        raise InvalidInput(f"{column}: {error}") from None


def _whole(fields: dict[str, str], column: str) -> int | None:
    text = fields.get(column, "")
    if not text:
        return None
    if not _WHOLE_NUMBER.fullmatch(text):
        raise InvalidInput(f"{column}: {text!r} is not a whole number.")
    try:
        return whole_number(text)
    except InvalidInput as error:
        raise InvalidInput(f"{column}: {error}") from None


def _player_id(fields: dict[str, str], column: str) -> int:
    player_id = _whole(fields, column)
    if player_id is None:
        raise InvalidInput(f"{column}: a game needs both players' IDs.")
    return player_id


def _flag(fields: dict[str, str], column: str) -> bool:
    text = fields.get(column, "").lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InvalidInput(f"{column}: {text!r} is not yes/no (1/0, true/false).")
