"""Corrections and re-rates, the differences between two versions of a list, and the log."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box

from ledger.core.domain import Pool
from ledger.core.printable import counted
from ledger.queries import ChangedRow, ListDiff, LogRecord, plain
from ledger.render.base import Console, Format, Table, message, print_json, print_records
from ledger.render.fitting import Column, fitted, listing
from ledger.services.corrections import GameCorrected, Rerated


def corrected(outcome: GameCorrected) -> None:
    what = (
        f"Game {outcome.game_id} deleted (it was {outcome.old_result})"
        if outcome.new_result is None
        else f"Game {outcome.game_id} corrected: {outcome.old_result} -> {outcome.new_result}"
    )
    if outcome.rerated is None:
        message(f"{what}; {outcome.pool} period {outcome.period} is open, nothing to re-rate.")
        return
    message(f"{what}.")
    rerated(outcome.rerated)


def rerated(outcome: Rerated, *, checked: bool = False) -> None:
    """The lists a re-rate published, and how to see what changed; `checked`: the lists a
    late file's re-rate would publish, tried and rolled back."""
    rated = (
        f"{counted(outcome.games_rated, 'game')} rated, "
        f"{counted(outcome.players_rated, 'player')} rated"
    )
    if checked:
        lists = ", ".join(map(str, outcome.versions)) or "none (each would come out the same)"
        message(f"It would re-rate {outcome.pool}: {rated}; new versions of the lists of: {lists}.")
        return
    if not outcome.versions:
        message(
            f"Re-rated {outcome.pool}: {rated}; every list came out as it was published, so "
            "nothing was published."
        )
        return
    lists = ", ".join(f"{period} (version {number})" for period, number in outcome.versions.items())
    message(f"Re-rated {outcome.pool}: {rated}; lists published: {lists}.")
    first = min(outcome.versions)
    message(f"What changed: `ledger diff --period {first}`; the log: `ledger log`.")


def list_diff(diff: ListDiff, output: Format) -> None:
    """The counts, then each changed player's old and new figures."""
    if output is Format.JSON:
        print_json(plain(diff))
        return
    if print_records(diff.changed, ChangedRow, output):
        return
    message(
        f"{diff.pool.capitalize()} list {diff.period}: {diff.old.label} "
        f"({diff.old.published_at:%Y-%m-%d %H:%M}) -> {diff.new.label} "
        f"({diff.new.published_at:%Y-%m-%d %H:%M})"
    )
    message(
        f"{len(diff.new_players)} new, {len(diff.removed_players)} removed, "
        f"{len(diff.changed)} changed, {diff.unchanged} unchanged."
    )
    for reason in diff.reasons:
        message(f"Reason: {reason}")
    for label, players in (("New", diff.new_players), ("Removed", diff.removed_players)):
        if players:
            message(f"{label}: {', '.join(str(each) for each in players)}")
    if diff.changed:
        console = Console()
        console.print(_changed_table(console, diff.changed))


_CHANGED_COLUMNS = (
    Column("ID", "right"),
    Column("Name", name=True),
    Column("Rating", "right", no_wrap=True),
    Column("+/-", "right", spare=2, no_wrap=True),
    Column("Gms", "right", spare=1, no_wrap=True),
)


def _changed_table(console: Console, changed: Sequence[ChangedRow]) -> Table:
    rows = [
        (
            str(row.id),
            row.name,
            f"{row.old_rating} -> {row.new_rating}",
            f"{_change(row.old_change)} -> {_change(row.new_change)}",
            f"{row.old_games} -> {row.new_games}",
        )
        for row in changed
    ]
    return fitted(
        console, _CHANGED_COLUMNS, rows, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True
    )


def _change(change: int | None) -> str:
    return "new" if change is None else f"{change:+d}" if change else "0"


_LOG_COLUMNS = (
    Column("#", "right", no_wrap=True),
    Column("At (UTC)", no_wrap=True),
    Column("Operator", no_wrap=True),
    Column("Action", no_wrap=True),
    Column("Period", no_wrap=True),
    Column("Reason", no_wrap=True),
    Column("Summary", no_wrap=True),
)


def log_records(records: Sequence[LogRecord], output: Format) -> None:
    """The log as a table where it fits the terminal, else one line a change."""
    if print_records(records, LogRecord, output, not_in_csv=("counts",)):
        return
    if not records:
        message("The log is empty.")
        return
    rows = [_log_cells(record) for record in records]
    listing(Console(), _LOG_COLUMNS, rows, [_log_line(cells) for cells in rows])


def _log_cells(record: LogRecord) -> tuple[str, ...]:
    where = str(record.period or "")
    if record.pool not in (None, Pool.STANDARD):
        where = f"{where} {record.pool}".strip()
    return (
        str(record.id),
        f"{record.at:%Y-%m-%d %H:%M}",
        record.operator,
        record.action,
        where,
        record.reason or "",
        record.summary,
    )


def _log_line(cells: tuple[str, ...]) -> str:
    """A change on one line: "3  2026-11-03 10:15  alice  close 2026-10: games rated 49; ...
    (why: wrong result)"."""
    number, at, operator, action, where, reason, summary = cells
    what = " ".join(part for part in (action, where) if part)
    why = f" (why: {reason})" if reason else ""
    return f"{number:>3}  {at}  {operator}  {what}: {summary}{why}"
