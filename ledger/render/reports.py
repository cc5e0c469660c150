"""The calculator, list statistics, peaks, rank history and event cross-tables."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

from rich import box

from ledger.core.calculator import AverageOpponent, Calculation, GameRow, logistic_expected_score
from ledger.core.printable import counted
from ledger.core.rules import RulesInForce
from ledger.queries import (
    Band,
    CrossGame,
    CrossTable,
    FederationRanking,
    FederationRow,
    ListStatistics,
    PeakRow,
    RankHolder,
    RankSummary,
    plain,
)
from ledger.render.base import (
    Console,
    Format,
    Table,
    list_text,
    points,
    print_csv,
    print_json,
    print_records,
    text,
)
from ledger.render.fitting import Column, fitted


def calculation(
    result: Calculation, k_reason: str, output: Format, *, logistic: bool, linear: bool
) -> None:
    """The calculator's answer: per game (or the estimate's basis), then the totals."""
    if output is not Format.TABLE:
        document = _in_points(plain(result)) | {"k_reason": k_reason}
        if logistic:
            document["logistic_expected"] = [
                logistic_expected_score(row.capped_difference) for row in _basis(result)
            ]
        if output is Format.JSON:
            print_json(document)
        elif result.rows:
            print_csv(document["rows"], [field.name for field in dataclasses.fields(GameRow)])
        else:
            totals = {
                key: value
                for key, value in document.items()
                if key not in ("rows", "average", "rules")
            } | _rules_columns(result.rules)
            print_csv([totals], list(totals))
        return
    console = Console()
    console.print(_calculation_table(result, logistic=logistic))
    for line in _calculation_lines(result, k_reason, linear=linear):
        console.print(line)


def _rules_columns(in_force: RulesInForce) -> dict[str, object]:
    """The rules a calculation used, as flat columns of its CSV row."""
    return {
        "era": in_force.era,
        "era_from": str(in_force.first_period),
        "difference_cap": in_force.difference_cap,
        "k_product_cap": in_force.k_product_cap,
        "floor": in_force.floor,
    }


_HUNDREDTHS = frozenset(
    (
        "expected",
        "score",
        "delta",
        "total_expected",
        "total_score",
        "delta_sum",
        "k_times_sum",
        "break_even_score",
    )
)


def _in_points(document: Any) -> Any:
    """The calculation's hundredths as points (0.43, 3.87), as `explain` shows them."""
    if isinstance(document, dict):
        return {
            key: _as_points(value) if key in _HUNDREDTHS else _in_points(value)
            for key, value in document.items()
        }
    if isinstance(document, list):
        return [_in_points(item) for item in document]
    return document


def _as_points(hundredths: int) -> Decimal:
    return Decimal(hundredths) / 100


def _basis(result: Calculation) -> Sequence[GameRow | AverageOpponent]:
    return result.rows or ((result.average,) if result.average else ())


def _calculation_table(result: Calculation, *, logistic: bool) -> Table:
    title = "Estimate from the average opponent" if result.estimate else "Per game"
    table = Table(title=title, title_justify="left", pad_edge=False)
    headers = ["Opponent", "D", f"D{result.rules.difference_cap}", "PD"]
    headers += ["Elo"] if logistic else []
    for header in headers + ([] if result.estimate else ["Score", "ΔR"]):
        table.add_column(header, justify="right")
    for row in _basis(result):
        cells = [
            str(row.opponent_rating if isinstance(row, GameRow) else row.rating),
            str(row.difference),
            str(row.capped_difference),
            points(row.expected),
        ]
        if logistic:
            cells.append(str(logistic_expected_score(row.capped_difference)))
        if isinstance(row, GameRow):
            cells += [points(row.score), f"{row.delta / 100:+.2f}"]
        table.add_row(*cells)
    return table


def _calculation_lines(result: Calculation, k_reason: str, *, linear: bool) -> list[str]:
    lines = [
        f"Expected {points(result.total_expected)} of {result.games}, "
        f"scored {points(result.total_score)}",
        k_reason
        + (
            ""
            if result.k_applied == result.k_given
            else f"; {result.k_applied} after the {result.rules.k_product_cap} cap"
        ),
        f"Change: K × ΣΔR = {result.k_applied} × {result.delta_sum / 100:+.2f} = "
        f"{result.k_times_sum / 100:+.2f}, rounded {result.change:+d}; "
        f"new rating {result.new_rating}",
        f"Not to lose rating: score at least {points(result.break_even_score)}",
        f"Performance (table 8.1.1): {result.performance}",
    ]
    if linear:
        lines.append(f"Performance (rule of 400): {result.linear_performance}")
    lines.append(f"Rules: {result.rules.summary}")
    if result.estimate:
        lines.append("This is an estimate: FIDE rates game by game (use --opponents).")
    return lines


