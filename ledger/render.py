"""Everything the ledger prints: Rich tables, CSV and JSON. The only module that uses Rich.

Tables go to stdout and hold nothing but the table; messages go to stdout as plain lines,
errors to stderr.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import json
import sys
from collections.abc import Callable, Sequence
from decimal import Decimal
from enum import StrEnum
from typing import Any

from rich import box
from rich.console import Console, JustifyMethod
from rich.table import Table

from ledger.calculator import AverageOpponent, Calculation, GameRow, logistic_expected_score
from ledger.cards import HistoryRow, PlayerCard, PoolStanding
from ledger.crosstables import CrossTable
from ledger.domain import Period, Pool
from ledger.explanations import ExplainedGame, Explanation
from ledger.queries import ListRow, RatingList
from ledger.reports import Band, ListStatistics, PeakRow, RankHolder
from ledger.services.closing import ClosedPeriod


class Format(StrEnum):
    TABLE = "table"
    CSV = "csv"
    JSON = "json"


LIST_FIELDS = tuple(field.name for field in dataclasses.fields(ListRow))


def _data(value: Any) -> Any:
    """A query's result as plain data: dataclasses as dicts, periods as `YYYY-MM` text.

    (`dataclasses.asdict` would turn a Period, itself a dataclass, into a dict.)
    """
    if isinstance(value, Period | Pool):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: _data(getattr(value, field.name)) for field in dataclasses.fields(value)
        }
    if isinstance(value, list | tuple):
        return [_data(item) for item in value]
    return value


def _json_value(value: object) -> object:
    """JSON for the ledger's values: exact hundredths as numbers, dates and periods as text."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dt.date):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def _print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=_json_value))


