"""The standings the close works out in Python: a player's standing on the list in force at
the start of the period, read by name, with the federation and title the period's list
carries. The players the period's figures rate are worked out in SQL
(`ledger.services.closing.rows`); these are the few others: those toward a first rating
(`ledger.services.closing.first_ratings`) and those whose details change."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger.core import rules
from ledger.core.domain import Period, Pool
from ledger.services.list_details import NO_DETAILS, Details, carried
from ledger.storage.batches import AnySelect, Values, driver_rows_in
from ledger.storage.models import Player, PlayerRating, stored_period


@dataclass(slots=True, kw_only=True)
class Standing:
    """A player's standing on the list in force at the start of the period (none if never
    rated in the pool: `has_row` False, `rating` None), and the games the period brings them
    toward a first rating."""

    player_id: int
    birth_year: int | None
    has_row: bool
    rating: int | None
    games_completed: int
    ever_2400: bool
    peak: int
    peak_period: Period | None
    first_list: Period | None
    last_active: Period | None
    listed: Details | None = None
    """The federation and title the newest list shows (None: on no list)."""
    details: Details = NO_DETAILS
    """The federation and title this period's list carries."""
    initial_games: list[rules.InitialRatingGame] = field(default_factory=list)
    initial_games_in_period: int = 0


READ: dict[str, Any] = {
    "player_id": Player.id,
    "birth_year": Player.birth_year,
    "has_row": PlayerRating.player_id.is_not(None),
    "rating": PlayerRating.rating,
    "games_completed": func.coalesce(PlayerRating.games_completed, 0),
    "ever_2400": func.coalesce(PlayerRating.ever_2400, False),
    "peak": func.coalesce(PlayerRating.peak, 0),
    "peak_period": PlayerRating.peak_period,
    "first_list": PlayerRating.first_list,
    "last_active": PlayerRating.last_active,
    "listed_federation": PlayerRating.federation.label("listed_federation"),
    "listed_title": PlayerRating.title.label("listed_title"),
    "recorded_federation": Player.federation.label("recorded_federation"),
    "recorded_title": Player.title.label("recorded_title"),
    "details_from": Player.details_from,
}
"""A player's standing in a pool (none if never rated in it), and what decides the
federation and title a list row carries, by name: `standing` reads them so."""


def read_standings() -> AnySelect:
    """SQL: `READ`, from the player and their standing in the pool (joined by the caller)."""
    return select(*READ.values())


def load_standings(
    session: Session,
    pool: Pool,
    period: Period,
    players: Iterable[int],
    shown: Mapping[int, Details] | None,
) -> dict[int, Standing]:
    """The `players`, with their standing on the list in force and the federation and title
    the period's list carries (in a re-rate: `shown`)."""
    statement = (
        read_standings()
        .select_from(Player)
        .outerjoin(
            PlayerRating, (PlayerRating.player_id == Player.id) & (PlayerRating.pool == pool)
        )
    )
    batches = driver_rows_in(session, statement, Player.id, players)
    return {standing.player_id: standing for standing in standings(batches, period, shown)}


def standings(
    batches: Iterable[list[Values]], period: Period, shown: Mapping[int, Details] | None
) -> Iterator[Standing]:
    """The standings of rows of `read_standings`, in batches as the driver gives them."""
    for batch in batches:
        for row in batch:
            yield standing(dict(zip(READ, row, strict=True)), period, shown)


def standing(read: dict[str, Any], period: Period, shown: Mapping[int, Details] | None) -> Standing:
    """The standing `read` holds (`READ`, as the driver gives it), with the details the
    player's newest list shows (none if on no list) and those this period's list carries
    (in a re-rate: those it showed)."""
    first_list = stored_period(read["first_list"])
    standing = Standing(
        player_id=read["player_id"],
        birth_year=read["birth_year"],
        has_row=bool(read["has_row"]),
        rating=read["rating"],
        games_completed=read["games_completed"],
        ever_2400=bool(read["ever_2400"]),
        peak=read["peak"],
        peak_period=stored_period(read["peak_period"]),
        first_list=first_list,
        last_active=stored_period(read["last_active"]),
    )
    recorded = Details(read["recorded_federation"], read["recorded_title"])
    if first_list is not None:
        standing.listed = Details(read["listed_federation"], read["listed_title"])
    if shown is None:
        details_from = stored_period(read["details_from"])
        standing.details = carried(recorded, standing.listed, details_from, period)
    else:
        standing.details = shown.get(standing.player_id) or standing.listed or recorded
    return standing
