"""Writing a tournament report as a TRF16 file, in the columns `ledger.formats.trf` reads: the
header records, then one 001 line per player with its points, its rank and one 10-column
block per round from column 92.
"""

from __future__ import annotations

import datetime as dt

from ledger.core.printable import escaped
from ledger.formats.trf.records import (
    FIRST_ROUND_COLUMN,
    RESULTS,
    ROUND_WIDTH,
    TournamentReport,
    TrfPlayer,
    nearest_year,
    rank_of,
)

_WRITTEN_SEX = {"M": "m", "F": "w"}
_CODES = {outcome: codes for codes, outcome in RESULTS.items()}
_HALF_POINTS = dict.fromkeys("1W+FU", 2) | dict.fromkeys("=DH", 1) | dict.fromkeys("0L-Z", 0)
"""Each code's score in half points, FIDE's defaults (TRF-2026 record 162): a
pairing-allocated bye (U) scores as a win."""


def write_trf(report: TournamentReport) -> str:
    """The report as a TRF16 file in the columns read_trf reads, each line ending in CRLF.

    Points (columns 81-84) and rank (86-89) come from the rounds, scored as FIDE scores by
    default, ranked by points and then starting rank. Names longer than the 33 columns of
    15-47 and titles longer than 3 are cut to fit.
    """
    blocks = _written_blocks(report)
    points = {
        rank: sum(_HALF_POINTS[block[-1]] for block in rounds.values())
        for rank, rounds in blocks.items()
    }
    ranking = sorted(blocks, key=lambda rank: (-points[rank], rank))
    places = {rank: place for place, rank in enumerate(ranking, start=1)}
    lines = _header_lines(report) + [
        _player_line(player, blocks[player.rank], points[player.rank], places[player.rank])
        for player in sorted(report.players, key=rank_of)
    ]
    return "".join(f"{line}\r\n" for line in lines)


def _written_blocks(report: TournamentReport) -> dict[int, dict[int, str]]:
    """Each player's rounds as written: opponent, colour and result code, by round."""
    blocks: dict[int, dict[int, str]] = {player.rank: {} for player in report.players}
    for game in report.games:
        white_code, black_code = _CODES[game.result, game.rated and game.result.is_played]
        blocks[game.white][game.round] = f"{game.black:>4} w {white_code}"
        blocks[game.black][game.round] = f"{game.white:>4} b {black_code}"
    for bye in report.byes:
        blocks[bye.player][bye.round] = f"0000 - {bye.code}"
    return blocks


def _header_lines(report: TournamentReport) -> list[str]:
    event = report.event
    rated = sum(1 for player in report.players if player.rating is not None)
    records = (
        ("012", event.name),
        ("022", event.city),
        ("032", event.federation),
        ("042", _long_date(event.start_date)),
        ("052", _long_date(event.end_date)),
        ("062", str(len(report.players))),
        ("072", str(rated)),
    )
    lines = [f"{code} {escaped(text)}" for code, text in records if text]
    if any(event.round_dates):
        near = event.start_date or event.end_date
        dates = "".join(f"{_short_date(date, near):<{ROUND_WIDTH}}" for date in event.round_dates)
        lines.append(f"{'132':<{FIRST_ROUND_COLUMN - 1}}{dates}".rstrip())
    return lines


def _long_date(date: dt.date | None) -> str:
    return f"{date.year:04d}/{date.month:02d}/{date.day:02d}" if date else ""


def _short_date(date: dt.date | None, near: dt.date | None) -> str:
    """YY/MM/DD, as 132 writes a round's date, where the report's date `near` gives the
    century back (`lines.round_date`); else YYYY/MM/DD."""
    if date and near and nearest_year(date.year % 100, near.year) == date.year:
        return f"{date.year % 100:02d}/{date.month:02d}/{date.day:02d}"
    return _long_date(date)


def _player_line(player: TrfPlayer, blocks: dict[int, str], half_points: int, place: int) -> str:
    sex = _WRITTEN_SEX.get(player.sex or "", " ")
    title = escaped(player.title or "")[:3]
    name = escaped(player.name)[:33]
    birth = f"{player.birth_year:04d}/00/00" if player.birth_year else ""
    points = f"{half_points // 2}.{5 * (half_points % 2)}"
    fields = (
        f"001 {player.rank:>4} {sex}{title:>3} {name:<33} "
        f"{player.rating or '':>4} {player.federation or '':<3} {player.fide_id or '':>11} "
        f"{birth:<10} {points:>4} {place:>4}"
    )
    rounds = "".join(
        f"  {blocks.get(round, ''):<8}" for round in range(1, max(blocks, default=0) + 1)
    )
    return (fields + rounds).rstrip()
