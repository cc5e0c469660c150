"""The ledger's errors: one base class and one subclass per cause.

Every message is a whole sentence about the ledger's data. A face (the CLI, the web site)
prints it as it is, or, where the error carries a `Hint`, in its own words for the next
step: the CLI names the command to run, the web a link to follow.
"""

from __future__ import annotations

from enum import StrEnum


class Hint(StrEnum):
    """The next step a face may add to a refusal, in its own words."""

    ALLOW_REPEAT = "allow-repeat"
    """A game was refused as recorded twice; one played again is recorded on purpose."""
    CLOSE_A_PERIOD = "close-a-period"
    """Nothing is published yet: a period must be closed first."""
    CLOSE_EARLIER = "close-earlier"
    """An earlier period (the error's `period`) is still open and must be closed first."""
    COMPRESS_RATINGS = "compress-ratings"
    """A list (the error's `period`, 2024-02) holds ratings that FIDE's compression of March
    2024 raises: it is compressed first."""
    CORRECT_OR_REOPEN = "correct-or-reopen"
    """A closed period (the error's `period`) is not closed again: its games are corrected,
    or it is reopened."""
    CREATE_A_LEDGER = "create-a-ledger"
    """There is no ledger where the user pointed: one can be created there, or the user
    meant another database."""
    CREATE_THE_DATABASE = "create-the-database"
    """The PostgreSQL database does not exist (the message says how to create it), or the
    user meant another one."""
    EARLIER_VERSIONS = "earlier-versions"
    """A withdrawn list's versions can still be read, each by its number."""
    IMPORT_PLAYERS = "import-players"
    """Most of a file's players are not in the ledger: its players are imported first."""
    EVENTS = "events"
    """An event was not found; the events are listed elsewhere (the nearest names are in
    the message)."""
    LIVE_IS_NEWEST = "live-is-newest"
    """A live list was asked for together with an earlier list."""
    NOTHING_TO_PUBLISH = "nothing-to-publish"
    """A pool's first close found no rating and no game: players or games come first."""
    PERIOD_OR_DAY = "period-or-day"
    """A list was asked for by its period and by a day at once."""
    RIGHT_DATABASE = "right-database"
    """What the user pointed at cannot be a ledger: they meant another database."""
    VERSION_OF_A_PERIOD = "version-of-a-period"
    """A version was asked for with a day; versions belong to a period's list."""


class LedgerError(Exception):
    """Something the user asked for cannot be done; the message says why.

    A hint may concern a pool and a period: the face names them in the next step it gives
    (the CLI's `--pool rapid`), so the step is the one for the list the error is about.
    """

    def __init__(
        self,
        message: str,
        hint: Hint | None = None,
        *,
        pool: str | None = None,
        period: str | None = None,
    ) -> None:
        super().__init__(message)
        self.hint = hint
        self.pool = pool
        self.period = period


class InvalidInput(LedgerError):
    """A value, a command-line argument or an import row is malformed."""


class NotFound(LedgerError):
    """A player, event, period or list the user named does not exist."""


class Conflict(LedgerError):
    """The request contradicts the ledger's state (a closed period, a duplicate)."""


class Busy(LedgerError):
    """The ledger cannot be read for a moment: a write holds what the request reads (on
    PostgreSQL, a close that rebuilds a table's indexes); asked again soon, it answers."""


class RejectedRecords(InvalidInput):
    """Some records of a command or an import are invalid; nothing was written.

    Each problem is one line, `file:line: message` for imports.
    """

    def __init__(self, problems: list[str], hint: Hint | None = None) -> None:
        self.problems = problems
        super().__init__("\n".join(problems), hint)
