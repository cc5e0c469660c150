"""The database layer: URL handling, automatic schema creation, refusals, and migrations."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    CheckConstraint,
    Engine,
    TextClause,
    create_engine,
    delete,
    insert,
    inspect,
    text,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ledger.core import names
from ledger.core.domain import GameResult, Pool
from ledger.core.errors import LedgerError
from ledger.storage import database, schema
from ledger.storage.database import (
    POSTGRESQL_WRITE_MEMORY,
    SQLITE_CACHE_KIB,
    SQLITE_SORT_RUN_KIB,
    SQLITE_SORT_THREADS,
    Ledger,
    create_ledger_engine,
    holds_fewer_than,
    open_ledger,
    sorting_in_runs,
)
from ledger.storage.models import Base, Player
from ledger.storage.schema import alembic_config, schema_revision

from builders import fingerprint, run


def test_an_empty_database_gets_the_newest_schema_on_first_use(empty_database_url: str) -> None:
    added = run("add-player", "--name", "First, Fay", db=empty_database_url)
    current = run("db", "current", db=empty_database_url)
    assert added.stdout == "1\n"
    assert "up to date" in current.stdout


def test_db_upgrade_on_an_empty_database(empty_database_url: str) -> None:
    result = run("db", "upgrade", db=empty_database_url)
    again = run("db", "upgrade", db=empty_database_url)
    assert result.stdout.startswith("Upgraded the schema from empty to ")
    assert again.stdout.startswith("The schema is already at the newest revision")


@pytest.mark.parametrize("command", [["list"], ["db", "upgrade"]], ids=["use", "upgrade"])
def test_a_database_that_is_not_a_ledger_is_refused(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "other.db"
    with create_engine(f"sqlite:///{path}").begin() as connection:
        connection.execute(text("CREATE TABLE invoices (id INTEGER)"))
    result = run(*command, db=f"sqlite:///{path}")
    assert result.exit_code == 1
    assert result.stderr.endswith("is not empty and is not a ledger database.\n")


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("shopping list: eggs, milk\n" * 100)
    result = run("list", db=f"sqlite:///{path}")
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {path} is not a SQLite database; give the right --db.\n",
    )


@pytest.fixture
def newer_migrations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the migrations with one more (empty) revision on top."""
    directory = tmp_path / "migrations"
    shutil.copytree(schema.migrations_directory(), directory)
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    (directory / "versions" / "future.py").write_text(
        f'revision = "f0f0f0f0f0f0"\ndown_revision = "{head}"\nbranch_labels = None\n'
        "depends_on = None\n\n\ndef upgrade() -> None:\n    pass\n\n\n"
        "def downgrade() -> None:\n    pass\n"
    )
    return directory


