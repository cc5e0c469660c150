"""Corrections and re-rates, the differences between two versions of a list, and the log."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box

from ledger.core.domain import Pool
from ledger.queries import ChangedRow, ListDiff, LogRecord, plain
from ledger.render.base import Console, Format, Table, message, print_json, print_records
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


def rerated(outcome: Rerated) -> None:
    """The lists a re-rate published, and how to see what changed."""
    lists = ", ".join(f"{period} (version {number})" for period, number in outcome.versions.items())
    message(
        f"Re-rated {outcome.pool}: {outcome.games_rated} games rated, "
        f"{outcome.players_rated} players rated; lists published: {lists}."
    )
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
    for label, players in (("New", diff.new_players), ("Removed", diff.removed_players)):
        if players:
            message(f"{label}: {', '.join(str(each) for each in players)}")
    if diff.changed:
        Console().print(_changed_table(diff.changed))


def _changed_table(changed: Sequence[ChangedRow]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for header, justify in (
        ("ID", "right"),
        ("Name", "left"),
        ("Rating", "right"),
        ("+/-", "right"),
        ("Gms", "right"),
    ):
        table.add_column(header, justify=justify)  # type: ignore[arg-type]
    for row in changed:
        table.add_row(
            str(row.id),
            row.name,
            f"{row.old_rating} -> {row.new_rating}",
            f"{_change(row.old_change)} -> {_change(row.new_change)}",
            f"{row.old_games} -> {row.new_games}",
        )
    return table


def _change(change: int | None) -> str:
    return "new" if change is None else f"{change:+d}" if change else "0"


_LOG_COLUMNS = (
    ("#", True),
    ("At (UTC)", True),
    ("Operator", False),
    ("Action", True),
    ("Period", True),
    ("Reason", False),
    ("Summary", False),
)


def log_records(records: Sequence[LogRecord], output: Format) -> None:
    if print_records(records, LogRecord, output):
        return
    if not records:
        message("The log is empty.")
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for header, no_wrap in _LOG_COLUMNS:
        table.add_column(header, justify="right" if header == "#" else "left", no_wrap=no_wrap)
    for record in records:
        where = str(record.period or "")
        if record.pool not in (None, Pool.STANDARD):
            where = f"{where} {record.pool}".strip()
        table.add_row(
            str(record.id),
            f"{record.at:%Y-%m-%d %H:%M}",
            record.operator,
            record.action,
            where,
            record.reason or "",
            record.summary,
        )
    Console().print(table)
