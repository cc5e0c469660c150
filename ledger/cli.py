"""The `ledger` command line: each command parses, calls one service or query, renders.

No SQL and no rating logic here. Errors are printed by one boundary (`LedgerGroup`) as
`error: <message>` on stderr: exit 1 for a refused request, 2 for a usage error (Typer's
own exceptions carry that code).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from typer.core import TyperGroup

from ledger import (
    calculator,
    cards,
    crosstables,
    database,
    explanations,
    queries,
    records,
    render,
    reports,
)
from ledger.demo import DEMO_URL, build_demo
from ledger.domain import GameResult, Period, Pool, parse_date
from ledger.errors import InvalidInput, LedgerError, RejectedRecords
from ledger.services import closing, games, imports, players

T = TypeVar("T")


class LedgerGroup(TyperGroup):
    """The command group with the ledger's one error boundary."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except RejectedRecords as refused:
            for line in refused.problems:
                render.error(line)
            if len(refused.problems) > 1:
                render.error(f"{len(refused.problems)} problems; nothing was written.")
            sys.exit(1)
        except LedgerError as refused:
            render.error(str(refused))
            sys.exit(1)
        except typer.TyperException as failure:
            render.error(failure.format_message())
            sys.exit(failure.exit_code)
        except typer.Abort:
            render.error("aborted.")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=LedgerGroup,
    help="A rating ledger for chess federations: FIDE rating periods and published lists.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
db_app = typer.Typer(help="The database schema: `ledger db upgrade`, `ledger db current`.")
app.add_typer(db_app, name="db")

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


@app.callback()
def root(ctx: typer.Context, db: DbOption = None) -> None:
    """Record players and games, close monthly rating periods, publish rating lists."""
    ctx.obj = db


def _url(ctx: typer.Context, db: str | None) -> str:
    return database.resolve_url(db or ctx.find_root().obj)


@contextmanager
def _ledger(ctx: typer.Context, db: str | None) -> Iterator[database.Ledger]:
    ledger = database.open_ledger(_url(ctx, db))
    try:
        yield ledger
    finally:
        ledger.dispose()


def _parse(field: str, parse: Callable[[str], T], text: str) -> T:
    try:
        return parse(text)
    except InvalidInput as error:
        raise InvalidInput(f"{field}: {error}") from None


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


@app.command("add-player")
def add_player(
    ctx: typer.Context,
    name: Annotated[str, typer.Option("--name", help="Full name, e.g. 'Carlsen, Magnus'.")],
    id: Annotated[int | None, typer.Option("--id", help="Ledger ID; default: next free.")] = None,
    fide_id: Annotated[int | None, typer.Option("--fide-id")] = None,
    federation: Annotated[str | None, typer.Option("--federation", metavar="XXX")] = None,
    sex: Annotated[str | None, typer.Option("--sex", metavar="M|F")] = None,
    title: Annotated[str | None, typer.Option("--title")] = None,
    birth_year: Annotated[int | None, typer.Option("--birth-year", metavar="YYYY")] = None,
    rating: Annotated[
        int | None, typer.Option("--rating", help="Starting published rating; default unrated.")
    ] = None,
    games_completed: Annotated[
        int | None, typer.Option("--games", help="Rated games completed (with --rating).")
    ] = None,
    ever_2400: Annotated[
        bool, typer.Option("--ever-2400", help="The published rating has reached 2400.")
    ] = False,
    peak: Annotated[int | None, typer.Option("--peak", help="Peak published rating.")] = None,
    pool: PoolOption = "standard",
    db: DbOption = None,
) -> None:
    """Add a player; prints the new player's ID."""
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
        today=_now().date(),
    )
    the_pool = _parse("pool", Pool.parse, pool)
    with _ledger(ctx, db) as ledger, ledger.transaction() as session:
        (player_id,) = players.add_players(session, the_pool, [player])
    render.message(str(player_id))