def test_an_older_schema_is_refused_until_db_upgrade(
    database_url: str, newer_migrations: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(schema, "migrations_directory", lambda: newer_migrations)
    monkeypatch.setattr(schema, "HEAD_REVISION", "f0f0f0f0f0f0")
    refused = run("list", db=database_url)
    assert refused.exit_code == 1
    assert refused.stderr.endswith("; run `ledger db upgrade` first.\n")
    assert "run `ledger db upgrade`" in run("db", "current", db=database_url).stdout
    assert run("db", "upgrade", db=database_url).stdout.endswith("to f0f0f0f0f0f0.\n")
    assert run("add-player", "--name", "After", db=database_url).exit_code == 0


def test_a_newer_schema_is_refused(
    database_url: str, newer_migrations: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patched:
        patched.setattr(schema, "migrations_directory", lambda: newer_migrations)
        database.upgrade_schema(database_url)
    refused = run("list", db=database_url)
    assert refused.exit_code == 1
    assert "f0f0f0f0f0f0, which this ledger does not know" in refused.stderr


def test_migrations_have_a_single_head() -> None:
    assert len(ScriptDirectory.from_config(alembic_config()).get_heads()) == 1


def test_every_revision_upgrades_downgrades_and_upgrades_again(empty_database_url: str) -> None:
    """The stairway: each revision's downgrade undoes its upgrade, on both backends."""
    script = ScriptDirectory.from_config(alembic_config())
    revisions = list(reversed(list(script.walk_revisions())))
    engine = create_ledger_engine(empty_database_url)
    try:
        for revision in revisions:
            for step, target in (
                (command.upgrade, revision.revision),
                (command.downgrade, revision.down_revision or "base"),
                (command.upgrade, revision.revision),
            ):
                with engine.begin() as connection:
                    step(alembic_config(connection), target)
                    assert schema_revision(connection) == (None if target == "base" else target)
            if revision.down_revision is None:
                with engine.begin() as connection:
                    command.downgrade(alembic_config(connection), "base")
                    assert set(inspect(connection).get_table_names()) <= {"alembic_version"}
                    command.upgrade(alembic_config(connection), revision.revision)
        with engine.connect() as connection:
            context = MigrationContext.configure(connection)
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()


FIRST_REVISION = "ad496c38df81"


def test_upgrading_a_filled_first_revision_keeps_every_row(empty_database_url: str) -> None:
    """A ledger written by the first released schema upgrades with its data: the players get
    the name keys the ledger computes today, the games count as rated, and each published
    list is its period's original version."""
    engine = create_ledger_engine(empty_database_url)
    names_given = ["Müller, Jörg", "Ødegaard, Łukasz-Ðoe", "O'Brien, Seán", "Carlsen, Magnus"]
    try:
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), FIRST_REVISION)
            for number, name in enumerate(names_given, start=1):
                connection.execute(
                    text("INSERT INTO players (id, name) VALUES (:id, :name)"),
                    {"id": number, "name": name},
                )
            connection.execute(
                text(
                    "INSERT INTO games (pool, period, date, white_id, black_id, result) "
                    "VALUES ('standard', '2026-09', '2026-09-03', 1, 2, '1-0')"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO rating_periods (pool, period, closed_at) VALUES "
                    "('standard', '2026-08', '2026-09-01 10:00'), ('rapid', '2026-08', "
                    "'2026-09-02 10:00'), ('standard', '2026-09', NULL)"
                )
            )
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "head")
            players = connection.execute(
                text("SELECT name, name_key, sort_name FROM players ORDER BY id")
            )
            assert [tuple(player) for player in players] == [
                (name, names.name_key(name), names.sort_key(name)) for name in names_given
            ]
            assert connection.execute(text("SELECT rated FROM games")).scalar_one() in (True, 1)
            versions = connection.execute(
                text("SELECT id, pool, period, version FROM list_versions ORDER BY id")
            )
            assert [tuple(row) for row in versions] == [  # each published list: its original
                (1, "standard", "2026-08", 1),
                (2, "rapid", "2026-08", 1),
            ]
    finally:
        engine.dispose()


def test_the_titles_stored_as_files_wrote_them_become_fides_codes(
    empty_database_url: str,
) -> None:
    """Titles a report or an old list wrote as g, wg or gm read as FIDE writes them (GM, WGM),
    so `list --title GM` finds every grandmaster; a title already FIDE's is left as it is."""
    engine = create_ledger_engine(empty_database_url)
    try:
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "e3b9d0c41f7a")
            for number, title in enumerate(["g", "wg", "gm", "GM", "m", None], start=1):
                connection.execute(
                    text(
                        "INSERT INTO players (id, name, name_key, sort_name, title) "
                        "VALUES (:id, 'P', 'p', 'p', :title)"
                    ),
                    {"id": number, "title": title},
                )
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "head")
            titles = connection.execute(text("SELECT title FROM players ORDER BY id"))
            assert [title for (title,) in titles] == ["GM", "WGM", "GM", "GM", "IM", None]
    finally:
        engine.dispose()


def test_the_models_match_the_migrated_schema(database_url: str) -> None:
    engine = create_ledger_engine(database_url)
    try:
        with engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    finally:
        engine.dispose()
    assert differences == []


def test_the_pending_standings_index_holds_only_the_standings_no_list_has_carried(
    database_url: str,
) -> None:
    """Revision c4f1a9e2b7d3: the index the close finds the pending starting ratings by is
    partial, as the models declare it (a comparison of the models with the schema does not
    look at an index's WHERE)."""
    engine = create_ledger_engine(database_url)
    definition = (
        "SELECT indexdef FROM pg_indexes WHERE indexname = :name"
        if engine.dialect.name == "postgresql"
        else "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = :name"
    )
    try:
        with engine.connect() as connection:
            made = connection.scalar(text(definition), {"name": "ix_player_ratings_pool_pending"})
    finally:
        engine.dispose()
    assert made is not None
    assert "(pool) WHERE" in made.replace('"', "")
    assert made.endswith(("WHERE first_list IS NULL", "WHERE (first_list IS NULL)"))


