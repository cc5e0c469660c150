"""`ledger reports`: tournament reports sent in online, for the rating officer at the command
line: the queue and a report, accepting, returning and rejecting; and, for a federation
without a web server, sending a report from a file on an organiser's behalf (upload,
acknowledge its warnings, submit, withdraw). The command line acts as an officer: it holds
the database's password."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ledger import queries, render, services
from ledger.cli.options import (
    DbOption,
    FormatOption,
    NoteOption,
    OperatorOption,
    ReasonOption,
    import_file,
    now,
    parse,
    parse_given,
    pool_option,
    reading,
    writing,
)
from ledger.cli.usage import CommandGroup, Commands, Misuse
from ledger.core.access import Role
from ledger.core.domain import Pool, parse_period
from ledger.core.records import LARGEST_ID
from ledger.core.reports import OVERDUE_AFTER_DAYS, RejectedAs, ReportState

app = Commands(
    name="reports",
    cls=CommandGroup,
    no_args_is_help=True,
    help="Tournament reports sent in online: `ledger reports list`, `ledger reports show "
    "REPORT`, `ledger reports accept|return|reject REPORT`; from a file, `ledger reports "
    "upload FILE`, `acknowledge`, `submit`, `withdraw`.",
)

ReportArgument = Annotated[
    int, typer.Argument(metavar="REPORT", min=1, max=LARGEST_ID, help="The report's number.")
]
OFFICER = Role.OFFICER


def _pool(text: str | None) -> Pool | None:
    return parse_given("pool", Pool.parse, text)


@app.command("list")
def reports_list(
    ctx: typer.Context,
    state: Annotated[
        str,
        typer.Option(
            "--state",
            metavar="STATE|all",
            help="draft, submitted, returned, accepted, rejected or withdrawn; all for every one.",
        ),
    ] = "submitted",
    pool: Annotated[
        str | None,
        typer.Option("--pool", metavar="POOL", help="Only this pool: standard, rapid or blitz."),
    ] = None,
    period: Annotated[
        str | None, typer.Option("--period", metavar="YYYY-MM", help="Only this period's.")
    ] = None,
    older_than: Annotated[
        int | None,
        typer.Option("--older-than", metavar="DAYS", min=0, max=36500, help="Waiting this long."),
    ] = None,
    overdue_after: Annotated[
        int,
        typer.Option(
            "--overdue-after",
            metavar="DAYS",
            min=0,
            max=36500,
            envvar="LEDGER_REPORTS_OVERDUE_AFTER",
            help="The deadline: a report waiting longer is flagged with !.",
        ),
    ] = OVERDUE_AFTER_DAYS,
    output: FormatOption = render.Format.TABLE,
    db: DbOption = None,
) -> None:
    """The officer's queue: the reports waiting, the longest waiting first, with their age
    in days.

    Example: ledger reports list --older-than 7
    """
    only = queries.tournament_reports.QueueFilter(
        state=None if state.strip().lower() == "all" else parse("state", ReportState.parse, state),
        pool=_pool(pool),
        period=parse_given("period", parse_period, period),
        older_than=older_than,
        overdue_after=overdue_after,
    )
    with reading(ctx, db) as session:
        rows = queries.tournament_reports.report_queue(session, now(), only)
    title = "Reports" if only.state is None else f"Reports {only.state}"
    render.tournament_reports.report_rows(rows, output, title)


@app.command("show")
def reports_show(
    ctx: typer.Context,
    report: ReportArgument,
    output: FormatOption = render.Format.TABLE,
    db: DbOption = None,
) -> None:
    """A report: its versions with what each one's check found (errors, warnings with their
    acknowledgements, notes), and its history.

    Example: ledger reports show 12
    """
    with reading(ctx, db) as session:
        detail = queries.tournament_reports.report_detail(
            session, report, queries.tournament_reports.COMMAND_LINE
        )
    render.tournament_reports.report_detail(detail, output)


@app.command("upload")
def reports_upload(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A TRF, PGN or games CSV.")],
    pool: Annotated[
        Pool, pool_option("The report's pool, if it is new: standard, rapid or blitz.")
    ] = Pool.STANDARD,
    organiser: Annotated[
        str | None,
        typer.Option("--organiser", metavar="EMAIL", help="The organiser it is sent for."),
    ] = None,
    report: Annotated[
        int | None,
        typer.Option(
            "--report", metavar="REPORT", min=1, max=LARGEST_ID, help="Send a new version of it."
        ),
    ] = None,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Send a report from a file for an organiser (a new version of the event's report, if
    it has one), and check it at once.

    Example: ledger reports upload bilbao.trf --organiser arbiter@club.org
    """
    with import_file(file) as stream, writing(ctx, db) as session:
        organiser_id = (
            None if organiser is None else queries.accounts.account_id(session, organiser)
        )
        done = services.tournament_reports.upload(
            session,
            file.name,
            stream,
            now(),
            services.Author(operator),
            OFFICER,
            pool=pool,
            report_id=report,
            organiser_id=organiser_id,
        )
    render.tournament_reports.uploaded(done)


