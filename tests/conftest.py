"""Fixtures: a fresh ledger database per test, on SQLite and on PostgreSQL.

PostgreSQL tests use the server at $LEDGER_TEST_POSTGRESQL_URL (default: the local server,
user postgres, database test); each test gets its own database, created from a migrated
template. Without a reachable server they skip with the reason, unless
LEDGER_REQUIRE_POSTGRESQL=1 (as in CI), where they fail instead.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from ledger.database import Ledger, open_ledger, upgrade_schema

POSTGRESQL_URL = os.environ.get(
    "LEDGER_TEST_POSTGRESQL_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REQUIRE_POSTGRESQL = os.environ.get("LEDGER_REQUIRE_POSTGRESQL") == "1"
BACKENDS = ("sqlite", "postgresql")


class PostgreSQLServer:
    """Creates and drops the test databases on the PostgreSQL server."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.template = f"ledger_template_{uuid.uuid4().hex[:12]}"

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

    def create(self, name: str, template: str | None = None) -> str:
        with self._admin() as admin:
            clause = f" TEMPLATE {template}" if template else ""
            admin.execute(f'CREATE DATABASE "{name}"{clause}')  # type: ignore[arg-type]
        return self.url_of(name)

    def drop(self, name: str) -> None:
        with self._admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[arg-type]


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


@pytest.fixture(params=BACKENDS)
def database_url(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    postgresql_server: PostgreSQLServer | None,
    sqlite_template: Path,
) -> Iterator[str]:
    """A fresh database at the newest schema, on each backend."""
    yield from fresh_database(request.param, tmp_path, postgresql_server, sqlite_template)


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
    """A fresh PostgreSQL database at the newest schema, for PostgreSQL-only behaviour."""
    yield from fresh_database("postgresql", tmp_path, postgresql_server, sqlite_template)


@pytest.fixture
def ledger(database_url: str) -> Iterator[Ledger]:
    opened = open_ledger(database_url)
    yield opened
    opened.dispose()
