"""Where the ledger is: a mistyped --db never makes a new ledger, a plain file path is a
SQLite ledger, what cannot be a ledger is refused with what to do (and untouched), the schema
is made once however many first commands run at once, and backups copy the right file."""

from __future__ import annotations

import shutil
import sqlite3
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url

from ledger.cli.commands import COMMANDS
from ledger.core.domain import Pool
from ledger.core.records import new_player
from ledger.services.players import add_players
from ledger.storage import backup, sqlite_files
from ledger.storage.database import as_url, open_ledger

from builders import NOW, fingerprint, run
from conftest import PostgreSQLServer

READ_COMMANDS = [
    pytest.param(("list",), id="list"),
    pytest.param(("player", "101"), id="player"),
    pytest.param(("explain", "101", "--period", "2026-10"), id="explain"),
    pytest.param(("stats",), id="stats"),
    pytest.param(("games",), id="games"),
    pytest.param(("log",), id="log"),
    pytest.param(("db", "check"), id="db-check"),
    pytest.param(("db", "current"), id="db-current"),
    pytest.param(("users", "list"), id="users-list"),
    pytest.param(("tokens", "list"), id="tokens-list"),
    pytest.param(("site", "show"), id="site-show"),
    pytest.param(("reports", "list"), id="reports-list"),
    pytest.param(("reports", "show", "1"), id="reports-show"),
]
COMMAND_NAMES = [name for names in COMMANDS.values() for name in names]
CREATE_HINT = "; create one with `ledger db upgrade`, or give the right --db.\n"


def _no_ledger(url: str, reason: str) -> str:
    return f"error: no ledger at {url} ({reason}){CREATE_HINT}"


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return set(inspect(connection).get_table_names())
    finally:
        engine.dispose()


# A typo never makes a new ledger -----------------------------------------------------------


