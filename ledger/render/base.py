"""What every renderer shares: the output formats, JSON and CSV of plain data, messages, and
the console and table every text output prints stored text through (escaped: see
`ledger.core.printable`)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import sys
from collections.abc import Iterable, Sequence
from decimal import Decimal
from enum import StrEnum
from typing import Any

import rich.box
import rich.console
import rich.table
import rich.text

from ledger.core.domain import Period, Pool
from ledger.core.printable import escaped
from ledger.queries.shape import csv_lines, json_lines, plain, to_csv, to_json


class Format(StrEnum):
    TABLE = "table"
    CSV = "csv"
    JSON = "json"


def print_json(data: object) -> None:
    print(to_json(data))


def print_csv(rows: Sequence[dict[str, object]], fields: Sequence[str]) -> None:
    """Every CSV the ledger prints, as `ledger.queries.shape.to_csv` writes it."""
    sys.stdout.write(to_csv(rows, fields))


def print_records(
    records: Iterable[Any], kind: type[Any], output: Format, not_in_csv: tuple[str, ...] = ()
) -> bool:
    """Records of one dataclass as a JSON array, or as CSV with the dataclass's fields (one
    header line) but those `not_in_csv` (fields that a cell cannot hold, or that repeat
    another column for programs); False, printing nothing, when the output is a table."""
    if output is Format.TABLE:
        return False
    rows = [plain(record) for record in records]
    if output is Format.JSON:
        print_json(rows)
    else:
        fields = [field.name for field in dataclasses.fields(kind)]
        shown = [name for name in fields if name not in not_in_csv]
        print_csv([{name: row[name] for name in shown} for row in rows], shown)
    return True


def stream_csv(
    fields: Sequence[str], rows: Iterable[Sequence[object]], texts: Sequence[int] | None = None
) -> None:
    """Rows of cells as CSV with one header line of `fields`, as `print_csv` prints them,
    written as they come (`ledger.queries.shape.csv_lines`, which says what `texts` are)."""
    for lines in csv_lines(fields, rows, texts):
        sys.stdout.write(lines)


def stream_json(items: Iterable[object]) -> None:
    """Items as a JSON array, as `print_json` prints their list, written as they come
    (`ledger.queries.shape.json_lines`)."""
    for lines in json_lines(items):
        sys.stdout.write(lines)
    sys.stdout.write("\n")


def message(text: str) -> None:
    print(escaped(text, lines=True))


def _escaped(value: Any) -> Any:
    """Text as text: control characters escaped, and nothing in it read as Rich's markup
    (`[bold]`, `[link=...]`) or emoji codes (`:smile:`), as a stored name may hold them."""
    return rich.text.Text(escaped(value, lines=True)) if isinstance(value, str) else value


class Console(rich.console.Console):
    """Rich's console, printing the text it is given as text (`_escaped`)."""

    def print(self, *objects: Any, **options: Any) -> None:
        super().print(*(_escaped(each) for each in objects), **options)


class Table(rich.table.Table):
    """Rich's table, its title and cells as text (`_escaped`)."""

    def __init__(self, *headers: Any, title: Any = None, **options: Any) -> None:
        super().__init__(*headers, title=_escaped(title), **options)

    def add_row(self, *renderables: Any, **options: Any) -> None:
        super().add_row(*(_escaped(each) for each in renderables), **options)


def plain_table(title: str, headers: Sequence[str]) -> Table:
    """A table of records with a title at its left, a line under its headers and no
    frame (the desk's accounts, tokens and reports)."""
    table = Table(
        title=title,
        title_justify="left",
        box=rich.box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for header in headers:
        table.add_column(header)
    return table


def moment(at: dt.datetime | None) -> str:
    """A moment to the minute (empty: none)."""
    return "" if at is None else f"{at:%Y-%m-%d %H:%M}"


def error(text: str) -> None:
    print(f"error: {escaped(text)}", file=sys.stderr)


def text(value: object) -> str:
    return "" if value is None else str(value)


def list_text(period: Period | None) -> str:
    """A list by its date and its period: "Nov 2026 (2026-10)"."""
    return "" if period is None else f"{period.list_name} ({period})"


def pool_option(pool: str | None) -> str:
    """The `--pool` a command needs for `pool`: none for the standard pool, the default."""
    return "" if pool in (None, Pool.STANDARD) else f" --pool {pool}"


def points(hundredths: int) -> str:
    return f"{Decimal(hundredths) / 100:.2f}".rstrip("0").rstrip(".")
