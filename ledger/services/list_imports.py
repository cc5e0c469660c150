"""Importing a FIDE rating list as the ledger's published list of one period.

The file is streamed in batches inside one transaction: players are created or updated by
FIDE ID, and each pool's rated rows become that period's list rows and the players' standing,
marked with the import. The period is then closed in each pool the file carries, so the
ledger's next close rates the games of the following period from this list.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from array import array
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain
from typing import IO, Any, cast

from sqlalchemy import Table, func, select, update
from sqlalchemy.orm import Session

from ledger.core import cadence, rules
from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict, InvalidInput, RejectedRecords
from ledger.core.progress import NO_PROGRESS, Progress
from ledger.core.records import (
    HIGHEST_RATING,
    OTHER_TITLES_LENGTH,
    TITLE_LENGTH,
    NewPlayer,
    listed_figures,
    new_player,
    next_free_id,
    problem,
    stored_text,
)
from ledger.formats import fide_list as fide_lists
from ledger.formats.fide_list import FideListReader, FideListRow, PoolRating
from ledger.queries import people
from ledger.services import activity
from ledger.services.activity import OS_USER, Author
from ledger.services.closing import close_without_games
from ledger.services.list_details import Details
from ledger.services.players import name_columns
from ledger.storage.batches import (
    AnyRow,
    batched,
    insert_rows,
    select_in,
    set_aside,
    update_rows,
)
from ledger.storage.database import is_postgresql, lock_pool, refresh_statistics
from ledger.storage.models import Game, Import, ListEntry, Player, PlayerRating
from ledger.storage.periods import newest_closed_period, newest_version, refuse_no_list


@dataclass
class FideListImport:
    """What importing a FIDE list did; `skipped` holds the rows it could not read."""

    file_name: str
    period: Period
    pools: tuple[Pool, ...]
    players_created: int = 0
    players_updated: int = 0
    rated: dict[Pool, int] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)


def import_fide_list(  # noqa: PLR0913 (its options by name)
    session: Session,
    file: IO[bytes],
    file_name: str,
    pool: Pool | None,
    period: Period | None,
    now: dt.datetime,
    *,
    strict: bool = False,
    progress: Progress = NO_PROGRESS,
    author: Author = OS_USER,
) -> FideListImport:
    """Publish the FIDE list in `file` as the list of `period` in every pool it carries.

    `pool` is the pool of a single-pool file (None: the one FIDE's name for the file gives,
    else standard; `ledger.formats.fide_list.single_pool`). The period defaults to the one
    a single-pool file's month column names, else last month. Refused if that list is
    already published, earlier periods are open or hold games, the period has not ended,
    the file holds no readable player, or (with `strict`) any row cannot be read.
    """
    digest, size = _digest(file, file_name)
    reader = fide_lists.open_fide_list(file, file_name, pool)
    period = _list_period(reader, file_name, period, now)
    summary = FideListImport(file_name, period, reader.pools)
    for each in reader.pools:
        lock_pool(session, each)
        _refuse_period(session, each, period)
    import_id = _record(session, file_name, digest, period, now)
    players = _ListPlayers(session, file_name, period, now.date())
    stage = progress.stage(f"Importing {file_name}", size, "bytes")
    batches = batched(reader.rows())
    first = next(batches, [])
    read = 0
    with _rows_set_aside(session, _rated_expected(file, size, first, reader.pools)):
        for batch in chain([first], batches):
            rows = players.write(batch, summary)
            for each in reader.pools:
                _publish_rows(session, each, period, rows, import_id, summary)
            stage.advance(file.tell() - read)
            read = file.tell()
        progress.stage(f"Publishing the list of {period}", None)
    _refuse_nothing_read(summary, reader.problems + players.problems, strict=strict)
    session.execute(
        update(Import)
        .where(Import.id == import_id)
        .values(rows=summary.players_updated + summary.players_created)
    )
    for each in reader.pools:
        close_without_games(session, each, period, now)
    refresh_statistics(session, players=("players", "player_ratings"), history=("list_entries",))
    summary.duplicates = people.likely_duplicates(session, players.written)
    activity.record(session, "import-fide-list", summary, author, now, None, period)
    return summary


def _rated_expected(
    file: IO[bytes], size: int, first: Sequence[FideListRow], pools: Sequence[Pool]
) -> int:
    """How many rated rows the file holds in all its pools, about: as many for its size as
    its first rows hold for the part of it they took."""
    rated = sum(row.ratings[pool].rating is not None for row in first for pool in pools)
    return rated * size // max(file.tell(), 1)


@contextmanager
def _rows_set_aside(session: Session, rows: int) -> Iterator[None]:
    """On SQLite, the list rows' and the standings' indexes set aside for the whole import
    where it may write more rows than they hold (`storage.batches.set_aside`), not batch by
    batch, each batch's rows going into the indexes of those before (a first list of a
    million players into an empty ledger: 52 s, 46 s this way; the next month's list of
    them: 63 s, 58 s). PostgreSQL keeps them: setting them aside takes the tables from
    their readers until the import commits, and a transaction that holds a row the import
    writes and then reads a table it took would deadlock with it."""
    if is_postgresql(session):
        yield
        return
    with set_aside(session, _ENTRIES, rows), set_aside(session, _STANDINGS, rows, updating=True):
        yield


_ENTRIES = cast(Table, ListEntry.__table__)
_STANDINGS = cast(Table, PlayerRating.__table__)


def _digest(file: IO[bytes], file_name: str) -> tuple[str, int]:
    """The file's SHA-256 and size, read in chunks; the file is read again from its start
    after."""
    if not file.seekable():
        raise InvalidInput(f"{file_name} is not a regular file; save the list to a file first.")
    digest = hashlib.sha256()
    while chunk := file.read(1 << 20):
        digest.update(chunk)
    size = file.tell()
    file.seek(0)
    return digest.hexdigest(), size


def _list_period(
    reader: FideListReader, file_name: str, period: Period | None, now: dt.datetime
) -> Period:
    """The period whose list the file is: as given, else as its month column names it, else
    last month. It must have ended, and agree with the month column."""
    named = fide_lists.month_period(reader.month) if reader.month else None
    period = period or named or Period.of(now.date()) - 1
    if named is not None and period != named:
        raise InvalidInput(
            f"{file_name} is FIDE's {reader.month} list, the list of period {named}, not "
            f"{period}; leave out --period or give {named}."
        )
    if period >= Period.of(now.date()):
        raise Conflict(
            f"period {period} has not ended; its list can be imported from {period + 1}-01."
        )
    return period


def _refuse_nothing_read(summary: FideListImport, problems: list[str], *, strict: bool) -> None:
    summary.skipped = problems
    if strict and problems:
        raise RejectedRecords(problems)
    if summary.players_created + summary.players_updated == 0:
        raise RejectedRecords(
            [*problems, f"{summary.file_name}: the list holds no player that can be read."]
        )


def _refuse_period(session: Session, pool: Pool, period: Period) -> None:
    """A FIDE list becomes the next list of the pool, with no open games before it."""
    refuse_no_list(pool, period)
    newest = newest_closed_period(session, pool)
    following = None if newest is None else cadence.next_list_period(pool, newest)
    if following is not None and period < following:
        published = newest_version(session, pool, period) is not None
        state = "is already published" if published else "would come before the pool's first"
        raise Conflict(
            f"the {pool} list of {period} {state}; a FIDE list can be imported as the list of "
            f"{following} or later."
        )
    if following is not None and period > following:
        between = cadence.list_periods(pool, following, period - 1)
        gap = (
            f"period {between[0]} is"
            if len(between) == 1
            else (f"periods {between[0]} to {between[-1]} are")
        )
        raise Conflict(
            f"{gap} still open in {pool}; close {'it' if len(between) == 1 else 'them'} first "
            f"(`ledger close-period {between[-1]}`)."
        )
    held = session.scalar(
        select(func.min(Game.period)).where(Game.pool == pool, Game.period <= period)
    )
    if held is not None and (newest is None or held > newest):
        raise Conflict(
            f"period {held} holds {pool} games and is still open; close it before importing a "
            f"FIDE list as the list of {period}."
        )


def _record(session: Session, file_name: str, digest: str, period: Period, now: dt.datetime) -> int:
    earlier = session.scalars(
        select(Import).where(Import.kind == "fide-list", Import.sha256 == digest)
    ).first()
    if earlier is not None:
        raise Conflict(
            f"{file_name} was already imported on {earlier.imported_at:%Y-%m-%d %H:%M} "
            f"(as {earlier.file_name}, the list of {earlier.period}); nothing was written."
        )
    record = Import(
        kind="fide-list", file_name=file_name, sha256=digest, rows=0, imported_at=now, period=period
    )
    session.add(record)
    session.flush()
    return record.id


@dataclass(frozen=True, slots=True)
class _ListRow:
    """A readable row of the file, the ledger ID of its player and the federation and title
    the list shows (the file's; a blank federation keeps the ledger's)."""

    player_id: int
    row: FideListRow
    details: Details


class _ListPlayers:
    """Creates and updates the file's players by FIDE ID, batch by batch, and remembers
    their ledger IDs (`written`) for one look-up of the likely duplicates after the last
    batch: looked up batch by batch, each would join a players table the planner has not
    seen grow (PostgreSQL sorted all its rows for each of a million-player list's 200
    batches: 17 s of the import)."""

    def __init__(self, session: Session, file_name: str, period: Period, today: dt.date) -> None:
        self.session = session
        self.file_name = file_name
        self.period = period
        self.today = today
        self.highest_id: int = session.scalar(select(func.max(Player.id))) or 0
        self.problems: list[str] = []
        self.written = array("l")

    def write(self, batch: Sequence[FideListRow], summary: FideListImport) -> list[_ListRow]:
        valid = [row for row in batch if self._valid(row)]
        known = {
            row.fide_id: row
            for row in select_in(
                self.session,
                select(Player.fide_id, Player.id, *_KEPT, Player.title, Player.details_from),
                Player.fide_id,
                (r.fide_id for r in valid),
            )
        }
        new = [row for row in valid if row.fide_id not in known]
        created = self._new_ids(new)
        updated = [
            _updated_player(known[r.fide_id], r, self.period) for r in valid if r.fide_id in known
        ]
        inserted = [_player_row(created[r.fide_id], r) | {"fide_id": r.fide_id} for r in new]
        update_rows(self.session, Player, updated)
        insert_rows(self.session, Player, inserted)
        summary.players_updated += len(valid) - len(new)
        summary.players_created += len(new)
        ids = {fide_id: row.id for fide_id, row in known.items()} | created
        self.written.extend(ids.values())
        shown = {columns["id"]: _shown(columns) for columns in (*updated, *inserted)}
        return [_ListRow(ids[row.fide_id], row, shown[ids[row.fide_id]]) for row in valid]

    def _valid(self, row: FideListRow) -> bool:
        try:
            _validated(row, f"{self.file_name}:{row.line}", self.period, self.today)
        except InvalidInput as error:
            self.problems.append(str(error))
            return False
        return True

    def _new_ids(self, rows: Sequence[FideListRow]) -> dict[int, int]:
        """A new player's ledger ID is their FIDE ID where it is free, else the next free ID."""
        taken = {
            row[0]
            for row in select_in(
                self.session, select(Player.id), Player.id, (r.fide_id for r in rows)
            )
        }
        ids = {}
        for row in rows:
            if row.fide_id in taken:
                source = f"{self.file_name}:{row.line}"
                self.highest_id = ids[row.fide_id] = next_free_id(self.highest_id, source)
            else:
                ids[row.fide_id] = row.fide_id
                self.highest_id = max(self.highest_id, row.fide_id)
            taken.add(ids[row.fide_id])
        return ids


