"""The players an imported file names, as ledger IDs: matched to the ledger's, or created.

A player is matched by FIDE ID, then by exact name (`ledger.core.names.name_key`) and birth year,
to a ledger player without another FIDE ID (to any ledger player, where the file gives no
FIDE ID). Files that never give a birth year (PGN) match by a name alone when exactly one
ledger player has it. The others are created, unrated.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ledger.core import names
from ledger.core.domain import Pool
from ledger.core.errors import RejectedRecords
from ledger.core.records import NewPlayer, problem
from ledger.services.players import add_players
from ledger.storage.batches import select_in
from ledger.storage.models import Player

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class MatchedPlayers(Generic[K]):
    ids: dict[K, int]
    matched: int
    created: int


def match_players(
    session: Session,
    pool: Pool,
    players: Mapping[K, NewPlayer],
    *,
    by_name_alone: bool = False,
    among: Collection[int] = (),
    chosen: Mapping[K, int] | None = None,
) -> MatchedPlayers[K]:
    """Every player of the file as a ledger ID; refused if a name matches several players.

    A name alone also matches the players `among` (those of the event a report replaces).
    The players `chosen` are those ledger players, as a rating officer matched them.
    """
    matched = find_matches(
        session, players, by_name_alone=by_name_alone, among=among, chosen=chosen
    )
    _fill_fide_ids(session, players, matched)
    new = [key for key in players if key not in matched]
    created = add_players(session, pool, [players[key] for key in new])
    return MatchedPlayers(matched | dict(zip(new, created, strict=True)), len(matched), len(new))


def find_matches(
    session: Session,
    players: Mapping[K, NewPlayer],
    *,
    by_name_alone: bool = False,
    among: Collection[int] = (),
    chosen: Mapping[K, int] | None = None,
) -> dict[K, int]:
    """The ledger player each player of the file is, where the ledger has them (the others
    are new), as `match_players` matches them; reads only. Refused, with every problem, if
    a FIDE ID is given twice or a name matches several players."""
    found: dict[K, int | str] = dict(chosen or {})
    found |= _by_fide_id(session, {key: p for key, p in players.items() if key not in found})
    unmatched = {key: player for key, player in players.items() if key not in found}
    found |= _by_name(session, unmatched, by_name_alone=by_name_alone, among=set(among))
    problems = [match for match in found.values() if isinstance(match, str)]
    if problems:
        raise RejectedRecords(problems)
    return {key: int(match) for key, match in found.items()}


def _by_fide_id(session: Session, players: Mapping[K, NewPlayer]) -> dict[K, int | str]:
    wanted: dict[int, K] = {}
    problems: dict[K, int | str] = {}
    for key, player in players.items():
        if player.fide_id is None:
            continue
        if player.fide_id in wanted:
            earlier = players[wanted[player.fide_id]].source
            problems[key] = problem(
                player.source,
                f"FIDE ID {player.fide_id} is also given at {earlier}; one person has one "
                "FIDE ID: correct the ID of one of the two, or list the person once.",
            )
            continue
        wanted[player.fide_id] = key
    rows = select_in(session, select(Player.fide_id, Player.id), Player.fide_id, wanted)
    return problems | {wanted[fide_id]: player_id for fide_id, player_id in rows}


def _by_name(
    session: Session, players: Mapping[K, NewPlayer], *, by_name_alone: bool, among: set[int]
) -> dict[K, int | str]:
    keys = {key: names.name_key(p.name) for key, p in players.items()}
    candidates: dict[str, list[tuple[int, int | None, int | None]]] = {}
    statement = select(Player.name_key, Player.id, Player.fide_id, Player.birth_year)
    for name_key, player_id, fide_id, birth_year in select_in(
        session, statement, Player.name_key, keys.values()
    ):
        candidates.setdefault(name_key, []).append((player_id, fide_id, birth_year))
    found: dict[K, int | str] = {}
    for key, name_key in keys.items():
        player = players[key]
        same = [
            player_id
            for player_id, fide_id, birth_year in candidates.get(name_key, [])
            if (player.fide_id is None or fide_id in (None, player.fide_id))
            and _same_person(
                player.birth_year, birth_year, name_suffices=by_name_alone or player_id in among
            )
        ]
        if len(same) == 1:
            found[key] = same[0]
        elif same:
            found[key] = problem(
                player.source,
                f"{player.name} matches ledger players {', '.join(map(str, sorted(same)))}; "
                "give the FIDE ID, or merge them first (`ledger merge-players`).",
            )
    return found


def _same_person(given: int | None, ledgers: int | None, *, name_suffices: bool) -> bool:
    """Players of one name are one person when their birth years agree, or, where the file
    gives none, when the name alone suffices."""
    return given == ledgers if given is not None else name_suffices


def _fill_fide_ids(
    session: Session, players: Mapping[K, NewPlayer], matched: Mapping[K, int]
) -> None:
    """A player matched by name takes the file's FIDE ID where the ledger has none."""
    for key, player_id in matched.items():
        fide_id = players[key].fide_id
        if fide_id is not None:
            session.execute(
                update(Player)
                .where(Player.id == player_id, Player.fide_id.is_(None))
                .values(fide_id=fide_id)
            )
