"""Everything the ledger prints: Rich tables, CSV and JSON. The only module that uses Rich.

Tables go to stdout and hold nothing but the table; messages go to stdout as plain lines,
errors to stderr.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import sys
from collections.abc import Sequence
from enum import StrEnum

from rich.console import Console, JustifyMethod
from rich.table import Table

from ledger.queries import ListRow, RatingList
from ledger.services.closing import ClosedPeriod


class Format(StrEnum):
    TABLE = "table"
    CSV = "csv"
    JSON = "json"


LIST_FIELDS = tuple(field.name for field in dataclasses.fields(ListRow))


def message(text: str) -> None:
    print(text)


def error(text: str) -> None:
    print(f"error: {text}", file=sys.stderr)


def rating_list(published: RatingList, output: Format) -> None:
    """A published list as a table, CSV (one header line) or a JSON array of objects."""
    rows = [dataclasses.asdict(row) for row in published.rows]
    if output is Format.JSON:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    elif output is Format.CSV:
        writer = csv.DictWriter(sys.stdout, fieldnames=LIST_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    else:
        Console().print(_list_table(published))


def _list_table(published: RatingList) -> Table:
    table = Table(
        title=f"{published.pool.capitalize()} rating list {published.period}",
        title_justify="left",
        pad_edge=False,
    )
    for header, justify in _LIST_COLUMNS:
        table.add_column(header, justify=justify, no_wrap=header != "Name")
    for row in published.rows:
        table.add_row(*_list_cells(row))
    return table


_LIST_COLUMNS: Sequence[tuple[str, JustifyMethod]] = (
    ("#", "right"),
    ("ID", "right"),
    ("Name", "left"),
    ("Tit", "left"),
    ("Fed", "left"),
    ("Born", "right"),
    ("Rating", "right"),
    ("+/-", "right"),
    ("Gms", "right"),
    ("K", "right"),
    ("Flag", "left"),
)


def _list_cells(row: ListRow) -> tuple[str, ...]:
    return (
        str(row.rank),
        str(row.id),
        row.name,
        row.title or "",
        row.federation or "",
        _text(row.birth_year),
        str(row.rating),
        "new" if row.change is None else f"{row.change:+d}" if row.change else "0",
        str(row.games),
        str(row.k),
        row.flag,
    )


def _text(value: object) -> str:
    return "" if value is None else str(value)


def closed(summary: ClosedPeriod) -> None:
    """What a close published, in a few plain lines."""
    *empty, period = summary.periods
    if empty:
        listed = ", ".join(str(p) for p in empty)
        print(f"Closed {listed} (no games; lists published unchanged).")
    print(
        f"Closed {summary.pool} period {period}: {summary.games_rated} games rated, "
        f"{summary.games_unrated} not rated; {summary.players_rated} players rated, "
        f"{summary.newly_rated} newly rated, {summary.unrated_by_floor} fell below the floor."
    )
    print(f"The list effective {(period + 1)}-01 is published: `ledger list --period {period}`.")