def test_enum_checks_admit_their_values_and_refuse_others(database_url: str) -> None:
    """The CHECK of a pool and of a game's result, written as equalities joined by OR since
    revision a1e53c8870b5: each value of the enum goes in, another is refused."""
    engine = create_ledger_engine(database_url)
    player = "INSERT INTO players (id, name, name_key, sort_name) VALUES (:id, 'P', 'p', 'p')"
    period = "INSERT INTO rating_periods (pool, period) VALUES (:pool, '2026-01')"
    game = (
        "INSERT INTO games (pool, period, date, white_id, black_id, result, rated)"
        " VALUES ('standard', '2026-01', '2026-01-05', 1, 2, :result, true)"
    )
    try:
        with engine.begin() as connection:
            connection.execute(text(player), [{"id": 1}, {"id": 2}])
            connection.execute(text(period), [{"pool": pool} for pool in Pool])
            connection.execute(text(game), [{"result": result} for result in GameResult])
        for statement, value in ((period, {"pool": "classic"}), (game, {"result": "2-0"})):
            with pytest.raises(IntegrityError), engine.begin() as connection:
                connection.execute(text(statement), value)
    finally:
        engine.dispose()


def test_sqlite_enum_checks_are_equalities_not_in_lists(tmp_path: Path) -> None:
    """SQLite sets up an IN list's values as a table for every row an INSERT ... VALUES
    writes: the migrated schema's enum checks are the models' equalities."""
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    open_ledger(url).dispose()
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            schema_text = " ".join(
                connection.execute(text("SELECT sql FROM sqlite_master WHERE type = 'table'"))
                .scalars()
                .all()
            )
    finally:
        engine.dispose()
    enum_checks = [
        str(constraint.sqltext)
        for table in Base.metadata.tables.values()
        for constraint in table.constraints
        if isinstance(constraint, CheckConstraint) and " OR " in str(constraint.sqltext)
    ]
    assert len(enum_checks) == 19
    assert all(f"CHECK ({check})" in schema_text for check in enum_checks)
    assert " IN ('standard'" not in schema_text


def test_sqlite_runs_with_foreign_keys_and_wal(tmp_path: Path) -> None:
    """Foreign keys are checked row by row, but in a bulk transaction (a close or a file's
    import), whose bulk writes check the rows they add at once; the next transaction on the
    same connection checks them row by row again."""
    ledger = open_ledger(f"sqlite:///{tmp_path / 'pragma.db'}")
    keys = text("PRAGMA foreign_keys")
    try:
        with ledger.reading() as session:
            assert session.execute(keys).scalar() == 1
            assert session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        with ledger.transaction(bulk=True) as session:
            assert session.execute(keys).scalar() == 0
        with ledger.transaction() as session:
            assert session.execute(keys).scalar() == 1
    finally:
        ledger.dispose()


def test_sqlite_keeps_the_ledger_and_its_temporary_tables_in_a_cache_of_the_same_size(
    tmp_path: Path,
) -> None:
    """A close searches its staged tables (temporary) by player as often as the ledger's:
    both caches have `SQLITE_CACHE_KIB`, not SQLite's default of 2 MiB."""
    ledger = open_ledger(f"sqlite:///{tmp_path / 'cache.db'}")
    try:
        with ledger.reading() as session:
            for schema_name in ("main", "temp"):
                size = session.execute(text(f"PRAGMA {schema_name}.cache_size")).scalar()
                assert size == -SQLITE_CACHE_KIB
    finally:
        ledger.dispose()


