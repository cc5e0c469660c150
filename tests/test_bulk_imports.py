"""Imports large enough for the bulk paths, on both backends: SQLite builds a growing table's
indexes after its rows, a refused file leaves the ledger (and its schema) as it was, and the
set-wise reads find exactly the rows asked for."""

from __future__ import annotations

import datetime as dt
import threading
from concurrent.futures import ThreadPoolExecutor
from itertools import cycle
from pathlib import Path
from typing import Any, cast

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import event, func, inspect, select, text, update
from sqlalchemy.orm import Session

from ledger.core.domain import GameResult, Pool
from ledger.core.errors import Conflict
from ledger.core.records import NewPlayer, new_game, new_player
from ledger.services.games import add_games
from ledger.services.players import add_players
from ledger.storage.batches import (
    BATCH_SIZE,
    bulk_write,
    insert_values,
    missing_values,
    select_in,
    set_aside,
)
from ledger.storage.database import (
    SQLITE_CACHE_KIB,
    SQLITE_SORT_RUN_KIB,
    Ledger,
    open_ledger,
)
from ledger.storage.models import Base, Game, GameRating, ListEntry, Player, PlayerRating

from builders import close, fingerprint, run

PLAYERS = BATCH_SIZE + 500
"""More than a batch: an empty ledger's tables more than double."""
HEADER = "id,name,federation,sex,title,birth_year,rating,games,ever_2400\n"


def _players_csv(tmp_path: Path) -> str:
    rows = "".join(
        f'{n},"Player, N{n}",NOR,F,,1990,{1500 + n % 900},10,0\n' for n in range(1, PLAYERS + 1)
    )
    path = tmp_path / "players.csv"
    path.write_text(HEADER + rows)
    return str(path)


def _games_csv(tmp_path: Path, extra: str = "") -> str:
    rows = "".join(f"2026-10-{n % 28 + 1:02d},{n},{n + 1},1-0,,\n" for n in range(1, PLAYERS))
    path = tmp_path / "games.csv"
    path.write_text("date,white,black,result,event,round\n" + rows + extra)
    return str(path)


def _schema_differences(url: str) -> list[object]:
    ledger = open_ledger(url)
    try:
        with ledger.engine.connect() as connection:
            return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))
    finally:
        ledger.dispose()


def test_a_large_import_keeps_the_schema_and_the_ledger_agrees(
    database_url: str, tmp_path: Path
) -> None:
    assert run("import-players", _players_csv(tmp_path), db=database_url).exit_code == 0
    assert run("import-games", _games_csv(tmp_path), db=database_url).exit_code == 0
    assert _schema_differences(database_url) == []
    assert run("db", "check", db=database_url).exit_code == 0
    games = run("games", "--player", "77", "--format", "csv", db=database_url).stdout
    assert len(games.splitlines()) == 3  # the header, and player 77's two games


def test_a_large_import_refused_on_its_last_line_writes_nothing(
    database_url: str, tmp_path: Path
) -> None:
    assert run("import-players", _players_csv(tmp_path), db=database_url).exit_code == 0
    before = fingerprint(database_url)
    result = run("import-games", _games_csv(tmp_path, "2026-10-02,2,1,0-1,,\n"), db=database_url)
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"error: games.csv:{PLAYERS + 1}: the same game as games.csv:2."
    ), result.stderr
    assert fingerprint(database_url) == before
    assert _schema_differences(database_url) == []


def test_a_large_import_while_a_reader_holds_the_table_keeps_its_indexes(
    database_url: str, tmp_path: Path
) -> None:
    """On PostgreSQL the indexes are dropped only where the import can take the table at
    once: with a reader in it, the import neither waits for the reader nor fails."""
    ledger = open_ledger(database_url)
    try:
        with ledger.reading() as session:
            assert session.scalars(select(Player.id)).all() == []
            assert run("import-players", _players_csv(tmp_path), db=database_url).exit_code == 0
    finally:
        ledger.dispose()
    assert _schema_differences(database_url) == []
    assert run("db", "check", db=database_url).exit_code == 0


def test_a_large_import_names_its_likely_duplicates_within_it_and_in_the_ledger(
    database_url: str, tmp_path: Path
) -> None:
    """A file of most of the ledger's players is compared with the whole ledger at once:
    the pairs are those the players' own comparisons find, each named once."""
    earlier = tmp_path / "earlier.csv"
    earlier.write_text(HEADER + f'{PLAYERS + 1},"N7, Player",NOR,F,,1990,,,\n')
    assert run("import-players", str(earlier), db=database_url).exit_code == 0
    path = Path(_players_csv(tmp_path))
    path.write_text(path.read_text() + f'{PLAYERS + 2},"Player N70",NOR,F,,1990,,,\n')
    result = run("import-players", str(path), db=database_url)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        'warning: player 7 "Player, N7" (born 1990) may be the same person as '
        f'{PLAYERS + 1} "N7, Player"; merge them with `ledger merge-players {PLAYERS + 1} 7` '
        "if so.",
        f'warning: player {PLAYERS + 2} "Player N70" (born 1990) may be the same person as '
        f'70 "Player, N70"; merge them with `ledger merge-players 70 {PLAYERS + 2}` if so.',
    ]


