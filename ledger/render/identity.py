"""Player searches (`find`), corrections of a player's details (`edit-player`) and merges
(`merge-players`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box

from ledger.core.domain import Pool
from ledger.core.printable import counted
from ledger.queries import FIND_LIMIT, FoundPlayer
from ledger.render.base import Console, Format, Table, message, print_records, text
from ledger.render.fitting import Column, fitted
from ledger.services.edits import PlayerEdited
from ledger.services.merges import PlayerMerged


def found_players(found: Sequence[FoundPlayer], query: str, pool: Pool, output: Format) -> None:
    """The players a search found, as a table, CSV (one header line) or a JSON array."""
    if print_records(found, FoundPlayer, output):
        return
    if not found:
        message(f'No player matches "{query}"; try fewer or shorter words, or an ID.')
    else:
        console = Console()
        console.print(_found_table(console, found, query, pool))


def _found_table(console: Console, found: Sequence[FoundPlayer], query: str, pool: Pool) -> Table:
    """The players found; a narrow terminal leaves out the FIDE ID, then the birth year."""
    more = len(found) >= FIND_LIMIT
    columns = (
        Column("ID", "right"),
        Column("FIDE ID", "right", spare=1),
        Column("Name", name=True),
        Column("Fed"),
        Column("Born", "right", spare=2),
        Column(pool.capitalize(), "right"),
    )
    rows = [
        (
            str(player.id),
            text(player.fide_id),
            player.name,
            text(player.federation),
            text(player.birth_year),
            text(player.rating) or "unrated",
        )
        for player in found
    ]
    return fitted(
        console,
        columns,
        rows,
        title=f'Players matching "{query}"',
        title_justify="left",
        caption=f"The first {FIND_LIMIT}; add words to narrow the search." if more else None,
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )


_FIELD_NAMES = {
    "fide_id": "FIDE ID",
    "federation": "federation",
    "sex": "sex",
    "title": "title",
    "women_title": "women's title",
    "other_titles": "other titles",
    "foa_title": "FOA title",
    "birth_year": "birth year",
}


def merged(result: PlayerMerged) -> None:
    """What a merge moved, in one line."""
    moved = [
        counted(result.games_moved, "game"),
        counted(result.byes_moved, "bye"),
        counted(result.entries_moved, "list entry", "list entries"),
    ]
    if result.pools:
        moved.append(f"the {' and '.join(result.pools)} rating history")
    filled = _and([_FIELD_NAMES[name] for name in result.filled])
    message(
        f"Merged player {result.dropped_id} ({result.dropped_name}) into {result.kept_id} "
        f"({result.kept_name}): moved {_and(moved)}"
        + (f"; {result.kept_id} took its {filled}." if filled else ".")
    )


def _and(items: Sequence[str]) -> str:
    """The items joined with commas and a last "and": "a, b and c"."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def edited(result: PlayerEdited) -> None:
    """What an edit changed, from which list, and the lists it changed or re-rated."""
    message(f"Player {result.player_id} ({result.name}): {result.changed}.")
    if result.carried_from is not None:
        message(f"The new federation or title shows from the list of {result.carried_from} on.")
    elif result.new_details:
        message(
            "The new federation or title shows from the next list; published lists keep theirs."
        )
    if result.affects != "none":
        message(f"Lists changed: {result.affects}.")
    for pool, versions in result.rerated.items():
        lists = ", ".join(f"{period} (version {number})" for period, number in versions.items())
        message(f"Re-rated {pool} for the K of the corrected birth year: {lists}.")