@app.command("add-game")
def add_game(
    ctx: typer.Context,
    white: Annotated[int, typer.Option("--white", metavar="ID", help="White's ledger ID.")],
    black: Annotated[int, typer.Option("--black", metavar="ID", help="Black's ledger ID.")],
    result: Annotated[
        str, typer.Option("--result", help="1-0, 0-1, 1/2-1/2 (½-½, =), +/-, -/+ or -/-.")
    ],
    date: Annotated[str, typer.Option("--date", metavar="YYYY-MM-DD")],
    event: Annotated[str | None, typer.Option("--event", help="Event name.")] = None,
    round: Annotated[int | None, typer.Option("--round")] = None,
    pool: PoolOption = "standard",
    db: DbOption = None,
) -> None:
    """Record a game's result."""
    game = records.new_game(
        date=_parse("date", parse_date, date),
        white=white,
        black=black,
        result=_parse("result", GameResult.parse, result),
        event=event,
        round=round,
        today=_now().date(),
    )
    the_pool = _parse("pool", Pool.parse, pool)
    with _ledger(ctx, db) as ledger, ledger.transaction() as session:
        (period,) = games.add_games(session, the_pool, [game])
    render.message(f"Game recorded in {the_pool} period {period}.")


FileArgument = Annotated[
    Path, typer.Argument(exists=True, dir_okay=False, readable=True, metavar="FILE.csv")
]


@app.command("import-players")
def import_players(
    ctx: typer.Context, file: FileArgument, pool: PoolOption = "standard", db: DbOption = None
) -> None:
    """Import players from CSV: id,name,federation,sex,title,birth_year,rating,games,ever_2400."""
    _import(ctx, db, pool, file, imports.import_players)


@app.command("import-games")
def import_games(
    ctx: typer.Context, file: FileArgument, pool: PoolOption = "standard", db: DbOption = None
) -> None:
    """Import games from CSV: date,white,black,result[,event,round]."""
    _import(ctx, db, pool, file, imports.import_games)


def _import(
    ctx: typer.Context, db: str | None, pool: str, file: Path, service: imports.ImportService
) -> None:
    the_pool = _parse("pool", Pool.parse, pool)
    content = file.read_bytes()
    with _ledger(ctx, db) as ledger, ledger.transaction() as session:
        summary = service(session, the_pool, file.name, content, _now())
    render.message(f"Imported {summary.rows} {summary.kind} from {summary.file_name}.")


@app.command("close-period")
def close_period(
    ctx: typer.Context,
    period: Annotated[str, typer.Argument(metavar="YYYY-MM")],
    pool: PoolOption = "standard",
    db: DbOption = None,
) -> None:
    """Rate every game of a period and publish the new rating list."""
    the_period = _parse("period", Period.parse, period)
    the_pool = _parse("pool", Pool.parse, pool)
    with _ledger(ctx, db) as ledger, ledger.transaction() as session:
        summary = closing.close_period(session, the_pool, the_period, _now())
    render.closed(summary)


@app.command("list")
def list_(
    ctx: typer.Context,
    period: Annotated[
        str | None, typer.Option("--period", metavar="YYYY-MM", help="Default: the newest.")
    ] = None,
    as_of: Annotated[
        str | None,
        typer.Option("--as-of", metavar="YYYY-MM-DD", help="The list in force on that day."),
    ] = None,
    top: Annotated[int | None, typer.Option("--top", min=1, help="Only the first N rows.")] = None,
    federation: Annotated[str | None, typer.Option("--federation", metavar="XXX")] = None,
    women: Annotated[bool, typer.Option("--women")] = False,
    juniors: Annotated[bool, typer.Option("--juniors", help="Born in the last 20 years.")] = False,
    girls: Annotated[bool, typer.Option("--girls")] = False,
    active: Annotated[bool, typer.Option("--active", help="Hide inactive players.")] = False,
    title: Annotated[str | None, typer.Option("--title", help="E.g. GM.")] = None,
    min_rating: Annotated[int | None, typer.Option("--min-rating")] = None,
    max_rating: Annotated[int | None, typer.Option("--max-rating")] = None,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = "standard",
    db: DbOption = None,
) -> None:
    """Show a published rating list, highest rating first, optionally filtered."""
    if period and as_of:
        raise InvalidInput("as-of: give --period or --as-of, not both.")
    the_period = _parse("period", Period.parse, period) if period else None
    day = _parse("as-of", parse_date, as_of) if as_of else None
    the_pool = _parse("pool", Pool.parse, pool)
    only = queries.ListFilter(
        federation, women, juniors, girls, active, title, min_rating, max_rating
    )
    with _ledger(ctx, db) as ledger, ledger.reading() as session:
        published = queries.rating_list(session, the_pool, the_period, top, only, day)
    render.rating_list(published, output)


