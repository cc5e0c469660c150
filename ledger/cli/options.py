"""What every command shares: the --db, --pool and --format options, opening the ledger to
read or to write, parsing a value with the name of its option in the error, and the clock."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, TypeVar

import typer
from sqlalchemy.orm import Session

from ledger import render
from ledger.core.domain import Pool
from ledger.core.errors import InvalidInput
from ledger.core.records import LARGEST_ID
from ledger.services.activity import utc_now
from ledger.storage import database

T = TypeVar("T")

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        help="Database URL (else $LEDGER_DATABASE_URL, else sqlite:///ledger.db).",
        show_default=False,
    ),
]


def parse_pool(text: str | Pool) -> Pool:
    """The --pool option's value: Click passes a default through its parser too."""
    return text if isinstance(text, Pool) else parse("pool", Pool.parse, text)


def pool_option(help: str) -> Any:
    """A --pool option with its own help; every one is parsed by `parse_pool`."""
    return typer.Option("--pool", metavar="POOL", parser=parse_pool, help=help)


PoolOption = Annotated[Pool, pool_option("Rating pool: standard, rapid or blitz.")]
FormatOption = Annotated[
    render.Format, typer.Option("--format", metavar="|".join(render.Format), help="Output format.")
]
ListPeriodOption = Annotated[
    str | None, typer.Option("--period", metavar="YYYY-MM", help="Default: the newest.")
]
FederationOption = Annotated[str | None, typer.Option("--federation", metavar="XXX")]
AllowRepeatOption = Annotated[
    bool,
    typer.Option(
        "--allow-repeat",
        help="Record a game even if the ledger holds the same one, or the player a game in "
        "that round: a game played again (a match of several games on one day).",
    ),
]
PlayerArgument = Annotated[
    int,
    typer.Argument(metavar="PLAYER", min=1, max=LARGEST_ID, help="The player's ledger ID."),
]
NamedPlayerArgument = Annotated[
    str,
    typer.Argument(
        metavar="PLAYER", help="The player's ledger ID, FIDE ID, or a name only they match."
    ),
]

OperatorOption = Annotated[
    str | None,
    typer.Option(
        "--operator",
        metavar="NAME",
        envvar="LEDGER_OPERATOR",
        help="Who makes the change, for `ledger log` (default: the OS user).",
        show_default=False,
    ),
]


def _reason(text: str | None) -> str | None:
    if text is not None and not text.strip():
        raise typer.BadParameter("give the reason for the change, e.g. 'arbiter report'.")
    return text


ReasonOption = Annotated[
    str,
    typer.Option(
        "--reason", metavar="TEXT", callback=_reason, help="Why, for `ledger log` (required)."
    ),
]
NoteOption = Annotated[
    str | None,
    typer.Option("--reason", metavar="TEXT", callback=_reason, help="Why, for `ledger log`."),
]


def database_url(ctx: typer.Context, db: str | None) -> str:
    """The command's --db, else the root's --db, else the environment or the default."""
    return database.resolve_url(db or ctx.find_root().obj)


@contextmanager
def open_ledger(ctx: typer.Context, db: str | None) -> Iterator[database.Ledger]:
    ledger = database.open_ledger(database_url(ctx, db))
    try:
        yield ledger
    finally:
        ledger.dispose()


@contextmanager
def reading(ctx: typer.Context, db: str | None) -> Iterator[Session]:
    """A read session on the command's ledger."""
    with open_ledger(ctx, db) as ledger, ledger.reading() as session:
        yield session


@contextmanager
def writing(ctx: typer.Context, db: str | None) -> Iterator[Session]:
    """One transaction on the command's ledger: committed whole, or not at all."""
    with open_ledger(ctx, db) as ledger, ledger.transaction() as session:
        yield session


def parse(field: str, parser: Callable[[str], T], text: str) -> T:
    """`parser(text)`, its error prefixed with the option's name."""
    try:
        return parser(text)
    except InvalidInput as error:
        raise InvalidInput(f"{field}: {error}") from None


def parse_given(field: str, parser: Callable[[str], T], text: str | None) -> T | None:
    """`parse` for an option that may be left out: None if it was (an empty value is
    parsed, and refused)."""
    return None if text is None else parse(field, parser, text)


def now() -> dt.datetime:
    return utc_now()