def statistics(report: ListStatistics, output: Format) -> None:
    """The distribution table, then the list's totals."""
    if output is not Format.TABLE:
        if output is Format.JSON:
            print_json(plain(report))
        else:
            bands = [plain(band) for band in report.bands]
            print_csv(bands, [field.name for field in dataclasses.fields(Band)])
        return
    table = Table(
        title=f"{report.pool.capitalize()} rating list {report.period}: players by rating",
        title_justify="left",
        pad_edge=False,
    )
    for header in ("Rating", "Players", "Active", "Women", "Women active"):
        table.add_column(header, justify="right")
    for band in report.bands:
        table.add_row(
            f"{band.low}-{band.high}",
            str(band.players),
            str(band.active),
            str(band.women),
            str(band.women_active),
        )
    console = Console()
    console.print(table)
    average = "none" if report.average_change is None else f"{report.average_change:+}"
    console.print(
        f"{report.rated_players} rated players, {report.below_the_bands} of them below "
        f"{report.bands[-1].low} ({report.active_players} active, {report.women} women, "
        f"{report.women_active} active); "
        f"{counted(report.games_rated, 'game')} rated in {report.period}; "
        f"average change of the players rated {average}"
    )


def federation_ranking(ranking: FederationRanking, output: Format) -> None:
    """Federations by the average of their best active players, with their counts."""
    if output is Format.JSON:
        print_json(plain(ranking))
        return
    if print_records(ranking.rows, FederationRow, output):
        return
    who = "women" if ranking.women else "players"
    table = Table(
        title=f"{ranking.pool.capitalize()} federations, list of {list_text(ranking.period)}: "
        f"average of the best {ranking.top} active {who}",
        title_justify="left",
        pad_edge=False,
    )
    for header in ("#", "Fed", "Average", "Rated", "Active", "Women", "Titled"):
        table.add_column(header, justify="left" if header == "Fed" else "right")
    for row in ranking.rows:
        average = f"{row.average}" if row.rank else f"({row.average} of {row.top_players})"
        table.add_row(
            text(row.rank) or "-",
            row.federation,
            average,
            str(row.rated),
            str(row.active),
            str(row.women),
            str(row.titled),
        )
    Console().print(table)


def peaks(rows: Sequence[PeakRow], output: Format) -> None:
    """The all-time list by peak rating, each peak's list named by its date."""
    _rows_table(
        "Highest ratings of all time",
        rows,
        output,
        PeakRow,
        lambda row: (
            str(row.rank),
            row.name,
            row.title or "",
            row.federation or "",
            str(row.peak),
            list_text(row.peak_period) or "before the ledger",
        ),
        (
            Column("#", "right"),
            Column("Name", name=True),
            Column("Tit", spare=2),
            Column("Fed"),
            Column("Peak", "right"),
            Column("Reached on", "right", spare=1, no_wrap=True),
        ),
    )


def rank_history(rows: Sequence[RankHolder], output: Format) -> None:
    """Who held a rank on each list."""
    _rows_table(
        "Holders of the rank, list by list",
        rows,
        output,
        RankHolder,
        lambda row: (
            list_text(row.period),
            row.name,
            row.federation or "",
            str(row.rating),
            str(row.lists_held),
        ),
        (
            Column("List", "right", no_wrap=True),
            Column("Name", name=True),
            Column("Fed"),
            Column("Rating", "right"),
            Column("Lists held", "right", spare=1),
        ),
    )


def rank_summary(rows: Sequence[RankSummary], output: Format) -> None:
    """Each holder of a rank once, with the first and last lists held."""
    _rows_table(
        "Holders of the rank",
        rows,
        output,
        RankSummary,
        lambda row: (
            row.name,
            row.federation or "",
            list_text(row.first_period),
            list_text(row.last_period),
            str(row.lists_held),
        ),
        (
            Column("Name", name=True),
            Column("Fed"),
            Column("First list", "right", spare=2, no_wrap=True),
            Column("Last list", "right", spare=1, no_wrap=True),
            Column("Lists", "right"),
        ),
    )