def test_two_large_imports_into_two_pools_at_once_both_write(
    postgresql_url: str, tmp_path: Path
) -> None:
    """Both have read the games table when they would drop its indexes: neither can take it
    from the other, and both record all their games, the schema kept."""
    assert run("import-players", _players_csv(tmp_path), db=postgresql_url).exit_code == 0
    today = dt.date(2026, 11, 1)
    games = [
        new_game(date=dt.date(2026, 10, 1), white=n, black=n + 1, result=result, today=today)
        for n, result in zip(range(1, PLAYERS), cycle(GameResult), strict=False)
    ]
    both_read = threading.Barrier(2, timeout=30)

    def record(pool: Pool) -> None:
        ledger = open_ledger(postgresql_url)
        try:
            with ledger.transaction() as session:
                session.execute(select(Game.id).limit(1))
                both_read.wait()
                add_games(session, pool, games)
        finally:
            ledger.dispose()

    with ThreadPoolExecutor(2) as threads:
        for done in [threads.submit(record, pool) for pool in (Pool.STANDARD, Pool.RAPID)]:
            done.result(timeout=120)
    ledger = open_ledger(postgresql_url)
    try:
        with ledger.reading() as session:
            counted = session.execute(select(Game.pool, func.count()).group_by(Game.pool))
            assert dict(counted.all()) == {
                Pool.STANDARD: PLAYERS - 1,
                Pool.RAPID: PLAYERS - 1,
            }
    finally:
        ledger.dispose()
    assert _schema_differences(postgresql_url) == []


def test_set_wise_reads_find_exactly_the_values_asked_for(
    database_url: str, tmp_path: Path
) -> None:
    assert run("import-players", _players_csv(tmp_path), db=database_url).exit_code == 0
    ledger = open_ledger(database_url)
    try:
        with ledger.reading() as session:
            wanted = [*range(0, PLAYERS + 10, 3), -1]
            found = [row[0] for row in select_in(session, select(Player.id), Player.id, wanted)]
            assert sorted(found) == [n for n in wanted if 1 <= n <= PLAYERS]
            keys = ["n7 player", "n70 player", "n7 playér", "o'brien"]
            found = [row[0] for row in select_in(session, select(Player.id), Player.name_key, keys)]
            assert sorted(found) == [7, 70]
            assert missing_values(session, Player.id, wanted) == [
                -1,
                0,
                *range(PLAYERS + 2, PLAYERS + 10, 3),
            ]
            assert missing_values(session, Player.name_key, keys) == ["n7 playér", "o'brien"]
            assert missing_values(session, Player.id, range(1, PLAYERS + 1)) == []
            assert missing_values(session, Player.id, []) == []
    finally:
        ledger.dispose()


def test_a_large_import_naming_unknown_players_is_refused_by_line(
    database_url: str, tmp_path: Path
) -> None:
    """The games' players are looked up once for the whole file: each unknown one is named
    on its line, and nothing is written."""
    assert run("import-players", _players_csv(tmp_path), db=database_url).exit_code == 0
    before = fingerprint(database_url)
    unknown = f"2026-10-03,{PLAYERS + 1},1,0-1,,\n2026-10-04,2,{PLAYERS + 7},1-0,,\n"
    result = run("import-games", _games_csv(tmp_path, unknown), db=database_url)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: games.csv:{PLAYERS + 1}: white: no player with ID {PLAYERS + 1}.",
        f"error: games.csv:{PLAYERS + 2}: black: no player with ID {PLAYERS + 7}.",
        "error: 2 problems; nothing was written.",
    ], result.stderr
    assert fingerprint(database_url) == before


def test_a_bulk_write_that_fails_leaves_the_indexes_to_the_rollback(database_url: str) -> None:
    today = dt.date(2026, 11, 1)
    players = [new_player(name=f"Player {n}", id=n, today=today) for n in range(1, PLAYERS + 1)]
    before = fingerprint(database_url)
    ledger = open_ledger(database_url)
    try:
        with pytest.raises(KeyboardInterrupt):
            _interrupted_after_adding(ledger, players)
    finally:
        ledger.dispose()
    assert fingerprint(database_url) == before
    assert _schema_differences(database_url) == []


