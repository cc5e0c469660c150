"""What every command shares: the --db, --pool and --format options, opening the ledger to
read or to write, opening an import file, parsing a value with the name of its option in the
error, and the clock."""

from __future__ import annotations

import datetime as dt
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Annotated, Any, TypeVar

import typer
from sqlalchemy.orm import Session

from ledger import render, services
from ledger.cli import interrupts
from ledger.cli.usage import Misuse
from ledger.core.domain import Pool
from ledger.core.errors import InvalidInput
from ledger.core.records import LARGEST_ID, OPERATOR_LENGTH, REASON_LENGTH, logged_text
from ledger.storage import database

T = TypeVar("T")

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        help="Database URL or SQLite file (else $LEDGER_DATABASE_URL, else sqlite:///ledger.db).",
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


def _operator(text: str | None) -> str | None:
    """Who makes the change, refused before the ledger is opened where the log cannot
    keep it whole."""
    return None if text is None else logged_text("operator", text, OPERATOR_LENGTH)


OperatorOption = Annotated[
    str | None,
    typer.Option(
        "--operator",
        metavar="NAME",
        envvar="LEDGER_OPERATOR",
        callback=_operator,
        help=f"Who makes the change, for `ledger log` (default: the OS user; at most "
        f"{OPERATOR_LENGTH} characters).",
        show_default=False,
    ),
]


def _reason(text: str | None) -> str | None:
    if text is not None and not text.strip():
        raise typer.BadParameter("give the reason for the change, e.g. 'arbiter report'.")
    return None if text is None else logged_text("reason", text, REASON_LENGTH)


ReasonOption = Annotated[
    str,
    typer.Option(
        "--reason",
        metavar="TEXT",
        callback=_reason,
        help=f"Why, for `ledger log` (required; at most {REASON_LENGTH} characters).",
    ),
]
CheckOption = Annotated[
    bool,
    typer.Option(
        "--check",
        help="Validate and show what would be imported; nothing is written.",
    ),
]
LateOption = Annotated[
    bool,
    typer.Option(
        "--late",
        help="Its games fall in closed periods: record the whole file and re-rate once, "
        "publishing one new version of each list from there (needs --reason).",
    ),
]


def refuse_late_without_reason(late: bool, reason: str | None) -> None:
    """`--late` and `--reason` go together: a late file or game changes published lists."""
    if late != (reason is not None):
        raise Misuse("reason: --late and --reason go together: a late game or file needs a reason.")


NoteOption = Annotated[
    str | None,
    typer.Option(
        "--reason",
        metavar="TEXT",
        callback=_reason,
        help=f"Why, for `ledger log` (at most {REASON_LENGTH} characters).",
    ),
]


def database_url(ctx: typer.Context, db: str | None) -> str:
    """The command's --db, else the root's --db, else the environment or the default."""
    return database.resolve_url(db or ctx.find_root().obj)


@contextmanager
def open_ledger(ctx: typer.Context, db: str | None, *, create: bool) -> Iterator[database.Ledger]:
    """The command's ledger; `create`: the command may create it (see `writing`; a reading
    one never does: a mistyped --db is refused, not made into a new empty ledger)."""
    ledger = database.open_ledger(database_url(ctx, db), create=create)
    try:
        yield ledger
    finally:
        ledger.dispose()


@contextmanager
def reading(ctx: typer.Context, db: str | None) -> Iterator[Session]:
    """A read session on the command's ledger."""
    with open_ledger(ctx, db, create=False) as ledger, ledger.reading() as session:
        yield session


@contextmanager
def writing(
    ctx: typer.Context, db: str | None, *, bulk: bool = False, create: bool = False
) -> Iterator[Session]:
    """One transaction on the command's ledger: committed whole, or not at all; an
    interrupt never cuts the commit in two (`interrupts.committing`). `bulk`: a close or a
    file's import (`Ledger.transaction`). `create`: the command brings data into a new
    ledger (players, a list, a tournament), so it may create one; every other command
    refuses a missing ledger as a reading one does, so a mistyped --db makes nothing."""
    with (
        open_ledger(ctx, db, create=create) as ledger,
        ExitStack() as commit,
        ledger.transaction(bulk=bulk) as session,
    ):
        yield session
        commit.enter_context(interrupts.committing())  # ends after the transaction's commit


@contextmanager
def trying(ctx: typer.Context, db: str | None) -> Iterator[Session]:
    """A write session that is always rolled back, on a ledger that must exist: what a
    change would do, unwritten."""
    with open_ledger(ctx, db, create=False) as ledger, ledger.trial() as session:
        yield session


@contextmanager
def importing(
    ctx: typer.Context, db: str | None, *, check: bool, bulk: bool = False, create: bool = False
) -> Iterator[Session]:
    """The session of a file's import (`writing`), or with `check` a trial of it, rolled
    back (`trying`): never in bulk, which on PostgreSQL sets a table's indexes aside under a
    lock the site's readers wait on, for nothing."""
    with trying(ctx, db) if check else writing(ctx, db, bulk=bulk, create=create) as session:
        yield session


LARGEST_IMPORT = 1 << 28
"""The most bytes of a file read whole (CSV, TRF, PGN): 256 MB, far beyond any real one."""
_NOT_REGULAR = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


@contextmanager
def import_file(file: Path) -> Iterator[IO[bytes]]:
    """An import file, open for reading. Anything but a regular file is refused before a
    byte is read: a device never ends, a named pipe without a writer would hang, and the
    file is opened without waiting for one. A path that names no file to read is a usage
    error (exit 2), as Typer's check of a file argument makes it."""
    nonblocking = getattr(os, "O_NONBLOCK", 0)  # POSIX: open() of a pipe then never waits
    try:
        descriptor = os.open(file, os.O_RDONLY | nonblocking)
    except OSError as error:
        raise Misuse(f"{file}: {error.strerror or 'cannot be read'}.") from None
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        kind = next((kind for is_kind, kind in _NOT_REGULAR if is_kind(mode)), "not a file")
        raise Misuse(f"{file} is {kind}, not a file to import; give the path of the file itself.")
    if nonblocking:
        os.set_blocking(descriptor, True)
    with os.fdopen(descriptor, "rb") as stream:
        yield stream


def read_import(file: Path) -> bytes:
    """The whole content of an import file (`import_file`), at most `LARGEST_IMPORT` bytes."""
    with import_file(file) as stream:
        content = stream.read(LARGEST_IMPORT + 1)
    if len(content) > LARGEST_IMPORT:
        raise InvalidInput(
            f"{file} is larger than {LARGEST_IMPORT >> 20} MB; no CSV, TRF or PGN file the "
            "ledger reads is so large."
        )
    return content


def parse(field: str, parser: Callable[[str], T], text: str) -> T:
    """`parser(text)`, its refusal prefixed with the option's name (`typed_values`)."""
    with typed_values(f"{field}: "):
        return parser(text)


@contextmanager
def typed_values(prefix: str = "") -> Iterator[None]:
    """A block that reads what was typed on the command line: a value the ledger cannot
    read, or options that do not go together, is a usage error (exit 2), not a refusal of
    the ledger's (exit 1)."""
    try:
        yield
    except InvalidInput as error:
        raise Misuse(f"{prefix}{error}") from None


def parse_given(field: str, parser: Callable[[str], T], text: str | None) -> T | None:
    """`parse` for an option that may be left out: None if it was (an empty value is
    parsed, and refused)."""
    return None if text is None else parse(field, parser, text)


def now() -> dt.datetime:
    return services.utc_now()
