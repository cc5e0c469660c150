"""What a published list shows of a player beside the ratings: the federation and title in
force on it.

A list row keeps them, and so does each player's standing (the newest list's), so a transfer
or a new title never changes a list already published. A change recorded on the player is
carried from the next list closed (or from the list its `details_from` names), and a list
that carries it gives a row to every listed player it changes, games or not. A re-rate
closes its periods again with what their lists showed (`shown_by`), not today's details.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Table, case, literal, or_, select
from sqlalchemy.orm import Session

from ledger.core.domain import Period, Pool
from ledger.storage.models import PeriodType, Player, PlayerRating, SupersededEntry


@dataclass(frozen=True, slots=True)
class Details:
    """A player's federation and title, as a list shows them."""

    federation: str | None
    title: str | None

    def columns(self) -> dict[str, object]:
        return {"federation": self.federation, "title": self.title}


NO_DETAILS = Details(None, None)

Shown = Callable[[Period], Mapping[int, Details]]
"""For a re-rate: the federation and title a period's list showed of each of its players."""


def carried(
    recorded: Details, listed: Details | None, details_from: Period | None, period: Period
) -> Details:
    """The details the list of `period` carries for a player: those recorded, once their
    `details_from` is reached (None: at once), else those the newest list showed (`listed`;
    None for a player on no list yet, who joins with the recorded ones)."""
    if listed is None or details_from is None or details_from <= period:
        return recorded
    return listed


def recorded_since_listed(period: Period) -> ColumnElement[bool]:
    """SQL, over a player and their standing: the federation or title recorded differs from
    the newest list's and is carried by the list of `period`."""
    differs = PlayerRating.federation.is_distinct_from(
        Player.federation
    ) | PlayerRating.title.is_distinct_from(Player.title)
    due = Player.details_from.is_(None) | (Player.details_from <= literal(period, PeriodType()))
    return differs & due


def carried_sql(name: str, period: Period, shown: Table | None) -> ColumnElement[str | None]:
    """SQL `carried` of the detail `name` ("federation" or "title") over a player and their
    standing; in a re-rate, that of the `shown` row joined to them (`SHOWN_DETAILS`), else
    the newest list's, else the one recorded."""
    recorded, listed = getattr(Player, name), getattr(PlayerRating, name)
    if shown is not None:
        return case(
            (shown.c.player_id.is_not(None), shown.c[name]),
            (PlayerRating.first_list.is_not(None), listed),
            else_=recorded,
        )
    due = or_(
        PlayerRating.first_list.is_(None),
        Player.details_from.is_(None),
        Player.details_from <= literal(period, PeriodType()),
    )
    return case((due, recorded), else_=listed)


def shown_by(session: Session, pool: Pool, versions: Mapping[Period, int]) -> Shown:
    """What the given versions of the lists showed of their rows' players, read from their
    superseded rows one period at a time (a re-rate keeps them before it closes again)."""

    def shown(period: Period) -> Mapping[int, Details]:
        if period not in versions:
            return {}
        rows = session.execute(
            select(
                SupersededEntry.player_id, SupersededEntry.federation, SupersededEntry.title
            ).where(
                SupersededEntry.pool == pool,
                SupersededEntry.period == period,
                SupersededEntry.version == versions[period],
            )
        )
        return {player_id: Details(federation, title) for player_id, federation, title in rows}

    return shown
