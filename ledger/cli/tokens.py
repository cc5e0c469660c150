"""`ledger tokens`: personal API tokens, for scripts that send reports or act for an
officer through `/api/v1` (`Authorization: Bearer TOKEN`)."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger import queries, render, services
from ledger.cli.options import DbOption, FormatOption, OperatorOption, now, parse, reading, writing
from ledger.cli.usage import CommandGroup, Commands
from ledger.core.access import Role

app = Commands(
    name="tokens",
    cls=CommandGroup,
    no_args_is_help=True,
    help="API tokens: `ledger tokens add EMAIL --name NAME`, `ledger tokens list`, "
    "`ledger tokens revoke ID`.",
)


@app.command("add")
def tokens_add(
    ctx: typer.Context,
    email: Annotated[str, typer.Argument(metavar="EMAIL", help="The account it acts for.")],
    name: Annotated[str, typer.Option("--name", metavar="NAME", help="What uses it.")],
    role: Annotated[
        str | None,
        typer.Option(
            "--role",
            metavar="organiser|officer",
            help="What it may do, at most the account's role (default: the account's).",
        ),
    ] = None,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Make an API token and print it, once: the ledger keeps only its digest.

    Example: ledger tokens add arbiter@club.org --name 'pairing program'
    """
    given = None if role is None else parse("role", Role.of_account, role)
    with writing(ctx, db) as session:
        token = services.accounts.add_token(
            session, email, name, given, now(), services.Author(operator)
        )
    render.message(token)


@app.command("list")
def tokens_list(
    ctx: typer.Context,
    email: Annotated[
        str | None, typer.Argument(metavar="[EMAIL]", help="Only this account's.")
    ] = None,
    output: FormatOption = render.Format.TABLE,
    db: DbOption = None,
) -> None:
    """List the API tokens (never the tokens themselves), newest first.

    Example: ledger tokens list arbiter@club.org
    """
    with reading(ctx, db) as session:
        account = None if email is None else queries.accounts.account_id(session, email)
        rows = queries.accounts.token_list(session, account)
    render.token_list(rows, output)


@app.command("revoke")
def tokens_revoke(
    ctx: typer.Context,
    token: Annotated[int, typer.Argument(metavar="ID", min=1, help="The token's ID.")],
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Revoke an API token: it no longer opens anything.

    Example: ledger tokens revoke 3
    """
    with writing(ctx, db) as session:
        services.accounts.revoke_token(session, token, now(), services.Author(operator))
    render.message(f"Revoked token {token}.")
