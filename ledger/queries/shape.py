"""The one JSON shape of everything the read side returns: every face that prints or serves
JSON (`--format json`, the web API) goes through here, so they cannot disagree.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import functools
import io
import itertools
import operator
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any

import orjson

from ledger.core.domain import Period, Pool
from ledger.core.printable import escaped, plain_cells, spreadsheet_cell


def plain(value: Any) -> Any:
    """A query's result as plain data: dataclasses as dicts, periods as `YYYY-MM` text.

    (`dataclasses.asdict` would turn a Period, itself a dataclass, into a dict.) Values of
    the plain types are known by their type first, and a dataclass's fields are read in one
    call: a page of 500 list rows holds ten thousand values.
    """
    kind = type(value)
    if kind in _PLAIN_TYPES:
        return value
    if isinstance(value, Period | Pool):
        return str(value)
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names, values = _fields_of(type(value))
        return {
            name: each if type(each) in _PLAIN_TYPES else plain(each)
            for name, each in zip(names, values(value), strict=True)
        }
    return value


_PLAIN_TYPES = frozenset((str, int, bool, float, Decimal, dt.date, dt.datetime, type(None)))


@functools.cache
def _fields_of(kind: type[Any]) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
    """A dataclass's field names, and what reads its values in their order."""
    names = tuple(field.name for field in dataclasses.fields(kind))
    if len(names) < 2:  # attrgetter gives one field's value alone, not in a tuple
        return names, lambda value: tuple(getattr(value, name) for name in names)
    return names, operator.attrgetter(*names)


def _json_value(value: object) -> object:
    """JSON for what the encoder does not write itself, as `plain` makes it: periods as
    text, a query's dataclass as the dict of its fields (written in turn), exact hundredths
    as numbers, times in ISO 8601 with their zone (the ledger stores UTC: a time without
    one is UTC)."""
    if isinstance(value, Period):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names, values = _fields_of(type(value))
        return dict(zip(names, values(value), strict=True))
    if isinstance(value, tuple):  # a named tuple, which orjson does not write as a tuple
        return list(value)
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dt.datetime):
        return (value if value.tzinfo else value.replace(tzinfo=dt.UTC)).isoformat()
    if isinstance(value, dt.date):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


_JSON_OPTIONS = (
    orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS
)
"""Dataclasses, dates and times go to `_json_value` (a Period is a dataclass written as
text, and orjson would write a time without its zone); keys that are numbers are written as
text, as JSON has them."""


def to_json(data: object, *, indented: bool = True) -> str:
    """A query's result as JSON text, the same as of its `plain` data: indented by two
    spaces (or on one line, as the web serves it), with non-ASCII names as they are.
    orjson writes it: the standard library's encoder took longer than reading the rows of
    a page of 500 list rows, and writes an indented million-row list in Python."""
    option = _JSON_OPTIONS | (orjson.OPT_INDENT_2 if indented else 0)
    return orjson.dumps(data, default=_json_value, option=option).decode()


def json_lines(items: Iterable[object]) -> Iterator[str]:
    """`to_json` of the list of `items`, indented, a few thousand items at a time as they
    come: a whole list of a million rows is written without holding its JSON. Each batch is
    written as an array whose brackets are left off, so the parts join into the text
    `to_json` writes of them all."""
    batches = iter(items)
    first = list(itertools.islice(batches, _LINES_AT_A_TIME))
    if not first:
        yield to_json([])
        return
    yield "[\n"
    batch = first
    while batch:
        following = list(itertools.islice(batches, _LINES_AT_A_TIME))
        yield to_json(batch)[2:-2] + (",\n" if following else "\n]")
        batch = following


def to_csv(rows: Sequence[dict[str, object]], fields: Sequence[str]) -> str:
    """Plain rows as CSV text with one header line of `fields`, as `csv_lines` writes them."""
    return "".join(csv_lines(fields, ([row.get(name, "") for name in fields] for row in rows)))


def csv_lines(
    fields: Sequence[str], rows: Iterable[Sequence[object]], texts: Sequence[int] | None = None
) -> Iterator[str]:
    """Rows of cells as CSV text, one header line of `fields` first, a few thousand lines at
    a time as the rows come: every CSV the ledger writes, to a terminal, a file or the web.

    A text cell a spreadsheet would run as a formula starts with `'`
    (`ledger.core.printable.spreadsheet_cell`), and a control character stored before the
    ledger refused them is written as its escape. Other cells (numbers, periods, None) are
    written as the csv module writes them: their text, which no formula starts. Where the
    places of the only cells that may hold text are known (`texts`; the others hold numbers
    or None), lines whose texts need neither are joined without the csv module
    (`_plain_lines`), a few thousand checked at once.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(fields)
    yield out.getvalue()
    known = [_ColumnTexts() for _ in fields]
    chunks = iter(rows)
    while chunk := list(itertools.islice(chunks, _LINES_AT_A_TIME)):
        lines = None if texts is None else _plain_lines(chunk, texts, known)
        if lines is None:
            out.seek(0)
            out.truncate()
            writer.writerows([[_cell(cell) for cell in row] for row in chunk])
            lines = out.getvalue()
        yield lines


_LINES_AT_A_TIME = 2_000


def _plain_lines(
    rows: list[Sequence[object]], texts: Sequence[int], known: Sequence[_ColumnTexts]
) -> str | None:
    """`rows` as the csv module writes them, joined a column at a time, if no text cell
    (at the places `texts`) needs an escape or a formula's guard (`plain_cells`); else
    None. A text with a comma or a quote is quoted as the csv module quotes it."""
    columns: list[Sequence[Any]] = list(zip(*rows, strict=True))
    whole: set[int] = set()
    for place in texts:
        present = list(filter(None, columns[place]))
        if not plain_cells(present):
            return None
        if _QUOTED.search("".join(present)):
            columns[place] = [_quoted(cell) if cell else cell for cell in columns[place]]
        if len(present) == len(rows):
            whole.add(place)
    cells = [
        column if place in whole else known[place].of(column)
        for place, column in enumerate(columns)
    ]
    return "\n".join(map(",".join, zip(*cells, strict=True))) + "\n"


_QUOTED = re.compile('[,"]')
"""What makes the csv module quote a printable text (with the default dialect)."""


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if _QUOTED.search(text) else text


class _ColumnTexts(dict[object, str]):
    """The texts of a CSV column's cells as the csv module writes them (None as nothing).
    Where the column repeats few values (a list's ranks, ratings, K, movement) each value's
    text is made once; past `_FEW` values (IDs, positions), each cell's as it comes."""

    many = False

    def of(self, column: Sequence[Any]) -> Iterable[str]:
        if self.many:
            return map(_text if None in column else str, column)
        texts = list(map(self.__getitem__, column))
        if len(self) > _FEW:
            self.many = True
            self.clear()
        return texts

    def __missing__(self, value: object) -> str:
        self[value] = text = _text(value)
        return text


_FEW = 20_000


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _cell(cell: object) -> object:
    return spreadsheet_cell(escaped(cell)) if isinstance(cell, str) else cell


def records_csv(records: Sequence[Any], kind: type[Any]) -> str:
    """Records of one dataclass as CSV, with the dataclass's fields as the header."""
    fields = [field.name for field in dataclasses.fields(kind)]
    return to_csv([plain(record) for record in records], fields)
