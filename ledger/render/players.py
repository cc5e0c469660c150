"""A player's calculation (`explain`) and card (`player`), with the rating chart."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ledger.core import rules
from ledger.core.domain import Pool
from ledger.core.printable import counted
from ledger.queries import (
    ExplainedGame,
    Explanation,
    FirstRating,
    HistoryRow,
    PlayerCard,
    PoolStanding,
    plain,
)
from ledger.render.base import Console, Format, Table, list_text, print_csv, print_json, text
from ledger.render.fitting import Column, fitted

GAME_FIELDS = tuple(field.name for field in dataclasses.fields(ExplainedGame))


def explanation(explained: Explanation, output: Format) -> None:
    """FIDE's individual calculation: per event and game, then K and the totals."""
    if output is Format.JSON:
        print_json(plain(explained))
    elif output is Format.CSV:
        games = explained.games + explained.unrated_games
        print_csv([plain(game) for game in games], GAME_FIELDS)
    else:
        _explanation_tables(explained)


def _explanation_tables(explained: Explanation) -> None:
    console = Console()
    console.print(
        f"{explained.name} ({explained.player}), {explained.pool} period {explained.period}: "
        f"rating on the previous list {text(explained.rating_before) or 'none (unrated)'}"
    )
    every_game = [_event_cells(game) for game in explained.games]
    for event in explained.events:
        games = [game for game in explained.games if game.event == event.event]
        cap = explained.rules.difference_cap
        console.print(_event_table(console, event.event, games, every_game, cap))
        k_part = "" if event.k_times_sum is None else f", K × ΣΔR {event.k_times_sum:+.2f}"
        console.print(f"  ΣΔR {event.sum:+.2f} over {counted(event.games, 'game')}{k_part}")
    console.print(f"Rules: {explained.rules.summary}")
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
    if explained.first_rating is not None:
        console.print(_pooled_table(console, explained.first_rating))
        for line in first_rating_lines(explained.first_rating):
            console.print(line)
    elif explained.unrated_games:
        console.print(_unrated_table(explained.unrated_games))


def _event_columns(difference_cap: int) -> tuple[Column, ...]:
    """An event's columns, D after the period's cap headed by it ("D400", "D350").
    A narrow terminal leaves out the difference before the cap, then the round."""
    return (
        Column("Rd", "right", spare=2),
        Column("Opponent", name=True),
        Column("Rtg", "right"),
        Column("D", "right", spare=1),
        Column(f"D{difference_cap}", "right"),
        Column("PD", "right"),
        Column("Score", "right"),
        Column("ΔR", "right"),
    )


def _event_table(
    console: Console,
    event: str | None,
    games: Sequence[ExplainedGame],
    every_game: Sequence[tuple[str, ...]],
    difference_cap: int,
) -> Table:
    """An event's games, with the columns that every event's games fit in."""
    return fitted(
        console,
        _event_columns(difference_cap),
        [_event_cells(game) for game in games],
        chosen_by=every_game,
        title=event or "(no event)",
        title_justify="left",
        pad_edge=False,
    )


def _event_cells(game: ExplainedGame) -> tuple[str, ...]:
    return (
        text(game.round),
        f"{game.opponent_name} ({game.opponent})",
        text(game.opponent_rating),
        text(game.d),
        text(game.d_capped),
        "" if game.pd is None else f"{game.pd:.2f}",
        text(game.score),
        f"{game.delta:+.2f}" if game.delta is not None else "",
    )


_POOLED_COLUMNS = (
    Column("Period", spare=1),
    Column("Date"),
    Column("Event"),
    Column("Opponent", name=True),
    Column("Rtg", "right"),
    Column("Score", "right"),
)
_NOTE = Column("Note")
"""Where a game was left out (a first event scored 0): the column shows only then."""


def _pooled_table(console: Console, pooled: FirstRating) -> Table:
    noted = not all(game.counted for game in pooled.games)
    rows = [
        (
            str(game.period),
            str(game.date),
            game.event or "",
            f"{game.opponent_name} ({game.opponent})",
            str(game.opponent_rating),
            str(game.score),
            *(("" if game.counted else "first event scored 0: disregarded",) if noted else ()),
        )
        for game in pooled.games
    ]
    return fitted(
        console,
        (*_POOLED_COLUMNS, _NOTE) if noted else _POOLED_COLUMNS,
        rows,
        title=f"Games pooled toward a first rating (8.2), {pooled.since} to {pooled.until}",
        title_justify="left",
        pad_edge=False,
    )


