"""Rating lists and the close's summary."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rich import box

from ledger.core import compression
from ledger.core.printable import counted
from ledger.queries import ListRow, RatingList
from ledger.queries.lists.whole import CELL_NAMES, TEXT_CELLS, Cells
from ledger.render.base import (
    Console,
    Table,
    list_text,
    message,
    pool_option,
    stream_csv,
    stream_json,
)
from ledger.render.fitting import Column, fitted

if TYPE_CHECKING:  # a close's summary is printed only by the commands that close
    from ledger.services.closing import ClosedPeriod


def rating_list(published: RatingList) -> None:
    """A published list as a table, the rows numbered by position, as rating tables do
    (CSV and JSON, `list_csv` and `list_json`, also give the rank equal ratings share); a
    filtered one shows the world position and movement in place of the list each peak was
    reached on."""
    if not published.rows:
        passes = " passes the filter" if published.filtered else " is on it"
        message(f"No player of the {_short_name(published)}{passes}.")
        return
    console = Console()
    console.print(_list_table(console, published))


def list_csv(rows: Iterable[Cells]) -> None:
    """A list's rows (`queries.list_cells`) as CSV, one header line of `ListRow`'s fields,
    written as they are read."""
    stream_csv(CELL_NAMES, rows, TEXT_CELLS)


def list_json(rows: Iterable[Cells]) -> None:
    """A list's rows (`queries.list_cells`) as a JSON array of objects with `ListRow`'s
    fields, as `to_json` writes a list's rows, written as they are read."""
    stream_json(dict(zip(CELL_NAMES, row, strict=True)) for row in rows)


def _list_table(console: Console, published: RatingList) -> Table:
    """The list's table; on a narrow terminal without the columns names do not fit beside
    (the list each peak was reached on, the peak, movement, flag, games, K, world position)."""
    first = (_POSITION, _WORLD) if published.filtered else (_POSITION,)
    shown = _LIST_COLUMNS[:-1] if published.filtered else _LIST_COLUMNS
    rows = [
        (
            str(row.position),
            *((_world_cell(row),) if published.filtered else ()),
            *_list_cells(row)[: len(shown)],
        )
        for row in published.rows
    ]
    return fitted(
        console,
        (*first, *shown),
        rows,
        title=_title(published),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )


def _short_name(published: RatingList) -> str:
    if published.live_since is not None:
        return f"{published.pool} live list"
    version = f", version {published.version.number}," if published.version else ""
    return f"{published.pool} list {list_text(published.period)}{version}"


def _title(published: RatingList) -> str:
    pool = published.pool.capitalize()
    if published.live_since is not None:
        return (
            f"{pool} live rating list, UNOFFICIAL: the list of {list_text(published.live_since)} "
            f"with the games recorded since, rated as their closes would rate them"
        )
    version = f", {published.version.label}" if published.version else ""
    return f"{pool} rating list {list_text(published.period)}{version}"


def _world_cell(row: ListRow) -> str:
    """The position on the whole list, and its movement where it moved: "12↑3" (never "12=",
    which reads as a shared rank)."""
    moved = movement(row.world_movement) if row.world_movement else ""
    return f"{row.world_position}{moved}"


_POSITION = Column("#", "right", no_wrap=True)
_WORLD = Column("World", "right", spare=7, no_wrap=True)
_LIST_COLUMNS: Sequence[Column] = (
    Column("ID", "right", no_wrap=True),
    Column("Name", name=True),
    Column("Tit", no_wrap=True),
    Column("Fed", no_wrap=True),
    Column("Rating", "right", no_wrap=True),
    Column("+/-", "right", no_wrap=True),
    Column("Move", "right", spare=3, no_wrap=True),
    Column("Gms", "right", spare=5, no_wrap=True),
    Column("K", "right", spare=6, no_wrap=True),
    Column("Fl", spare=4, no_wrap=True),
    Column("Peak", "right", spare=2, no_wrap=True),
    Column("on", spare=1, no_wrap=True),
)


def _list_cells(row: ListRow) -> tuple[str, ...]:
    return (
        str(row.id),
        row.name,
        row.title or "",
        row.federation or "",
        str(row.rating),
        "new" if row.change is None else f"{row.change:+d}" if row.change else "0",
        movement(row.movement),
        str(row.games),
        str(row.k),
        row.flag,
        str(row.peak),
        row.peak_period.list_name if row.peak_period else "-",
    )


def movement(places: int | None) -> str:
    """Movement in positions against the previous list: ↑3, ↓1, = or new."""
    if places is None:
        return "new"
    if places == 0:
        return "="
    return f"↑{places}" if places > 0 else f"↓{-places}"


def closed(summary: ClosedPeriod) -> None:
    """What a close published, in a few plain lines."""
    *empty, period = summary.periods
    if empty:
        listed = ", ".join(str(p) for p in empty)
        print(f"Closed {listed} (no games; lists published unchanged).")
    print(
        f"Closed {summary.pool} period {period}: {counted(summary.games_rated, 'game')} rated, "
        f"{summary.games_unrated} not rated; {counted(summary.players_rated, 'player')} rated, "
        f"{summary.newly_rated} newly rated, {summary.unrated_by_floor} fell below the floor."
    )
    print(f"The list effective {(period + 1)}-01 is published: `ledger list --period {period}`.")
    if summary.awaiting_compression:
        pool = pool_option(summary.pool)
        print(
            f"{compression.awaiting_in_words(summary.awaiting_compression)} "
            f"{'is' if summary.awaiting_compression == 1 else 'are'} "
            f"below this list's new floor of {compression.NEW_FLOOR} until it is compressed as "
            "FIDE did on 1 March 2024: run "
            f"`ledger compress-ratings --period {period}{pool}` next."
        )
