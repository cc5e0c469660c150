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
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from operator import itemgetter
from typing import Any

from ledger.core.domain import Period, Pool
from ledger.core.printable import escaped, plain_cells, spreadsheet_cell


def plain(value: Any) -> Any:
    """A query's result as plain data: dataclasses as dicts, periods as `YYYY-MM` text.

    (`dataclasses.asdict` would turn a Period, itself a dataclass, into a dict.) Plain
    values are returned first: a page of 500 list rows holds ten thousand of them.
    """
    if isinstance(value, Period | Pool):
        return str(value)
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: plain(getattr(value, name)) for name in _field_names(type(value))}
    return value


_PLAIN = (str, int, float, Decimal, dt.date, type(None))


@functools.cache
def _field_names(kind: type[Any]) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(kind))


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


def csv_lines(
    fields: Sequence[str], rows: Iterable[Sequence[object]], texts: Sequence[int] | None = None
) -> Iterator[str]:
    """Rows of cells as CSV text, one header line of `fields` first, a few thousand lines at
    a time as the rows come: every CSV the ledger writes, to a terminal, a file or the web.

    A text cell a spreadsheet would run as a formula starts with `'`
    (`ledger.core.printable.spreadsheet_cell`), and a control character stored before the
    ledger refused them is written as its escape. Other cells (numbers, periods, None) are
    written as the csv module writes them: their text, which no formula starts. Where the
    places of the only cells that hold text are known (`texts`), the lines whose texts need
    neither are written as they are, checked a few thousand at once.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(fields)
    chunks = iter(rows)
    while chunk := list(itertools.islice(chunks, _LINES_AT_A_TIME)):
        if texts is None or not _plain(chunk, texts):
            chunk = [[_cell(cell) for cell in row] for row in chunk]
        writer.writerows(chunk)
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    yield out.getvalue()


def _plain(rows: list[Sequence[object]], texts: Sequence[int]) -> bool:
    """Whether the text cells of `rows` (at the places `texts`) need no escape or guard."""
    for place in texts:
        cells: Iterator[Any] = map(itemgetter(place), rows)
        if not plain_cells(filter(None, cells)):
            return False
    return True


def _cell(cell: object) -> object:
    return spreadsheet_cell(escaped(cell)) if isinstance(cell, str) else cell


_LINES_AT_A_TIME = 2_000


def records_csv(records: Sequence[Any], kind: type[Any]) -> str:
    """Records of one dataclass as CSV, with the dataclass's fields as the header."""
    fields = [field.name for field in dataclasses.fields(kind)]
    return to_csv([plain(record) for record in records], fields)
