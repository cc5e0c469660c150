"""Correcting a player's details (`ledger edit-player`), logged with who and why.

A federation or a title changes with a transfer or a new title: it is carried from the next
list closed (or a later one, `carried_from`), and lists already published keep what they
showed (`ledger.services.list_details`). A name, FIDE ID, sex or birth year is a correction of
a fact and holds at once, on every list: the lists show a player under today's name. A
corrected birth year that changes the K of a closed period (8.3.3: a junior's K 40) re-rates
that pool from the first such list, exactly as a corrected game does; one that moves the
player into or out of junior lists, and a corrected sex (women's and girls' lists, the `w`
flag), change no rating and are reported with the lists they change.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ledger.core import rules
from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict, NotFound
from ledger.core.records import new_player
from ledger.queries import cards
from ledger.queries.filters import JUNIOR_LIST_AGE
from ledger.services import activity, corrections
from ledger.services.activity import OS_USER, Author
from ledger.services.players import name_columns
from ledger.storage.database import lock_pool
from ledger.storage.models import ListEntry, Player, PriorStanding
from ledger.storage.periods import newest_closed_period


@dataclass(frozen=True, slots=True)
class PlayerEdit:
    """The details to give a player; None keeps one as it is, an empty federation or title
    removes it. `carried_from`: the first list to carry a new federation or title (None:
    the next list)."""

    name: str | None = None
    federation: str | None = None
    title: str | None = None
    sex: str | None = None
    birth_year: int | None = None
    fide_id: int | None = None
    carried_from: Period | None = None


@dataclass(frozen=True, slots=True)
class PlayerEdited:
    """What an edit changed ("federation UKR -> RUS; birth year 2001 -> 2003"), whether it
    gives a new federation or title and from which list it is carried (None: the next one),
    the lists it changes without a re-rate, and the lists re-rated with their new versions."""

    player_id: int
    name: str
    changed: str
    new_details: bool
    carried_from: Period | None
    affects: str
    rerated: dict[Pool, dict[Period, int]]


_SHOWN = {"fide_id": "FIDE ID", "birth_year": "birth year"}
_CARRIED = ("federation", "title")


def edit_player(
    session: Session,
    player_id: int,
    edit: PlayerEdit,
    now: dt.datetime,
    author: Author = OS_USER,
) -> PlayerEdited:
    """Give `player_id` the details of `edit`, re-rating where a corrected birth year changes
    a closed period's K, and log it. Refused, with nothing written, if a value is not valid,
    nothing changes, the FIDE ID is another player's, `carried_from` names a published list,
    or a list to re-rate cannot be (one imported from FIDE)."""
    for pool in Pool:
        lock_pool(session, pool)
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound(f"no player with ID {player_id}; look it up with `ledger find NAME`.")
    before = _details(player)
    after = _validated(before, edit, now)
    changed = {
        name: (before[name], value) for name, value in after.items() if value != before[name]
    }
    if not changed:
        raise Conflict(f"player {player_id} already has these details; nothing to change.")
    carried_from = _carried_from(session, edit, changed)
    _refuse_taken_fide_id(session, player_id, after["fide_id"], changed)
    affects = _lists_changed(session, player_id, before, after)
    values = dict(after)
    new_details = any(name in changed for name in _CARRIED)
    if new_details:
        values["details_from"] = carried_from
    session.execute(
        update(Player)
        .where(Player.id == player_id)
        .values(values | name_columns(str(after["name"])))
        .execution_options(synchronize_session=False)
    )
    rerated = _rerate_for_birth_year(session, player_id, before, after, now)
    edited = PlayerEdited(
        player_id,
        str(after["name"]),
        _changes(changed),
        new_details,
        carried_from,
        affects,
        rerated,
    )
    activity.record(session, "edit-player", edited, author, now)
    return edited


def _details(player: Player) -> dict[str, object]:
    return {
        "name": player.name,
        "fide_id": player.fide_id,
        "federation": player.federation,
        "title": player.title,
        "sex": player.sex,
        "birth_year": player.birth_year,
    }


def _validated(before: dict[str, object], edit: PlayerEdit, now: dt.datetime) -> dict[str, object]:
    """The player's details after the edit, validated as a new player's are."""
    given = {
        name: getattr(edit, name)
        for name in before
        if getattr(edit, name) is not None and name != "name"
    }
    merged = {name: value for name, value in before.items() if name != "name"} | {
        name: value or None for name, value in given.items()
    }
    checked = new_player(
        name=edit.name if edit.name is not None else str(before["name"]),
        today=now.date(),
        **merged,  # type: ignore[arg-type]
    )
    return {
        "name": checked.name,
        "fide_id": checked.fide_id,
        "federation": checked.federation,
        "title": checked.title,
        "sex": checked.sex,
        "birth_year": checked.birth_year,
    }


def _carried_from(
    session: Session, edit: PlayerEdit, changed: dict[str, tuple[object, object]]
) -> Period | None:
    """The first list to carry a new federation or title: `edit.carried_from`, which must
    come after every published list, else the next list (None)."""
    if edit.carried_from is None:
        return None
    if not any(name in changed for name in _CARRIED):
        raise Conflict(
            "from: only a new federation or title is carried from a later list; the other "
            "details are corrected at once."
        )
    for pool in Pool:
        newest = newest_closed_period(session, pool)
        if newest is not None and edit.carried_from <= newest:
            raise Conflict(
                f"the {pool} list of {newest} is already published; a new federation or title "
                f"is carried from the next list (leave out --from) or from {newest + 1} on."
            )
    return edit.carried_from


def _refuse_taken_fide_id(
    session: Session, player_id: int, fide_id: object, changed: dict[str, tuple[object, object]]
) -> None:
    if "fide_id" not in changed or fide_id is None:
        return
    holder = session.scalar(select(Player.id).where(Player.fide_id == fide_id))
    if holder is not None and holder != player_id:
        raise Conflict(
            f"FIDE ID {fide_id} is player {holder}'s; if the two are one person, merge them "
            f"(`ledger merge-players {holder} {player_id}`)."
        )


def _changes(changed: dict[str, tuple[object, object]]) -> str:
    return "; ".join(
        f"{_SHOWN.get(name, name)} {_shown(old)} -> {_shown(new)}"
        for name, (old, new) in changed.items()
    )


def _shown(value: object) -> str:
    return "none" if value is None else str(value)


def _lists_changed(
    session: Session, player_id: int, before: dict[str, object], after: dict[str, object]
) -> str:
    """The published lists a corrected sex or birth year changes without a re-rate: the
    women's and girls' lists (and the `w` flag) the player is on, and the junior lists they
    join or leave (list year minus birth year at most 20)."""
    changes = []
    for pool in Pool:
        listed = _listed_periods(session, pool, player_id)
        if before["sex"] != after["sex"] and listed:
            changes.append(f"{pool} women's and girls' lists {_ranges(listed)}")
        junior_then = [p for p in listed if _junior(before, p) != _junior(after, p)]
        if junior_then:
            changes.append(f"{pool} junior lists {_ranges(junior_then)}")
    return "; ".join(changes) or "none"


def _listed_periods(session: Session, pool: Pool, player_id: int) -> list[Period]:
    card = cards.player_card(session, player_id, pool)
    return [row.period for each in card.pools for row in each.history if row.rating is not None]


def _junior(details: dict[str, object], period: Period) -> bool:
    birth_year = details["birth_year"]
    return isinstance(birth_year, int) and period.year - birth_year <= JUNIOR_LIST_AGE


def _ranges(periods: list[Period]) -> str:
    """Periods as runs: "2026-01 to 2026-06, 2026-09"."""
    runs: list[list[Period]] = []
    for period in sorted(periods):
        if runs and runs[-1][-1] + 1 == period:
            runs[-1].append(period)
        else:
            runs.append([period])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]} to {run[-1]}" for run in runs)


def _rerate_for_birth_year(
    session: Session,
    player_id: int,
    before: dict[str, object],
    after: dict[str, object],
    now: dt.datetime,
) -> dict[Pool, dict[Period, int]]:
    """Re-rate each pool from the first closed list whose K for the player the corrected
    birth year changes (the K applied to a period's games, or the K it shows for the next)."""
    if before["birth_year"] == after["birth_year"]:
        return {}
    rerated = {}
    for pool in Pool:
        start = _first_changed_k(session, pool, player_id, after["birth_year"])
        if start is not None:
            rerated[pool] = corrections.rerate_from(session, pool, start, now).versions
    return rerated


def _first_changed_k(
    session: Session, pool: Pool, player_id: int, birth_year: object
) -> Period | None:
    """The first list the ledger closed whose K for the player 8.3.3 gives otherwise with
    `birth_year`: the K of its games (from the standing before its close) or the K it
    shows for the next period. Lists imported from FIDE carry FIDE's K and are left."""
    born = birth_year if isinstance(birth_year, int) else None
    rows = session.execute(
        select(ListEntry, PriorStanding)
        .outerjoin(
            PriorStanding,
            (PriorStanding.pool == ListEntry.pool)
            & (PriorStanding.period == ListEntry.period)
            & (PriorStanding.player_id == ListEntry.player_id)
            & PriorStanding.had_standing,
        )
        .where(
            ListEntry.pool == pool,
            ListEntry.player_id == player_id,
            ListEntry.import_id.is_(None),
        )
        .order_by(ListEntry.period)
    ).all()
    for entry, prior in rows:
        after = rules.RatingState(
            entry.rating, entry.games_completed, entry.ever_2400, entry.peak, born
        )
        if (
            entry.k_next is not None
            and rules.development_coefficient(after, entry.period + 1) != entry.k_next
        ):
            return entry.period
        if entry.k_applied is not None and prior is not None and prior.rating is not None:
            state = rules.RatingState(
                prior.rating,
                prior.games_completed or 0,
                bool(prior.ever_2400),
                prior.peak or 0,
                born,
            )
            k = rules.capped_k(
                rules.development_coefficient(state, entry.period), entry.games, entry.period
            )
            if k != entry.k_applied:
                return entry.period
    return None
