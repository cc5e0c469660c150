"""What every command shares: the --db, --pool and --format options, opening the ledger,
parsing a value with the name of its option in the error, the clock, and logging a change
with its operator."""

from __future__ import annotations

import datetime as dt
import getpass
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, TypeVar

import typer
from sqlalchemy.orm import Session

from ledger import database, render
from ledger.domain import Period, Pool
from ledger.errors import InvalidInput
from ledger.records import LARGEST_ID
from ledger.services import activity

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
PoolOption = Annotated[
    str, typer.Option("--pool", metavar="POOL", help="Rating pool: standard, rapid or blitz.")
]
FormatOption = Annotated[render.Format, typer.Option("--format", help="Output format.")]
ListPeriodOption = Annotated[
    str | None, typer.Option("--period", metavar="YYYY-MM", help="Default: the newest.")
]
FederationOption = Annotated[str | None, typer.Option("--federation", metavar="XXX")]
PlayerArgument = Annotated[
    int,
    typer.Argument(metavar="PLAYER", min=1, max=LARGEST_ID, help="The player's ledger ID."),
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
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def log(
    session: Session,
    action: str,
    outcome: object,
    operator: str | None,
    pool: Pool | None = None,
    period: Period | None = None,
    reason: str | None = None,
) -> None:
    """Log the change in the command's transaction, by `operator` or the OS user."""
    activity.record(session, action, outcome, operator or _os_user(), now(), pool, period, reason)


def _os_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"
