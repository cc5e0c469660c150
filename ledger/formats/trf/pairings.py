"""Making games and byes of a TRF file's round blocks (read by `ledger.formats.trf.lines`): each
round's date, and each pairing once, where both players' 001 lines agree on it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from ledger.formats.trf.lines import PlayerSection, Problems, RoundEntry
from ledger.formats.trf.records import HALF_POINTS, RESULTS, TrfBye, TrfEvent, TrfGame

_OTHER_SIDE = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+"}
_SAYS = {
    "1": "won",
    "0": "lost",
    "=": "drew",
    "W": "won a not-rated game",
    "L": "lost a not-rated game",
    "D": "drew a not-rated game",
    "+": "won by forfeit",
    "-": "lost by forfeit",
}
_WITH = {"w": " with White", "b": " with Black", "-": ""}


def round_days(event: TrfEvent, section: PlayerSection, problems: Problems) -> dict[int, dt.date]:
    """The date of each round the lines list: its 132 date, else the event's end date."""
    first_lines: dict[int, int] = {}
    for rank, round in section.entries:
        first_lines.setdefault(round, section.lines[rank])
    days: dict[int, dt.date] = {}
    for round, line in first_lines.items():
        listed = event.round_dates[round - 1] if round <= len(event.round_dates) else None
        day = listed or event.end_date
        if day is None:
            problems.add(
                line,
                f"round {round} has no date: the 132 record gives none and there is "
                "no end date; add the round's date to 132 or an end date (052).",
            )
        else:
            days[round] = day
    return days


def points_warnings(section: PlayerSection, problems: Problems) -> None:
    """A warning for each player whose points are not those their rounds score as FIDE
    scores them by default (`HALF_POINTS`): the report's own points are kept, and shown."""
    scored: dict[int, int] = {}
    for entry in _readable(section):
        scored[entry.player] = scored.get(entry.player, 0) + 50 * HALF_POINTS[entry.code]
    for player in section.players:
        rounds = scored.get(player.rank, 0)
        if player.points is not None and player.points != rounds:
            problems.warn(
                player.line,
                "points",
                f"columns 81-84: the report gives {_points(player.points)} points, but the "
                f"rounds score {_points(rounds)} as FIDE scores them by default (a win, also "
                "by forfeit, and the byes F and U 1, a draw and the bye H ½); the report's "
                "points are kept.",
            )


def rank_warnings(section: PlayerSection, problems: Problems) -> None:
    """A warning for each player the report does not rank (a blank or 0 rank, as
    Swiss-Manager writes for a player who withdrew) where it ranks others: the others keep
    their ranks, and these players are ranked after the last, by points."""
    if not any(player.place is not None for player in section.players):
        return
    unreadable = {line for line, field, _ in problems.warnings if field == "rank"}
    for player in section.players:
        if player.place is None and player.line not in unreadable:
            problems.warn(
                player.line,
                "rank",
                "columns 86-89: the report ranks other players but not this one; it is "
                "ranked after the report's last rank, by points.",
            )


def _points(hundredths: int) -> str:
    return f"{hundredths // 100}.{hundredths % 100:02d}".removesuffix("0")


def _readable(section: PlayerSection) -> Iterator[RoundEntry]:
    return (entry for entry in section.entries.values() if entry is not None)


def read_byes(section: PlayerSection, days: dict[int, dt.date]) -> list[TrfBye]:
    """Each block without an opponent, in a round that has a date."""
    byes = [
        TrfBye(entry.round, entry.player, entry.code, days[entry.round], entry.line)
        for entry in _readable(section)
        if entry.opponent is None and entry.round in days
    ]
    return sorted(byes, key=lambda bye: (bye.round, bye.player))


def read_games(
    section: PlayerSection, days: dict[int, dt.date], problems: Problems
) -> list[TrfGame]:
    """Each pairing once, where both players' lines agree on it; else a problem."""
    games: list[TrfGame] = []
    for entry in _readable(section):
        if entry.opponent is None:
            continue
        other = section.entries.get((entry.opponent, entry.round))
        unmatched = _unmatched(entry, section)
        if unmatched:
            problems.add(entry.line, f"round {entry.round}: {unmatched}")
        elif other is not None and entry.player < entry.opponent:
            try:
                white, black = _white_and_black(entry, other)
            except ValueError as error:
                problems.add(entry.line, f"round {entry.round}: {error}")
                continue
            if entry.round in days:
                games.append(_game(white, black, days[entry.round]))
    return sorted(games, key=lambda game: (game.round, game.white))


def _unmatched(entry: RoundEntry, section: PlayerSection) -> str | None:
    """What is wrong with a block's opponent; None when the opponent's line names this
    player back in the same round (or that block could not be read, already a problem)."""
    opponent = entry.opponent
    if opponent == entry.player:
        return f"the opponent is {opponent}, this line's own starting rank."
    if opponent not in section.lines:
        return f"the opponent {opponent} is not a player; no 001 line has that starting rank."
    key = (opponent, entry.round)
    other = section.entries.get(key)
    if key in section.entries and (other is None or other.opponent == entry.player):
        return None
    if other is None:
        says = f"has nothing for {opponent} in round {entry.round}"
    elif other.opponent is None:
        says = f"gives {opponent} a bye ({other.code})"
    else:
        says = f"pairs {opponent} with {other.opponent}"
    return (
        f"this line pairs {entry.player} with {opponent}, but line {section.lines[opponent]} "
        f"{says}; the two lines must agree."
    )


def _white_and_black(first: RoundEntry, second: RoundEntry) -> tuple[RoundEntry, RoundEntry]:
    """The blocks of White and Black; two forfeit blocks without colours make the lower
    starting rank White. Raises ValueError when the blocks disagree."""
    colours = first.colour + second.colour
    complementary = _OTHER_SIDE[first.code] == second.code or first.code == second.code == "-"
    if complementary and colours in ("wb", "--"):
        return first, second
    if complementary and colours == "bw":
        return second, first
    raise ValueError(
        f"this line says {_says(first)}, but line {second.line} says {_says(second)}; "
        "the two lines must agree."
    )


def _says(entry: RoundEntry) -> str:
    return f"{entry.player} {_SAYS[entry.code]}{_WITH[entry.colour]} against {entry.opponent}"


def _game(white: RoundEntry, black: RoundEntry, date: dt.date) -> TrfGame:
    result, rated = RESULTS[white.code, black.code]
    return TrfGame(
        white.round,
        white.player,
        black.player,
        result,
        rated,
        date,
        (white.line, black.line),
        colours=white.colour != "-",
    )