def _print_csv(rows: Sequence[dict[str, object]], fields: Sequence[str]) -> None:
    writer = csv.DictWriter(sys.stdout, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


def message(text: str) -> None:
    print(text)


def error(text: str) -> None:
    print(f"error: {text}", file=sys.stderr)


def rating_list(published: RatingList, output: Format) -> None:
    """A published list as a table, CSV (one header line) or a JSON array of objects."""
    rows = [_data(row) for row in published.rows]
    if output is Format.JSON:
        _print_json(rows)
    elif output is Format.CSV:
        _print_csv(rows, LIST_FIELDS)
    else:
        Console().print(_list_table(published))


def _list_table(published: RatingList) -> Table:
    table = Table(
        title=f"{published.pool.capitalize()} rating list {published.period}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    columns = (("#", "right"), ("World", "right")) if published.filtered else (("#", "right"),)
    for header, justify in (*columns, *_LIST_COLUMNS):
        table.add_column(header, justify=justify, no_wrap=header != "Name")
    for row in published.rows:
        world = (str(row.world_rank),) if published.filtered else ()
        table.add_row(str(row.rank), *world, *_list_cells(row))
    return table


_LIST_COLUMNS: Sequence[tuple[str, JustifyMethod]] = (
    ("ID", "right"),
    ("Name", "left"),
    ("Tit", "left"),
    ("Fed", "left"),
    ("Rating", "right"),
    ("+/-", "right"),
    ("Move", "right"),
    ("Gms", "right"),
    ("K", "right"),
    ("Fl", "left"),
    ("Peak", "right"),
)


def _list_cells(row: ListRow) -> tuple[str, ...]:
    return (
        str(row.id),
        row.name,
        row.title or "",
        row.federation or "",
        str(row.rating),
        "new" if row.change is None else f"{row.change:+d}" if row.change else "0",
        movement(row.movement),
        str(row.games),
        str(row.k),
        row.flag,
        str(row.peak),
    )


def movement(places: int | None) -> str:
    """Rank movement against the previous list: ↑3, ↓1, = or new."""
    if places is None:
        return "new"
    if places == 0:
        return "="
    return f"↑{places}" if places > 0 else f"↓{-places}"


def _text(value: object) -> str:
    return "" if value is None else str(value)


def closed(summary: ClosedPeriod) -> None:
    """What a close published, in a few plain lines."""
    *empty, period = summary.periods
    if empty:
        listed = ", ".join(str(p) for p in empty)
        print(f"Closed {listed} (no games; lists published unchanged).")
    print(
        f"Closed {summary.pool} period {period}: {summary.games_rated} games rated, "
        f"{summary.games_unrated} not rated; {summary.players_rated} players rated, "
        f"{summary.newly_rated} newly rated, {summary.unrated_by_floor} fell below the floor."
    )
    print(f"The list effective {(period + 1)}-01 is published: `ledger list --period {period}`.")


GAME_FIELDS = tuple(field.name for field in dataclasses.fields(ExplainedGame))


def explanation(explained: Explanation, output: Format) -> None:
    """FIDE's individual calculation: per event and game, then K and the totals."""
    if output is Format.JSON:
        data = _data(explained)
        data["games"] = data.pop("rated_games")
        _print_json(data)
    elif output is Format.CSV:
        games = explained.rated_games + explained.unrated_games
        _print_csv([_data(game) for game in games], GAME_FIELDS)
    else:
        _explanation_tables(explained)


def _explanation_tables(explained: Explanation) -> None:
    console = Console()
    console.print(
        f"{explained.name} ({explained.player}), {explained.pool} period {explained.period}: "
        f"rating on the previous list {_text(explained.rating_before) or 'none (unrated)'}"
    )
    for event in explained.events:
        games = [game for game in explained.rated_games if game.event == event.event]
        console.print(_event_table(event.event, games))
        k_part = "" if event.k_times_sum is None else f", K × ΣΔR {event.k_times_sum:+.2f}"
        console.print(f"  ΣΔR {event.sum:+.2f} over {event.games} games{k_part}")
    if explained.k_reason:
        console.print(explained.k_reason)
    if explained.k_times_sum is not None:
        console.print(
            f"Period: K × ΣΔR = {explained.k} × {explained.sum:+.2f} = "
            f"{explained.k_times_sum:+.2f}, rounded {explained.change:+d}; "
            f"new rating {explained.rating_after}"
        )
    if explained.note:
        console.print(explained.note)
    if explained.unrated_games:
        console.print(_unrated_table(explained.unrated_games))


def _event_table(event: str | None, games: Sequence[ExplainedGame]) -> Table:
    table = Table(title=event or "(no event)", title_justify="left", pad_edge=False)
    for header in ("Rd", "Opponent", "Rtg", "D", "D400", "PD", "Score", "ΔR"):
        table.add_column(header, justify="left" if header == "Opponent" else "right")
    for game in games:
        table.add_row(
            _text(game.round),
            f"{game.opponent_name} ({game.opponent})",
            _text(game.opponent_rating),
            _text(game.d),
            _text(game.d_capped),
            "" if game.pd is None else f"{game.pd:.2f}",
            _text(game.score),
            f"{game.delta:+.2f}" if game.delta is not None else "",
        )
    return table


def _unrated_table(games: Sequence[ExplainedGame]) -> Table:
    table = Table(title="Not rated", title_justify="left", pad_edge=False)
    for header in ("Date", "Opponent", "Result", "Why"):
        table.add_column(header)
    for game in games:
        table.add_row(
            str(game.date),
            f"{game.opponent_name} ({game.opponent})",
            game.result,
            game.not_rated_because or "",
        )
    return table


CHART_HEIGHT = 8
CHART_WIDTH = 60


def player_card(card: PlayerCard, output: Format) -> None:
    """The card: identity, each pool's standing, history, a chart and the live rating."""
    if output is Format.JSON:
        _print_json(_data(card))
    elif output is Format.CSV:
        rows = [
            {"pool": standing.pool.value} | _data(row)
            for standing in card.pools
            for row in standing.history
        ]
        _print_csv(rows, ("pool", "period", "rating", "change", "games", "k"))
    else:
        _card_tables(card)


def _card_tables(card: PlayerCard) -> None:
    console = Console()
    identity = ", ".join(
        part
        for part in (
            card.title,
            card.federation,
            {"F": "woman", "M": "man"}.get(card.sex or ""),
            f"born {card.birth_year}" if card.birth_year else None,
            f"FIDE ID {card.fide_id}" if card.fide_id else None,
        )
        if part
    )
    console.print(f"{card.name} (ID {card.id}){': ' + identity if identity else ''}")
    if not card.pools:
        console.print("Not rated in any pool.")
    for standing in card.pools:
        console.print(_standing_table(standing))
        if standing.history:
            console.print(_history_table(standing.history[-12:]))
        if len(standing.history) > 1:
            console.print(rating_chart([row.rating for row in standing.history]))


def _standing_table(standing: PoolStanding) -> Table:
    table = Table(title=f"{standing.pool.capitalize()}", title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("value")
    rows = [
        ("Rating", _text(standing.rating) or "unrated"),
        ("On the list of", _text(standing.list_period)),
        ("Rank", _rank_text(standing)),
        ("K in force", standing.k_reason or ""),
        ("Rated games", str(standing.games_completed)),
        ("Peak", f"{standing.peak} ({standing.peak_period or 'before the ledger'})"),
        ("Reached 2400", "yes" if standing.ever_2400 else "no"),
        ("Flag", standing.flag or "active"),
    ]
    if standing.live is not None:
        live = standing.live
        rows.append(
            (
                "Live (unofficial)",
                f"{live.rating} ({live.change:+d} from {live.games} games since {live.since})",
            )
        )
    for label, value in rows:
        table.add_row(label, value)
    return table


def _rank_text(standing: PoolStanding) -> str:
    if standing.world_rank is None:
        return ""
    federation = f", {standing.federation_rank} in federation" if standing.federation_rank else ""
    return f"{standing.world_rank} in the world{federation}"


def _history_table(rows: Sequence[HistoryRow]) -> Table:
    table = Table(title="History", title_justify="left", pad_edge=False)
    for header in ("List", "Rating", "+/-", "Gms", "K"):
        table.add_column(header, justify="right")
    for row in rows:
        table.add_row(
            str(row.period),
            _text(row.rating),
            "" if row.change is None else f"{row.change:+d}",
            str(row.games),
            _text(row.k),
        )
    return table


def rating_chart(ratings: Sequence[int | None]) -> str:
    """The ratings over time as a text chart: one column per list (the last 60)."""
    points = list(ratings[-CHART_WIDTH:])
    known = [rating for rating in points if rating is not None]
    if not known:
        return ""
    low, high = min(known), max(known)
    span = max(high - low, 1)
    lines = []
    for level in range(CHART_HEIGHT - 1, -1, -1):
        cells = "".join(
            "•"
            if rating is not None and (rating - low) * (CHART_HEIGHT - 1) // span == level
            else " "
            for rating in points
        )
        label = high if level == CHART_HEIGHT - 1 else low if level == 0 else None
        lines.append(f"{_text(label):>5} │{cells}")
    return "\n".join(lines)


def calculation(
    result: Calculation, k_reason: str, output: Format, *, logistic: bool, linear: bool
) -> None:
    """The calculator's answer: per game (or the estimate's basis), then the totals."""
    if output is not Format.TABLE:
        data = _data(result) | {"k_reason": k_reason}
        if logistic:
            data["logistic_expected"] = [
                logistic_expected_score(row.capped_difference) for row in _basis(result)
            ]
        if output is Format.JSON:
            _print_json(data)
        else:
            rows = [_data(row) for row in result.rows]
            _print_csv(rows, [field.name for field in dataclasses.fields(GameRow)])
        return
    console = Console()
    console.print(_calculation_table(result, logistic))
    for line in _calculation_lines(result, k_reason, linear):
        console.print(line)


def _basis(result: Calculation) -> Sequence[GameRow | AverageOpponent]:
    return result.rows or ((result.average,) if result.average else ())


def _calculation_table(result: Calculation, logistic: bool) -> Table:
    title = "Estimate from the average opponent" if result.estimate else "Per game"
    table = Table(title=title, title_justify="left", pad_edge=False)
    headers = ["Opponent", "D", "D400", "PD"] + (["Elo"] if logistic else [])
    for header in headers + ([] if result.estimate else ["Score", "ΔR"]):
        table.add_column(header, justify="right")
    for row in _basis(result):
        cells = [
            str(row.opponent_rating if isinstance(row, GameRow) else row.rating),
            str(row.difference),
            str(row.capped_difference),
            _points(row.expected),
        ]
        if logistic:
            cells.append(str(logistic_expected_score(row.capped_difference)))
        if isinstance(row, GameRow):
            cells += [_points(row.score), f"{row.delta / 100:+.2f}"]
        table.add_row(*cells)
    return table


def _calculation_lines(result: Calculation, k_reason: str, linear: bool) -> list[str]:
    lines = [
        f"Expected {_points(result.total_expected)} of {result.games}, "
        f"scored {_points(result.total_score)}",
        k_reason
        + ("" if result.k_applied == result.k_given else f"; {result.k_applied} after the 700 cap"),
        f"Change: K × ΣΔR = {result.k_applied} × {result.delta_sum / 100:+.2f} = "
        f"{result.k_times_sum / 100:+.2f}, rounded {result.change:+d}; "
        f"new rating {result.new_rating}",
        f"Not to lose rating: score at least {_points(result.break_even_score)}",
        f"Performance (table 8.1.1): {result.performance}",
    ]
    if linear:
        lines.append(f"Performance (rule of 400): {result.linear_performance}")
    if result.estimate:
        lines.append("This is an estimate: FIDE rates game by game (use --opponents).")
    return lines


def _points(hundredths: int) -> str:
    return f"{Decimal(hundredths) / 100:.2f}".rstrip("0").rstrip(".")


def statistics(report: ListStatistics, output: Format) -> None:
    """The distribution table, then the list's totals."""
    if output is not Format.TABLE:
        if output is Format.JSON:
            _print_json(_data(report))
        else:
            bands = [_data(band) for band in report.bands]
            _print_csv(bands, [field.name for field in dataclasses.fields(Band)])
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
        f"{report.rated_players} rated players ({report.active_players} active, "
        f"{report.women} women); {report.games_rated} games rated in {report.period}; "
        f"average change of the players rated {average}"
    )


def peaks(rows: Sequence[PeakRow], output: Format) -> None:
    """The all-time list by peak rating."""
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
            _text(row.peak_period) or "before the ledger",
        ),
        ("#", "Name", "Tit", "Fed", "Peak", "Reached on"),
    )


