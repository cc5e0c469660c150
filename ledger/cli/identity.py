"""Player identity: finding players by name or ID, merging two records of one person."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger import queries, render
from ledger.cli.options import (
    DbOption,
    FormatOption,
    NoteOption,
    OperatorOption,
    PoolOption,
    now,
    reading,
    writing,
)
from ledger.core.domain import Pool
from ledger.services import merges
from ledger.services.activity import Author

app = typer.Typer()


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
    short) or by ledger or FIDE ID, with their current rating."""
    query = " ".join(name)
    with reading(ctx, db) as session:
        found = queries.find_players(session, query, pool)
    render.found_players(found, query, pool, output)


@app.command("merge-players")
def merge_players(
    ctx: typer.Context,
    keep: Annotated[int, typer.Argument(metavar="KEEP", help="The ledger ID that stays.")],
    drop: Annotated[
        int, typer.Argument(metavar="DROP", help="The ledger ID merged into KEEP and removed.")
    ],
    reason: NoteOption = None,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Merge two records of one person: DROP's games, byes and rating history move to KEEP."""
    with writing(ctx, db) as session:
        result = merges.merge_players(session, keep, drop, now(), Author(operator, reason))
    render.merged(result)