def _validated(row: FideListRow, source: str, period: Period, today: dt.date) -> NewPlayer:
    """The row's player, validated as any new player is, with the list's own columns; its
    ratings at or above the floor of the list's date (7.1.4, `rules.rating_floor`)."""
    for pool, rating in row.ratings.items():
        if rating.rating is not None and not (
            rules.is_listed(rating.rating, period) and rating.rating <= HIGHEST_RATING
        ):
            raise InvalidInput(
                problem(
                    source,
                    f"{pool} rating {rating.rating} is not a published rating on the list of "
                    f"{period}; its ratings run from {rules.rating_floor(period)} (FIDE 7.1.4) "
                    f"to {HIGHEST_RATING}.",
                )
            )
        listed_figures(str(pool), rating.games, rating.k, source)
    for column, text, length in (
        ("women's title", row.women_title, TITLE_LENGTH),
        ("other titles", row.other_titles, OTHER_TITLES_LENGTH),
        ("FOA title", row.foa_title, TITLE_LENGTH),
    ):
        if text is not None:
            stored_text(column, text, length, source)
    return new_player(
        name=row.name,
        fide_id=row.fide_id,
        federation=row.federation,
        sex=row.sex,
        title=row.title,
        birth_year=row.birth_year,
        source=source,
        today=today,
    )


