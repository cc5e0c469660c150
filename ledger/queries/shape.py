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
import json
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any

from ledger.core.domain import Period, Pool
from ledger.core.printable import escaped, spreadsheet_cell


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
    """JSON for the ledger's values: exact hundredths as numbers, dates and periods as text,
    times in ISO 8601 with their zone (the ledger stores UTC: a time without one is UTC)."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dt.datetime):
        return (value if value.tzinfo else value.replace(tzinfo=dt.UTC)).isoformat()
    if isinstance(value, dt.date):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def to_json(data: object, indent: int | None = 2) -> str:
    """Plain data (see `plain`) as JSON text, indented (None: on one line, which the web
    writes faster), with non-ASCII names as they are."""
    return json.dumps(data, ensure_ascii=False, indent=indent, default=_json_value)


def to_csv(rows: Sequence[dict[str, object]], fields: Sequence[str]) -> str:
    """Plain rows as CSV text with one header line of `fields`, as `csv_lines` writes them."""
    return "".join(csv_lines(fields, ([row.get(name, "") for name in fields] for row in rows)))


def csv_lines(fields: Sequence[str], rows: Iterable[Iterable[object]]) -> Iterator[str]:
    """Rows of cells as CSV text, one header line of `fields` first, a few thousand lines at
    a time as the rows come: every CSV the ledger writes, to a terminal, a file or the web.

    A text cell a spreadsheet would run as a formula starts with `'`
    (`ledger.core.printable.spreadsheet_cell`), and a control character stored before the
    ledger refused them is written as its escape. Other cells (numbers, periods, None) are
    written as the csv module writes them: their text, which no formula starts.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(fields)
    chunks = iter(rows)
    while chunk := list(itertools.islice(chunks, _LINES_AT_A_TIME)):
        writer.writerows(
            [spreadsheet_cell(escaped(cell)) if isinstance(cell, str) else cell for cell in row]
            for row in chunk
        )
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    yield out.getvalue()


_LINES_AT_A_TIME = 2_000


def flat_records_csv(records: Iterable[Any], kind: type[Any]) -> Iterator[str]:
    """Records of one dataclass whose fields a cell holds (text, numbers, periods, None: no
    lists or records) as `records_csv` writes them, line by line as the records come, without
    making each a plain dict first."""
    fields = [field.name for field in dataclasses.fields(kind)]
    values = operator.attrgetter(*fields)  # a tuple of two fields or more, else the value
    rows = map(values, records) if len(fields) > 1 else ((values(each),) for each in records)
    return csv_lines(fields, rows)


def records_csv(records: Sequence[Any], kind: type[Any]) -> str:
    """Records of one dataclass as CSV, with the dataclass's fields as the header."""
    fields = [field.name for field in dataclasses.fields(kind)]
    return to_csv([plain(record) for record in records], fields)
