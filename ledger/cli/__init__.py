"""The `ledger` command line: each command parses, calls one service or query, renders.

No SQL and no rating logic here. Errors are printed by one boundary (`LedgerGroup`) as
`error: <message>` on stderr, with the command to run next where the error has a hint:
exit 1 for a request the ledger refuses, 2 for a usage error, a command line it cannot read
(Typer's own exceptions carry that code, and `ledger.cli.usage` words them as the ledger's
own lines; a value the ledger parses itself is refused as a `usage.Misuse`, and so are the
options of a list request that do not go together).

The commands load as they are used (`ledger.cli.commands`), so `ledger list` starts without
the importers, the closing or the web.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from ledger import render
from ledger.cli import interrupts, typer_parts
from ledger.cli.commands import COMMANDS, LoadedOnUse
from ledger.cli.options import DbOption
from ledger.cli.usage import CommandGroup, Misuse
from ledger.core.errors import Hint, LedgerError, RejectedRecords
from ledger.storage import interpreter

MOST_PROBLEMS_PRINTED = 1_000
"""The most problems of a refused file printed, one a line: a file of a million bad lines
says how many it has after the first thousand."""


class LedgerGroup(CommandGroup):
    """The command group with the ledger's one error boundary, whose commands are made
    when they are used (`COMMANDS`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = LoadedOnUse(COMMANDS)

    def list_commands(self, ctx: typer_parts.Context) -> list[str]:
        return list(self.commands)  # their names, without making them

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            _refuse_undecodable(kwargs.get("args") or (args[0] if args else sys.argv[1:]))
            with interrupts.reported():
                code = super().main(*args, **kwargs)
        except RejectedRecords as refused:
            for line in refused.problems[:MOST_PROBLEMS_PRINTED]:
                render.error(line)
            if len(refused.problems) > MOST_PROBLEMS_PRINTED:
                render.error(
                    f"{len(refused.problems):,} problems (the first {MOST_PROBLEMS_PRINTED:,} "
                    "printed); nothing was written."
                )
            elif len(refused.problems) > 1:
                render.error(f"{len(refused.problems)} problems; nothing was written.")
            if refused.hint is not None:
                render.error(_RECORD_HINTS[refused.hint])
            sys.exit(1)
        except LedgerError as refused:
            render.error(_in_our_words(refused))
            sys.exit(2 if refused.hint in _OPTIONS_APART else 1)
        except typer_parts.NoArgsIsHelpError as help_shown:
            if help_shown.format_message().strip():
                render.message(help_shown.format_message())
            sys.exit(0)
        except typer.TyperException as failure:
            render.error(" ".join(failure.format_message().split()))
            sys.exit(failure.exit_code)
        except typer.Abort:
            render.error("aborted.")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


_HINTS = {
    Hint.CLOSE_A_PERIOD: (
        "{message}; close a period first (`ledger close-period YYYY-MM{pool}`); until then "
        "`ledger player ID` shows a starting rating."
    ),
    Hint.CLOSE_EARLIER: "{message}; close it first (`ledger close-period {period}{pool}`).",
    Hint.CREATE_A_LEDGER: "{message}; create one with `ledger db upgrade`, or give the right --db.",
    Hint.CREATE_THE_DATABASE: "{message}, or give the right --db.",
    Hint.COMPRESS_RATINGS: "{message}; compress the list first with "
    "`ledger compress-ratings --period {period}{pool}`.",
    Hint.CORRECT_OR_REOPEN: "{message}; correct a game of it with `ledger correct-game GAME` "
    "(`ledger games --period {period}{pool}` lists them), add a missed one with "
    "`ledger add-game --late{pool}`, or reopen it with `ledger reopen-period {period}{pool}`.",
    Hint.EARLIER_VERSIONS: "{message} with --version.",
    Hint.EVENTS: "{message}; `ledger events{pool}` lists the events.",
    Hint.LIVE_IS_NEWEST: "live: give --live without --period, --as-of or --version.",
    Hint.NOTHING_TO_PUBLISH: "{message}; add players with their ratings first (`ledger "
    "import-players FILE.csv{pool}`), or record the period's games.",
    Hint.PERIOD_OR_DAY: "as-of: give --period or --as-of, not both.",
    Hint.RIGHT_DATABASE: "{message}; give the right --db.",
    Hint.VERSION_OF_A_PERIOD: "version: give --version with --period, not with --as-of.",
}
"""What the command line says of a refusal with a hint: `{message}` is the message, without
its final full stop; `{pool}` the option that names the pool concerned (none for standard,
the default), `{period}` the period concerned; the request checks are worded by the options
that make the request."""


_OPTIONS_APART = frozenset((Hint.LIVE_IS_NEWEST, Hint.PERIOD_OR_DAY, Hint.VERSION_OF_A_PERIOD))
"""The hints of a request whose options do not go together: a usage error (exit 2), as the
command line words it."""


_RECORD_HINTS = {
    Hint.ALLOW_REPEAT: "a game played again (a match of several games on one day, or in one "
    "round) is recorded with --allow-repeat.",
    Hint.IMPORT_PLAYERS: "import the players first, with their ledger IDs: `ledger "
    "import-players PLAYERS.csv`; then import the games again.",
}
"""The line the command line adds below the problems of a refused file or game."""


def _in_our_words(refused: LedgerError) -> str:
    if refused.hint is None:
        return str(refused)
    return _HINTS[refused.hint].format(
        message=str(refused).removesuffix("."),
        pool=render.pool_option(refused.pool),
        period=refused.period,
    )


def _refuse_undecodable(arguments: list[str]) -> None:
    """Refuse arguments that are not text: bytes the terminal could not decode, and NUL,
    which no text holds (PostgreSQL refuses it in any value; so does the ledger, on both)."""
    for argument in arguments:
        if any(0xD800 <= ord(character) <= 0xDFFF for character in argument):
            shown = argument.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            raise Misuse(f"an argument is not valid UTF-8 text: {shown}")
        if "\x00" in argument:
            raise Misuse(f"the argument {argument!r} holds the character NUL, which no text holds.")


app = typer.Typer(
    cls=LedgerGroup,
    name="ledger",
    help="A rating ledger for chess federations: FIDE rating periods and published lists.\n\n"
    "Example: `ledger demo`, then `ledger list --top 10`. `ledger COMMAND --help` shows a "
    "command's options and an example.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)


def _show_version(shown: bool) -> None:
    if shown:
        from importlib import metadata  # only --version waits for its import

        render.message(f"ledger {metadata.version('ledger')}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: DbOption = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_show_version, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Record players and games, close monthly rating periods, publish rating lists."""
    ctx.obj = db


def main() -> None:
    """The `ledger` script: the command line as the whole process, Ctrl-C included.

    The cycle collector leaves out what lives as long as the process (`ledger.__main__`
    loads the command line with it off; `ledger.storage.interpreter` says why).
    """
    interpreter.collect_new_objects_only()
    try:
        with interrupts.reported(process=True):
            app()
    finally:
        interpreter.keep_out_of_collections()
