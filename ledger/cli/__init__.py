"""The `ledger` command line: each command parses, calls one service or query, renders.

No SQL and no rating logic here. Errors are printed by one boundary (`LedgerGroup`) as
`error: <message>` on stderr, with the command to run next where the error has a hint:
exit 1 for a refused request, 2 for a usage error (Typer's own exceptions carry that code).
"""

from __future__ import annotations

import sys
from typing import Any

import typer
from typer.core import TyperGroup

from ledger import render
from ledger.cli import corrections, formats, identity, reading, recording, schema, serving
from ledger.cli.options import DbOption
from ledger.core.errors import Hint, InvalidInput, LedgerError, RejectedRecords


class LedgerGroup(TyperGroup):
    """The command group with the ledger's one error boundary."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            _refuse_undecodable(kwargs.get("args") or (args[0] if args else sys.argv[1:]))
            code = super().main(*args, **kwargs)
        except RejectedRecords as refused:
            for line in refused.problems:
                render.error(line)
            if len(refused.problems) > 1:
                render.error(f"{len(refused.problems)} problems; nothing was written.")
            sys.exit(1)
        except LedgerError as refused:
            render.error(_in_our_words(refused))
            sys.exit(1)
        except typer.TyperException as failure:
            render.error(" ".join(failure.format_message().split()))
            sys.exit(failure.exit_code)
        except typer.Abort:
            render.error("aborted.")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


_HINTS = {
    Hint.CLOSE_A_PERIOD: "{}; close a period first (`ledger close-period YYYY-MM`).",
    Hint.EARLIER_VERSIONS: "{} with --version.",
    Hint.EVENTS: "{}; `ledger events` lists the events.",
    Hint.LIVE_IS_NEWEST: "live: give --live without --period, --as-of or --version.",
    Hint.PERIOD_OR_DAY: "as-of: give --period or --as-of, not both.",
    Hint.VERSION_OF_A_PERIOD: "version: give --version with --period, not with --as-of.",
}
"""What the command line says of a refusal with a hint: `{}` is the message, without its
final full stop; the request checks are worded by the options that make the request."""


def _in_our_words(refused: LedgerError) -> str:
    if refused.hint is None:
        return str(refused)
    return _HINTS[refused.hint].format(str(refused).removesuffix("."))


def _refuse_undecodable(arguments: list[str]) -> None:
    """Refuse arguments that are not text: bytes the terminal could not decode."""
    for argument in arguments:
        if any(0xD800 <= ord(character) <= 0xDFFF for character in argument):
            shown = argument.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            raise InvalidInput(f"an argument is not valid UTF-8 text: {shown}")


app = typer.Typer(
    cls=LedgerGroup,
    help="A rating ledger for chess federations: FIDE rating periods and published lists.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
app.add_typer(recording.app)
app.add_typer(reading.app)
app.add_typer(formats.app)
app.add_typer(identity.app)
app.add_typer(corrections.app)
app.add_typer(serving.app)
app.add_typer(schema.app, name="db")


@app.callback()
def root(ctx: typer.Context, db: DbOption = None) -> None:
    """Record players and games, close monthly rating periods, publish rating lists."""
    ctx.obj = db


def main() -> None:
    app()