def _interrupted_after_adding(ledger: Ledger, players: list[NewPlayer]) -> None:
    with ledger.transaction() as session:
        add_players(session, Pool.STANDARD, players)
        raise KeyboardInterrupt


@pytest.mark.parametrize("bulk", [False, True], ids=["transaction", "bulk-transaction"])
def test_a_bulk_write_checks_the_key_it_set_aside(
    database_url: str, tmp_path: Path, bulk: bool
) -> None:
    """PostgreSQL drops a table's foreign keys around a large insert, where it has no index
    to rebuild too (each game's figures): the key added again still refuses a row that
    names no game, and nothing is written. SQLite checks each row as it is written, or, in
    a bulk transaction, the rows the block added once it ends."""
    assert run("import-players", _players_csv(tmp_path), db=database_url).exit_code == 0
    assert run("import-games", _games_csv(tmp_path), db=database_url).exit_code == 0
    before = fingerprint(database_url)
    keys_while_writing: list[str] = []
    ledger = open_ledger(database_url)
    try:
        with pytest.raises(Conflict, match="broken reference"):
            _figures_of_every_game_and_one_more(ledger, keys_while_writing, bulk)
    finally:
        ledger.dispose()
    assert keys_while_writing == ([] if "postgresql" in database_url else ["game_id"])
    assert fingerprint(database_url) == before
    assert _schema_differences(database_url) == []


def _figures_of_every_game_and_one_more(
    ledger: Ledger, keys_while_writing: list[str], bulk: bool
) -> None:
    """Write a figures row for every game and for one game more, noting the foreign keys
    the table holds while the rows go in."""
    table = GameRating.__table__
    with ledger.transaction(bulk=bulk) as session:
        games = list(session.scalars(select(Game.id)))
        rows = [(game, None, None, None, None) for game in [*games, max(games) + 1]]
        with bulk_write(session, table, len(rows)):
            keys_while_writing.extend(_held_keys(session))
            insert_values(session, table, _FIGURE_COLUMNS, rows)


def test_a_key_another_transaction_holds_the_table_of_is_kept_and_nothing_taken(
    postgresql_url: str, tmp_path: Path
) -> None:
    """A reader holds the games: the figures' key to them stays, checked row by row, and
    the figures table is not left taken by the attempt (its readers need not wait)."""
    assert run("import-players", _players_csv(tmp_path), db=postgresql_url).exit_code == 0
    assert run("import-games", _games_csv(tmp_path), db=postgresql_url).exit_code == 0
    ledger = open_ledger(postgresql_url)
    try:
        with ledger.reading() as reader:
            reader.execute(select(Game.id).limit(1)).all()
            with ledger.transaction() as session:
                keys, taken = _figures_written_with(session)
    finally:
        ledger.dispose()
    assert keys == ["game_id"]
    assert taken == []
    assert _schema_differences(postgresql_url) == []


def _figures_written_with(session: Session) -> tuple[list[str], list[str]]:
    """Write a figures row for every game in a bulk write; the keys the table holds and
    the locks this transaction holds on it while the rows go in."""
    table = GameRating.__table__
    games = list(session.scalars(select(Game.id)))
    with bulk_write(session, table, len(games)):
        keys = _held_keys(session)
        taken = session.scalars(
            text(
                "SELECT mode FROM pg_locks WHERE pid = pg_backend_pid()"
                " AND relation = 'game_ratings'::regclass AND mode = 'AccessExclusiveLock'"
            )
        ).all()
        rows = [(game, None, None, None, None) for game in games]
        insert_values(session, table, _FIGURE_COLUMNS, rows)
    return keys, list(taken)


_FIGURE_COLUMNS = [column.name for column in GameRating.__table__.columns]


def _held_keys(session: Session) -> list[str]:
    """The columns of the foreign keys the figures table holds now."""
    keys = inspect(session.connection()).get_foreign_keys(GameRating.__tablename__)
    return [column for key in keys for column in key["constrained_columns"]]


@pytest.mark.parametrize("reader", [False, True], ids=["alone", "read-meanwhile"])
def test_a_postgresql_update_of_most_standings_builds_their_indexes_after_it(
    postgresql_url: str, tmp_path: Path, reader: bool
) -> None:
    """An update that changes most standings (the first list) writes each row's new version
    into every index: the indexes are set aside and built once after it, the key to the
    players kept (the update does not change it); where another transaction reads the
    standings, they keep their indexes and that reader need not wait."""
    assert run("import-players", _players_csv(tmp_path), db=postgresql_url).exit_code == 0
    ledger = open_ledger(postgresql_url)
    try:
        with ledger.reading() as other:
            if reader:
                other.execute(select(PlayerRating.rating).limit(1)).all()
            with ledger.transaction() as session:
                held = _standings_updated_with(session)
    finally:
        ledger.dispose()
    indexes = {index.name for index in PlayerRating.__table__.indexes}
    assert held == ((indexes if reader else set()), ["player_id"])
    assert _schema_differences(postgresql_url) == []