def _initial_rating_lines(pooled: FirstRating) -> list[str]:
    """Ra, p and Ru as the era of the calculation works them out (8.2): with two
    hypothetical draws against 1800 from March 2024, without them before."""
    n = pooled.counted
    capped = f"; capped at {pooled.cap}" if pooled.capped else ""
    if pooled.dummy_draws:
        return [
            f"Ra = (opponents + 2 × 1800, two hypothetical draws) / ({n} + 2) = {pooled.average}",
            f"p = ({pooled.points} + 1) / ({n} + 2) = {pooled.p:.2f}; dp = {pooled.dp:+d} "
            "(table 8.1.1)",
            f"Ru = Ra + dp = {pooled.average} {pooled.dp:+d}, rounded {pooled.uncapped}{capped}",
        ]
    ra = f"Ra = opponents / {n} = {pooled.average}"
    if pooled.bonus is not None:
        return [
            ra,
            f"50 % or more: Ru = Ra + {pooled.bonus} per half point above 50 %, rounded "
            f"{pooled.uncapped}{capped}",
        ]
    return [
        ra,
        f"p = {pooled.points} / {n} = {pooled.p:.2f}; dp = {pooled.dp:+d} (table 8.1.1)",
        f"Ru = Ra + dp = {pooled.average} {pooled.dp:+d}, rounded {pooled.uncapped}{capped}",
    ]


def first_rating_lines(pooled: FirstRating) -> list[str]:
    """The calculation of 8.2 in words and figures."""
    n, needed = pooled.counted, pooled.needed
    counted = f"{n} of {needed}" if n < needed else f"{n} (at least {needed})"
    lines = [
        f"{counted} games against rated opponents, within "
        f"{rules.INITIAL_RATING_WINDOW_MONTHS} months "
        f"({pooled.since} to {pooled.until}); scored {pooled.points}",
        *_initial_rating_lines(pooled),
    ]
    if pooled.rating is not None:
        lines.append(f"First rating {pooled.rating}")
    elif n < needed:
        lines.append(f"No first rating yet: {needed - n} more games needed")
    else:
        lines.append(f"No first rating: below {rules.rating_floor(pooled.until)} (7.1.4)")
    return lines


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


def player_card(card: PlayerCard, output: Format, pool: Pool | None = None) -> None:
    """The card: identity, each pool's standing (of `pool` alone, if given), history, a
    chart and the live rating."""
    if output is Format.JSON:
        print_json(plain(card))
    elif output is Format.CSV:
        rows = [
            {"pool": standing.pool.value} | plain(row)
            for standing in card.pools
            for row in standing.history
        ]
        print_csv(rows, ("pool", "period", "list_name", "rating", "change", "games", "k"))
    else:
        _card_tables(card, pool)


def _card_tables(card: PlayerCard, pool: Pool | None) -> None:
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
    if card.pending_details:
        since = (
            f"the list of {list_text(card.details_from)}" if card.details_from else "the next list"
        )
        console.print(f"Federation and title as recorded; published lists show them from {since}.")
    if not card.pools and not card.pooling:
        console.print(f"Not rated in the {pool} pool." if pool else "Not rated in any pool.")
    for pooled in card.pooling:
        console.print(f"{pooled.pool.capitalize()}: not rated; toward a first rating (8.2):")
        for line in first_rating_lines(pooled)[:1]:
            console.print(f"  {line}")
    for standing in card.pools:
        console.print(_standing_table(standing))
        if standing.history:
            console.print(_history_table(standing.history))
        if len(standing.history) > 1:
            console.print(rating_chart([row.rating for row in standing.history]))


def _standing_table(standing: PoolStanding) -> Table:
    table = Table(title=f"{standing.pool.capitalize()}", title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("value")
    rows = [
        ("Rating", _rating_text(standing)),
        ("On the list of", list_text(standing.list_period)),
        ("Rank", _rank_text(standing)),
        ("K in force", standing.k_reason or ""),
        ("Rated games", str(standing.games_completed)),
        ("Peak", f"{standing.peak} ({list_text(standing.peak_period) or 'before the ledger'})"),
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


def _rating_text(standing: PoolStanding) -> str:
    if standing.rating is None:
        return "unrated"
    if standing.list_period is None:
        return f"{standing.rating} (starting rating, not yet on a list)"
    return str(standing.rating)


def _rank_text(standing: PoolStanding) -> str:
    if standing.world_rank is None:
        return ""
    federation = f", {standing.federation_rank} in federation" if standing.federation_rank else ""
    return f"{standing.world_rank} in the world{federation}"


def _history_table(rows: Sequence[HistoryRow]) -> Table:
    table = Table(title="History", title_justify="left", pad_edge=False)
    for header in ("List", "Period", "Rating", "+/-", "Gms", "K"):
        table.add_column(header, justify="right")
    for row in rows:
        table.add_row(
            row.list_name,
            str(row.period),
            text(row.rating),
            "" if row.change is None else f"{row.change:+d}" if row.change else "0",
            str(row.games),
            text(row.k),
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
        lines.append(f"{text(label):>5} │{cells}")
    return "\n".join(lines)
