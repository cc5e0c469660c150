"""The recorded games, with whether and why each was rated."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box

from ledger.queries import ListedGame
from ledger.render.base import Console, Format, Table, message, print_records


def game_listing(games: Sequence[ListedGame], output: Format) -> None:
    if print_records(games, ListedGame, output):
        return
    if not games:
        message("No games match.")
    else:
        Console().print(_games_table(games))


def _games_table(games: Sequence[ListedGame]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for header, justify in (
        ("ID", "right"),
        ("Date", "left"),
        ("Event", "left"),
        ("Rd", "right"),
        ("White", "left"),
        ("Black", "left"),
        ("Result", "left"),
        ("Rated", "left"),
    ):
        table.add_column(header, justify=justify)  # type: ignore[arg-type]
    for game in games:
        table.add_row(
            str(game.id),
            str(game.date),
            game.event or "",
            str(game.round or ""),
            f"{game.white_name} ({game.white})",
            f"{game.black_name} ({game.black})",
            game.result,
            game.rated,
        )
    return table