@app.command("explain")
def explain(
    ctx: typer.Context,
    player: Annotated[int, typer.Argument(metavar="PLAYER", help="The player's ledger ID.")],
    period: Annotated[
        str | None,
        typer.Option(
            "--period", metavar="YYYY-MM", help="Default: the newest closed period they played in."
        ),
    ] = None,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = "standard",
    db: DbOption = None,
) -> None:
    """Show how a player's published change came about, game by game (FIDE's calculation)."""
    the_period = _parse("period", Period.parse, period) if period else None
    the_pool = _parse("pool", Pool.parse, pool)
    with _ledger(ctx, db) as ledger, ledger.reading() as session:
        explained = explanations.explain(session, the_pool, player, the_period)
    render.explanation(explained, output)


@app.command("player")
def player(
    ctx: typer.Context,
    player: Annotated[int, typer.Argument(metavar="PLAYER", help="The player's ledger ID.")],
    output: FormatOption = render.Format.TABLE,
    pool: Annotated[
        str | None, typer.Option("--pool", metavar="POOL", help="Only this pool; default: all.")
    ] = None,
    db: DbOption = None,
) -> None:
    """Show a player's card: standing, rank, K, peak, history, chart and live rating."""
    the_pool = _parse("pool", Pool.parse, pool) if pool else None
    with _ledger(ctx, db) as ledger, ledger.reading() as session:
        card = cards.player_card(session, player, the_pool)
    render.player_card(card, output)


@app.command("calc")
def calc(
    rating: Annotated[int, typer.Option("--rating", help="The player's rating.")],
    opponents: Annotated[
        str | None,
        typer.Option("--opponents", help='Per game, as FIDE rates: "2100:1,1950:0.5,1800:0".'),
    ] = None,
    average: Annotated[
        int | None, typer.Option("--average", help="Quick estimate: the opponents' average.")
    ] = None,
    score: Annotated[
        str | None, typer.Option("--score", help="Quick estimate: points scored, e.g. 5.5.")
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            help="With --average: games played. With --opponents: rated games completed (for K).",
        ),
    ] = None,
    k: Annotated[
        int | None, typer.Option("--k", help="K; default: from the options below.")
    ] = None,
    birth_year: Annotated[int | None, typer.Option("--birth-year", metavar="YYYY")] = None,
    games_completed: Annotated[
        int | None, typer.Option("--games-completed", help="Rated games completed (for K).")
    ] = None,
    ever_2400: Annotated[bool, typer.Option("--ever-2400")] = False,
    logistic: Annotated[
        bool, typer.Option("--logistic", help="Show the logistic Elo expectation beside.")
    ] = False,
    linear: Annotated[
        bool, typer.Option("--linear", help="Show the rule-of-400 performance too.")
    ] = False,
    period: Annotated[
        str | None, typer.Option("--period", metavar="YYYY-MM", help="Rules of this period.")
    ] = None,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = "standard",
) -> None:
    """The FIDE rating calculator: change, new rating, expected and break-even scores."""
    the_pool = _parse("pool", Pool.parse, pool)
    rules_period = _parse("period", Period.parse, period) if period else None
    if (opponents is None) == (average is None):
        raise InvalidInput("opponents: give --opponents, or --average with --score and --games.")
    completed = games_completed if games_completed is not None or average else games
    the_k, why = calculator.k_with_reason(rating, k, birth_year, completed, ever_2400, rules_period)
    if opponents is not None:
        result = calculator.calculate_games(
            rating, the_k, calculator.parse_opponents(opponents), the_pool, rules_period
        )
    else:
        if score is None or games is None:
            raise InvalidInput("score: the estimate needs --score and --games with --average.")
        result = calculator.calculate_average(
            rating,
            the_k,
            average or 0,
            calculator.parse_score(score),
            games,
            the_pool,
            rules_period,
        )
    render.calculation(result, why, output, logistic=logistic, linear=linear)