def test_sorting_in_runs_gives_sqlite_helper_threads_and_its_cache_back_after_an_error(
    database_url: str,
) -> None:
    """SQLite sorts in runs of `SQLITE_SORT_RUN_KIB` inside the block, with helper threads,
    and has the ledger's cache again after it, whether the block ends or fails; PostgreSQL
    sorts in its `work_mem` as before."""
    ledger = open_ledger(database_url)
    sqlite = database_url.startswith("sqlite")
    setting = text("PRAGMA cache_size" if sqlite else "SHOW work_mem")
    try:
        with ledger.transaction() as session:
            before = session.scalar(setting)
            inside: list[object] = []
            with pytest.raises(LedgerError):
                _stopped_inside_sorting_runs(session, setting, inside)
            after = session.scalar(setting)
            threads = session.scalar(text("PRAGMA threads")) if sqlite else None
    finally:
        ledger.dispose()
    if sqlite:
        assert (before, inside, after) == (-SQLITE_CACHE_KIB, [-SQLITE_SORT_RUN_KIB], before)
        assert threads == SQLITE_SORT_THREADS
    else:
        assert (before, inside, after) == (POSTGRESQL_WRITE_MEMORY, [before], before)


def _stopped_inside_sorting_runs(session: Session, setting: TextClause, seen: list[object]) -> None:
    """Note `setting` inside a `sorting_in_runs` block, then fail inside it."""
    with sorting_in_runs(session):
        seen.append(session.scalar(setting))
        raise LedgerError("stopped inside the block")


def test_postgresql_writes_get_the_memory_of_a_bulk_write_and_reads_the_servers(
    postgresql_url: str,
) -> None:
    """A close groups and joins every game and player of its period: a write transaction
    may sort and hash in `POSTGRESQL_WRITE_MEMORY`, and the session's temporary tables take
    as much; a read keeps the server's `work_mem`."""
    ledger = open_ledger(postgresql_url)
    try:
        with ledger.transaction() as session:
            writing = session.scalar(text("SHOW work_mem"))
            temporary = session.scalar(text("SHOW temp_buffers"))
        with ledger.reading() as session:
            servers = session.scalar(
                text("SELECT setting = reset_val FROM pg_settings WHERE name = 'work_mem'")
            )
    finally:
        ledger.dispose()
    assert writing == temporary == POSTGRESQL_WRITE_MEMORY
    assert servers is True


def test_the_count_up_to_a_reach_sees_the_rows_of_its_own_transaction(ledger: Ledger) -> None:
    """The count that chooses a bulk path (`holds_fewer_than`) is exact up to its reach:
    with the rows its transaction deleted and added, and on PostgreSQL, which counts in the
    table itself, also after a vacuum found every page visible."""
    players = [
        {"id": number, "name": f"P{number}", "name_key": f"p{number}", "sort_name": f"p{number}"}
        for number in range(1, 31)
    ]
    with ledger.transaction() as session:
        session.execute(insert(Player), players)
    if ledger.engine.dialect.name == "postgresql":
        with ledger.engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
                "VACUUM players"
            )
    with ledger.transaction() as session:
        session.execute(delete(Player).where(Player.id <= 10))
        session.execute(insert(Player), [{**row, "id": row["id"] + 100} for row in players[:5]])
        assert holds_fewer_than(session, "players", 26)
        assert not holds_fewer_than(session, "players", 25)
        assert not holds_fewer_than(session, "players", 3)


def test_a_failed_migration_leaves_sqlite_untouched(tmp_path: Path) -> None:
    """DDL is inside the transaction on SQLite too (the driver's own BEGIN is replaced)."""
    engine = create_ledger_engine(f"sqlite:///{tmp_path / 'atomic.db'}")
    try:
        with pytest.raises(RuntimeError, match="power cut"):
            _upgrade_then_fail(engine)
        with engine.connect() as connection:
            tables = connection.execute(text("SELECT name FROM sqlite_master")).all()
        assert tables == []
    finally:
        engine.dispose()


def _upgrade_then_fail(engine: Engine) -> None:
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "head")
        raise RuntimeError("power cut")


