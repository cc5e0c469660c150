"""A tournament report in any file it comes in (a TRF, a PGN, a games CSV), read by that
format's own reader into one shape: its one event, its players as the file names them, its
games and its byes. Pure: bytes in, the report or every problem as `file:line: message` out.

A report is one event's: a PGN or CSV whose games name no event, or several, is refused by
the line of the first game that does not name the report's event.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from ledger.core.domain import GameResult
from ledger.core.errors import InvalidInput
from ledger.core.records import FileWarning, NewGame, problem
from ledger.core.reports import ReportFormat
from ledger.formats import csvfiles, texts, trf


@dataclass(frozen=True, slots=True)
class ReportPlayer:
    """A player as the file gives them."""

    reference: str
    """How the file names the player: a TRF's 001 line number, a PGN's name as written (the
    first time), a CSV's ledger ID."""
    line: int
    """The line that gives the player: a TRF's 001 line, else the first game's."""
    name: str | None
    """None in a CSV, which gives ledger IDs."""
    ledger_id: int | None
    fide_id: int | None
    federation: str | None
    sex: str | None
    birth_year: int | None


@dataclass(frozen=True, slots=True)
class ReportGame:
    """A game, its players by their references; `rated` is False for a game the arbiter
    reported as not rated (and for every forfeit)."""

    white: str
    black: str
    result: GameResult
    rated: bool
    round: int | None
    date: dt.date
    line: int

    @property
    def counts(self) -> bool:
        """Whether the game is for rating: played, and not reported as not rated."""
        return self.rated and self.result.is_played


@dataclass(frozen=True, slots=True)
class ReportFile:
    """A report's event, players, games and byes (counted: they are never rated), and what
    its reader did not take as written (`warnings`)."""

    format: ReportFormat
    event: str
    start: dt.date
    end: dt.date
    players: list[ReportPlayer]
    games: list[ReportGame]
    byes: int
    warnings: tuple[FileWarning, ...] = ()


def read_report(
    content: bytes, file_name: str, format: ReportFormat, today: dt.date
) -> tuple[ReportFile | None, list[str]]:
    """The report in `content`, or None and every problem the format's reader finds."""
    if format is ReportFormat.TRF:
        return _trf(content, file_name)
    if format is ReportFormat.PGN:
        return _pgn(content, file_name)
    return _csv(content, file_name, today)


def _trf(content: bytes, file_name: str) -> tuple[ReportFile | None, list[str]]:
    report, problems = trf.read_trf(content, file_name)
    if report is None or problems:
        return None, problems or [f"{file_name}: not a tournament report."]
    lines = {player.rank: str(player.line) for player in report.players}
    games = [
        ReportGame(
            white=lines[game.white],
            black=lines[game.black],
            result=game.result,
            rated=game.rated,
            round=game.round,
            date=game.date,
            line=game.lines[0],
        )
        for game in report.games
    ]
    days = [game.date for game in games] + [bye.date for bye in report.byes]
    start = report.event.start_date or min(days, default=None)
    end = report.event.end_date or max(days, default=None)
    if start is None or end is None:
        return None, [f"{file_name}: the report has no dates; give its end date in a 052 record."]
    players = [_trf_player(player) for player in report.players]
    read = ReportFile(
        format=ReportFormat.TRF,
        event=report.event.name,
        start=start,
        end=end,
        players=players,
        games=games,
        byes=len(report.byes),
        warnings=report.warnings,
    )
    return read, []


def _trf_player(player: trf.TrfPlayer) -> ReportPlayer:
    return ReportPlayer(
        reference=str(player.line),
        line=player.line,
        name=player.name,
        ledger_id=None,
        fide_id=player.fide_id,
        federation=player.federation,
        sex=player.sex,
        birth_year=player.birth_year,
    )


