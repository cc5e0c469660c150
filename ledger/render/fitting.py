"""Tables that fit the terminal with every name whole.

A name is never wrapped or cut short: a table too wide for the terminal leaves out its spare
columns (a peak, the list it was reached on, a movement), the least needed first, until it
fits. Only where the columns that stay leave too little room are names wrapped, at their
spaces (or folded, never cut). A listing whose rows cannot fit at all prints one line per
row instead (`compact`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, JustifyMethod
from rich.table import Column as RichColumn
from rich.text import Text

from ledger.core.printable import escaped
from ledger.render.base import Table

UNBOUNDED = 1_000_000
"""A width no table reaches: Rich measures a table no wider than the width it is given."""


@dataclass(frozen=True, slots=True)
class Column:
    header: str
    justify: JustifyMethod = "left"
    spare: int = 0
    """0: always shown; else the order in which the column is left out of a table too wide
    for the terminal (1 goes first)."""
    name: bool = False
    """It holds names: never wrapped or cut."""
    no_wrap: bool = False


def fitted(
    console: Console,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    *,
    chosen_by: Sequence[Sequence[str]] | None = None,
    squeeze: bool = True,
    **options: Any,
) -> Table:
    """A table of `rows` (a cell for each of `columns`) without the spare columns that would
    make it wider than the console, its names wrapped if it is still too wide and `squeeze`
    (else left too wide, for a `compact` listing instead); `options` are Rich's `Table`
    options. `chosen_by`: the rows that choose the columns (default: `rows`), so that the
    tables of one report, each of some of its rows, show the same columns."""
    shown, fitting = _fitting(console, columns, rows if chosen_by is None else chosen_by, options)
    if fitting is not None and chosen_by is None:
        return fitting
    table = _table(columns, shown, rows, options)
    if not squeeze or fits(console, table):
        return table
    return _table(columns, shown, rows, options, squeezed=True)


def _fitting(
    console: Console,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    options: dict[str, Any],
) -> tuple[list[int], Table | None]:
    """The columns shown: every one, but the spare ones the console is too narrow for; and
    their table, if it was measured and fits (measuring a table measures every cell)."""
    shown = list(range(len(columns)))
    spares = sorted((i for i, column in enumerate(columns) if column.spare), key=_spare(columns))
    for index in spares:
        table = _table(columns, shown, rows, options)
        if fits(console, table):
            return shown, table
        shown.remove(index)
    return shown, None


def fits(console: Console, table: Table) -> bool:
    """Whether `table` prints within the console's width, wrapping only the columns that may
    wrap (not names, nor `no_wrap` columns), each at its spaces."""
    wide = console.options.update_width(UNBOUNDED)
    widths = [_widths(column) for column in table.columns]
    borders_and_padding = console.measure(table, options=wide).maximum - sum(
        widest for _, widest in widths
    )
    needed = sum(
        widest if column.no_wrap else narrowest
        for column, (narrowest, widest) in zip(table.columns, widths, strict=True)
    )
    return borders_and_padding + needed <= console.width


def _widths(column: RichColumn) -> tuple[int, int]:
    """A column's narrowest width (its longest word) and its widest (its longest cell)."""
    texts = [str(column.header), *(str(cell) for cell in column.cells)]
    widest = max(cell_len(text) for text in texts)
    narrowest = max((cell_len(word) for text in texts for word in text.split()), default=0)
    return narrowest, widest


def listing(
    console: Console,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    lines: Sequence[str],
) -> None:
    """A listing (games, the log): its table where that fits without wrapping, else `lines`,
    one for each row (`compact`)."""
    table = fitted(
        console,
        columns,
        rows,
        squeeze=False,
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    if fits(console, table):
        console.print(table)
    else:
        compact(console, lines)


def compact(console: Console, lines: Sequence[str]) -> None:
    """One line for each row, as long as it needs: the terminal, not the ledger, breaks it."""
    for line in lines:
        console.print(Text(escaped(line)), soft_wrap=True)


def _spare(columns: Sequence[Column]) -> Any:
    return lambda index: columns[index].spare


def _table(
    columns: Sequence[Column],
    shown: Sequence[int],
    rows: Sequence[Sequence[str]],
    options: dict[str, Any],
    *,
    squeezed: bool = False,
) -> Table:
    """The table of the `shown` columns; `squeezed`: names may wrap, and they give way first."""
    table = Table(**options)
    for index in shown:
        column = columns[index]
        table.add_column(
            column.header,
            justify=column.justify,
            no_wrap=not squeezed if column.name else column.no_wrap,
            overflow="fold" if column.name else "ellipsis",
        )
    for row in rows:
        table.add_row(*(row[index] for index in shown))
    return table