def _rows_table(
    title: str,
    rows: Sequence[Any],
    output: Format,
    kind: type[Any],
    cells: Callable[[Any], tuple[str, ...]],
    columns: Sequence[Column],
) -> None:
    """A report of plain rows as a table, or as JSON / CSV with the dataclass's fields."""
    if print_records(rows, kind, output):
        return
    console = Console()
    shown = [cells(row) for row in rows]
    console.print(
        fitted(console, columns, shown, title=title, title_justify="left", pad_edge=False)
    )


def cross_table(table: CrossTable, output: Format) -> None:
    """The cross-table: per player the opponent's number, colour and result in each round."""
    if output is Format.JSON:
        print_json(plain(table))
        return
    if output is Format.CSV:
        rounds = [f"round_{number}" for number in range(1, table.rounds + 1)]
        rows = [
            {
                "rank": row.rank,
                "number": row.number,
                "id": row.id,
                "name": row.name,
                "rating": row.rating,
                "score": row.score,
                "performance": row.performance,
                "change": row.change,
            }
            | {f"round_{cell.round}": _cell(cell) for cell in row.games}
            for row in table.rows
        ]
        fields = [
            "rank",
            "number",
            "id",
            "name",
            "rating",
            "score",
            *rounds,
            "performance",
            "change",
        ]
        print_csv(rows, fields)
        return
    category = f", category {table.category}" if table.category else ""
    average = f"average rating {table.average_rating}" if table.average_rating else "unrated"
    console = Console()
    console.print(_standings_table(console, table, f"{table.event}: {average}{category}"))
    for title, grid in _rounds_tables(table):
        console.print(title)
        console.print(grid)
    if not table.rated:
        console.print(f"Period {table.period} is open: the event is not rated yet.")


def _cell(cell: CrossGame) -> str:
    """A round as the grid shows it: the opponent's number, colour and result (`6b½`), or a
    bye's TRF code and score (`H½`, `U1`)."""
    if cell.bye is not None:
        return f"{cell.bye}{cell.result}"
    return f"{cell.opponent}{cell.colour}{cell.result}"


_STANDINGS_COLUMNS = (
    Column("Rk", "right"),
    Column("No", "right"),
    Column("Name", name=True),
    Column("Fed", spare=2),
    Column("Rtg", "right"),
    Column("Pts", "right"),
    Column("Perf", "right", spare=1),
    Column("K×ΣΔR", "right"),
)


def _standings_table(console: Console, table: CrossTable, title: str) -> Table:
    """Final standings, in the report's order: rank, starting number, score (byes
    included), performance (table 8.1.1) and the change from the event."""
    rows = [
        (
            str(row.rank),
            str(row.number),
            row.name,
            row.federation or "",
            text(row.rating),
            points(int(row.score * 100)),
            text(row.performance),
            "" if row.change is None else f"{row.change:+.2f}",
        )
        for row in table.rows
    ]
    return fitted(
        console, _STANDINGS_COLUMNS, rows, title=title, title_justify="left", pad_edge=False
    )


ROUNDS_PER_GRID = 12
"""Rounds shown side by side; a longer event's grid continues below, to fit 80 columns."""


def _rounds_tables(table: CrossTable) -> list[tuple[str, Table]]:
    """Round by round, each grid under its title: the opponent's number, colour (w/b) and
    result of each game, and each bye (H, F, U, Z) with its score. (The title is a line of
    its own: as the table's title it would wrap to the width of a grid of a few rounds.)"""
    grids = []
    for first in range(1, table.rounds + 1, ROUNDS_PER_GRID):
        rounds = range(first, min(first + ROUNDS_PER_GRID, table.rounds + 1))
        grid = Table(
            box=box.SIMPLE_HEAD,
            pad_edge=False,
            collapse_padding=True,
        )
        for header in ("No", *(str(n) for n in rounds)):
            grid.add_column(header, justify="right", no_wrap=True)
        for row in table.rows:
            cells = {cell.round: _cell(cell) for cell in row.games}
            grid.add_row(str(row.number), *(cells.get(n, "") for n in rounds))
        title = f"Rounds {first}-{rounds[-1]} ({table.start_date} to {table.end_date})"
        grids.append((title, grid))
    return grids