@pytest.mark.parametrize("arguments", READ_COMMANDS)
def test_a_read_command_on_a_missing_file_creates_nothing(
    arguments: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run(*arguments, db="clbu.db")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == _no_ledger("sqlite:///clbu.db", "the file does not exist")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("arguments", READ_COMMANDS)
def test_a_read_command_on_an_empty_database_creates_nothing(
    arguments: tuple[str, ...], empty_database_url: str
) -> None:
    if empty_database_url.startswith("sqlite"):
        Path(make_url(empty_database_url).database or "").touch()
    result = run(*arguments, db=empty_database_url)
    assert result.exit_code == 1
    assert result.stderr == _no_ledger(empty_database_url, "the database is empty")
    assert _tables(empty_database_url) == set()


DATA = Path(__file__).parent / "data"
GAMES_FILE = "date,white,black,result\n2026-10-03,1,2,1-0\n"
PLAYERS_FILE = (
    "id,name,federation,sex,title,birth_year,rating,games,ever_2400\n"
    '1,"First, Fay",NOR,F,,1990,2000,40,0\n'
)
WRITE_COMMANDS = [
    pytest.param(
        ("add-game", "--white", "1", "--black", "2", "--result", "1-0", "--date", "2026-10-03"),
        id="add-game",
    ),
    pytest.param(("import-games", "{games}"), id="import-games"),
    pytest.param(("import-trf", str(DATA / "trf" / "swiss.trf"), "--check"), id="import-trf-check"),
    pytest.param(("close-period", "2026-11"), id="close-period"),
    pytest.param(("reopen-period", "2026-11", "--reason", "typo"), id="reopen-period"),
    pytest.param(("correct-game", "1", "--result", "0-1", "--reason", "typo"), id="correct-game"),
    pytest.param(("delete-game", "1", "--reason", "typo"), id="delete-game"),
    pytest.param(("rerate", "--from", "2026-10", "--reason", "typo"), id="rerate"),
    pytest.param(("compress-ratings", "--period", "2024-02"), id="compress-ratings"),
    pytest.param(("merge-players", "1", "2"), id="merge-players"),
    pytest.param(("edit-player", "1", "--name", "Typo, Ty", "--reason", "typo"), id="edit-player"),
    pytest.param(
        ("users", "add", "o@club.test", "--name", "O", "--role", "officer"), id="users-add"
    ),
    pytest.param(("users", "disable", "o@club.test"), id="users-disable"),
    pytest.param(("users", "role", "o@club.test", "officer"), id="users-role"),
    pytest.param(("tokens", "add", "o@club.test", "--name", "script"), id="tokens-add"),
    pytest.param(("tokens", "revoke", "1"), id="tokens-revoke"),
    pytest.param(
        ("reports", "upload", str(DATA / "trf" / "swiss.trf"), "--organiser", "o@club.test"),
        id="reports-upload",
    ),
    pytest.param(("reports", "accept", "1"), id="reports-accept"),
]
"""Every command that changes a ledger but brings no players or list into a new one: each
needs a ledger that exists, as the read commands do. An account is made in a ledger that
exists (`ledger db upgrade` makes an empty one): a mistyped --db never gets an officer."""
CREATING_COMMANDS = [
    pytest.param(("add-player", "--name", "First, Fay"), id="add-player"),
    pytest.param(("import-players", "{players}"), id="import-players"),
    pytest.param(("import-trf", str(DATA / "trf" / "swiss.trf")), id="import-trf"),
    pytest.param(("import-pgn", str(DATA / "pgn" / "two-events.pgn")), id="import-pgn"),
    pytest.param(
        ("import-fide-list", str(DATA / "fide" / "standard_list.txt"), "--period", "2026-10"),
        id="import-fide-list",
    ),
    pytest.param(("db", "upgrade"), id="db-upgrade"),
]
"""The commands that bring players, a list or a tournament into a new ledger: each may
create one (and `demo`, in its own database)."""


def _filled_in(arguments: tuple[str, ...], folder: Path) -> tuple[str, ...]:
    """The arguments with `{games}` and `{players}` as the paths of small import files."""
    files = {"{games}": ("games.csv", GAMES_FILE), "{players}": ("players.csv", PLAYERS_FILE)}
    filled = []
    for argument in arguments:
        if argument in files:
            name, content = files[argument]
            (folder / name).write_text(content)
            argument = str(folder / name)
        filled.append(argument)
    return tuple(filled)


def test_every_command_is_known_to_read_create_or_need_a_ledger() -> None:
    """A new command must be put in one of these tables, so its choice is tested."""
    tables = (READ_COMMANDS, WRITE_COMMANDS, CREATING_COMMANDS)
    named = {param.values[0][0] for table in tables for param in table}  # type: ignore[index]
    others = {"calc", "demo", "serve", "db", "find", "diff", "export-list", "export-trf"}
    others |= {"peaks", "history", "periods", "events", "event", "federations"}
    assert named | others == set(COMMAND_NAMES)


@pytest.mark.parametrize("arguments", WRITE_COMMANDS)
def test_a_write_command_on_a_missing_file_creates_nothing(
    arguments: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ledger close-period 2026-11 --db riversde.db` once made a new ledger and published
    an empty list in it."""
    folder = tmp_path / "ledgers"
    folder.mkdir()
    monkeypatch.chdir(folder)
    result = run(*_filled_in(arguments, tmp_path), db="riversde.db")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == _no_ledger("sqlite:///riversde.db", "the file does not exist")
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("arguments", WRITE_COMMANDS)
def test_a_write_command_on_an_empty_database_creates_nothing(
    arguments: tuple[str, ...], empty_database_url: str, tmp_path: Path
) -> None:
    if empty_database_url.startswith("sqlite"):
        Path(make_url(empty_database_url).database or "").touch()
    result = run(*_filled_in(arguments, tmp_path), db=empty_database_url)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == _no_ledger(empty_database_url, "the database is empty")
    assert _tables(empty_database_url) == set()


@pytest.mark.parametrize("arguments", CREATING_COMMANDS)
def test_a_command_that_brings_data_creates_a_new_ledger(
    arguments: tuple[str, ...], empty_database_url: str, tmp_path: Path
) -> None:
    result = run(*_filled_in(arguments, tmp_path), db=empty_database_url)
    assert result.exit_code == 0, result.stderr
    assert "alembic_version" in _tables(empty_database_url)


def test_a_plain_file_path_is_a_sqlite_ledger(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    absolute = tmp_path / "srv" / "ledger.db"
    absolute.parent.mkdir()
    assert run("add-player", "--name", "Club, Cleo", db="club.db").stdout == "1\n"
    assert run("add-player", "--name", "Server, Sid", db=str(absolute)).stdout == "1\n"
    assert run("player", "1", db="club.db").stdout.startswith("Club, Cleo (ID 1)")
    assert run("player", "1", db=f"sqlite:///{absolute}").stdout.startswith("Server, Sid")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["club.db", "srv"]


@pytest.mark.parametrize("name", ["ledger #2.db", "r?1.db", "50%.db"])
def test_a_plain_path_keeps_every_character_of_its_name(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("add-player", "--name", "Odd, Otto", db=name).exit_code == 0
    assert [path.name for path in tmp_path.iterdir()] == [name]


def test_a_write_command_creates_no_folder(tmp_path: Path) -> None:
    path = tmp_path / "typo" / "ledger.db"
    result = run("add-player", "--name", "Lost, Lou", db=str(path))
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: cannot create a ledger at {path}: the folder {path.parent} does not exist; "
        "give the right --db.\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("arguments", [("list",), ("add-player", "--name", "Dir, Di")])
def test_a_folder_is_not_a_ledger(arguments: tuple[str, ...], tmp_path: Path) -> None:
    result = run(*arguments, db=str(tmp_path))
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {tmp_path} is a folder, not a ledger file; give the right --db.\n",
    )
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def sqlite_ledger(tmp_path: Path, sqlite_template: Path) -> Path:
    path = tmp_path / "ledger.db"
    shutil.copyfile(sqlite_template, path)
    return path


def _denied(monkeypatch: pytest.MonkeyPatch, mode: int) -> None:
    """The permission check of the ledger's files answers as for a user without `mode`
    (the tests run as whoever runs them, often a user the system lets read everything)."""
    monkeypatch.setattr(sqlite_files.os, "access", lambda _path, wanted: not wanted & mode)


def test_an_unreadable_file_is_refused_with_what_to_do(
    sqlite_ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = sqlite_ledger
    _denied(monkeypatch, sqlite_files.os.R_OK)
    result = run("list", db=str(path))
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: cannot read {path}: permission denied; check the file's permissions.\n",
    )


def test_a_read_only_file_is_read_and_refused_for_writing(
    sqlite_ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = sqlite_ledger
    _denied(monkeypatch, sqlite_files.os.W_OK)
    assert run("db", "check", db=str(path)).exit_code == 0
    result = run("add-player", "--name", "Read, Only", db=str(path))
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: cannot write to {path}: the file is read-only; check its permissions.\n",
    )


def test_a_read_only_folder_is_refused_for_a_new_ledger(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _denied(monkeypatch, sqlite_files.os.W_OK)
    path = tmp_path / "ledger.db"
    result = run("add-player", "--name", "New, Nel", db=str(path))
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: cannot create a ledger at {path}: the folder {tmp_path} is read-only; "
        "check its permissions.\n",
    )


def test_a_file_sqlite_cannot_open_is_refused_with_what_to_do(tmp_path: Path) -> None:
    """A `file:` URI is SQLite's to resolve, so only SQLite's refusal tells."""
    database = f"file:{tmp_path}/missing/ledger.db"
    result = run("add-player", "--name", "Uri, Una", db=f"sqlite:///{database}?uri=true")
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: cannot open {database}: check that its folder exists, and the permissions of "
        "the file and the folder (the ledger keeps its -wal and -shm files beside it).\n",
    )


@pytest.fixture
def missing_postgresql_database(postgresql_server: PostgreSQLServer | None) -> str:
    if postgresql_server is None:
        pytest.skip("no PostgreSQL server")
    return postgresql_server.url_of(f"ledger_missing_{uuid.uuid4().hex[:12]}")


@pytest.mark.parametrize(
    "arguments", [("list",), ("add-player", "--name", "Pg, Pia"), ("db", "upgrade")]
)
def test_a_postgresql_database_that_does_not_exist_says_createdb(
    arguments: tuple[str, ...], missing_postgresql_database: str
) -> None:
    name = make_url(missing_postgresql_database).database
    result = run(*arguments, db=missing_postgresql_database)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"error: database {name} does not exist on the PostgreSQL server at 127.0.0.1:5432; "
        f"create it with `createdb {name}`, or give the right --db.\n"
    )


# A database that is not a ledger is refused untouched ---------------------------------------


FOREIGN_COMMANDS = [
    pytest.param(("list",), id="list"),
    pytest.param(("add-player", "--name", "Not, Here"), id="add-player"),
    pytest.param(("db", "current"), id="db-current"),
    pytest.param(("db", "upgrade"), id="db-upgrade"),
    pytest.param(("db", "check"), id="db-check"),
]


@pytest.mark.parametrize("arguments", FOREIGN_COMMANDS)
def test_a_foreign_sqlite_database_is_refused_before_anything_changes(
    arguments: tuple[str, ...], tmp_path: Path
) -> None:
    path = tmp_path / "invoices.db"
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("CREATE TABLE invoices (id INTEGER)")
    before = path.read_bytes()
    result = run(*arguments, db=str(path))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"error: sqlite:///{path} is not empty and is not a ledger database.\n"
    assert path.read_bytes() == before  # the journal is not switched to WAL either
    assert sorted(tmp_path.iterdir()) == [path]


def test_db_upgrade_of_an_unknown_revision_says_so(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = 'f0f0f0f0f0f0'"))
    finally:
        engine.dispose()
    result = run("db", "upgrade", db=database_url)
    assert (result.exit_code, result.stderr) == (
        1,
        "error: the database schema is at revision f0f0f0f0f0f0, which this ledger does not "
        "know; it was written by a newer ledger.\n",
    )


FIRST_COMMANDS = 4


def test_first_commands_at_once_on_an_empty_database_all_succeed(empty_database_url: str) -> None:
    """Each makes the schema if it finds none; under the schema lock the others wait and
    find it made (on PostgreSQL two at once failed on its catalogue's unique index)."""

    def add(number: int) -> int:
        ledger = open_ledger(empty_database_url)
        try:
            record = new_player(name=f"First, No. {number}", today=NOW.date())
            with ledger.transaction() as session:
                (player_id,) = add_players(session, Pool.STANDARD, [record])
            return player_id
        finally:
            ledger.dispose()

    with ThreadPoolExecutor(FIRST_COMMANDS) as pool:
        ids = list(pool.map(add, range(FIRST_COMMANDS)))
    assert sorted(ids) == list(range(1, FIRST_COMMANDS + 1))


def test_a_first_command_waits_while_another_switches_a_new_file_to_wal(tmp_path: Path) -> None:
    """Switching a new file's journal to WAL takes SQLite's write lock, and SQLite answers
    "database is locked" at once, without its busy wait, to a second connection switching it
    meanwhile: the second waits and finds the file switched (the race of two first
    commands)."""
    path = tmp_path / "new.db"
    with closing(sqlite3.connect(path, isolation_level=None, check_same_thread=False)) as switching:
        switching.execute("BEGIN IMMEDIATE")  # as a first connection's switch holds it
        release = threading.Timer(0.3, switching.execute, ["COMMIT"])
        release.start()
        try:
            ledger = open_ledger(as_url(str(path)))
        finally:
            release.join()
    try:
        with ledger.reading() as session:
            assert session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    finally:
        ledger.dispose()


# Backups ------------------------------------------------------------------------------------


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("name", ["ledger #2.db", "r?1.db", "café 100%.db"])
def test_db_backup_copies_the_named_file(name: str, kept: Path) -> None:
    (kept / "r").write_bytes(b"")  # what `r?1.db` read as an unescaped URI opened
    added = run("add-player", "--name", "Kept, Kim", "--rating", "2000", "--games", "40", db=name)
    assert added.exit_code == 0, added.stderr
    made = run("db", "backup", "copy.db", db=name)
    assert (made.exit_code, made.stdout) == (0, "Backed up the ledger to copy.db.\n")
    assert fingerprint(as_url("copy.db")) == fingerprint(as_url(name))


def test_db_backup_refuses_a_database_that_is_not_a_ledger(kept: Path) -> None:
    with closing(sqlite3.connect(kept / "notes.db")) as connection, connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    result = run("db", "backup", "copy.db", db="notes.db")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: notes.db is not a ledger; there is nothing to back up.\n",
    )
    assert not (kept / "copy.db").exists()


def test_db_backup_that_does_not_match_the_ledger_is_removed(
    kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("add-player", "--name", "Kept, Kim", db="ledger.db").exit_code == 0
    contents = backup._contents

    def short_of_a_player(database: sqlite3.Connection, path: Path) -> backup._Contents:
        revision, counts = contents(database, path)
        if path.name == "copy.db":
            counts["players"] -= 1
        return revision, counts

    monkeypatch.setattr(backup, "_contents", short_of_a_player)
    result = run("db", "backup", "copy.db", db="ledger.db")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "error: the backup to copy.db failed: the copy does not hold what the ledger holds "
        "(rows differ in players); it was removed.\n"
    )
    assert not (kept / "copy.db").exists()


def test_the_pg_dump_command_quotes_every_argument_and_ends_options() -> None:
    shown = run("db", "backup", "my dump;rm x", db="postgresql+psycopg://u@db.example/-x y")
    assert shown.stdout == (
        "Back up a PostgreSQL ledger with pg_dump:\n  pg_dump --format=custom "
        "'--file=my dump;rm x' --host=db.example --port=5432 --username=u -- '-x y'\n"
    )