def rank_history(rows: Sequence[RankHolder], output: Format) -> None:
    """Who held a rank on each list."""
    _rows_table(
        "Holders of the rank, list by list",
        rows,
        output,
        RankHolder,
        lambda row: (
            str(row.period),
            row.name,
            row.federation or "",
            str(row.rating),
            str(row.lists_held),
        ),
        ("List", "Name", "Fed", "Rating", "Lists held"),
    )


def _rows_table(
    title: str,
    rows: Sequence[Any],
    output: Format,
    kind: type[Any],
    cells: Callable[[Any], tuple[str, ...]],
    headers: Sequence[str],
) -> None:
    """A report of plain rows as a table, or as JSON / CSV with the dataclass's fields."""
    if output is Format.JSON:
        _print_json(_data(list(rows)))
        return
    if output is Format.CSV:
        _print_csv([_data(row) for row in rows], [field.name for field in dataclasses.fields(kind)])
        return
    table = Table(title=title, title_justify="left", pad_edge=False)
    for header in headers:
        table.add_column(header, justify="left" if header in ("Name", "Tit", "Fed") else "right")
    for row in rows:
        table.add_row(*cells(row))
    Console().print(table)


def cross_table(table: CrossTable, output: Format) -> None:
    """The cross-table: per player the opponent's number, colour and result in each round."""
    if output is Format.JSON:
        _print_json(_data(table))
        return
    if output is Format.CSV:
        rounds = [f"round_{number}" for number in range(1, table.rounds + 1)]
        rows = [
            {
                "number": row.number,
                "id": row.id,
                "name": row.name,
                "rating": row.rating,
                "score": row.score,
                "performance": row.performance,
                "change": row.change,
            }
            | {f"round_{g.round}": f"{g.opponent}{g.colour}{g.result}" for g in row.games}
            for row in table.rows
        ]
        fields = ["number", "id", "name", "rating", "score", *rounds, "performance", "change"]
        _print_csv(rows, fields)
        return
    category = f", category {table.category}" if table.category else ""
    average = f"average rating {table.average_rating}" if table.average_rating else "unrated"
    console = Console()
    console.print(_standings_table(table, f"{table.event}: {average}{category}"))
    console.print(_rounds_table(table))
    if not table.rated:
        console.print(f"Period {table.period} is open: the event is not rated yet.")


def _standings_table(table: CrossTable, title: str) -> Table:
    """Final standings: score, performance (table 8.1.1) and the change from the event."""
    standings = Table(title=title, title_justify="left", pad_edge=False)
    for header in ("No", "Name", "Fed", "Rtg", "Pts", "Perf", "K×ΣΔR"):
        standings.add_column(header, justify="left" if header in ("Name", "Fed") else "right")
    for row in table.rows:
        standings.add_row(
            str(row.number),
            row.name,
            row.federation or "",
            _text(row.rating),
            _points(int(row.score * 100)),
            _text(row.performance),
            "" if row.change is None else f"{row.change:+.2f}",
        )
    return standings


def _rounds_table(table: CrossTable) -> Table:
    """Round by round: the opponent's number, colour (w/b) and result of each game."""
    grid = Table(
        title=f"Rounds ({table.start_date} to {table.end_date})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for header in ("No", *(str(n) for n in range(1, table.rounds + 1))):
        grid.add_column(header, justify="right", no_wrap=True)
    for row in table.rows:
        cells = {g.round: f"{g.opponent}{g.colour}{g.result}" for g in row.games}
        grid.add_row(str(row.number), *(cells.get(n, "") for n in range(1, table.rounds + 1)))
    return grid
