"""The federations' file formats: tournament reports, FIDE rating lists and PGN in; lists and
tournament reports out."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path
from typing import IO, Annotated

import typer

from ledger import queries, render, services
from ledger.cli.options import (
    AllowRepeatOption,
    CheckOption,
    DbOption,
    LateOption,
    ListPeriodOption,
    NoteOption,
    OperatorOption,
    PoolOption,
    import_file,
    importing,
    now,
    parse_given,
    pool_option,
    read_import,
    reading,
    refuse_late_without_reason,
    writing,
)
from ledger.cli.outputs import ForceOption, OutputOption, written
from ledger.cli.progress import progress
from ledger.cli.usage import Commands, Misuse
from ledger.core.domain import Pool, parse_period
from ledger.formats import trf

app = Commands()

FileArgument = Annotated[
    Path,
    typer.Argument(exists=True, dir_okay=False, readable=True, metavar="FILE", show_default=False),
]


class ExportFormat(StrEnum):
    CSV = "csv"
    JSON = "json"
    FIDE_TXT = "fide-txt"
    FIDE_XML = "fide-xml"


@app.command("import-trf")
def import_trf(
    ctx: typer.Context,
    file: FileArgument,
    check: CheckOption = False,
    replace: Annotated[
        bool, typer.Option("--replace", help="Put the report in place of its event's games.")
    ] = False,
    allow_repeat: AllowRepeatOption = False,
    late: LateOption = False,
    reason: NoteOption = None,
    operator: OperatorOption = None,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Import a tournament report (TRF16 or TRF-2026): its event, players, games and byes.

    Example: ledger import-trf autumn-cup.trf --check
    """
    refuse_late_without_reason(late, reason)
    content = read_import(file)
    with (
        progress() as shown,
        importing(ctx, db, check=check, create=True) as session,
    ):
        by = services.Author(operator, reason)
        summary = services.tournaments.import_trf(
            session,
            pool,
            file.name,
            content,
            now(),
            replace=replace,
            author=by,
            allow_repeat=allow_repeat,
            progress=shown,
            late=late,
        )
    render.tournament_imported(summary, checked=check)


@app.command("import-pgn")
def import_pgn(
    ctx: typer.Context,
    file: FileArgument,
    check: CheckOption = False,
    allow_repeat: AllowRepeatOption = False,
    late: LateOption = False,
    reason: NoteOption = None,
    operator: OperatorOption = None,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Import the results of a PGN file's games (from their headers; moves are not kept).

    Example: ledger import-pgn club-night.pgn --check
    """
    refuse_late_without_reason(late, reason)
    content = read_import(file)
    with (
        progress() as shown,
        importing(ctx, db, check=check, create=True) as session,
    ):
        by = services.Author(operator, reason)
        summary = services.imports.import_pgn(
            session,
            pool,
            file.name,
            content,
            now(),
            by,
            allow_repeat=allow_repeat,
            progress=shown,
            late=late,
        )
    render.pgn_imported(summary, checked=check)


@app.command("import-fide-list")
def import_fide_list(
    ctx: typer.Context,
    file: FileArgument,
    period: Annotated[
        str | None,
        typer.Option(
            "--period",
            metavar="YYYY-MM",
            help="The period whose list it is (FIDE's list of 1 November is 2026-10's). "
            "Default: a single-pool file's month column, else last month.",
        ),
    ] = None,
    strict: Annotated[
        bool, typer.Option("--strict", help="Refuse the file if any row cannot be read.")
    ] = False,
    pool: Annotated[
        Pool | None,
        pool_option(
            "The pool of a single-pool file: standard, rapid or blitz; default: the one "
            "FIDE's file name gives (blitz_rating_list.txt), else standard."
        ),
    ] = None,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Publish a FIDE rating list file (TXT, XML or zipped) as the ledger's list of a period.

    Example: ledger import-fide-list players_list_xml.zip --period 2026-10
    """
    the_period = parse_given("period", parse_period, period)
    with (
        import_file(file) as stream,
        progress() as shown,
        writing(ctx, db, create=True) as session,
    ):
        summary = services.list_imports.import_fide_list(
            session,
            stream,
            file.name,
            pool,
            the_period,
            now(),
            strict=strict,
            progress=shown,
            author=services.Author(operator),
        )
    render.fide_list_imported(summary)


@app.command("export-list")
def export_list(
    ctx: typer.Context,
    output_format: Annotated[
        ExportFormat,
        typer.Option("--format", metavar="|".join(ExportFormat), help="File format."),
    ],
    period: ListPeriodOption = None,
    pool: Annotated[
        Pool | None,
        pool_option("standard, rapid or blitz; default: standard; FIDE formats: all three."),
    ] = None,
    ids: Annotated[
        str,
        typer.Option(
            "--ids",
            metavar="fide|ledger",
            help="FIDE formats: the IDs written; ledger: every player (a national list).",
        ),
    ] = "fide",
    output: OutputOption = None,
    force: ForceOption = False,
    db: DbOption = None,
) -> None:
    """Write a published rating list as CSV, JSON or FIDE's TXT or XML layout.

    Example: ledger export-list --format fide-txt --period 2026-10 -o nov2026.txt
    """
    if ids not in ("fide", "ledger"):
        raise Misuse(f"ids: '{ids}' is not fide or ledger.")
    ledger_ids = ids == "ledger"
    if ledger_ids and output_format in (ExportFormat.CSV, ExportFormat.JSON):
        raise Misuse("ids: --ids ledger goes with --format fide-txt or fide-xml.")
    the_period = parse_given("period", parse_period, period)
    with progress(prints_data=output is None) as shown, reading(ctx, db) as session:
        request = queries.ListRequest(pool or Pool.STANDARD, the_period)
        if output_format in (ExportFormat.CSV, ExportFormat.JSON):
            shown.stage(f"Writing the {request.pool} list", None)
            rows = queries.list_cells(session, request)
            write = render.list_csv if output_format is ExportFormat.CSV else render.list_json
            with written(output, force=force) as out, contextlib.redirect_stdout(out):
                write(rows)
            return
        pools = (pool,) if pool is not None else tuple(Pool)
        xml = output_format is ExportFormat.FIDE_XML
        chunks = queries.fide_list_file(
            session, pools, the_period, xml=xml, progress=shown, ledger_ids=ledger_ids
        )
        with written(output, force=force) as out:
            _write(out, chunks)
        left_out = 0 if ledger_ids else queries.fide_list_left_out(session, pools, the_period)
    render.fide_list_left_out(left_out)


@app.command("export-trf")
def export_trf(
    ctx: typer.Context,
    event: Annotated[str, typer.Argument(metavar="EVENT", help="The event's name.")],
    pool: PoolOption = Pool.STANDARD,
    output: OutputOption = None,
    force: ForceOption = False,
    db: DbOption = None,
) -> None:
    """Write an event as a TRF16 tournament report.

    Example: ledger export-trf 'Autumn Cup' -o autumn-cup.trf
    """
    with reading(ctx, db) as session:
        report = queries.tournament_report(session, pool, event)
    with written(output, force=force) as out:
        _write(out, [trf.write_trf(report)])


def _write(out: IO[str], chunks: Iterable[str]) -> None:
    for chunk in chunks:
        out.write(chunk)
