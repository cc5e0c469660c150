"""`ledger users`: the accounts that sign in to the ledger's site. The first officer is made
here, since nothing on the web can make an account without an officer signed in."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger import queries, render, services
from ledger.cli.options import DbOption, FormatOption, OperatorOption, now, parse, reading, writing
from ledger.cli.usage import CommandGroup, Commands
from ledger.core.access import Role

app = Commands(
    name="users",
    cls=CommandGroup,
    no_args_is_help=True,
    help="The site's accounts: `ledger users add EMAIL`, `ledger users list`, "
    "`ledger users disable EMAIL`, `ledger users role EMAIL ROLE`.",
)

EmailArgument = Annotated[str, typer.Argument(metavar="EMAIL", help="The account's e-mail.")]
SITE = "http://127.0.0.1:8000"


@app.command("add")
def users_add(
    ctx: typer.Context,
    email: EmailArgument,
    name: Annotated[str, typer.Option("--name", metavar="NAME", help="The holder's name.")],
    role: Annotated[
        str, typer.Option("--role", metavar="organiser|officer", help="What the account may do.")
    ],
    password: Annotated[
        bool,
        typer.Option(
            "--password", help="Set the password now, from a prompt, instead of a one-time link."
        ),
    ] = False,
    site: Annotated[
        str, typer.Option("--site", metavar="URL", help="The site's address, for the link.")
    ] = SITE,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Make an account; prints a one-time link (valid 7 days) to set its password.

    Example: ledger users add officer@federation.org --name 'Olga Officer' --role officer
    """
    given = parse("role", Role.of_account, role)
    secret = (
        typer.prompt("Password", hide_input=True, confirmation_prompt=True) if password else None
    )
    with writing(ctx, db) as session:
        made = services.accounts.add_account(
            session, email, name, given, services.Author(operator), now(), secret
        )
    render.message(f"Made account {made.id}, {made.email}, an {made.role}.")
    if made.password_link is not None:
        render.message(
            "Its holder sets the password once, within 7 days, at "
            f"{site.rstrip('/')}/account/password/{made.password_link}"
        )


@app.command("list")
def users_list(
    ctx: typer.Context, output: FormatOption = render.Format.TABLE, db: DbOption = None
) -> None:
    """List the accounts: role, whether the password is set, disabled or not.

    Example: ledger users list --format csv
    """
    with reading(ctx, db) as session:
        rows = queries.accounts.account_list(session)
    render.account_list(rows, output)


@app.command("disable")
def users_disable(
    ctx: typer.Context, email: EmailArgument, operator: OperatorOption = None, db: DbOption = None
) -> None:
    """Disable an account: it can no longer sign in, and its sessions and tokens end.

    Example: ledger users disable arbiter@club.org
    """
    with writing(ctx, db) as session:
        services.accounts.disable_account(session, email, services.Author(operator), now())
    render.message(f"Disabled {email.strip().lower()}: its sessions and tokens have ended.")


@app.command("role")
def users_role(
    ctx: typer.Context,
    email: EmailArgument,
    role: Annotated[str, typer.Argument(metavar="ROLE", help="organiser or officer.")],
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Give an account another role.

    Example: ledger users role arbiter@club.org officer
    """
    given = parse("role", Role.of_account, role)
    with writing(ctx, db) as session:
        services.accounts.change_role(session, email, given, services.Author(operator), now())
    render.message(f"{email.strip().lower()} is now an {given}.")