@app.command("acknowledge")
def reports_acknowledge(
    ctx: typer.Context,
    report: ReportArgument,
    warning: Annotated[
        int,
        typer.Argument(metavar="WARNING", min=1, max=LARGEST_ID, help="The warning's number."),
    ],
    note: Annotated[
        str, typer.Option("--note", metavar="TEXT", help="The note the officer reads.")
    ],
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Acknowledge a warning of a report's newest version, with a note.

    Example: ledger reports acknowledge 12 31 --note 'the results came in late'
    """
    with writing(ctx, db) as session:
        done = services.tournament_reports.acknowledge(
            session, report, warning, note, now(), services.Author(operator), OFFICER
        )
    render.tournament_reports.acknowledged(done)


@app.command("submit")
def reports_submit(
    ctx: typer.Context, report: ReportArgument, operator: OperatorOption = None, db: DbOption = None
) -> None:
    """Submit a report (no errors, every warning acknowledged): it is received.

    Example: ledger reports submit 12
    """
    with writing(ctx, db) as session:
        done = services.tournament_reports.submit(
            session, report, now(), services.Author(operator), OFFICER
        )
    render.tournament_reports.changed(done)


@app.command("withdraw")
def reports_withdraw(
    ctx: typer.Context,
    report: ReportArgument,
    reason: NoteOption = None,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Withdraw a report before it is accepted (a correction: the report stays accepted).

    Example: ledger reports withdraw 12 --reason 'sent twice'
    """
    with writing(ctx, db) as session:
        done = services.tournament_reports.withdraw(
            session, report, now(), services.Author(operator, reason), OFFICER
        )
    render.tournament_reports.changed(done)


def _match(text: str) -> tuple[str, int]:
    """`REFERENCE=ID`: a new player of the report (its TRF line, or its PGN name) and the
    ledger player they are."""
    reference, _, number = text.rpartition("=")
    if not reference.strip() or not number.strip().isdigit():
        raise Misuse(f"match: '{text}' is not REFERENCE=ID, e.g. 13=4711.")
    player_id = int(number)
    if not 1 <= player_id <= LARGEST_ID:
        raise Misuse(f"match: {player_id} is not a ledger ID (1 to {LARGEST_ID}).")
    return reference.strip(), player_id


@app.command("accept")
def reports_accept(
    ctx: typer.Context,
    report: ReportArgument,
    match: Annotated[
        list[str] | None,
        typer.Option(
            "--match",
            metavar="REFERENCE=ID",
            help="A new player (its TRF line, or PGN name) is this ledger player.",
        ),
    ] = None,
    late: Annotated[
        bool,
        typer.Option("--late", help="Its period has closed since: record it as a correction."),
    ] = False,
    reason: NoteOption = None,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Accept a submitted report: its games are recorded in its period (a correction
    re-rates the closed periods it touches); new players are created, or matched.

    Example: ledger reports accept 12 --match 20=4711
    """
    matches = dict(_match(each) for each in match or [])
    with writing(ctx, db) as session:
        done = services.tournament_reports.accept(
            session,
            report,
            now(),
            services.Author(operator, reason),
            OFFICER,
            matches=matches,
            late=late,
        )
    render.tournament_reports.accepted(done)


@app.command("return")
def reports_return(
    ctx: typer.Context,
    report: ReportArgument,
    reason: ReasonOption,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Return a submitted report to its organiser, with the reason they read.

    Example: ledger reports return 12 --reason "round 3's results are missing"
    """
    with writing(ctx, db) as session:
        done = services.tournament_reports.send_back(
            session, report, now(), services.Author(operator, reason), OFFICER
        )
    render.tournament_reports.changed(done)


@app.command("reject")
def reports_reject(
    ctx: typer.Context,
    report: ReportArgument,
    reason: ReasonOption,
    category: Annotated[
        str,
        typer.Option(
            "--category",
            metavar="|".join(RejectedAs),
            help="The public reason: " + ", ".join(f"{c} ({c.shown})" for c in RejectedAs) + ".",
        ),
    ],
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Reject a submitted report for good; its category is public, its reason is not.

    Example: ledger reports reject 12 --category duplicate --reason 'the same as report 9'
    """
    the_category = parse("category", RejectedAs.parse, category)
    with writing(ctx, db) as session:
        done = services.tournament_reports.reject(
            session, report, the_category, now(), services.Author(operator, reason), OFFICER
        )
    render.tournament_reports.changed(done)
