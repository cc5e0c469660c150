"""The read side: lists, calculations, cards, the calculator and reports."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger import queries, render
from ledger.cli.options import (
    DbOption,
    FederationOption,
    FormatOption,
    ListPeriodOption,
    NamedPlayerArgument,
    PoolOption,
    now,
    parse_given,
    pool_option,
    reading,
    typed_values,
)
from ledger.cli.usage import Commands
from ledger.core import calculator
from ledger.core.domain import FEDERATION_TOP_PLAYERS, Period, Pool, parse_date, parse_period
from ledger.core.records import HIGHEST_FILTER_RATING, LARGEST_ID, MOST_RANKS, MOST_TOP_PLAYERS

app = Commands()

MinRatingOption = Annotated[
    int | None, typer.Option("--min-rating", metavar="RATING", min=0, max=HIGHEST_FILTER_RATING)
]
MaxRatingOption = Annotated[
    int | None, typer.Option("--max-rating", metavar="RATING", min=0, max=HIGHEST_FILTER_RATING)
]


@app.command("list")
def list_(
    ctx: typer.Context,
    period: ListPeriodOption = None,
    as_of: Annotated[
        str | None,
        typer.Option("--as-of", metavar="YYYY-MM-DD", help="The list in force on that day."),
    ] = None,
    version: Annotated[
        int | None,
        typer.Option(
            "--version",
            metavar="N",
            min=1,
            max=LARGEST_ID,
            help="An earlier version of a re-rated list (1: the original).",
        ),
    ] = None,
    top: Annotated[
        int | None,
        typer.Option("--top", metavar="N", min=1, max=LARGEST_ID, help="Only the first N rows."),
    ] = None,
    federation: FederationOption = None,
    women: Annotated[bool, typer.Option("--women")] = False,
    juniors: Annotated[bool, typer.Option("--juniors", help="Born in the last 20 years.")] = False,
    girls: Annotated[bool, typer.Option("--girls")] = False,
    active: Annotated[bool, typer.Option("--active", help="Hide inactive players.")] = False,
    title: Annotated[str | None, typer.Option("--title", metavar="TITLE", help="E.g. GM.")] = None,
    min_rating: MinRatingOption = None,
    max_rating: MaxRatingOption = None,
    live: Annotated[
        bool,
        typer.Option("--live", help="Unofficial: the newest list plus the games recorded since."),
    ] = False,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Show a published rating list, highest rating first, optionally filtered.

    Example: ledger list --federation NOR --juniors --top 10 --format csv
    """
    request = queries.ListRequest(
        pool,
        parse_given("period", parse_period, period),
        as_of=parse_given("as-of", parse_date, as_of),
        version=version,
        top=top,
        only=queries.ListFilter(
            federation=federation,
            women=women,
            juniors=juniors,
            girls=girls,
            active=active,
            title=title,
            min_rating=min_rating,
            max_rating=max_rating,
        ),
        live=live,
    )
    with reading(ctx, db) as session:
        if output is render.Format.CSV:  # a whole list is written as it is read
            render.list_csv(queries.list_cells(session, request))
            return
        if output is render.Format.JSON:
            render.list_json(queries.list_cells(session, request))
            return
        published = queries.published_list(session, request)
    render.rating_list(published)


