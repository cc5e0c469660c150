"""The list's rows as the close stages them (`STAGED_LIST_ROWS`): each a `StagedRow`, the row
of the list and its player's new standing, built by name. The rows of the players the
period's figures rate (8.3) and of the starting ratings joining the list are worked out in
SQL, each from a mapping of field to expression (`stage`), so that a field left out or
named twice is refused before a row is written; the few others in Python
(`ledger.services.closing.publication`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from sqlalchemy import (
    ColumnElement,
    Executable,
    Subquery,
    Table,
    case,
    exists,
    false,
    func,
    insert,
    literal,
    null,
    select,
    true,
    union_all,
)
from sqlalchemy.orm import InstrumentedAttribute, Session

from ledger.core.domain import Period, Pool
from ledger.services import list_details, set_rating
from ledger.services.closing.figures import in_period
from ledger.storage.batches import AnySelect
from ledger.storage.models import Game, GameRating, PeriodType, Player, PlayerRating
from ledger.storage.staging import PERIOD_SCORES, STAGED_LIST_ROWS, in_staging_order


class StagedRow(NamedTuple):
    """A row of the list and its player's new standing, as `STAGED_LIST_ROWS` holds it.

    Besides the list row (`ledger.storage.models.ListEntry`): whether the player had a
    standing in the pool (`had_standing`), whether it is a starting rating joining its
    first list (`joining`), and the first list they are on (`first_list`). The figures of
    the period (`previous_rating` to `k_times_sum`) are None where it rated nothing."""

    player_id: int
    had_standing: bool
    joining: bool
    first_list: Period
    rating: int
    listed: bool
    k_next: int | None
    games_completed: int
    ever_2400: bool
    peak: int
    peak_period: Period | None
    last_active: Period | None
    federation: str | None
    title: str | None
    previous_rating: int | None
    change: int | None
    games: int
    k_applied: int | None
    k_rule: str | None
    k_times_sum: int | None


if StagedRow._fields != tuple(column.name for column in STAGED_LIST_ROWS.c):
    raise TypeError("StagedRow's fields are not STAGED_LIST_ROWS' columns, in order.")

STAGED = STAGED_LIST_ROWS.c


def stage(row: Mapping[str, Any], statement: AnySelect) -> Executable:
    """SQL: stage the rows `statement` selects, each field of `StagedRow` as `row` names
    its expression (the statement gives the FROM, the conditions and the order)."""
    if sorted(row) != sorted(StagedRow._fields):
        missing = set(StagedRow._fields) - set(row)
        extra = set(row) - set(StagedRow._fields)
        raise TypeError(f"a staged row needs each field once: missing {missing}, extra {extra}")
    return insert(STAGED_LIST_ROWS).from_select(
        list(row), statement.with_only_columns(*row.values(), maintain_column_froms=True)
    )


def not_staged(player_id: InstrumentedAttribute[int]) -> ColumnElement[bool]:
    """SQL: the player has no staged row yet."""
    return ~exists().where(STAGED.player_id == player_id)


def period_scores(pool: Pool, period: Period) -> Executable:
    """SQL: stage the games the period's figures rate for each player and ΣΔR, the sum of
    each game's score less its PD (8.3.1), in hundredths (`PERIOD_SCORES`), in the order of
    the players (`storage.staging`)."""
    sides = union_all(
        *(
            select(
                player.label("player_id"),
                (set_rating.score(Game.result, white=white) - pd).label("delta"),
            )
            .join(GameRating, GameRating.game_id == Game.id)
            .where(in_period(pool, period), pd.is_not(None))
            for player, pd, white in (
                (Game.white_id, GameRating.white_expected, True),
                (Game.black_id, GameRating.black_expected, False),
            )
        )
    ).subquery("sides")
    scores = (
        select(sides.c.player_id, func.count(), func.sum(sides.c.delta))
        .group_by(sides.c.player_id)
        .order_by(sides.c.player_id)
    )
    return insert(PERIOD_SCORES).from_select(["player_id", "games", "delta_sum"], scores)


def stage_rated(session: Session, pool: Pool, period: Period, shown: Table | None) -> Executable:
    """SQL: stage the row of every player the period's figures rate (8.3), from their games
    and ΣΔR (`PERIOD_SCORES`, `_rated_players`), in the order the backend stages them
    fastest (`storage.staging.in_staging_order`)."""
    changed = _rated_players(pool, period, shown)
    statement = in_staging_order(session, select(changed.c.player_id), changed.c.player_id)
    return stage(_rated_row(period, changed.c), statement)


def _rated_players(pool: Pool, period: Period, shown: Table | None) -> Subquery:
    """SQL: every player the period's figures rate (8.3), with their games and ΣΔR
    (`PERIOD_SCORES`), their standing on the list in force, K from it (8.3.3) capped by 700,
    the change K x ΣΔR rounded once (8.3.4), and the details as
    `list_details.carried_sql`."""
    played = PERIOD_SCORES.c
    state = (PlayerRating.games_completed, PlayerRating.ever_2400, PlayerRating.peak)
    k = set_rating.development_coefficient(*state, Player.birth_year, period)
    by_player = with_shown(
        select(
            played.player_id,
            played.games,
            played.delta_sum,
            *state,
            PlayerRating.rating,
            PlayerRating.peak_period,
            PlayerRating.first_list,
            Player.birth_year,
            set_rating.k_rule_key(*state, Player.birth_year, period).label("k_rule"),
            set_rating.capped_k(k, played.games, period).label("k_applied"),
            *details(period, shown).values(),
        )
        .select_from(PERIOD_SCORES)
        .join(
            PlayerRating,
            (PlayerRating.player_id == played.player_id) & (PlayerRating.pool == pool),
        )
        .join(Player, Player.id == played.player_id),
        shown,
    )
    rated = _evaluated_once(by_player, "rated")
    k_times_sum = rated.c.k_applied * rated.c.delta_sum
    return _evaluated_once(
        select(
            *rated.c,
            k_times_sum.label("k_times_sum"),
            set_rating.round_half_away_from_zero(k_times_sum).label("change"),
        ),
        "changed",
    )


def _rated_row(period: Period, changed: Any) -> dict[str, Any]:
    """The staged row of a player the period rated, from the columns of `_rated_players`:
    the standing the new rating gives (`set_rating.standing_after`: the floor, the 2400
    flag, the peak, the K of the next period)."""
    period_value = literal(period, PeriodType())
    return {
        "player_id": changed.player_id,
        "had_standing": true(),
        "joining": false(),
        "first_list": func.coalesce(changed.first_list, period_value),
        **set_rating.standing_after(
            period,
            rating=changed.rating + changed.change,
            games_completed=changed.games_completed + changed.games,
            ever_2400=changed.ever_2400,
            peak=changed.peak,
            peak_period=changed.peak_period,
            birth_year=changed.birth_year,
            last_active=period_value,
        ),
        "federation": changed.federation,
        "title": changed.title,
        "previous_rating": case((changed.first_list.is_not(None), changed.rating)),
        "change": changed.change,
        "games": changed.games,
        "k_applied": changed.k_applied,
        "k_rule": changed.k_rule,
        "k_times_sum": changed.k_times_sum,
    }


def _evaluated_once(statement: AnySelect, name: str) -> Subquery:
    """`statement` as a subquery whose columns are worked out once a row: SQLite flattens a
    plain subquery, and PostgreSQL pulls it up, into the query that uses it, which then
    works a column out again wherever it names it (the rated rows name K and the change a
    dozen times). Neither does so with a subquery that has an OFFSET."""
    return statement.offset(0).subquery(name)


def pending(pool: Pool, period: Period, shown: Table | None, joining: Table | None) -> Executable:
    """SQL: stage a row for each starting rating no list has carried yet (in a re-rate,
    those `joining` names), unchanged, with the K of the next period (8.3.3); in the order
    of the players (`storage.staging`). A starting rating is accepted from the floor up
    (`ledger.core.records`), so it is listed.

    Ledger's choice: joining the list counts as activity for the inactivity flag."""
    period_value = literal(period, PeriodType())
    state = (PlayerRating.games_completed, PlayerRating.ever_2400, PlayerRating.peak)
    row = {
        "player_id": PlayerRating.player_id,
        "had_standing": true(),
        "joining": true(),
        "first_list": period_value,
        "rating": PlayerRating.rating,
        "listed": true(),
        "k_next": set_rating.development_coefficient(*state, Player.birth_year, period + 1),
        "games_completed": PlayerRating.games_completed,
        "ever_2400": PlayerRating.ever_2400,
        "peak": PlayerRating.peak,
        "peak_period": PlayerRating.peak_period,
        "last_active": func.coalesce(PlayerRating.last_active, period_value),
        **details(period, shown),
        "previous_rating": null(),
        "change": literal(0),
        "games": literal(0),
        "k_applied": null(),
        "k_rule": null(),
        "k_times_sum": null(),
    }
    rows = with_shown(
        select(PlayerRating.player_id)
        .join(Player, Player.id == PlayerRating.player_id)
        .where(
            PlayerRating.pool == pool,
            PlayerRating.first_list.is_(None),
            not_staged(PlayerRating.player_id),
        ),
        shown,
    )
    if joining is not None:
        rows = rows.join(joining, joining.c.player_id == PlayerRating.player_id)
    return stage(row, rows.order_by(PlayerRating.player_id))


def details(period: Period, shown: Table | None) -> dict[str, ColumnElement[str | None]]:
    """The federation and title the list of `period` carries, over a player and their
    standing (`list_details.carried_sql`; in a re-rate, those `shown`, `with_shown`)."""
    return {
        name: list_details.carried_sql(name, period, shown).label(name)
        for name in ("federation", "title")
    }


def with_shown(statement: AnySelect, shown: Table | None) -> AnySelect:
    """`statement`, over a player, with the details a re-rate's list showed (`shown`)."""
    if shown is None:
        return statement
    return statement.outerjoin(shown, shown.c.player_id == Player.id)
