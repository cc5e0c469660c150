"""Adding players, one from the command line or many from an import, in one transaction."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Table, func, select
from sqlalchemy.orm import Session

from ledger.core import names
from ledger.core.domain import Pool
from ledger.core.errors import RejectedRecords
from ledger.core.progress import NO_PROGRESS, Progress
from ledger.core.records import NewPlayer, StartingRating, next_free_id, problem
from ledger.queries import people
from ledger.services import activity
from ledger.services.activity import OS_USER, Author
from ledger.storage.batches import Values, batched, bulk_write, insert_values, select_in
from ledger.storage.database import lock_pool
from ledger.storage.models import Player, PlayerRating


@dataclass(frozen=True, slots=True)
class AddedPlayer:
    """A player recorded from the command line, and the players they may be already."""

    id: int
    duplicates: list[str]


def add_player(
    session: Session,
    pool: Pool,
    player: NewPlayer,
    now: dt.datetime,
    author: Author = OS_USER,
) -> AddedPlayer:
    """Record one new player as `add_players` does, and in the log, naming the likely
    duplicates (`ledger.queries.people.likely_duplicates`): a warning, the player is
    recorded."""
    (player_id,) = add_players(session, pool, [player])
    added = AddedPlayer(player_id, people.likely_duplicates(session, [player_id]))
    activity.record(session, "add-player", added, author, now, pool)
    return added


def add_players(
    session: Session, pool: Pool, players: Sequence[NewPlayer], progress: Progress = NO_PROGRESS
) -> list[int]:
    """Record new players (and their starting ratings in `pool`); returns their ledger IDs.

    Players without an ID get the next free ones. Nothing is written if any ID or FIDE ID
    is taken or repeated.
    """
    lock_pool(session, pool)
    progress.stage(f"Checking {len(players):,} players", None)
    _refuse_taken_ids(session, players)
    ids = _ledger_ids(session, players)
    rated = sum(player.starting is not None for player in players)
    recording = progress.stage("Recording players", len(ids))
    with bulk_write(session, _PLAYERS, len(ids)), bulk_write(session, _RATINGS, rated):
        for batch in batched(zip(ids, players, strict=True)):
            rows = [_player_values(*row) for row in batch]
            insert_values(session, _PLAYERS, _PLAYER_COLUMNS, rows)
            starting = [_rating_values(i, pool, p.starting) for i, p in batch if p.starting]
            insert_values(session, _RATINGS, _RATING_COLUMNS, starting)
            recording.advance(len(batch))
    return ids


def _ledger_ids(session: Session, players: Sequence[NewPlayer]) -> list[int]:
    """The players' IDs: their own, else the one after the highest in use so far."""
    highest: int = session.scalar(select(func.max(Player.id))) or 0
    ids = []
    for player in players:
        player_id = player.id if player.id is not None else next_free_id(highest, player.source)
        highest = max(highest, player_id)
        ids.append(player_id)
    return ids


def _refuse_taken_ids(session: Session, players: Sequence[NewPlayer]) -> None:
    problems = []
    # A new ledger's first players take no ID: its empty table is not searched for each.
    any_player = session.scalar(select(Player.id).limit(1)) is not None
    for field, column, key in (("id", Player.id, "id"), ("fide_id", Player.fide_id, "fide_id")):
        wanted = [(getattr(p, key), p) for p in players if getattr(p, key) is not None]
        numbers = (n for n, _ in wanted) if any_player else ()
        taken = {row[0] for row in select_in(session, select(column), column, numbers)}
        seen: set[int] = set()
        for number, player in wanted:
            if number in taken:
                problems.append(problem(player.source, f"{field}: player {number} already exists."))
            elif number in seen:
                problems.append(problem(player.source, f"{field}: {number} appears twice."))
            seen.add(number)
    if problems:
        raise RejectedRecords(problems)


_PLAYERS = cast(Table, Player.__table__)
_RATINGS = cast(Table, PlayerRating.__table__)
_PLAYER_COLUMNS = (
    "id",
    "fide_id",
    "name",
    "name_key",
    "sort_name",
    "federation",
    "sex",
    "title",
    "birth_year",
)
_RATING_COLUMNS = ("player_id", "pool", "rating", "games_completed", "ever_2400", "peak")


def _player_values(player_id: int, player: NewPlayer) -> Values:
    return (
        player_id,
        player.fide_id,
        *_names(player.name),
        player.federation,
        player.sex,
        player.title,
        player.birth_year,
    )


def name_columns(name: str) -> dict[str, str]:
    """A player's name and the keys that match and order it (`ledger.core.names`)."""
    return dict(zip(("name", "name_key", "sort_name"), _names(name), strict=True))


def _names(name: str) -> tuple[str, str, str]:
    """A name, its matching key and its sort key: the key is the sort key's words sorted."""
    name = " ".join(name.split())
    sort_name = names.sort_key(name)
    return name, " ".join(sorted(sort_name.split())), sort_name


def _rating_values(player_id: int, pool: Pool, starting: StartingRating) -> Values:
    return (
        player_id,
        pool,
        starting.rating,
        starting.games,
        starting.ever_2400,
        starting.peak,
    )
