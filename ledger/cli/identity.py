"""Player identity: finding players by name or ID, correcting a player's details, merging
two records of one person."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger import queries, render, services
from ledger.cli.options import (
    DbOption,
    FederationOption,
    FormatOption,
    NoteOption,
    OperatorOption,
    PlayerArgument,
    PoolOption,
    ReasonOption,
    now,
    parse_given,
    reading,
    writing,
)
from ledger.cli.usage import Commands
from ledger.core.domain import Pool, parse_period
from ledger.core.records import LARGEST_ID

app = Commands()


@app.command("find")
def find(
    ctx: typer.Context,
    name: Annotated[
        list[str],
        typer.Argument(
            metavar="NAME", help="Words of the name in any order, or a ledger or FIDE ID."
        ),
    ],
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Find players by name (any word order, accents and case ignored, words may be cut
    short) or by ledger or FIDE ID, with their current rating.

    Example: ledger find carl magn
    """
    query = " ".join(name)
    with reading(ctx, db) as session:
        found = queries.find_players(session, query, pool)
    render.found_players(found, query, pool, output)


@app.command("merge-players")
def merge_players(
    ctx: typer.Context,
    keep: Annotated[
        int,
        typer.Argument(metavar="KEEP", min=1, max=LARGEST_ID, help="The ledger ID that stays."),
    ],
    drop: Annotated[
        int,
        typer.Argument(
            metavar="DROP",
            min=1,
            max=LARGEST_ID,
            help="The ledger ID merged into KEEP and removed.",
        ),
    ],
    reason: NoteOption = None,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Merge two records of one person: DROP's games, byes and rating history move to KEEP.

    Example: ledger merge-players 101 205 --reason 'same person, entered twice'
    """
    with writing(ctx, db) as session:
        result = services.merges.merge_players(
            session, keep, drop, now(), services.Author(operator, reason)
        )
    render.merged(result)


@app.command("edit-player")
def edit_player(
    ctx: typer.Context,
    player: PlayerArgument,
    reason: ReasonOption,
    name: Annotated[
        str | None, typer.Option("--name", metavar="NAME", help="The name, e.g. 'Carlsen, Magnus'.")
    ] = None,
    federation: FederationOption = None,
    title: Annotated[
        str | None, typer.Option("--title", metavar="TITLE", help="E.g. GM; '' removes it.")
    ] = None,
    sex: Annotated[str | None, typer.Option("--sex", metavar="M|F")] = None,
    birth_year: Annotated[int | None, typer.Option("--birth-year", metavar="YYYY")] = None,
    fide_id: Annotated[int | None, typer.Option("--fide-id", metavar="ID")] = None,
    carried_from: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="YYYY-MM",
            help="A new federation or title shows from this list on (default: the next list).",
        ),
    ] = None,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Correct a player's details; a new federation or title shows from the next list.

    Example: ledger edit-player 101 --federation ENG --reason 'transfer'
    """
    edit = services.edits.PlayerEdit(
        name,
        federation,
        title,
        sex,
        birth_year,
        fide_id,
        parse_given("from", parse_period, carried_from),
    )
    with writing(ctx, db) as session:
        edited = services.edits.edit_player(
            session, player, edit, now(), services.Author(operator, reason)
        )
    render.edited(edited)
