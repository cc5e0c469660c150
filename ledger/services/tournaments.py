"""Importing a tournament report (TRF): one event, its players matched to the ledger's, its
games and byes, its players' starting numbers and ranks and the records it keeps, in one
transaction (a late report's, with the re-rate it makes).

Players are matched as `ledger.services.matching` says; the others are created unrated (the
report's ratings are the arbiter's copy of a list, not the ledger's).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from ledger.core import cadence
from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict, InvalidInput, RejectedRecords
from ledger.core.progress import NO_PROGRESS, Progress
from ledger.core.records import (
    EARLIEST_BIRTH_YEAR,
    FileWarning,
    NewGame,
    NewPlayer,
    new_game,
    new_player,
)
from ledger.formats import texts, trf
from ledger.queries import people
from ledger.services import activity, corrections
from ledger.services.activity import OS_USER, Author
from ledger.services.corrections import Rerated
from ledger.services.games import EventDetails, add_games
from ledger.services.imports import record_import
from ledger.services.matching import match_players
from ledger.storage.batches import insert_rows
from ledger.storage.models import Bye, Entrant, Event, Game, Import
from ledger.storage.periods import is_closed, newest_closed_period


@dataclass(frozen=True, slots=True)
class TournamentImport:
    """What importing a report did (or, checked, would do), with the report's warnings:
    fields the format marks "warning if wrong", left empty, and dates read otherwise.
    `rerated`: the re-rate of a late report (`--late`)."""

    file_name: str
    event: str
    pool: Pool
    period: Period
    players_matched: int
    players_created: int
    games_to_rate: int
    """Played and rated games: the close of their period rates them."""
    games_not_rated: int
    byes: int
    duplicates: list[str]
    replaced: bool
    warnings: tuple[FileWarning, ...] = ()
    rerated: Rerated | None = None


def import_trf(  # noqa: PLR0913 (its options by name)
    session: Session,
    pool: Pool,
    file_name: str,
    content: bytes,
    now: dt.datetime,
    *,
    replace: bool = False,
    author: Author = OS_USER,
    allow_repeat: bool = False,
    progress: Progress = NO_PROGRESS,
    chosen: Mapping[int, int] | None = None,
    late: bool = False,
) -> TournamentImport:
    """Record a TRF report's event, players, games and byes in `pool`, with its players'
    starting numbers and ranks and the records it keeps (`ledger.formats.trf`).

    Refused whole, with every problem by line, if the report is defective; an event already
    in the ledger is refused unless `replace`, which needs the event's period to be open; a
    game the ledger already holds is refused unless `allow_repeat`. `chosen` gives the
    ledger player of a 001 line (by its line number), as a rating officer matched them. A
    report of a closed period is refused unless `late`, which records it by one re-rate.
    """
    progress.stage(f"Reading {file_name}", None)
    report, problems = trf.read_trf(content, file_name)
    if report is None or problems:
        raise RejectedRecords(problems or [f"{file_name}: not a tournament report."])
    replaced = _clear_event(session, pool, report.event.name, replace=replace)
    import_id = record_import(
        session, "trf", file_name, texts.file_text(content, file_name), len(report.games), now
    )
    records, warnings = _player_records(report, file_name, now.date())
    by_line = {player.line: player.rank for player in report.players}
    players = match_players(
        session,
        pool,
        records,
        among=replaced or (),
        chosen={by_line[line]: player_id for line, player_id in (chosen or {}).items()},
    )
    _refuse_one_player_twice(report, players.ids, file_name)
    games = _games(report, players.ids, file_name, now.date())
    details = EventDetails(
        report.event.city, report.event.federation, report.event.start_date, report.event.end_date
    )
    periods: list[Period] = []

    def record(session: Session) -> None:
        periods.extend(
            add_games(
                session,
                pool,
                games,
                import_id,
                {report.event.name: details},
                allow_repeat=allow_repeat,
                progress=progress,
            )
        )
        _add_report(session, pool, report, players.ids, import_id)

    rerated = None
    if late:
        rerated = corrections.record_late(session, pool, games, now, record, progress)
    else:
        record(session)
    to_rate = sum(1 for game in games if game.rated and game.result.is_played)
    imported = TournamentImport(
        file_name=file_name,
        event=report.event.name,
        pool=pool,
        period=periods[0],
        players_matched=players.matched,
        players_created=players.created,
        games_to_rate=to_rate,
        games_not_rated=len(games) - to_rate,
        byes=len(report.byes),
        duplicates=people.likely_duplicates(session, players.ids.values()),
        replaced=replaced is not None,
        warnings=report.warnings + warnings,
        rerated=rerated,
    )
    in_open_periods = rerated is None and replaced is None and not players.created
    activity.record(
        session,
        "import-trf",
        imported,
        author,
        now,
        pool,
        periods[0],
        marks=activity.Marks(leaves_lists=in_open_periods),
    )
    return imported


def _clear_event(session: Session, pool: Pool, name: str, *, replace: bool) -> set[int] | None:
    """Remove the event a report replaces, with its games, byes and their import records;
    returns its players (None if the ledger has no such event)."""
    event = session.scalars(select(Event).where(Event.pool == pool, Event.name == name)).first()
    if event is None:
        return None
    period = cadence.list_period(pool, Period.of(event.end_date))
    if is_closed(period, newest_closed_period(session, pool)):
        raise Conflict(
            f"event {name!r} was rated in period {period}, which is closed; "
            "its report cannot be imported again."
        )
    if not replace:
        raise Conflict(
            f"event {name!r} is already in the ledger (period {period}); import the report "
            "with --replace to put it in place of the event's games."
        )
    games = session.execute(
        select(Game.white_id, Game.black_id, Game.import_id).where(Game.event_id == event.id)
    ).all()
    byes = session.execute(select(Bye.player_id, Bye.import_id).where(Bye.event_id == event.id))
    players = {g.white_id for g in games} | {g.black_id for g in games}
    imports = {g.import_id for g in games}
    for player_id, import_id in byes:
        players.add(player_id)
        imports.add(import_id)
    for table in (Game, Bye, Entrant):
        session.execute(delete(table).where(table.event_id == event.id))
    session.execute(delete(Event).where(Event.id == event.id))
    session.execute(delete(Import).where(Import.id.in_(imports - {None}), Import.kind == "trf"))
    return players


def _player_records(
    report: trf.TournamentReport, file_name: str, today: dt.date
) -> tuple[dict[int, NewPlayer], tuple[FileWarning, ...]]:
    """The report's players by starting rank, validated as any new player is; a birth year
    no player can have (a field the format marks "warning if wrong") is left empty, with a
    warning."""
    records, problems, warnings = {}, [], []
    for player in report.players:
        birth_year = player.birth_year
        if birth_year is not None and not EARLIEST_BIRTH_YEAR <= birth_year <= today.year:
            message = f"columns 70-79: {birth_year} is not a birth year. It is left empty."
            warnings.append(FileWarning(file_name, player.line, "birth date", message))
            birth_year = None
        try:
            records[player.rank] = new_player(
                name=player.name,
                fide_id=player.fide_id,
                federation=player.federation,
                sex=player.sex,
                title=player.title,
                birth_year=birth_year,
                source=f"{file_name}:{player.line}",
                today=today,
            )
        except RejectedRecords as refused:
            problems += refused.problems
        except InvalidInput as error:
            problems.append(str(error))
    if problems:
        raise RejectedRecords(problems)
    return records, tuple(warnings)


def _refuse_one_player_twice(
    report: trf.TournamentReport, ids: dict[int, int], file_name: str
) -> None:
    """Two lines of the report that are one ledger player (one FIDE ID, or one name and
    birth year) would have that player meet themselves."""
    lines = {player.rank: player.line for player in report.players}
    first: dict[int, int] = {}
    problems = []
    for rank, player_id in sorted(ids.items(), key=lambda item: lines[item[0]]):
        if player_id in first:
            problems.append(
                f"{file_name}:{lines[rank]}: this player is ledger player {player_id}, as is "
                f"line {lines[first[player_id]]}; a report lists each player once."
            )
        first.setdefault(player_id, rank)
    if problems:
        raise RejectedRecords(problems)


def _games(
    report: trf.TournamentReport, ids: dict[int, int], file_name: str, today: dt.date
) -> list[NewGame]:
    games, problems = [], []
    for game in report.games:
        try:
            games.append(
                new_game(
                    date=game.date,
                    white=ids[game.white],
                    black=ids[game.black],
                    result=game.result,
                    event=report.event.name,
                    round=game.round,
                    source=f"{file_name}:{game.lines[0]}",
                    rated=game.rated,
                    colours=game.colours,
                    today=today,
                )
            )
        except InvalidInput as error:
            problems.append(str(error))
    if problems:
        raise RejectedRecords(problems)
    if not games:
        raise InvalidInput(f"{file_name}: the report holds no games; nothing was written.")
    return games


def _add_report(
    session: Session,
    pool: Pool,
    report: trf.TournamentReport,
    ids: dict[int, int],
    import_id: int,
) -> None:
    """What the report holds beyond its games: its byes, its players' starting numbers and
    ranks, and the records it keeps."""
    event_id = session.scalar(
        select(Event.id).where(Event.pool == pool, Event.name == report.event.name)
    )
    insert_rows(
        session,
        Bye,
        [
            {
                "event_id": event_id,
                "round": bye.round,
                "player_id": ids[bye.player],
                "kind": trf.BYE_KINDS[bye.code],
                "import_id": import_id,
            }
            for bye in report.byes
        ],
    )
    insert_rows(
        session,
        Entrant,
        [
            {
                "event_id": event_id,
                "player_id": ids[player.rank],
                "number": player.rank,
                "points": player.points,
                "rank": player.place,
            }
            for player in report.players
        ],
    )
    session.execute(
        update(Event)
        .where(Event.id == event_id)
        .values(report_records="\n".join(report.event.records) or None)
    )
