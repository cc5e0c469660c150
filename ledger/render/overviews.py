"""The officer's overviews: the rating periods of a pool, and its events."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box

from ledger.core.domain import Pool
from ledger.queries import EventRow, PeriodRow, plain
from ledger.render.base import (
    Console,
    Format,
    Table,
    message,
    print_csv,
    print_json,
    print_records,
    text,
)


def period_overview(rows: Sequence[PeriodRow], pool: Pool, output: Format) -> None:
    """Every period: open or closed, its games, who published its list and its versions.
    CSV gives the number of versions; JSON each version."""
    if output is Format.JSON:
        print_json([plain(row) for row in rows])
        return
    if output is Format.CSV:
        fields = [name for name in PeriodRow.__dataclass_fields__ if name != "versions"]
        print_csv(
            [
                {name: plain(row)[name] for name in fields} | {"versions": len(row.versions)}
                for row in rows
            ],
            [*fields, "versions"],
        )
        return
    if not rows:
        message(f"No {pool} period holds games or a published list yet.")
        return
    table = Table(
        title=f"{pool.capitalize()} rating periods (times in UTC)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for header in ("Period", "List", "", "Games", "Rated", "Published", "By", "Versions"):
        table.add_column(header, justify="right" if header in ("Games", "Rated") else "left")
    for row in rows:
        with_ = f" with {row.published_with}" if row.published_with else ""
        table.add_row(
            str(row.period),
            row.list_name,
            "closed" if row.closed else "open",
            str(row.games),
            str(row.games_rated),
            f"{row.closed_at:%Y-%m-%d %H:%M}{with_}" if row.closed_at else "",
            text(row.closed_by),
            _versions(row),
        )
    Console().print(table)


def _versions(row: PeriodRow) -> str:
    if not row.versions:
        return ""
    shown = str(len(row.versions))
    return f"{shown} (withdrawn)" if any(each.withdrawn for each in row.versions) else shown


def event_listing(rows: Sequence[EventRow], pool: Pool, output: Format) -> None:
    """The events, latest first, with their players, games, category and rated status."""
    if print_records(rows, EventRow, output):
        return
    if not rows:
        message(f"No {pool} event matches.")
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for header in ("Event", "Dates", "Players", "Games", "Avg", "Cat", "Rated"):
        table.add_column(
            header, justify="left" if header in ("Event", "Dates", "Rated") else "right"
        )
    for row in rows:
        dates = (
            str(row.start_date)
            if row.start_date == row.end_date
            else f"{row.start_date} to {row.end_date}"
        )
        table.add_row(
            row.name,
            dates,
            str(row.players),
            str(row.games),
            text(row.average_rating),
            text(row.category),
            "rated" if row.rated else f"open ({row.period})",
        )
    Console().print(table)
