"""Writing a tournament report as a TRF16 file, in the columns `ledger.formats.trf` reads: the
header records, then one 001 line per player with its points, its rank and one 10-column
block per round from column 92.
"""

from __future__ import annotations

import datetime as dt

from ledger.core.printable import escaped
from ledger.core.reports import final_places
from ledger.formats.trf.header import TOURNAMENT_RECORDS
from ledger.formats.trf.records import (
    FIRST_ROUND_COLUMN,
    HALF_POINTS,
    RESULTS,
    ROUND_WIDTH,
    TournamentReport,
    TrfPlayer,
    nearest_year,
    rank_of,
)

_WRITTEN_SEX = {"M": "m", "F": "w"}
LAST_RANK = 9999
"""The highest rank columns 86-89 hold: players placed after a report's rank 9999 share it
(TRF-2026 allows ties), and the rounds keep their columns."""
_CODES = {outcome: codes for codes, outcome in RESULTS.items()}


def write_trf(report: TournamentReport) -> str:
    """The report as a TRF16 file in the columns read_trf reads, each line ending in CRLF.

    Points (columns 81-84) and the rank (86-89) are the report's own where every player has
    them; else the points come from the rounds, scored as FIDE scores by default, and the
    rank where the report gives one, the players it does not rank after them by points and
    then starting rank (`final_places`). The records the report kept are written as they
    were: the tournament's before the player lines, the team and national records after.
    Names longer than the 33 columns of 15-47 and titles longer than 3 are cut to fit.
    """
    blocks = _written_blocks(report)
    points = _points(report, blocks)
    places = _places(report, points)
    after = [record for record in report.event.records if not _before_the_players(record)]
    lines = _header_lines(report) + [
        _player_line(player, blocks[player.rank], points[player.rank], places[player.rank])
        for player in sorted(report.players, key=rank_of)
    ]
    return "".join(f"{line}\r\n" for line in lines + [escaped(record) for record in after])


def _before_the_players(record: str) -> bool:
    """The tournament's records are written before the players, the other sections' and
    the federations' after them, as reports write them."""
    return TOURNAMENT_RECORDS.fullmatch(record[:3]) is not None


def _points(report: TournamentReport, blocks: dict[int, dict[int, str]]) -> dict[int, int]:
    """Each player's points in hundredths: the report's own, where every player has them;
    else their rounds' (`HALF_POINTS`)."""
    if report.players and all(player.points is not None for player in report.players):
        return {player.rank: player.points or 0 for player in report.players}
    return {
        rank: 50 * sum(HALF_POINTS[block[-1]] for block in rounds.values())
        for rank, rounds in blocks.items()
    }


def _places(report: TournamentReport, points: dict[int, int]) -> dict[int, int]:
    """Each player's rank: the report's own; the players without one by points, then
    starting rank."""
    ranks = {player.rank: player.place for player in report.players}
    return final_places(ranks, sorted(points, key=lambda rank: (-points[rank], rank)))


def _written_blocks(report: TournamentReport) -> dict[int, dict[int, str]]:
    """Each player's rounds as written: opponent, colour and result code, by round."""
    blocks: dict[int, dict[int, str]] = {player.rank: {} for player in report.players}
    for game in report.games:
        white_code, black_code = _CODES[game.result, game.rated and game.result.is_played]
        white, black = ("w", "b") if game.colours else ("-", "-")
        blocks[game.white][game.round] = f"{game.black:>4} {white} {white_code}"
        blocks[game.black][game.round] = f"{game.white:>4} {black} {black_code}"
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
    lines += [escaped(record) for record in event.records if _before_the_players(record)]
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


def _player_line(player: TrfPlayer, blocks: dict[int, str], hundredths: int, place: int) -> str:
    sex = _WRITTEN_SEX.get(player.sex or "", " ")
    title = escaped(player.title or "")[:3]
    name = escaped(player.name)[:33]
    birth = f"{player.birth_year:04d}/00/00" if player.birth_year else ""
    points = f"{hundredths // 100}.{hundredths % 100:02d}".removesuffix("0")
    fields = (
        f"001 {player.rank:>4} {sex}{title:>3} {name:<33} "
        f"{player.rating or '':>4} {player.federation or '':<3} {player.fide_id or '':>11} "
        f"{birth:<10} {points:>4} {min(place, LAST_RANK):>4}"
    )
    rounds = "".join(
        f"  {blocks.get(round, ''):<8}" for round in range(1, max(blocks, default=0) + 1)
    )
    return (fields + rounds).rstrip()