def test_passwords_never_appear_in_errors() -> None:
    result = run("list", db="postgresql+psycopg://officer:s3cret@127.0.0.1:1/ledger")
    assert result.exit_code == 1
    assert "s3cret" not in result.stderr
    assert result.stderr.startswith("error: database postgresql+psycopg://officer:***@")
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("url", "message"),
    [
        pytest.param("nonsense", "cannot use database URL", id="not a URL"),
        pytest.param("postgresql+nothing://x/y", "cannot use database URL", id="unknown driver"),
        pytest.param(
            "mysql://root@localhost/ledger",
            "it names 'mysql'; the ledger keeps its data in SQLite",
            id="another database",
        ),
    ],
)
def test_unusable_urls_are_refused(url: str, message: str) -> None:
    with pytest.raises(LedgerError, match=message):
        open_ledger(url)


def test_a_backup_of_another_kind_of_database_is_refused_in_one_line(tmp_path: Path) -> None:
    refused = run("db", "backup", str(tmp_path / "copy.db"), db="mysql://root@localhost/ledger")
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr == (
        "error: cannot use database URL mysql://root@localhost/ledger: it names 'mysql'; the "
        "ledger keeps its data in SQLite (sqlite:///ledger.db) or PostgreSQL "
        "(postgresql+psycopg://user@host/ledger).\n"
    )
    assert not (tmp_path / "copy.db").exists()


def test_db_backup_copies_a_sqlite_ledger_and_never_overwrites(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    added = run("add-player", "--name", "Kept, Kim", "--rating", "2000", "--games", "40", db=url)
    assert added.exit_code == 0, added.stderr
    copy = tmp_path / "backup.db"
    made = run("db", "backup", str(copy), db=url)
    assert (made.exit_code, made.stdout) == (0, f"Backed up the ledger to {copy}.\n")
    assert fingerprint(f"sqlite:///{copy}") == fingerprint(url)
    again = run("db", "backup", str(copy), db=url)
    assert (again.exit_code, again.stderr) == (
        1,
        f"error: {copy} already exists; give the backup a new file name.\n",
    )
    missing = tmp_path / "typo.db"
    refused = run("db", "backup", str(tmp_path / "other.db"), db=f"sqlite:///{missing}")
    assert (refused.exit_code, refused.stderr) == (
        1,
        f"error: there is no SQLite ledger at sqlite:///{missing} to back up.\n",
    )
    assert not missing.exists()


def test_db_backup_of_postgresql_shows_pg_dump_without_the_password() -> None:
    """No connection is needed to say how to back up a PostgreSQL ledger."""
    shown = run(
        "db", "backup", "ledger.dump", db="postgresql+psycopg://officer:s3cret@db.example:6543/fed"
    )
    assert (shown.exit_code, shown.stdout) == (
        0,
        "Back up a PostgreSQL ledger with pg_dump:\n  pg_dump --format=custom "
        "--file=ledger.dump --host=db.example --port=6543 --username=officer -- fed\n",
    )


RELEASED_HEAD = "5c8fea625cb5"
"""The schema of the ledger as released before accounts, reports and the site's settings."""


def test_a_filled_ledger_of_the_released_schema_upgrades(empty_database_url: str) -> None:
    """`ledger db upgrade` of a ledger with closed periods: SQLite makes the games table
    again for its new column, which the rated games' figures refer to; the keys are checked
    once the migrations have run, and every row is kept."""
    engine = create_ledger_engine(empty_database_url)
    try:
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), RELEASED_HEAD)
            for number in (1, 2):
                connection.execute(
                    text(
                        "INSERT INTO players (id, name, name_key, sort_name) "
                        "VALUES (:id, 'P', 'p', 'p')"
                    ),
                    {"id": number},
                )
            connection.execute(
                text(
                    "INSERT INTO games (id, pool, period, date, white_id, black_id, result, "
                    "rated) VALUES (1, 'standard', '2026-09', '2026-09-03', 1, 2, '1-0', true)"
                )
            )
            connection.execute(text("INSERT INTO game_ratings (game_id) VALUES (1)"))
    finally:
        engine.dispose()
    before, after = database.upgrade_schema(empty_database_url)
    assert (before, after) == (RELEASED_HEAD, schema.head_revision())
    engine = create_ledger_engine(empty_database_url)
    try:
        with engine.connect() as connection:
            games = connection.execute(text("SELECT id, colours FROM games")).all()
            assert [(game_id, bool(colours)) for game_id, colours in games] == [(1, True)]
            assert connection.execute(text("SELECT game_id FROM game_ratings")).all() == [(1,)]
    finally:
        engine.dispose()