@app.command("games")
def games(
    ctx: typer.Context,
    player: Annotated[
        int | None,
        typer.Option("--player", metavar="ID", min=1, max=LARGEST_ID, help="A player's ledger ID."),
    ] = None,
    event: Annotated[
        str | None, typer.Option("--event", metavar="TEXT", help="Part of the event's name.")
    ] = None,
    period: Annotated[str | None, typer.Option("--period", metavar="YYYY-MM")] = None,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """List recorded games with their IDs, and whether and why each was rated.

    Example: ledger games --player 101 --period 2026-10 --format json
    """
    only = queries.GameFilter(player, event, parse_given("period", parse_period, period))
    with reading(ctx, db) as session:
        listed = queries.game_listing(session, pool, only)
    render.game_listing(listed, output)


@app.command("explain")
def explain(
    ctx: typer.Context,
    player: NamedPlayerArgument,
    period: Annotated[
        str | None,
        typer.Option(
            "--period", metavar="YYYY-MM", help="Default: the newest closed period they played in."
        ),
    ] = None,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Show how a player's published change came about, game by game (FIDE's calculation).

    Example: ledger explain 'Carlsen, Magnus' --period 2026-10
    """
    the_period = parse_given("period", parse_period, period)
    with reading(ctx, db) as session:
        explained = queries.explain(session, pool, queries.one_player(session, player), the_period)
    render.explanation(explained, output)


@app.command("player")
def player(
    ctx: typer.Context,
    player: NamedPlayerArgument,
    output: FormatOption = render.Format.TABLE,
    pool: Annotated[
        Pool | None, pool_option("Only this pool (standard, rapid or blitz); default: all.")
    ] = None,
    db: DbOption = None,
) -> None:
    """Show a player's card: standing, rank, K, peak, history, chart and live rating.

    Example: ledger player 101 --pool blitz
    """
    with reading(ctx, db) as session:
        card = queries.player_card(session, queries.one_player(session, player), pool)
    render.player_card(card, output, pool)


@app.command("calc")
def calc(
    rating: Annotated[int, typer.Option("--rating", metavar="RATING", help="The player's rating.")],
    opponents: Annotated[
        str | None,
        typer.Option(
            "--opponents",
            metavar="RATING:SCORE,...",
            help='Per game, as FIDE rates: "2100:1,1950:0.5,1800:0".',
        ),
    ] = None,
    average: Annotated[
        int | None,
        typer.Option("--average", metavar="RATING", help="Quick estimate: the opponents' average."),
    ] = None,
    score: Annotated[
        str | None,
        typer.Option("--score", metavar="POINTS", help="Quick estimate: points scored, e.g. 5.5."),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            metavar="N",
            help="With --average: games played. With --opponents: rated games completed (for K).",
        ),
    ] = None,
    k: Annotated[
        int | None, typer.Option("--k", metavar="K", help="K; default: from the options below.")
    ] = None,
    birth_year: Annotated[int | None, typer.Option("--birth-year", metavar="YYYY")] = None,
    games_completed: Annotated[
        int | None,
        typer.Option("--games-completed", metavar="N", help="Rated games completed (for K)."),
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
    pool: PoolOption = Pool.STANDARD,
) -> None:
    """The FIDE rating calculator: change, new rating, expected and break-even scores.

    Example: ledger calc --rating 1850 --opponents 2100:1,1950:0.5,1800:0 --games-completed 40
    """
    with typed_values():  # the calculator reads the command line alone
        request = calculator.Request(
            rating=rating,
            k=k,
            birth_year=birth_year,
            games_completed=games_completed,
            ever_2400=ever_2400,
            opponents=opponents,
            average=average,
            score=score,
            games=games,
            pool=pool,
            period=parse_given("period", parse_period, period) or Period.of(now().date()),
        )
        result, why = calculator.calculate(request)
    render.calculation(result, why, output, logistic=logistic, linear=linear)


@app.command("stats")
def stats(
    ctx: typer.Context,
    period: ListPeriodOption = None,
    start: Annotated[
        int,
        typer.Option(
            "--from",
            metavar="RATING",
            min=0,
            max=HIGHEST_FILTER_RATING,
            help="Lowest rating counted in bands.",
        ),
    ] = 2200,
    band: Annotated[
        int,
        typer.Option(
            "--band",
            metavar="POINTS",
            min=1,
            max=HIGHEST_FILTER_RATING,
            help="Band width in rating points.",
        ),
    ] = 50,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """The distribution of a published list in rating bands, with its totals.

    Example: ledger stats --period 2026-10 --from 2000 --band 100
    """
    the_period = parse_given("period", parse_period, period)
    with reading(ctx, db) as session:
        report = queries.list_statistics(session, pool, the_period, start, band)
    render.statistics(report, output)


@app.command("federations")
def federations(
    ctx: typer.Context,
    period: ListPeriodOption = None,
    top: Annotated[
        int,
        typer.Option(
            "--top",
            metavar="N",
            min=1,
            max=MOST_TOP_PLAYERS,
            help="How many active players make the average.",
        ),
    ] = FEDERATION_TOP_PLAYERS,
    women: Annotated[bool, typer.Option("--women", help="Women only.")] = False,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Federations ranked by the average rating of their best active players.

    Example: ledger federations --top 10 --women
    """
    the_period = parse_given("period", parse_period, period)
    with reading(ctx, db) as session:
        ranking = queries.federation_ranking(session, pool, the_period, top, women=women)
    render.federation_ranking(ranking, output)


@app.command("peaks")
def peaks(
    ctx: typer.Context,
    min_rating: MinRatingOption = None,
    federation: FederationOption = None,
    women: Annotated[bool, typer.Option("--women")] = False,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """The all-time list by peak published rating, with the list each peak was reached on.

    Example: ledger peaks --min-rating 2500 --federation NOR
    """
    with reading(ctx, db) as session:
        rows = queries.peaks(session, pool, min_rating, federation, women=women)
    render.peaks(rows, output)


@app.command("history")
def history(
    ctx: typer.Context,
    rank: Annotated[
        int,
        typer.Option("--rank", metavar="N", min=1, max=MOST_RANKS, help="The rank to follow."),
    ] = 1,
    federation: FederationOption = None,
    women: Annotated[bool, typer.Option("--women", help="The rank among women.")] = False,
    active: Annotated[
        bool, typer.Option("--active", help="The rank among active players.")
    ] = False,
    summary: Annotated[
        bool, typer.Option("--summary", help="Each holder once: first and last list, how many.")
    ] = False,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Who held a rank on each published list, and for how many lists.

    Example: ledger history --rank 1 --summary
    """
    with reading(ctx, db) as session:
        if summary:
            holders = queries.rank_summary(
                session, pool, rank, federation, women=women, active=active
            )
        else:
            listed = queries.rank_history(
                session, pool, rank, federation, women=women, active=active
            )
    if summary:
        render.rank_summary(holders, output)
    else:
        render.rank_history(listed, output)


@app.command("periods")
def periods(
    ctx: typer.Context,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Every rating period: open or closed, games recorded and rated, when and by whom its
    list was published, its versions.

    Example: ledger periods --pool rapid
    """
    with reading(ctx, db) as session:
        rows = queries.period_overview(session, pool, with_operators=True)
    render.period_overview(rows, pool, output)


@app.command("events")
def events(
    ctx: typer.Context,
    period: Annotated[
        str | None, typer.Option("--period", metavar="YYYY-MM", help="Events ending in it.")
    ] = None,
    player: Annotated[
        int | None,
        typer.Option(
            "--player", metavar="ID", min=1, max=LARGEST_ID, help="Events of this ledger ID."
        ),
    ] = None,
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """Events with their dates, players, games, category and whether they are rated.

    Example: ledger events --period 2026-10
    """
    only = queries.EventFilter(parse_given("period", parse_period, period), player)
    with reading(ctx, db) as session:
        rows = queries.event_listing(session, pool, only)
    render.event_listing(rows, pool, output)


@app.command("event")
def event(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="EVENT", help="The event's name.")],
    output: FormatOption = render.Format.TABLE,
    pool: PoolOption = Pool.STANDARD,
    db: DbOption = None,
) -> None:
    """An event's cross-table, average rating and category, performances and changes.

    Example: ledger event 'Autumn Cup' --format csv
    """
    with reading(ctx, db) as session:
        table = queries.cross_table(session, pool, name)
    render.cross_table(table, output)
