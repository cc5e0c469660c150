"""`ledger db`: the database schema."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ledger import queries, render
from ledger.cli.options import DbOption, database_url, reading
from ledger.cli.usage import CommandGroup, Commands
from ledger.core.errors import LedgerError
from ledger.storage import backup, database

app = Commands(
    name="db",
    cls=CommandGroup,
    no_args_is_help=True,
    help="The database: `ledger db upgrade`, `ledger db current`, `ledger db backup FILE`, "
    "`ledger db check`.",
)


@app.command("upgrade")
def db_upgrade(ctx: typer.Context, db: DbOption = None) -> None:
    """Bring the database schema to this ledger's newest revision.

    Example: ledger db upgrade --db postgresql+psycopg://ledger@localhost/ledger
    """
    before, after = database.upgrade_schema(database_url(ctx, db))
    if before == after:
        render.message(f"The schema is already at the newest revision, {after}.")
    else:
        render.message(f"Upgraded the schema from {before or 'empty'} to {after}.")


@app.command("current")
def db_current(ctx: typer.Context, db: DbOption = None) -> None:
    """Show the database's schema revision and the newest one this ledger knows.

    Example: ledger db current --db sqlite:///club.db
    """
    current, head = database.current_revision(database_url(ctx, db))
    state = "up to date" if current == head else "run `ledger db upgrade`"
    render.message(f"{current} (newest: {head}; {state})")


@app.command("backup")
def db_backup(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE", help="The new backup file.")],
    db: DbOption = None,
) -> None:
    """Copy a SQLite ledger to FILE while it stays in use; for PostgreSQL, show the pg_dump
    command that does it.

    Example: ledger db backup ledger-2026-11-01.db
    """
    command = backup.backup(database_url(ctx, db), file)
    if command is None:
        render.message(f"Backed up the ledger to {file}.")
    else:
        render.message(f"Back up a PostgreSQL ledger with pg_dump:\n  {command}")


@app.command("check")
def db_check(ctx: typer.Context, db: DbOption = None) -> None:
    """Check that the ledger agrees with itself: periods closed in order, every rated game
    recorded, each list row's arithmetic, each player's standing; and list the games to
    review: a game recorded twice, a player's two games in one round.

    Example: ledger db check --db sqlite:///club.db
    """
    with reading(ctx, db) as session:
        problems = queries.check_ledger(session)
        to_review = queries.games_to_review(session)
    for line in problems + to_review:
        render.message(line)
    if problems:
        raise LedgerError(f"the ledger disagrees with itself in {len(problems)} places (above).")
    if to_review:
        findings = f"{len(to_review)} finding{'' if len(to_review) == 1 else 's'}"
        render.message(
            f"The ledger agrees with itself; {findings} to review (above): a game recorded "
            "twice is deleted with `ledger delete-game GAME`, one played again (recorded with "
            "--allow-repeat) stays."
        )
        return
    render.message("The ledger agrees with itself: no problems found.")
