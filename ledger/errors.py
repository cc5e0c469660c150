"""The ledger's errors: one base class and one subclass per cause.

The CLI prints any of them as a single `error: <message>` line and exits 1; every
message is a whole sentence that says what to do next.
"""


class LedgerError(Exception):
    """Something the user asked for cannot be done; the message says why."""


class InvalidInput(LedgerError):
    """A value, a command-line argument or an import row is malformed."""


class NotFound(LedgerError):
    """A player, event, period or list the user named does not exist."""


class Conflict(LedgerError):
    """The request contradicts the ledger's state (a closed period, a duplicate)."""


class RejectedRecords(InvalidInput):
    """Some records of a command or an import are invalid; nothing was written.

    Each problem is one line, `file:line: message` for imports.
    """

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))