_KEPT = (Player.federation, Player.sex, Player.birth_year)
"""What the ledger keeps of a known player where the list leaves it blank."""


def _updated_player(known: AnyRow, row: FideListRow, period: Period) -> dict[str, object]:
    """A known player's details from the list; a new federation or title is carried by
    the lists of `period` on in the other pools too (`details_from`)."""
    columns = _player_row(known.id, row)
    for column in _KEPT:
        if columns[column.key] is None:
            columns[column.key] = getattr(known, column.key)
    moved = (columns["federation"], columns["title"]) != (known.federation, known.title)
    return columns | {"details_from": period if moved else known.details_from}


def _shown(columns: dict[str, object]) -> Details:
    """The federation and title the list shows of a player written from it."""
    return Details(cast("str | None", columns["federation"]), cast("str | None", columns["title"]))


def _player_row(player_id: int, row: FideListRow) -> dict[str, object]:
    return {
        "id": player_id,
        **name_columns(row.name),
        "federation": row.federation,
        "sex": row.sex,
        "title": row.title,
        "women_title": row.women_title,
        "other_titles": row.other_titles,
        "foa_title": row.foa_title,
        "birth_year": row.birth_year,
    }


def _publish_rows(
    session: Session,
    pool: Pool,
    period: Period,
    rows: Iterable[_ListRow],
    import_id: int,
    summary: FideListImport,
) -> None:
    """The pool's rated rows: list rows of `period` and the players' new standing."""
    rated = {row.player_id: row for row in rows if row.row.ratings[pool].rating is not None}
    earlier = {
        row.player_id: row
        for row in select_in(
            session,
            select(*_STANDING_COLUMNS).where(PlayerRating.pool == pool),
            PlayerRating.player_id,
            rated,
        )
    }
    entries: list[dict[str, object]] = []
    updates: list[dict[str, object]] = []
    inserts: list[dict[str, object]] = []
    for player_id, listed in rated.items():
        before = earlier.get(player_id)
        standing = _standing(player_id, pool, period, listed.row, before) | listed.details.columns()
        entries.append(_entry(standing, period, listed.row, before, import_id))
        (updates if before is not None else inserts).append(standing)
    insert_rows(session, ListEntry, entries)
    update_rows(session, PlayerRating, updates)
    insert_rows(session, PlayerRating, inserts)
    summary.rated[pool] = summary.rated.get(pool, 0) + len(entries)