def _pgn(content: bytes, file_name: str) -> tuple[ReportFile | None, list[str]]:
    # python-chess builds its move tables on import: only a PGN waits for them.
    from ledger.formats import pgn

    read, problems = pgn.read_pgn(content, file_name)
    if problems:
        return None, problems
    events = [(game.event, game.line) for game in read]
    refused = _one_event(events, file_name, "the Event header")
    if refused:
        return None, refused
    people = pgn.PgnPeople(read)
    players: dict[object, ReportPlayer] = {}
    games = []
    for game in read:
        white, black = (
            _pgn_player(players, people.key(name, fide_id), name, fide_id, game.line)
            for name, fide_id in pgn.sides(game)
        )
        games.append(
            ReportGame(
                white=white,
                black=black,
                result=game.result,
                rated=True,
                round=game.round,
                date=game.date,
                line=game.line,
            )
        )
    warnings = tuple(pgn.without_moves(read, file_name))
    event = events[0][0] or ""
    return _dated(ReportFormat.PGN, event, list(players.values()), games, warnings), []


def _pgn_player(
    players: dict[object, ReportPlayer],
    key: object,
    name: str,
    fide_id: int | None,
    line: int,
) -> str:
    """The reference of a PGN's person, met first at `line`."""
    if key not in players:
        players[key] = ReportPlayer(
            reference=name,
            line=line,
            name=name,
            ledger_id=None,
            fide_id=key if isinstance(key, int) else fide_id,
            federation=None,
            sex=None,
            birth_year=None,
        )
    return players[key].reference


def _csv(content: bytes, file_name: str, today: dt.date) -> tuple[ReportFile | None, list[str]]:
    try:
        text = texts.file_text(content, file_name)
    except InvalidInput as error:
        return None, [str(error)]
    read = csvfiles.read_games(text, file_name, today)
    if read.problems:
        return None, csvfiles.by_line(read.problems, file_name)
    if not read.records:
        return None, [f"{file_name}: the file holds no games; a report gives its event's games."]
    lines = [_line(game, file_name) for game in read.records]
    refused = _one_event(
        [(game.event, line) for game, line in zip(read.records, lines, strict=True)],
        file_name,
        "the event column",
    )
    if refused:
        return None, refused
    players: dict[int, ReportPlayer] = {}
    for game, line in zip(read.records, lines, strict=True):
        for player_id in (game.white, game.black):
            players.setdefault(player_id, _csv_player(player_id, line))
    games = [_csv_game(game, line) for game, line in zip(read.records, lines, strict=True)]
    return _dated(ReportFormat.CSV, read.records[0].event or "", list(players.values()), games), []


def _csv_player(player_id: int, line: int) -> ReportPlayer:
    return ReportPlayer(
        reference=str(player_id),
        line=line,
        name=None,
        ledger_id=player_id,
        fide_id=None,
        federation=None,
        sex=None,
        birth_year=None,
    )


def _csv_game(game: NewGame, line: int) -> ReportGame:
    return ReportGame(
        white=str(game.white),
        black=str(game.black),
        result=game.result,
        rated=game.rated,
        round=game.round,
        date=game.date,
        line=line,
    )


def _line(game: NewGame, file_name: str) -> int:
    """The line a CSV's game was read from (its source, `file:line`)."""
    return int((game.source or "").removeprefix(f"{file_name}:"))


def _dated(
    format: ReportFormat,
    event: str,
    players: list[ReportPlayer],
    games: list[ReportGame],
    warnings: tuple[FileWarning, ...] = (),
) -> ReportFile:
    """A report without dates of its own: its event runs from its first game to its last."""
    days = [game.date for game in games]
    return ReportFile(
        format=format,
        event=event,
        start=min(days),
        end=max(days),
        players=players,
        games=games,
        byes=0,
        warnings=warnings,
    )


def _one_event(events: Iterable[tuple[str | None, int]], file_name: str, where: str) -> list[str]:
    """A problem for each game that does not name the report's one event (the first
    game's), or names none."""
    problems = []
    first: tuple[str, int] | None = None
    for event, line in events:
        source = f"{file_name}:{line}"
        if not event:
            problems.append(
                problem(source, f"event: the game names no event; give its event in {where}.")
            )
        elif first is None:
            first = (event, line)
        elif event != first[0]:
            problems.append(
                problem(
                    source,
                    f"event: the game is of {event!r}, line {first[1]}'s of {first[0]!r}; "
                    "a report is one event's: send each event in a file of its own.",
                )
            )
    return problems
