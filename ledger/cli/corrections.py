"""Corrections to published lists and their record: correcting or deleting a game,
re-rating from a period, comparing two versions of a list, and the ledger's log."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger import queries, render, services
from ledger.cli.options import (
    DbOption,
    FormatOption,
    OperatorOption,
    PoolOption,
    ReasonOption,
    now,
    parse,
    reading,
    writing,
)
from ledger.cli.progress import progress
from ledger.cli.usage import Commands
from ledger.core.domain import GameResult, Pool, parse_period
from ledger.core.records import LARGEST_ID

app = Commands()

GameArgument = Annotated[
    int,
    typer.Argument(metavar="GAME", min=1, max=LARGEST_ID, help="The game's ID (`ledger games`)."),
]


@app.command("correct-game")
def correct_game(
    ctx: typer.Context,
    game: GameArgument,
    result: Annotated[
        str,
        typer.Option(
            "--result",
            metavar="RESULT",
            help="The right result: 1-0, 0-1, 1/2-1/2 (½-½, =); forfeits +/-, -/+ or -/-.",
        ),
    ],
    reason: ReasonOption,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Correct a game's result; a game of a closed period is re-rated with every later list.

    Example: ledger correct-game 17 --result 0-1 --reason 'arbiter report'
    """
    the_result = parse("result", GameResult.parse, result)
    with progress() as shown, writing(ctx, db) as session:
        by = services.Author(operator, reason)
        corrected = services.corrections.correct_game(session, game, the_result, now(), by, shown)
    render.corrected(corrected)


@app.command("delete-game")
def delete_game(
    ctx: typer.Context,
    game: GameArgument,
    reason: ReasonOption,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Delete a game; a game of a closed period is re-rated with every later list.

    Example: ledger delete-game 17 --reason 'game not played'
    """
    with progress() as shown, writing(ctx, db) as session:
        by = services.Author(operator, reason)
        deleted = services.corrections.delete_game(session, game, now(), by, shown)
    render.corrected(deleted)


@app.command("rerate")
def rerate(
    ctx: typer.Context,
    start: Annotated[
        str, typer.Option("--from", metavar="YYYY-MM", help="The first closed period to re-rate.")
    ],
    reason: ReasonOption,
    operator: OperatorOption = None,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Re-rate a closed period and every later one, publishing each list's next version.

    Example: ledger rerate --from 2026-09 --reason 'corrected K factors'
    """
    the_period = parse("from", parse_period, start)
    with progress() as shown, writing(ctx, db) as session:
        by = services.Author(operator, reason)
        rerated = services.corrections.rerate(session, pool, the_period, now(), by, shown)
    render.rerated(rerated)


@app.command("diff")
def diff(
    ctx: typer.Context,
    period: Annotated[str, typer.Option("--period", metavar="YYYY-MM", help="The list's period.")],
    from_version: Annotated[
        int | None,
        typer.Option(
            "--from-version",
            metavar="N",
            min=1,
            max=LARGEST_ID,
            help="Default: the version before the current.",
        ),
    ] = None,
    to_version: Annotated[
        int | None,
        typer.Option(
            "--to-version", metavar="N", min=1, max=LARGEST_ID, help="Default: the current version."
        ),
    ] = None,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """What a re-rate changed on a list: players new, removed, changed and unchanged.

    Example: ledger diff --period 2026-10
    """
    the_period = parse("period", parse_period, period)
    with reading(ctx, db) as session:
        changes = queries.list_diff(session, pool, the_period, from_version, to_version)
    render.list_diff(changes, output)


@app.command("log")
def log_(
    ctx: typer.Context,
    limit: Annotated[
        int | None,
        typer.Option("--limit", metavar="N", min=1, max=LARGEST_ID, help="The newest N."),
    ] = None,
    action: Annotated[
        str | None,
        typer.Option(
            "--action",
            metavar="ACTION",
            help="Only one kind: close, rerate, reopen, add-player, add-game, correct-game, "
            "delete-game, late-game, edit-player, merge, import-players, import-games, "
            "import-pgn, import-trf or import-fide-list.",
        ),
    ] = None,
    output: FormatOption = render.Format.TABLE,
    db: DbOption = None,
) -> None:
    """Every close, re-rate, reopen, correction, import and merge, newest first.

    Example: ledger log --limit 10 --action close --format json
    """
    with reading(ctx, db) as session:
        records = queries.log_records(session, limit, action)
    render.log_records(records, output)
