"""The write side: players, games, imports, closing a period and the demo."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from ledger import queries, render, services
from ledger.cli.options import (
    AllowRepeatOption,
    CheckOption,
    DbOption,
    FederationOption,
    LateOption,
    NoteOption,
    OperatorOption,
    PoolOption,
    ReasonOption,
    importing,
    now,
    parse,
    read_import,
    reading,
    refuse_late_without_reason,
    writing,
)
from ledger.cli.progress import progress
from ledger.cli.usage import Commands
from ledger.core import records
from ledger.core.domain import GameResult, Pool, parse_date, parse_period
from ledger.storage.database import as_url

app = Commands()


@app.command("add-player")
def add_player(
    ctx: typer.Context,
    name: Annotated[
        str, typer.Option("--name", metavar="NAME", help="Full name, e.g. 'Carlsen, Magnus'.")
    ],
    id: Annotated[
        int | None, typer.Option("--id", metavar="ID", help="Ledger ID; default: next free.")
    ] = None,
    fide_id: Annotated[int | None, typer.Option("--fide-id", metavar="ID")] = None,
    federation: FederationOption = None,
    sex: Annotated[str | None, typer.Option("--sex", metavar="M|F")] = None,
    title: Annotated[
        str | None, typer.Option("--title", metavar="TITLE", help="E.g. GM, WIM.")
    ] = None,
    birth_year: Annotated[int | None, typer.Option("--birth-year", metavar="YYYY")] = None,
    rating: Annotated[
        int | None,
        typer.Option(
            "--rating", metavar="RATING", help="Starting published rating; default unrated."
        ),
    ] = None,
    games_completed: Annotated[
        int | None,
        typer.Option("--games", metavar="N", help="Rated games completed (with --rating)."),
    ] = None,
    ever_2400: Annotated[
        bool, typer.Option("--ever-2400", help="The published rating has reached 2400.")
    ] = False,
    peak: Annotated[
        int | None, typer.Option("--peak", metavar="RATING", help="Peak published rating.")
    ] = None,
    operator: OperatorOption = None,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Add a player; prints the new player's ID.

    Example: ledger add-player --name 'Hansen, Ola' --federation NOR --sex M --birth-year 2008
    """
    player = records.new_player(
        name=name,
        id=id,
        fide_id=fide_id,
        federation=federation,
        sex=sex,
        title=title,
        birth_year=birth_year,
        rating=rating,
        games=games_completed,
        ever_2400=ever_2400,
        peak=peak,
        today=now().date(),
    )
    with writing(ctx, db, create=True) as session:
        added = services.players.add_player(session, pool, player, now(), services.Author(operator))
    render.message(str(added.id))
    render.warnings(added.duplicates)