def _standings_updated_with(session: Session) -> tuple[set[str], list[str]]:
    """Raise every standing by one in a bulk update; the indexes and the key columns the
    standings hold while it runs."""
    table = PlayerRating.__table__
    count = session.scalar(select(func.count()).select_from(table)) or 0
    with bulk_write(session, table, count, updating=True):
        held = inspect(session.connection())
        indexes = {index["name"] for index in held.get_indexes(table.name)}
        keys = held.get_foreign_keys(table.name)
        session.execute(update(PlayerRating).values(rating=PlayerRating.rating + 1))
    return indexes, [column for key in keys for column in key["constrained_columns"]]


def test_a_first_close_of_most_of_the_ledger_keeps_the_schema(
    database_url: str, tmp_path: Path
) -> None:
    """The first list changes every standing: each backend rebuilds the standings' indexes
    once, and the list rows' (PostgreSQL adds their keys again, and the per-game
    figures')."""
    assert run("import-players", _players_csv(tmp_path), db=database_url).exit_code == 0
    assert run("import-games", _games_csv(tmp_path), db=database_url).exit_code == 0
    assert run("close-period", "2026-10", db=database_url).exit_code == 0
    assert _schema_differences(database_url) == []
    assert run("db", "check", db=database_url).exit_code == 0
    listed = run("list", "--federation", "NOR", "--format", "csv", db=database_url).stdout
    assert len(listed.splitlines()) == PLAYERS + 1  # the header and every player


def test_sqlite_sorts_a_first_close_in_runs_and_keeps_its_cache_for_the_rest(
    tmp_path: Path,
) -> None:
    """The first list's indexes are built, and its period's games grouped by player, in
    sorting runs of `SQLITE_SORT_RUN_KIB` (`sorting_in_runs`); every other statement of the
    close runs with the ledger's cache of `SQLITE_CACHE_KIB`."""
    url = f"sqlite:///{tmp_path / 'runs.db'}"
    assert run("import-players", _players_csv(tmp_path), db=url).exit_code == 0
    assert run("import-games", _games_csv(tmp_path), db=url).exit_code == 0
    ledger = open_ledger(url)
    sorted_in_runs: list[str] = []
    in_the_ledgers_cache: list[str] = []

    def note(*arguments: object) -> None:
        statement = " ".join(str(arguments[2]).split())
        cursor = cast(Any, arguments[1]).connection.cursor()
        (cache,) = cursor.execute("PRAGMA cache_size").fetchone()
        noted = {-SQLITE_SORT_RUN_KIB: sorted_in_runs, -SQLITE_CACHE_KIB: in_the_ledgers_cache}
        noted[cache].append(statement)

    event.listen(ledger.engine, "before_cursor_execute", note)
    try:
        close(ledger, "2026-10")
    finally:
        event.remove(ledger.engine, "before_cursor_execute", note)
        ledger.dispose()
    built = {statement.split()[2] for statement in sorted_in_runs if "CREATE INDEX" in statement}
    assert {index.name for index in PlayerRating.__table__.indexes} <= built
    assert {index.name for index in ListEntry.__table__.indexes} <= built
    assert any("INSERT INTO staged_period_scores" in statement for statement in sorted_in_runs)
    assert not any("CREATE INDEX" in statement for statement in in_the_ledgers_cache)
    assert any("UPDATE player_ratings" in statement for statement in in_the_ledgers_cache)


def test_a_bulk_write_inside_one_that_set_the_indexes_aside_keeps_them_aside(
    database_url: str,
) -> None:
    """An import writes batch by batch inside one block that set the table's indexes aside
    for all of it: a batch's own block would drop them again; it leaves them aside, and the
    outer block builds them once."""
    table = Player.__table__
    ledger = open_ledger(database_url)
    try:
        with ledger.transaction(bulk=True) as session:
            with set_aside(session, table, 10 * BATCH_SIZE):
                with bulk_write(session, table, BATCH_SIZE):
                    inside = _index_names(session)
                    insert_values(session, table, _NAMED, [(1, "Player 1", "1 player", "player 1")])
                aside = _index_names(session)
            after = _index_names(session)
    finally:
        ledger.dispose()
    assert inside == aside == set()
    assert after == {index.name for index in table.indexes if not index.unique}
    assert _schema_differences(database_url) == []


_NAMED = ("id", "name", "name_key", "sort_name")


def _index_names(session: Session) -> set[str]:
    """The names of the players table's indexes that are not unique."""
    indexes = inspect(session.connection()).get_indexes("players")
    return {str(index["name"]) for index in indexes if not index["unique"]}
