"""Fixtures: a fresh ledger database per test, on SQLite and on PostgreSQL.

PostgreSQL tests use the server at $LEDGER_TEST_POSTGRESQL_URL (default: the local server,
user postgres, database test). A test of a migrated ledger gets the session's database,
emptied to exactly the state of a new one (creating a database per test costs a quarter of a
second); tests that need a database of their own, empty or not, get a new one. Without a
reachable server they skip with the reason, unless LEDGER_REQUIRE_POSTGRESQL=1 (as in CI),
where they fail instead.
"""

from __future__ import annotations

import importlib
import os
import shutil
import signal
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg
import pytest
from sqlalchemy.engine import make_url

from ledger.cli.commands import COMMANDS
from ledger.storage.database import Ledger, open_ledger, upgrade_schema
from ledger.storage.models import Base
from ledger.storage.schema import head_revision

POSTGRESQL_URL = os.environ.get(
    "LEDGER_TEST_POSTGRESQL_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REQUIRE_POSTGRESQL = os.environ.get("LEDGER_REQUIRE_POSTGRESQL") == "1"
BACKENDS = ("sqlite", "postgresql")
HEAD = head_revision()
CHROMIUM = Path("/usr/bin/chromium")
REQUIRE_BROWSER = os.environ.get("LEDGER_REQUIRE_BROWSER") == "1"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if TYPE_CHECKING:
    from playwright.sync_api import Browser


class PostgreSQLServer:
    """Creates and drops the test databases on the PostgreSQL server."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.template = f"ledger_template_{uuid.uuid4().hex[:12]}"
        self.reused: str | None = None

    def _admin(self) -> psycopg.Connection:
        return psycopg.connect(
            host=self.url.host,
            port=self.url.port or 5432,
            user=self.url.username,
            password=self.url.password,
            dbname=self.url.database,
            autocommit=True,
            connect_timeout=5,
        )

    def url_of(self, name: str) -> str:
        return self.url.set(database=name).render_as_string(hide_password=False)

    def create(self, name: str, template: str | None = None, language: str | None = None) -> str:
        """A new database; its commits do not wait for the disk (a test database need not
        outlive a crash of the server, and the suite runs several times faster). With a
        `language` (an ICU locale, "en-US"), its text is ordered by that language's ICU
        collation: it stands in for a database made on a server set up in that language."""
        with self._admin() as admin:
            clause = f" TEMPLATE {template}" if template else ""
            if language is not None:
                clause = (
                    " TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C' "
                    f"LOCALE_PROVIDER icu ICU_LOCALE '{language}'"
                )
            admin.execute(f'CREATE DATABASE "{name}"{clause}')  # type: ignore[arg-type]
            try:
                admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')  # type: ignore[arg-type]
            except psycopg.Error:
                admin.execute(f'DROP DATABASE "{name}"')  # type: ignore[arg-type]
                raise
        return self.url_of(name)

    def new_ledger(self) -> str:
        """The session's migrated database with every row deleted and every sequence
        restarted: what a new database from the template holds. A test that changed more
        (the schema's revision) leaves it to be made again."""
        if self.reused is not None and not self._emptied(self.reused):
            self.drop(self.reused)
            self.reused = None
        if self.reused is None:
            self.reused = f"ledger_test_{uuid.uuid4().hex[:12]}"
            self.create(self.reused, self.template)
        return self.url_of(self.reused)

    def _emptied(self, name: str) -> bool:
        connection = psycopg.connect(self.url_of(name).replace("+psycopg", ""), connect_timeout=5)
        with connection:
            connection.execute("SET lock_timeout = '10s'")
            revision = connection.execute("SELECT version_num FROM alembic_version").fetchall()
            if revision != [(HEAD,)]:
                return False
            for table in reversed(Base.metadata.sorted_tables):
                connection.execute(f'DELETE FROM "{table.name}"')  # type: ignore[arg-type]
            sequences = connection.execute(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"
            ).fetchall()
            for (sequence,) in sequences:
                connection.execute(f'ALTER SEQUENCE "{sequence}" RESTART')  # type: ignore[arg-type]
        return True

    def drop(self, name: str) -> None:
        with self._admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[arg-type]


def pytest_configure() -> None:
    """Every command's module loaded before any test runs, and Ctrl-C as at a terminal.

    The command line loads its modules as they are used (`ledger.cli.commands`); loaded
    while a test has patched a service, a module would keep the patched function for the
    tests after it. And where the suite was started with Ctrl-C ignored (a shell's
    background job), the interrupt tests, which send SIGINT to this process and to the
    commands it starts, would see it rightly ignored.
    """
    for module in COMMANDS:
        importlib.import_module(f"ledger.cli.{module}")
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that runs on PostgreSQL, so a fast loop can leave them out
    (`-m "not slow and not postgresql"`)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_backend = callspec is not None and "postgresql" in callspec.params.values()
        if on_backend or "postgresql_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgresql)


@pytest.fixture(scope="session")
def postgresql_server() -> Iterator[PostgreSQLServer | None]:
    server = PostgreSQLServer(POSTGRESQL_URL)
    try:
        server.create(server.template)
    except psycopg.OperationalError as error:
        if REQUIRE_POSTGRESQL:
            pytest.fail(f"PostgreSQL is required (LEDGER_REQUIRE_POSTGRESQL=1) but: {error}")
        yield None
        return
    upgrade_schema(server.url_of(server.template))
    yield server
    if server.reused is not None:
        server.drop(server.reused)
    server.drop(server.template)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "ledger.db"
    upgrade_schema(f"sqlite:///{path}")
    return path


def fresh_database(
    backend: str,
    tmp_path: Path,
    postgresql_server: PostgreSQLServer | None,
    sqlite_template: Path | None = None,
) -> Iterator[str]:
    """A URL to a new database: migrated when a template is given, else empty."""
    if backend == "sqlite":
        path = tmp_path / f"ledger-{uuid.uuid4().hex[:8]}.db"
        if sqlite_template is not None:
            shutil.copyfile(sqlite_template, path)
        yield f"sqlite:///{path}"
        return
    if postgresql_server is None:
        pytest.skip(f"no PostgreSQL server at {make_url(POSTGRESQL_URL).render_as_string()}")
    name = f"ledger_test_{uuid.uuid4().hex[:12]}"
    template = postgresql_server.template if sqlite_template is not None else None
    yield postgresql_server.create(name, template)
    postgresql_server.drop(name)


def new_ledger(
    backend: str, tmp_path: Path, postgresql_server: PostgreSQLServer | None, sqlite_template: Path
) -> Iterator[str]:
    """A URL to a database at the newest schema holding no rows: a copy of the template on
    SQLite, the session's emptied database on PostgreSQL."""
    if backend == "sqlite" or postgresql_server is None:
        yield from fresh_database(backend, tmp_path, postgresql_server, sqlite_template)
        return
    yield postgresql_server.new_ledger()


@pytest.fixture(params=BACKENDS)
def database_url(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    postgresql_server: PostgreSQLServer | None,
    sqlite_template: Path,
) -> Iterator[str]:
    """A new ledger database at the newest schema, on each backend."""
    yield from new_ledger(request.param, tmp_path, postgresql_server, sqlite_template)


@pytest.fixture(params=BACKENDS)
def empty_database_url(
    request: pytest.FixtureRequest, tmp_path: Path, postgresql_server: PostgreSQLServer | None
) -> Iterator[str]:
    """A fresh, completely empty database, on each backend."""
    yield from fresh_database(request.param, tmp_path, postgresql_server)


@pytest.fixture
def postgresql_url(
    tmp_path: Path, postgresql_server: PostgreSQLServer | None, sqlite_template: Path
) -> Iterator[str]:
    """A new PostgreSQL ledger database at the newest schema, for PostgreSQL-only behaviour."""
    yield from new_ledger("postgresql", tmp_path, postgresql_server, sqlite_template)


@pytest.fixture
def ledger(database_url: str) -> Iterator[Ledger]:
    opened = open_ledger(database_url)
    yield opened
    opened.dispose()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's chromium, driven by Playwright (which never downloads a browser of its own);
    the browser tests skip where it is missing, unless LEDGER_REQUIRE_BROWSER=1."""
    if not CHROMIUM.exists():
        reason = f"no {CHROMIUM}: install Debian's chromium (apt-get install chromium)"
        if REQUIRE_BROWSER:
            pytest.fail(f"a browser is required (LEDGER_REQUIRE_BROWSER=1) but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield launched
        launched.close()
