"""What the imports say when they are done, and their warnings; what a FIDE list file left
out."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ledger.core.printable import counted, escaped
from ledger.core.records import FileWarning
from ledger.render.base import message
from ledger.render.corrections import rerated
from ledger.services.imports import ImportSummary, PgnImport
from ledger.services.list_imports import FideListImport
from ledger.services.tournaments import TournamentImport

MOST_WARNINGS = 20


def file_imported(summary: ImportSummary, *, checked: bool = False) -> None:
    rows = counted(summary.rows, summary.kind.removesuffix("s"))
    if checked:
        message(f"{summary.file_name} is ready to import: {rows}. Nothing was written.")
    else:
        message(f"Imported {rows} from {summary.file_name}.")


def tournament_imported(summary: TournamentImport, *, checked: bool) -> None:
    games = summary.games_to_rate + summary.games_not_rated
    what = (
        f"event {summary.event!r} ({summary.pool}, period {summary.period}): "
        f"{counted(summary.players_matched + summary.players_created, 'player')} "
        f"({summary.players_matched} matched, {summary.players_created} new), "
        f"{counted(games, 'game')} ({summary.games_to_rate} to rate, "
        f"{summary.games_not_rated} not rated), {counted(summary.byes, 'bye')}"
    )
    if checked:
        message(f"{summary.file_name} is ready to import: {what}. Nothing was written.")
    else:
        verb = "Replaced" if summary.replaced else "Imported"
        message(f"{verb} {what} from {summary.file_name}.")
    file_warnings(summary.warnings)
    warnings(summary.duplicates)
    if summary.rerated is not None:
        rerated(summary.rerated, checked=checked)


def pgn_imported(summary: PgnImport, *, checked: bool = False) -> None:
    games = f"{counted(summary.games, 'game')} in {counted(summary.events, 'event')}"
    players = f"{counted(summary.players_matched, 'player')} matched, {summary.players_created} new"
    if checked:
        message(
            f"{summary.file_name} is ready to import: {games} ({players}). Nothing was written."
        )
    else:
        message(f"Imported {games} from {summary.file_name}: {players}.")
    file_warnings(summary.warnings)
    warnings(summary.duplicates)
    if summary.rerated is not None:
        rerated(summary.rerated, checked=checked)


def fide_list_imported(summary: FideListImport) -> None:
    rated = ", ".join(f"{summary.rated.get(pool, 0)} {pool}" for pool in summary.pools)
    players = summary.players_created + summary.players_updated
    message(
        f"Published {summary.file_name} as the list of {summary.period}: "
        f"{counted(players, 'player')} ({summary.players_created} new, "
        f"{summary.players_updated} updated); ratings: {rated}."
    )
    if summary.skipped:
        warnings([f"skipped {line}" for line in summary.skipped])
    warnings(summary.duplicates)


def fide_list_left_out(count: int) -> None:
    """On stderr, so a list written to the terminal stays whole: the players a FIDE list file
    left out, why, and the file that holds them."""
    if count:
        were = "was" if count == 1 else "were"
        print(
            f"warning: {counted(count, 'player')} without a FIDE ID {were} left out: FIDE's "
            "layout lists players by FIDE ID. `--ids ledger` writes the same layout with the "
            "ledger's IDs, every player in it (a national list).",
            file=sys.stderr,
        )


def file_warnings(found: Sequence[FileWarning]) -> None:
    """A file's warnings on stderr, every one with its line: each is a field the file's
    reader left empty or read otherwise, which the user may want to correct."""
    for warning in found:
        print(f"warning: {escaped(str(warning))}", file=sys.stderr)


def warnings(lines: list[str]) -> None:
    """Warnings on stderr, at most `MOST_WARNINGS` of them and how many more there are."""
    for line in lines[:MOST_WARNINGS]:
        print(f"warning: {escaped(line)}", file=sys.stderr)
    if len(lines) > MOST_WARNINGS:
        print(f"warning: ... and {len(lines) - MOST_WARNINGS} more.", file=sys.stderr)