@app.command("add-game")
def add_game(
    ctx: typer.Context,
    white: Annotated[int, typer.Option("--white", metavar="ID", help="White's ledger ID.")],
    black: Annotated[int, typer.Option("--black", metavar="ID", help="Black's ledger ID.")],
    result: Annotated[
        str,
        typer.Option(
            "--result",
            metavar="RESULT",
            help="1-0, 0-1, 1/2-1/2 (½-½, =); forfeits +/-, -/+ or -/-.",
        ),
    ],
    date: Annotated[
        str, typer.Option("--date", metavar="YYYY-MM-DD", help="The day it was played.")
    ],
    event: Annotated[
        str | None, typer.Option("--event", metavar="NAME", help="Event name.")
    ] = None,
    round: Annotated[int | None, typer.Option("--round", metavar="N")] = None,
    late: Annotated[
        bool,
        typer.Option(
            "--late", help="The game's period is closed: add it and re-rate (needs --reason)."
        ),
    ] = False,
    allow_repeat: AllowRepeatOption = False,
    reason: NoteOption = None,
    operator: OperatorOption = None,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Record a game's result and print its ID; with --late, a game of a closed period,
    re-rating from it.

    Example: ledger add-game --white 101 --black 102 --result 1/2-1/2 --date 2026-10-03
    """
    refuse_late_without_reason(late, reason)
    game = records.new_game(
        date=parse("date", parse_date, date),
        white=white,
        black=black,
        result=parse("result", GameResult.parse, result),
        event=event,
        round=round,
        today=now().date(),
    )
    with progress() as shown, writing(ctx, db) as session:
        by = services.Author(operator, reason)
        if late:
            late_game = services.corrections.add_late_game(
                session, pool, game, now(), by, allow_repeat=allow_repeat, progress=shown
            )
            added = late_game.game
        else:
            added = services.games.add_game(
                session, pool, game, now(), by, allow_repeat=allow_repeat
            )
    render.message(f"Game {added.game} recorded in {pool} period {added.period}.")
    if late:
        render.rerated(late_game.rerated)


Summary = TypeVar("Summary", bound="services.imports.ImportSummary")
FileArgument = Annotated[
    Path, typer.Argument(exists=True, dir_okay=False, readable=True, metavar="FILE.csv")
]


@app.command("import-players")
def import_players(
    ctx: typer.Context,
    file: FileArgument,
    operator: OperatorOption = None,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Import players from CSV: name,federation,rating, and id, fide_id, sex, title, birth_year,
    games, ever_2400 or peak where the file has them.

    Example: ledger import-players players.csv
    """
    service = services.imports.import_players
    imported = _import(ctx, db, pool, file, service, services.Author(operator), create=True)
    render.warnings(imported.duplicates)


@app.command("import-games")
def import_games(
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
    """Import games from CSV: date,white,black,result[,event,round].

    Example: ledger import-games october.csv --check
    """
    refuse_late_without_reason(late, reason)
    service = functools.partial(services.imports.import_games, allow_repeat=allow_repeat, late=late)
    by = services.Author(operator, reason)
    imported = _import(ctx, db, pool, file, service, by, check=check)
    if imported.rerated is not None:
        render.rerated(imported.rerated, checked=check)


def _import(
    ctx: typer.Context,
    db: str | None,
    pool: Pool,
    file: Path,
    service: services.imports.ImportService[Summary],
    by: services.Author,
    *,
    create: bool = False,
    check: bool = False,
) -> Summary:
    """Import `file` with `service`; `create`: the file's rows may start a new ledger;
    `check`: try it on the ledger, and write nothing."""
    content = read_import(file)
    with (
        progress() as shown,
        importing(ctx, db, check=check, bulk=True, create=create) as session,
    ):
        summary = service(session, pool, file.name, content, now(), by, shown)
    render.file_imported(summary, checked=check)
    return summary


@app.command("close-period")
def close_period(
    ctx: typer.Context,
    period: Annotated[str, typer.Argument(metavar="YYYY-MM")],
    operator: OperatorOption = None,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Rate every game of a period and publish the new rating list.

    Example: ledger close-period 2026-10
    """
    the_period = parse("period", parse_period, period)
    with progress() as shown, writing(ctx, db, bulk=True) as session:
        summary = services.closing.close_period(
            session, pool, the_period, now(), services.Author(operator), progress=shown
        )
    render.closed(summary)


@app.command("reopen-period")
def reopen_period(
    ctx: typer.Context,
    period: Annotated[str, typer.Argument(metavar="YYYY-MM")],
    reason: ReasonOption,
    operator: OperatorOption = None,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Undo the close of the newest closed period, so its games can be corrected.

    Example: ledger reopen-period 2026-10 --reason 'wrong result in round 3'
    """
    the_period = parse("period", parse_period, period)
    with writing(ctx, db) as session:
        by = services.Author(operator, reason)
        reopened = services.reopening.reopen_period(session, pool, the_period, now(), by)
    periods = ", ".join(str(each) for each in reopened.periods)
    render.message(
        f"Reopened {reopened.pool} {'periods' if len(reopened.periods) > 1 else 'period'} "
        f"{periods}: {reopened.list_rows_removed} list rows withdrawn, "
        f"{reopened.games_unrated} games to rate again; the ledger is as it was before "
        "that close."
    )


@app.command("compress-ratings")
def compress_ratings(
    ctx: typer.Context,
    period: Annotated[
        str, typer.Option("--period", metavar="YYYY-MM", help="The list to compress: 2024-02.")
    ],
    operator: OperatorOption = None,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Raise the ratings below 2000 of the list of 2024-02 as FIDE did on 1 March 2024.

    Example: ledger compress-ratings --period 2024-02
    """
    the_period = parse("period", parse_period, period)
    with writing(ctx, db) as session:
        done = services.compression.compress_ratings(
            session, pool, the_period, now(), author=services.Author(operator)
        )
    render.message(
        f"Compressed the {done.pool} list of {done.period} ({done.period.list_name}) as FIDE "
        f"did: {done.raised} ratings below 2000 raised by 0.4 x (2000 - rating), "
        f"{done.kept_on_list} of them kept on the list above the new floor of 1400; "
        f"published as version {done.version} of the list."
    )


@app.command("demo")
def demo(
    ctx: typer.Context,
    pool: PoolOption = Pool.STANDARD,
    db: Annotated[
        str | None,
        typer.Option("--db", metavar="URL", help="Default: sqlite:///ledger-demo.db."),
    ] = None,
) -> None:
    """Build a demo ledger in its own database (five months closed) and show the top 10.

    Example: ledger demo, then ledger --db sqlite:///ledger-demo.db list
    """
    url = as_url(db) if db else services.demo.DEMO_URL
    summary = services.demo.build_demo(url, pool, replace=db is None, now=now())
    render.closed(summary.closed)
    with reading(ctx, url) as session:
        published = queries.published_list(session, queries.ListRequest(pool, top=10))
    render.rating_list(published)
    render.message(summary.next_steps)