_STANDING_COLUMNS = (
    PlayerRating.player_id,
    PlayerRating.rating,
    PlayerRating.games_completed,
    PlayerRating.ever_2400,
    PlayerRating.peak,
    PlayerRating.peak_period,
    PlayerRating.first_list,
)


def _standing(
    player_id: int, pool: Pool, period: Period, row: FideListRow, before: AnyRow | None
) -> dict[str, Any]:
    """The player's standing after the imported list. FIDE's flag decides activity."""
    listed = row.ratings[pool]
    assert listed.rating is not None
    peak = max(listed.rating, before.peak if before else 0)
    ever_2400 = (
        listed.k == rules.k_of(rules.KRule.EVER_2400, period)
        or peak >= rules.EVER_2400
        or bool(before and before.ever_2400)
    )
    state = rules.RatingState(listed.rating, 0, ever_2400, peak, row.birth_year)
    return {
        "player_id": player_id,
        "pool": pool,
        "rating": listed.rating,
        "games_completed": _games_completed(state, period, listed, before),
        "ever_2400": ever_2400,
        "peak": peak,
        "peak_period": period if before is None or peak > before.peak else before.peak_period,
        "last_active": None if "i" in row.flag else period,
        "first_list": before.first_list if before and before.first_list else period,
    }


def _games_completed(
    state: rules.RatingState, period: Period, listed: PoolRating, before: AnyRow | None
) -> int:
    """The ledger's own count where 8.3.3 gives the list's K with it (or the list gives
    none), else a count that does (`rules.games_consistent_with_k`)."""
    if before is not None:
        kept = dataclasses.replace(state, games_completed=before.games_completed)
        if listed.k is None or rules.development_coefficient(kept, period + 1) == listed.k:
            return int(before.games_completed)
    return rules.games_consistent_with_k(listed.k, listed.games)


def _entry(
    standing: dict[str, Any],
    period: Period,
    row: FideListRow,
    before: AnyRow | None,
    import_id: int,
) -> dict[str, object]:
    """The list row: the file's games and K, the change from the ledger's previous list."""
    previous = before.rating if before is not None and before.first_list is not None else None
    listed = row.ratings[standing["pool"]]
    assert listed.rating is not None
    return {
        "pool": standing["pool"],
        "player_id": standing["player_id"],
        "period": period,
        "rating": listed.rating,
        "previous_rating": previous,
        "change": None if previous is None else listed.rating - previous,
        "listed": True,
        "games": listed.games,
        "k_applied": None,
        "k_rule": None,
        "k_times_sum": None,
        "k_next": listed.k or _k_from_standing(standing, period, row.birth_year),
        "games_completed": standing["games_completed"],
        "ever_2400": standing["ever_2400"],
        "peak": standing["peak"],
        "peak_period": standing["peak_period"],
        "last_active": standing["last_active"],
        "federation": standing["federation"],
        "title": standing["title"],
        "import_id": import_id,
    }


def _k_from_standing(standing: dict[str, Any], period: Period, birth_year: int | None) -> int:
    """K for the next period (8.3.3) where the file gives none."""
    state = rules.RatingState(
        standing["rating"],
        standing["games_completed"],
        standing["ever_2400"],
        standing["peak"],
        birth_year,
    )
    return rules.development_coefficient(state, period + 1)
