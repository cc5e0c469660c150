"""Player identity: finding players by name or ID, merging two records of one person."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger import people, render
from ledger.cli.options import (
    DbOption,
    FormatOption,
    NoteOption,
    OperatorOption,
    PoolOption,
    log,
    now,
    open_ledger,
    parse,
)
from ledger.domain import Pool
from ledger.services import merges

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
    pool: PoolOption = "standard",
    db: DbOption = None,
) -> None:
    """Find players by name (any word order, accents and case ignored, words may be cut
    short) or by ledger or FIDE ID, with their current rating."""
    query = " ".join(name)
    the_pool = parse("pool", Pool.parse, pool)
    with open_ledger(ctx, db) as ledger, ledger.reading() as session:
        found = people.find_players(session, query, the_pool)
    render.found_players(found, query, the_pool, output)


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
    with open_ledger(ctx, db) as ledger, ledger.transaction() as session:
        result = merges.merge_players(session, keep, drop, now())
        log(session, "merge", result, operator, reason=reason)
    render.merged(result)
