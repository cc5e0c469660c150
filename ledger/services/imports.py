"""Importing CSV files of players and games, and PGN files of games: all or nothing, and
never the same file twice."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ledger.core.domain import Pool
from ledger.core.errors import Conflict, InvalidInput, RejectedRecords
from ledger.core.progress import NO_PROGRESS, Progress
from ledger.core.records import FileWarning, NewGame, NewPlayer, new_game, new_player
from ledger.formats import csvfiles, texts
from ledger.queries import people
from ledger.services import activity, corrections
from ledger.services.activity import OS_USER, Author
from ledger.services.corrections import Rerated
from ledger.services.games import add_games
from ledger.services.matching import match_players
from ledger.services.players import add_players
from ledger.storage.batches import collector_paused
from ledger.storage.database import refresh_statistics
from ledger.storage.models import Import

if TYPE_CHECKING:
    from ledger.formats import pgn as pgnfiles


@dataclass(frozen=True, slots=True)
class ImportSummary:
    kind: str
    file_name: str
    rows: int


@dataclass(frozen=True, slots=True)
class GamesImport(ImportSummary):
    """A games file imported; `rerated`: the re-rate of a late file (`--late`), which
    published one new version of each list from its games' first period on."""

    rerated: Rerated | None = None


@dataclass(frozen=True, slots=True)
class PlayersImport(ImportSummary):
    """A players file imported, with the likely duplicates among its players and of those
    already in the ledger (`ledger.queries.people.likely_duplicates`)."""

    duplicates: list[str]


Summary = TypeVar("Summary", bound=ImportSummary)
ImportService = Callable[[Session, Pool, str, bytes, dt.datetime, Author, Progress], Summary]
"""An import of a file: the session, pool, file name, content, time, author and where it
reports its progress."""


@collector_paused()  # records and rows by the hundred thousand, no cycles
def import_players(
    session: Session,
    pool: Pool,
    file_name: str,
    content: bytes,
    now: dt.datetime,
    author: Author = OS_USER,
    progress: Progress = NO_PROGRESS,
) -> PlayersImport:
    """Add every player of a players CSV, with their starting ratings in `pool`."""
    text = texts.file_text(content, file_name)
    read = csvfiles.read_players(text, file_name, now.date(), progress)
    record_import(session, "players", file_name, text, len(read.records), now)
    with _all_problems(read, file_name):
        ids = add_players(session, pool, read.records, progress)
    refresh_statistics(session, players=("players", "player_ratings"), written=len(ids))
    duplicates = people.likely_duplicates(session, ids)
    summary = PlayersImport("players", file_name, len(read.records), duplicates)
    return _logged(session, summary, author, now, pool)


@collector_paused()  # records and rows by the hundred thousand, no cycles
def import_games(  # noqa: PLR0913 (its options by name)
    session: Session,
    pool: Pool,
    file_name: str,
    content: bytes,
    now: dt.datetime,
    author: Author = OS_USER,
    progress: Progress = NO_PROGRESS,
    *,
    allow_repeat: bool = False,
    late: bool = False,
) -> GamesImport:
    """Add every game of a games CSV to `pool`; a game the ledger or the file already holds
    is refused unless `allow_repeat` (`ledger.services.repeats`). A `late` file's games
    fall in closed periods: they are recorded by one re-rate (`corrections.record_late`)."""
    text = texts.file_text(content, file_name)
    read = csvfiles.read_games(text, file_name, now.date(), progress)
    import_id = record_import(session, "games", file_name, text, len(read.records), now)

    def record(session: Session) -> None:
        with _all_problems(read, file_name):
            add_games(
                session, pool, read.records, import_id, allow_repeat=allow_repeat, progress=progress
            )

    rerated = _recorded(session, pool, read.records, now, record, progress, late=late)
    refresh_statistics(session, history=("games", "events"))
    summary = GamesImport("games", file_name, len(read.records), rerated)
    return _logged(session, summary, author, now, pool)


def _recorded(
    session: Session,
    pool: Pool,
    games: Sequence[NewGame],
    now: dt.datetime,
    record: Callable[[Session], object],
    progress: Progress,
    *,
    late: bool,
) -> Rerated | None:
    """Record a file's games: at once, or, `late`, by one re-rate from their first period."""
    if not late or not games:
        record(session)  # a file without games is refused there, with its problems
        return None
    return corrections.record_late(session, pool, games, now, record, progress)


def _logged(
    session: Session, summary: Summary, author: Author, now: dt.datetime, pool: Pool
) -> Summary:
    in_open_periods = isinstance(summary, GamesImport) and summary.rerated is None
    activity.record(
        session,
        f"import-{summary.kind}",
        summary,
        author,
        now,
        pool,
        marks=activity.Marks(leaves_lists=in_open_periods),
    )
    return summary


@dataclass(frozen=True, slots=True)
class PgnImport:
    """What importing a PGN file did: its games (all played, so all for rating), the events
    they name, the players matched and created, and the games it gives without moves
    (`warnings`)."""

    file_name: str
    games: int
    events: int
    players_matched: int
    players_created: int
    duplicates: list[str]
    rerated: Rerated | None = None
    warnings: tuple[FileWarning, ...] = ()


