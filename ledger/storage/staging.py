"""Temporary tables in which a bulk write stages its rows, so that set-wise SQL writes them
to the ledger's own tables: the driver's fastest path (executemany of tuples, or COPY) fills
a table with no index but its key, and one INSERT ... SELECT or UPDATE ... FROM per target
does the rest.

The rows a close stages on PostgreSQL by INSERT ... SELECT come in the order of the key: in
the order a hash join or an aggregate gives them, PostgreSQL spends as long placing the keys
in the temporary table's index as working the rows out (`in_staging_order`; the figures are
in `docs/performance.md`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, cast

from sqlalchemy import (
    Boolean,
    Column,
    FromClause,
    Integer,
    MetaData,
    Table,
    func,
    insert,
    select,
    text,
    union_all,
)
from sqlalchemy.orm import Session

from ledger.storage.batches import AnySelect
from ledger.storage.database import is_postgresql
from ledger.storage.models import ListEntry, Player, PlayerRating

_ENTRIES = cast(Table, ListEntry.__table__)
_STANDINGS = cast(Table, PlayerRating.__table__)
_PLAYERS = cast(Table, Player.__table__)

LIST_ROW_FIGURES = (
    "rating",
    "listed",
    "k_next",
    "games_completed",
    "ever_2400",
    "peak",
    "peak_period",
    "last_active",
    "federation",
    "title",
    "previous_rating",
    "change",
    "games",
    "k_applied",
    "k_rule",
    "k_times_sum",
)

STAGED_LIST_ROWS = Table(
    "staged_list_rows",
    MetaData(),
    Column("player_id", _ENTRIES.c.player_id.type, primary_key=True),
    Column("had_standing", Boolean, nullable=False),
    Column("joining", Boolean, nullable=False),
    Column("first_list", _STANDINGS.c.first_list.type),
    *(Column(name, _ENTRIES.c[name].type) for name in LIST_ROW_FIGURES),
    prefixes=["TEMPORARY"],
)
"""A close's list rows of one pool and period, each with what its player's new standing
needs besides: whether they had one (`had_standing`), whether it is a starting rating
joining its first list (`joining`), and the first list they are on (`first_list`)."""


EXPECTED_SCORES = Table(
    "staged_expected_scores",
    MetaData(),
    Column("difference", Integer, primary_key=True),
    Column("expected", Integer, nullable=False),
    prefixes=["TEMPORARY"],
)
"""Table 8.1.2 as a close's look-up: the PD in hundredths of each rating difference D."""

PERIOD_RATINGS = Table(
    "staged_period_ratings",
    MetaData(),
    Column("player_id", _STANDINGS.c.player_id.type, primary_key=True),
    Column("rating", _STANDINGS.c.rating.type),
    prefixes=["TEMPORARY"],
)
"""On SQLite, the ratings in force in a close's pool of the players of its period (or of
all the pool's players, where it holds few), keyed by the player alone: a look-up by row ID,
where the standings' key (player, pool) costs two searches of two B-trees."""

STANDINGS_COPIED_PER_SIDE = 5
"""On SQLite, a pool that holds fewer than this many standings for each side of the period's
games has all its ratings staged for the figures: a scan copies a standing for a fraction of
what finding one player of the games costs (`docs/performance.md`), and the copy still costs
no more than a multiple of the games."""


def ratings_by_player(
    session: Session,
    tables: ExitStack,
    standings: AnySelect,
    *,
    players: tuple[AnySelect, ...],
    games: int,
) -> FromClause:
    """The ratings of `standings` (player ID, rating) as the figures of `games` games look
    each side's up, by player: the `players` of the games are the IDs their selects give.

    PostgreSQL hash-joins the standings themselves. SQLite would search two B-trees for
    each side of each game by the standings' key (player, pool), so the ratings are staged
    keyed by the player alone (`PERIOD_RATINGS`, a look-up by row ID, dropped with
    `tables`): those of the games' players, or all of them where the standings are few
    enough (`STANDINGS_COPIED_PER_SIDE`).
    """
    if is_postgresql(session) or not games:
        return standings.subquery("standings")
    reach = STANDINGS_COPIED_PER_SIDE * 2 * games
    held = session.scalar(select(func.count()).select_from(standings.limit(reach).subquery()))
    if held == reach:
        player_id = standings.selected_columns[0]
        standings = standings.where(player_id.in_(union_all(*players)))
    tables.enter_context(staged(session, PERIOD_RATINGS))
    session.execute(insert(PERIOD_RATINGS).from_select(["player_id", "rating"], standings))
    return PERIOD_RATINGS


def in_staging_order(session: Session, statement: AnySelect, key: Any) -> AnySelect:
    """`statement`, whose rows a close stages by INSERT ... SELECT, in the order the backend
    stages them fastest: PostgreSQL's by the staged table's `key` (see this module's
    docstring); SQLite's in the order its joins read them, which a sort would only add to."""
    return statement.order_by(key) if is_postgresql(session) else statement


PERIOD_SCORES = Table(
    "staged_period_scores",
    MetaData(),
    Column("player_id", _STANDINGS.c.player_id.type, primary_key=True),
    Column("games", Integer, nullable=False),
    Column("delta_sum", Integer, nullable=False),
    prefixes=["TEMPORARY"],
)
"""A close's players rated in its period: the games the figures rate for each and ΣΔR (the
score less the PD, in hundredths). Staged, not a subquery, so that the planner sees how many
there are: PostgreSQL counts the groups of a UNION ALL as 200, and then joins a first list's
players to their standings one index search at a time."""

SHOWN_DETAILS = Table(
    "staged_shown_details",
    MetaData(),
    Column("player_id", _ENTRIES.c.player_id.type, primary_key=True),
    Column("federation", _PLAYERS.c.federation.type),
    Column("title", _PLAYERS.c.title.type),
    prefixes=["TEMPORARY"],
)
"""For a re-rate: the federation and title the list being closed again showed of a player."""

JOINING_PLAYERS = Table(
    "staged_joining_players",
    MetaData(),
    Column("player_id", _ENTRIES.c.player_id.type, primary_key=True),
    prefixes=["TEMPORARY"],
)
"""For a re-rate: the players whose starting ratings the list being closed again carried."""


@contextmanager
def staged(session: Session, table: Table) -> Iterator[Table]:
    """`table` created empty in the session's transaction for the block, dropped after it.

    On an error the transaction's rollback removes it (both backends' DDL is transactional).
    """
    connection = session.connection()
    table.create(connection)
    yield table
    table.drop(connection)


STAGED_SAMPLE = 400
"""Rows SQLite samples of a staged table to count it."""


def counted_for_the_planner(session: Session, table: Table) -> None:
    """Let SQLite's planner see how many rows the staged `table` holds, from a sample.

    Without statistics it takes a table for about a million rows, and wrote a later month's
    few thousand staged standings by walking all of a large ledger's standings. PostgreSQL's
    planner reads a table's size from its pages."""
    if is_postgresql(session):
        return
    session.execute(text(f"PRAGMA analysis_limit = {STAGED_SAMPLE}"))
    session.execute(text(f"ANALYZE temp.{table.name}"))
