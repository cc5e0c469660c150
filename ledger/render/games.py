"""The recorded games, with whether and why each was rated."""

from __future__ import annotations

from collections.abc import Sequence

from ledger.queries import ListedGame
from ledger.render.base import Console, Format, message, print_records
from ledger.render.fitting import Column, listing


def game_listing(games: Sequence[ListedGame], output: Format) -> None:
    """The games as a table: on a narrow terminal without the event, then the round, then the
    date (one line a game still), so that the players' names stay whole; where even then
    they do not fit beside each other, one line of text a game."""
    if print_records(games, ListedGame, output):
        return
    if not games:
        message("No games match.")
        return
    rows = [_cells(game) for game in games]
    listing(Console(), _GAME_COLUMNS, rows, [_line(game) for game in games])


_GAME_COLUMNS = (
    Column("ID", "right", no_wrap=True),
    Column("Date", spare=3, no_wrap=True),
    Column("Event", spare=1),
    Column("Rd", "right", spare=2, no_wrap=True),
    Column("White", name=True),
    Column("Black", name=True),
    Column("Result", no_wrap=True),
    Column("Rated"),
)


def _cells(game: ListedGame) -> tuple[str, ...]:
    return (
        str(game.id),
        str(game.date),
        game.event or "",
        str(game.round or ""),
        f"{game.white_name} ({game.white})",
        f"{game.black_name} ({game.black})",
        game.result,
        game.rated,
    )


def _line(game: ListedGame) -> str:
    """A game on one line: "17  2026-10-03  White (1) 1-0 Black (2)  rated  Event, round 3"."""
    where = ", ".join(
        part for part in (game.event, f"round {game.round}" if game.round else None) if part
    )
    return (
        f"{game.id:>3}  {game.date}  {game.white_name} ({game.white}) {game.result} "
        f"{game.black_name} ({game.black})  {game.rated}{'  ' + where if where else ''}"
    )