def import_pgn(  # noqa: PLR0913 (its options by name)
    session: Session,
    pool: Pool,
    file_name: str,
    content: bytes,
    now: dt.datetime,
    author: Author = OS_USER,
    *,
    allow_repeat: bool = False,
    progress: Progress = NO_PROGRESS,
    chosen: Mapping[str, int] | None = None,
    late: bool = False,
) -> PgnImport:
    """Add the games of a PGN file to `pool` by their headers, matching or creating players
    (`ledger.services.matching`; names alone where a side has no FIDE ID); a game the ledger
    or the file already holds is refused unless `allow_repeat`. `chosen` gives the ledger
    player of a name as the file writes it, as a rating officer matched them. A `late`
    file's games are recorded by one re-rate, as `import_games` records them."""
    # python-chess builds its move tables on import: only a PGN import waits for them.
    from ledger.formats import pgn as pgnfiles

    read, problems = pgnfiles.read_pgn(content, file_name, progress)
    if problems:
        raise RejectedRecords(problems)
    import_id = record_import(
        session, "pgn", file_name, texts.file_text(content, file_name), len(read), now
    )
    people_ = pgnfiles.PgnPeople(read)
    players = match_players(
        session,
        pool,
        _pgn_players(read, people_, file_name, now.date()),
        by_name_alone=True,
        chosen={people_.key(name, None): id_ for name, id_ in (chosen or {}).items()},
    )
    games = [_pgn_game(game, people_, players.ids, file_name, now.date()) for game in read]

    def record(session: Session) -> None:
        add_games(session, pool, games, import_id, allow_repeat=allow_repeat, progress=progress)

    rerated = _recorded(session, pool, games, now, record, progress, late=late)
    refresh_statistics(session, players=("players",), history=("games", "events"))
    imported = PgnImport(
        file_name=file_name,
        games=len(games),
        events=len({game.event for game in games if game.event}),
        players_matched=players.matched,
        players_created=players.created,
        duplicates=people.likely_duplicates(session, players.ids.values()),
        rerated=rerated,
        warnings=tuple(pgnfiles.without_moves(read, file_name)),
    )
    in_open_periods = rerated is None and not players.created
    activity.record(
        session,
        "import-pgn",
        imported,
        author,
        now,
        pool,
        marks=activity.Marks(leaves_lists=in_open_periods),
    )
    return imported


def _pgn_players(
    games: list[pgnfiles.PgnGame], people_: pgnfiles.PgnPeople, file_name: str, today: dt.date
) -> dict[Hashable, NewPlayer]:
    from ledger.formats.pgn import sides  # loaded already, by `import_pgn`

    players: dict[Hashable, NewPlayer] = {}
    problems = []
    for game in games:
        for name, fide_id in sides(game):
            key = people_.key(name, fide_id)
            if key in players:
                continue
            try:
                players[key] = new_player(
                    name=name,
                    fide_id=key if isinstance(key, int) else None,
                    source=f"{file_name}:{game.line}",
                    today=today,
                )
            except InvalidInput as error:
                problems.append(str(error))
    if problems:
        raise RejectedRecords(problems)
    return players


def _pgn_game(
    game: pgnfiles.PgnGame,
    people_: pgnfiles.PgnPeople,
    ids: dict[Hashable, int],
    file_name: str,
    today: dt.date,
) -> NewGame:
    return new_game(
        date=game.date,
        white=ids[people_.key(game.white, game.white_fide_id)],
        black=ids[people_.key(game.black, game.black_fide_id)],
        result=game.result,
        event=game.event,
        round=game.round,
        source=f"{file_name}:{game.line}",
        today=today,
    )


@contextmanager
def _all_problems(read: csvfiles.ReadFile[Any], file_name: str) -> Iterator[None]:
    """Refuse the file with the problems of its rows and of the records they make, by line.

    The records are written inside the caller's transaction, so refusing after the write
    still leaves the ledger unchanged.
    """
    problems, hint = list(read.problems), None
    try:
        yield
    except RejectedRecords as refused:
        problems += refused.problems
        hint = refused.hint
    if problems:
        raise RejectedRecords(csvfiles.by_line(problems, file_name), hint)


def record_import(
    session: Session, kind: str, file_name: str, text: str, rows: int, now: dt.datetime
) -> int:
    """Remember the file by its content, refusing a file that was imported before.

    The content is compared line by line, so a copy saved with other line endings or
    trailing blank lines is the same file. The same file imported at the same moment by
    another process is that file imported before: its record waits for the other import to
    end, then is refused by the unique content hash (in a savepoint, so the refusal can say
    so).
    """
    digest = content_digest(text)
    _refuse_imported(session, kind, digest, file_name)
    record = Import(kind=kind, file_name=file_name, sha256=digest, rows=rows, imported_at=now)
    try:
        with session.begin_nested():
            session.add(record)
    except IntegrityError:
        _refuse_imported(session, kind, digest, file_name)
        raise
    return record.id


def content_digest(text: str) -> str:
    """A file's text as the ledger knows it again: the SHA-256 of its lines without their
    endings and trailing spaces, and without blank lines at either end."""
    lines = [line.rstrip() for line in text.splitlines()]
    return hashlib.sha256("\n".join(lines).strip().encode()).hexdigest()


def _refuse_imported(session: Session, kind: str, digest: str, file_name: str) -> None:
    earlier = session.scalars(
        select(Import).where(Import.kind == kind, Import.sha256 == digest)
    ).first()
    if earlier is not None:
        raise Conflict(
            f"{file_name} was already imported on {earlier.imported_at:%Y-%m-%d %H:%M} "
            f"(as {earlier.file_name}); nothing was written."
        )