@app.command("stats")
def stats(
    ctx: typer.Context,
    period: Annotated[
        str | None, typer.Option("--period", metavar="YYYY-MM", help="Default: the newest.")
    ] = None,
    start: Annotated[int, typer.Option("--from", help="Lowest rating counted in bands.")] = 2200,
    band: Annotated[int, typer.Option("--band", help="Band width in rating points.")] = 50,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = "standard",
    db: DbOption = None,
) -> None:
    """The distribution of a published list in rating bands, with its totals."""
    the_period = _parse("period", Period.parse, period) if period else None
    the_pool = _parse("pool", Pool.parse, pool)
    with _ledger(ctx, db) as ledger, ledger.reading() as session:
        report = reports.list_statistics(session, the_pool, the_period, start, band)
    render.statistics(report, output)


@app.command("peaks")
def peaks(
    ctx: typer.Context,
    min_rating: Annotated[int | None, typer.Option("--min-rating")] = None,
    federation: Annotated[str | None, typer.Option("--federation", metavar="XXX")] = None,
    women: Annotated[bool, typer.Option("--women")] = False,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = "standard",
    db: DbOption = None,
) -> None:
    """The all-time list by peak published rating, with the list each peak was reached on."""
    the_pool = _parse("pool", Pool.parse, pool)
    with _ledger(ctx, db) as ledger, ledger.reading() as session:
        rows = reports.peaks(session, the_pool, min_rating, federation, women)
    render.peaks(rows, output)


@app.command("history")
def history(
    ctx: typer.Context,
    rank: Annotated[int, typer.Option("--rank", help="The rank to follow.")] = 1,
    federation: Annotated[str | None, typer.Option("--federation", metavar="XXX")] = None,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = "standard",
    db: DbOption = None,
) -> None:
    """Who held a rank on each published list, and for how many lists."""
    the_pool = _parse("pool", Pool.parse, pool)
    with _ledger(ctx, db) as ledger, ledger.reading() as session:
        holders = reports.rank_history(session, the_pool, rank, federation)
    render.rank_history(holders, output)


@app.command("event")
def event(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="EVENT", help="The event's name.")],
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = "standard",
    db: DbOption = None,
) -> None:
    """An event's cross-table, average rating and category, performances and changes."""
    the_pool = _parse("pool", Pool.parse, pool)
    with _ledger(ctx, db) as ledger, ledger.reading() as session:
        table = crosstables.cross_table(session, the_pool, name)
    render.cross_table(table, output)


@app.command("demo")
def demo(
    ctx: typer.Context,
    pool: PoolOption = "standard",
    db: Annotated[
        str | None,
        typer.Option("--db", metavar="URL", help="Default: sqlite:///ledger-demo.db."),
    ] = None,
) -> None:
    """Build a demo ledger in its own database, close its period and show the top 10."""
    the_pool = _parse("pool", Pool.parse, pool)
    url = db or DEMO_URL
    summary = build_demo(url, the_pool, replace=db is None, now=_now())
    render.closed(summary.closed)
    with _ledger(ctx, url) as ledger, ledger.reading() as session:
        published = queries.rating_list(session, the_pool, top=10)
    render.rating_list(published, render.Format.TABLE)
    render.message(summary.next_steps)


@db_app.command("upgrade")
def db_upgrade(ctx: typer.Context, db: DbOption = None) -> None:
    """Bring the database schema to this ledger's newest revision."""
    before, after = database.upgrade_schema(_url(ctx, db))
    if before == after:
        render.message(f"The schema is already at the newest revision, {after}.")
    else:
        render.message(f"Upgraded the schema from {before or 'empty'} to {after}.")


@db_app.command("current")
def db_current(ctx: typer.Context, db: DbOption = None) -> None:
    """Show the database's schema revision and the newest one this ledger knows."""
    current, head = database.current_revision(_url(ctx, db))
    state = "up to date" if current == head else "run `ledger db upgrade`"
    render.message(f"{current or 'empty'} (newest: {head}; {state})")


def main() -> None:
    app()
