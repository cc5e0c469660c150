"""Adding players, one from the command line or many from an import, in one transaction."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger.core import names
from ledger.core.domain import Pool
from ledger.core.errors import RejectedRecords
from ledger.core.progress import NO_PROGRESS, Progress
from ledger.core.records import NewPlayer, next_free_id, problem
from ledger.queries import people
from ledger.services import activity
from ledger.services.activity import OS_USER, Author
from ledger.storage.batches import insert_counted, select_in
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
    highest: int = session.scalar(select(func.max(Player.id))) or 0
    ids = []
    for player in players:
        player_id = player.id if player.id is not None else next_free_id(highest, player.source)
        highest = max(highest, player_id)
        ids.append(player_id)
    rows = [_player_row(i, p) for i, p in zip(ids, players, strict=True)]
    insert_counted(session, Player, rows, progress.stage("Recording players", len(rows)))
    starting = [_rating_row(i, pool, p) for i, p in zip(ids, players, strict=True) if p.starting]
    stage = progress.stage("Recording starting ratings", len(starting))
    insert_counted(session, PlayerRating, starting, stage)
    return ids


def _refuse_taken_ids(session: Session, players: Sequence[NewPlayer]) -> None:
    problems = []
    for field, column, key in (("id", Player.id, "id"), ("fide_id", Player.fide_id, "fide_id")):
        wanted = [(getattr(p, key), p) for p in players if getattr(p, key) is not None]
        taken = {
            row[0] for row in select_in(session, select(column), column, (n for n, _ in wanted))
        }
        seen: set[int] = set()
        for number, player in wanted:
            if number in taken:
                problems.append(problem(player.source, f"{field}: player {number} already exists."))
            elif number in seen:
                problems.append(problem(player.source, f"{field}: {number} appears twice."))
            seen.add(number)
    if problems:
        raise RejectedRecords(problems)


def _player_row(player_id: int, player: NewPlayer) -> dict[str, object]:
    return {
        "id": player_id,
        "fide_id": player.fide_id,
        **name_columns(player.name),
        "federation": player.federation,
        "sex": player.sex,
        "title": player.title,
        "birth_year": player.birth_year,
    }


def name_columns(name: str) -> dict[str, str]:
    """A player's name and the keys that match and order it (`ledger.core.names`)."""
    name = " ".join(name.split())
    return {"name": name, "name_key": names.name_key(name), "sort_name": names.sort_key(name)}


def _rating_row(player_id: int, pool: Pool, player: NewPlayer) -> dict[str, object]:
    assert player.starting is not None
    return {
        "player_id": player_id,
        "pool": pool,
        "rating": player.starting.rating,
        "games_completed": player.starting.games,
        "ever_2400": player.starting.ever_2400,
        "peak": player.starting.peak,
        "peak_period": None,
        "last_active": None,
        "first_list": None,
    }
