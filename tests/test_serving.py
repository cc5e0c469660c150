"""`ledger serve` as the public meets it: many requests at once, clients that hang up, the
live list asked for by many, an address it cannot have, and SQLite files it may only read.

The loads run against real `ledger serve` processes (or the app under uvicorn in a thread,
where a query is held to order what happens); nothing here asserts how long anything took:
a request after a burst must be answered at all (the bound is a minute's stall away from
normal), and no answer may be a 5xx."""

from __future__ import annotations

import asyncio
import datetime as dt
import http.client
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.types import Message

from ledger import queries
from ledger.core.domain import Pool
from ledger.core.errors import LedgerError
from ledger.queries import KeptCounts, ListRequest
from ledger.queries.lists import live
from ledger.services.demo import build_demo
from ledger.storage.database import Ledger, open_reader
from ledger.web import create_app
from ledger.web.errors import BUSY
from ledger.web.kept_answers import KeptAnswers

from builders import game, player, run
from servers import free_port, serving

DEMO_NOW = dt.datetime(2026, 3, 1, 12)
ANSWER_BOUND_SECONDS = 20
"""Long enough for any answer of these small ledgers on a loaded machine; far shorter than
the stall of a starved connection pool (its 30 s time-out, once or twice)."""


def _get(address: str) -> int:
    try:
        with urllib.request.urlopen(address, timeout=ANSWER_BOUND_SECONDS) as answer:
            answer.read()
            status: int = answer.status
            return status
    except urllib.error.HTTPError as error:
        return error.code


def _abandon(address: str, path: str, times: int) -> None:
    """Send `GET path` and hang up at once, `times` times in a row."""
    host, port = address.removeprefix("http://").strip("/").split(":")
    for _ in range(times):
        with socket.create_connection((host, int(port))) as connection:
            connection.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())


@pytest.fixture
def demo_with_open_games(ledger: Ledger, database_url: str) -> str:
    """The demo (its lists up to 2026-02), with games recorded in its open month, 2026-03:
    a live list to rate."""
    build_demo(database_url, Pool.STANDARD, replace=False, now=DEMO_NOW)
    for white, black in ((1, 2), (3, 4), (5, 6), (7, 8)):
        game(ledger, white, black, "1-0", "2026-03-03")
    return database_url


@pytest.mark.slow
def test_a_burst_of_abandoned_requests_leaves_the_site_answering(
    demo_with_open_games: str, tmp_path: Path
) -> None:
    with serving(demo_with_open_games, tmp_path / "serve.log") as address:
        _abandon(address, "/lists/standard/latest", 200)
        assert _get(address + "lists/standard/latest") == 200
        with ThreadPoolExecutor(max_workers=20) as readers:
            paths = ["", "lists/standard/latest", "lists/standard/live", "players/1"] * 10
            statuses = list(readers.map(_get, [address + path for path in paths]))
    assert statuses == [200] * len(paths)
    assert "QueuePool" not in (tmp_path / "serve.log").read_text()


@pytest.mark.slow
def test_many_readers_of_the_live_list_are_all_answered(
    demo_with_open_games: str, tmp_path: Path
) -> None:
    with serving(demo_with_open_games, tmp_path / "serve.log") as address:
        pages = ["lists/standard/live", "api/v1/lists/standard/live?page=1&per_page=50"]
        with ThreadPoolExecutor(max_workers=45) as readers:
            statuses = list(readers.map(_get, [address + path for path in pages * 45]))
    assert statuses == [200] * len(statuses)


def test_the_live_list_is_rated_once_for_every_page_of_a_state_of_the_ledger(
    demo_with_open_games: str, ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    rated: list[Pool] = []
    rate = live._rated_since

    def counted(session: Any, pool: Pool, *args: Any) -> Any:
        rated.append(pool)
        return rate(session, pool, *args)

    monkeypatch.setattr(live, "_rated_since", counted)
    with TestClient(create_app(demo_with_open_games)) as client:
        for path in ("/lists/standard/live", "/lists/standard/live?page=2", "/players/1"):
            assert client.get(path).status_code == 200
        assert client.get("/api/v1/lists/standard/live?per_page=10").status_code == 200
        assert rated == [Pool.STANDARD]
        added = run(
            "add-game",
            "--white",
            "9",
            "--black",
            "10",
            "--result",
            "0-1",
            "--date",
            "2026-03-04",
            db=demo_with_open_games,
        )
        assert added.exit_code == 0, added.stderr
        assert client.get("/lists/standard/live").status_code == 200
    assert rated == [Pool.STANDARD, Pool.STANDARD]


def test_what_many_threads_ask_for_at_once_is_read_once(ledger: Ledger) -> None:
    kept = KeptCounts()
    reads: list[int] = []
    together = threading.Barrier(8)

    def read() -> int:
        reads.append(1)
        time.sleep(0.2)  # the others arrive while it reads
        return 42

    def ask(_: int) -> int:
        with ledger.reading() as session:
            together.wait()
            return kept.get(session, ("live", Pool.STANDARD), read, large=True)

    with ThreadPoolExecutor(max_workers=8) as threads:
        assert list(threads.map(ask, range(8))) == [42] * 8
    assert reads == [1]


def test_what_was_kept_goes_when_the_ledger_changes(ledger: Ledger, database_url: str) -> None:
    """Every change is logged (here by the command line), and the log's newest entry names
    the state of the ledger: what was kept under an earlier one is let go."""
    kept = KeptCounts()
    assert run("add-player", "--name", "Kept, Karl", db=database_url).exit_code == 0
    with ledger.reading() as session:
        kept.get(session, ("size", "anything"), lambda: 5)
        kept.get(session, ("live", Pool.STANDARD), lambda: {1: "standings"}, large=True)
    assert run("add-player", "--name", "Changed, Carla", db=database_url).exit_code == 0
    with ledger.reading() as session:
        assert kept.peek(session, ("size", "anything")) is None
        assert kept.get(session, ("size", "anything"), lambda: 6) == 6
    assert [len(each) for each in kept._kept.values()] == [1, 0, 0, 0]


@contextmanager
def _in_a_thread(app: FastAPI) -> Iterator[str]:
    """The app under uvicorn in a thread of this process (so a test can hold its queries)."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


class _Held:
    """`queries.player_card` held until released: a request that stays in its query."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.entered = threading.Event()
        self.released = threading.Event()
        self.calls = 0
        card = queries.player_card

        def held(*args: Any, **options: Any) -> Any:
            self.calls += 1
            self.entered.set()
            self.released.wait(timeout=ANSWER_BOUND_SECONDS)
            return card(*args, **options)

        monkeypatch.setattr(queries, "player_card", held)


def _answer(address: str, path: str) -> tuple[int, dict[str, str]]:
    """The status and headers of `GET path`."""
    host, port = address.removeprefix("http://").strip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=ANSWER_BOUND_SECONDS)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        return answer.status, dict(answer.getheaders())
    finally:
        connection.close()


def test_past_the_requests_a_worker_keeps_the_answer_is_503_at_once(
    demo_with_open_games: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = _Held(monkeypatch)
    app = create_app(demo_with_open_games, working=1, waiting=1)
    with _in_a_thread(app) as address, ThreadPoolExecutor(max_workers=2) as clients:
        first = clients.submit(_get, address + "players/1")
        assert held.entered.wait(timeout=ANSWER_BOUND_SECONDS)
        waiting = clients.submit(_get, address + "players/2")
        time.sleep(0.5)  # the second is in line
        status, headers = _answer(address, "/players/3")
        assert status == 503
        assert (headers["retry-after"], headers["cache-control"]) == ("1", "no-store")
        held.released.set()
        assert (first.result(), waiting.result()) == (200, 200)
    assert held.calls == 2


def test_a_request_whose_client_hung_up_before_its_turn_reads_nothing(
    demo_with_open_games: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = _Held(monkeypatch)
    app = create_app(demo_with_open_games, working=1, waiting=4)
    with _in_a_thread(app) as address, ThreadPoolExecutor(max_workers=1) as clients:
        first = clients.submit(_get, address + "players/1")
        assert held.entered.wait(timeout=ANSWER_BOUND_SECONDS)
        _abandon(address, "/players/2", 3)
        time.sleep(0.5)  # the server has seen them hang up
        held.released.set()
        assert first.result() == 200
        assert _get(address + "players/4") == 200
    assert held.calls == 2


def test_serve_on_a_port_in_use_says_so_in_one_line(database_url: str, ledger: Ledger) -> None:
    player(ledger, "Someone", rating=2000)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refused = run("serve", "--port", str(port), db=database_url)
    assert refused.exit_code == 1
    assert refused.stdout == ""
    assert refused.stderr == (
        f"error: cannot listen on 127.0.0.1:{port}: the port is in use; stop what uses it, "
        "or give another --port.\n"
    )


@pytest.mark.parametrize(
    ("host", "why"),
    [
        ("192.0.2.1", "this machine has no such address; give --host one of its addresses"),
        ("no-such-host.invalid", "there is no such address; give --host an address"),
    ],
)
def test_serve_on_an_address_it_cannot_have_says_so_in_one_line(
    database_url: str, ledger: Ledger, host: str, why: str
) -> None:
    player(ledger, "Someone", rating=2000)
    refused = run("serve", "--host", host, "--port", str(free_port()), db=database_url)
    assert refused.exit_code == 1
    assert refused.stdout == ""
    assert refused.stderr.startswith(f"error: cannot listen on {host}:")
    assert why in refused.stderr
    assert refused.stderr.count("\n") == 1


# SQLite files the server may only read.


def _demo_file(folder: Path) -> Path:
    path = folder / "ledger.db"
    build_demo(f"sqlite:///{path}", Pool.STANDARD, replace=False, now=DEMO_NOW)
    assert sorted(each.name for each in folder.iterdir()) == ["ledger.db"]
    return path


@contextmanager
def _unwritable(folder: Path) -> Iterator[None]:
    """`folder` made so that no one, root included, can create a file in it (the immutable
    attribute of Linux file systems); skipped where that cannot be set."""
    made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot make a folder unwritable here: {made.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def _pages_answer(app: FastAPI) -> None:
    with TestClient(app) as client:
        for path in ("/", "/lists/standard/latest", "/players/1"):
            assert client.get(path).status_code == 200, path


def test_serve_leaves_no_files_beside_a_sqlite_ledger(tmp_path: Path) -> None:
    path = _demo_file(tmp_path)
    with serving(f"sqlite:///{path}", tmp_path.parent / f"{tmp_path.name}.log") as address:
        assert _get(address + "lists/standard/latest") == 200
        assert (tmp_path / "ledger.db-shm").exists()
    assert sorted(each.name for each in tmp_path.iterdir()) == ["ledger.db"]


def test_a_copy_in_a_folder_it_cannot_write_is_served_as_a_mirror(tmp_path: Path) -> None:
    """A rollback-journal copy (what `VACUUM INTO` writes) needs nothing beside it to be
    read; the site, which writes (sign-ins, reports), is told why it cannot, and the mirror
    mode serves it."""
    source, copy = tmp_path / "source", tmp_path / "copy"
    source.mkdir()
    copy.mkdir()
    with sqlite3.connect(_demo_file(source)) as connection:
        connection.execute("VACUUM INTO ?", (str(copy / "ledger.db"),))
    url = f"sqlite:///{copy / 'ledger.db'}"
    with _unwritable(copy):
        refused = run("serve", "--port", str(free_port()), db=url)
        _pages_answer(create_app(url, unchanging=True))
    assert refused.exit_code == 1
    assert refused.stderr == (
        f"error: {url}: the site writes to the ledger (sign-ins, reports sent in) and this "
        f"user cannot write the folder {copy}; serve it as a public mirror with --read-only, "
        "or let this user write it.\n"
    )
    assert sorted(each.name for each in copy.iterdir()) == ["ledger.db"]


def test_a_wal_ledger_in_a_folder_it_cannot_write_is_refused_with_the_reason(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{_demo_file(tmp_path)}"
    with _unwritable(tmp_path):
        refused = run("serve", "--port", str(free_port()), db=url)
    assert refused.exit_code == 1
    assert refused.stderr == (
        f"error: {url} keeps its journal in WAL mode, whose readers need a shared-memory file "
        f"(ledger.db-shm) beside it, and this user cannot create one in {tmp_path}; let this "
        "user write the folder, or serve it with --read-only if nothing writes it while it "
        "is served.\n"
    )


def test_read_only_serves_a_wal_ledger_from_a_folder_it_cannot_write(tmp_path: Path) -> None:
    path = _demo_file(tmp_path)
    with _unwritable(tmp_path):
        _pages_answer(create_app(f"sqlite:///{path}", unchanging=True))
    assert sorted(each.name for each in tmp_path.iterdir()) == ["ledger.db"]


def test_read_only_refuses_a_ledger_whose_log_holds_changes(tmp_path: Path) -> None:
    path = _demo_file(tmp_path)
    writer = sqlite3.connect(path)
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("UPDATE players SET name = name || '.'")
        writer.commit()
        assert (tmp_path / "ledger.db-wal").stat().st_size > 0
        with pytest.raises(LedgerError, match=r"has changes in its write-ahead log \(ledger"):
            open_reader(f"sqlite:///{path}", unchanging=True)
    finally:
        writer.close()


def test_the_live_list_kept_is_the_live_list_read(demo_with_open_games: str) -> None:
    reader = open_reader(demo_with_open_games)
    kept = KeptCounts()
    asked = ListRequest(Pool.STANDARD, live=True, top=7, skip=3)
    try:
        for _ in range(2):
            with reader.reading() as session:
                assert queries.published_list(session, asked, kept) == queries.published_list(
                    session, asked
                )
    finally:
        reader.dispose()


# Answers kept to send again.


def test_an_answer_is_sent_again_without_reading_until_the_ledger_changes(
    demo_with_open_games: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same page asked again is sent from memory (its query is not run); once another
    process changes the ledger (a correction on the command line), it is read again."""
    read: list[int] = []
    card = queries.player_card

    def counted(*args: Any, **options: Any) -> Any:
        read.append(1)
        return card(*args, **options)

    monkeypatch.setattr(queries, "player_card", counted)
    with TestClient(create_app(demo_with_open_games)) as client:
        first = client.get("/players/1")
        again = client.get("/players/1")
        head = client.head("/players/1")
        assert (first.text, again.headers["etag"]) == (again.text, first.headers["etag"])
        assert (head.status_code, head.content) == (200, b"")
        assert len(read) == 1
        corrected = run(
            "edit-player",
            "1",
            "--name",
            "Renamed, Rita",
            "--reason",
            "spelling",
            db=demo_with_open_games,
        )
        assert corrected.exit_code == 0, corrected.stderr
        after = client.get("/players/1")
        assert "Renamed, Rita" in after.text
        assert after.headers["etag"] != first.headers["etag"]
    assert len(read) == 2


def test_a_kept_list_is_read_again_once_another_process_publishes(
    demo_with_open_games: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The newest list's page and the home page are sent from memory until a close in
    another process (the command line, run as a program) publishes the list of 2026-03:
    then both show it, and the list is read again."""
    read: list[int] = []
    published = queries.published_list

    def counted(*args: Any, **options: Any) -> Any:
        read.append(1)
        return published(*args, **options)

    monkeypatch.setattr(queries, "published_list", counted)
    paths = ("/lists/standard/latest", "/")
    with TestClient(create_app(demo_with_open_games)) as client:
        before = [client.get(path) for path in paths]
        reads = len(read)
        assert [client.get(path).text for path in paths] == [answer.text for answer in before]
        assert len(read) == reads
        assert "<title>Standard list Mar 2026 (2026-02)" in before[0].text
        assert "Apr 2026" not in before[1].text
        command = ["close-period", "2026-03", "--db", demo_with_open_games]
        closed = subprocess.run(
            [sys.executable, "-m", "ledger", *command],
            capture_output=True,
            text=True,
            check=False,
        )
        assert closed.returncode == 0, closed.stderr
        after = [client.get(path) for path in paths]
        assert [answer.headers["etag"] for answer in after] != [b.headers["etag"] for b in before]
        assert "<title>Standard list Apr 2026 (2026-03)" in after[0].text
        assert "Apr 2026" in after[1].text
        assert len(read) > reads


def test_a_read_that_waits_for_a_close_is_refused_to_be_asked_again(postgresql_url: str) -> None:
    """On PostgreSQL a close that changes most of a pool's standings takes the tables it
    rebuilds the indexes of until it commits (here another connection holds that lock): a
    page or API answer waits `READ_LOCK_WAIT`, then is a 503 with Retry-After and a
    sentence, never a 500; once the lock goes, the same request is answered."""
    build_demo(postgresql_url, Pool.STANDARD, replace=False, now=DEMO_NOW)
    paths = ("/lists/standard/latest", "/api/v1/lists/standard/latest", "/players/1")
    with TestClient(create_app(postgresql_url, kept_bytes=0)) as client:
        with psycopg.connect(postgresql_url.replace("+psycopg", "")) as holder:
            holder.execute("LOCK TABLE player_ratings IN ACCESS EXCLUSIVE MODE")
            refused = [client.get(path) for path in paths]
            assert [answer.status_code for answer in refused] == [503] * len(paths)
            assert all(answer.headers["retry-after"] == "5" for answer in refused)
            assert "publishing a list; ask again in a moment" in refused[0].text
            assert refused[1].json() == {"error": BUSY}
            assert refused[0].headers["cache-control"] == "no-store"
        assert [client.get(path).status_code for path in paths] == [200] * len(paths)


def test_a_worker_that_keeps_no_answers_reads_each_time(
    demo_with_open_games: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[int] = []
    card = queries.player_card
    monkeypatch.setattr(queries, "player_card", lambda *a, **o: read.append(1) or card(*a, **o))
    with TestClient(create_app(demo_with_open_games, kept_bytes=0)) as client:
        for _ in range(3):
            assert client.get("/players/1").status_code == 200
    assert len(read) == 3


def test_what_is_kept_is_bounded_and_let_go_when_the_ledger_changes() -> None:
    kept = KeptAnswers(most_bytes=10, largest=6)

    async def nowhere(message: Message) -> None:
        return None

    async def sent(change: int, tag: str, body: bytes) -> None:
        send = kept.recording(change, tag, nowhere)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})

    def answer(change: int, tag: str, body: bytes) -> None:
        # A thread of its own: the browser tests' Playwright keeps an event loop in this one.
        with ThreadPoolExecutor(max_workers=1) as thread:
            thread.submit(asyncio.run, sent(change, tag, body)).result()

    answer(1, "a", b"12345")
    answer(1, "b", b"12345")
    answer(1, "big", b"1234567")
    assert kept.get("big") is None  # larger than `largest`
    answer(1, "c", b"123")
    assert kept.get("a") is None  # the least recently used went first
    assert kept.get("b") is not None
    assert kept.get("c") is not None
    answer(2, "d", b"1")
    assert (kept.get("b"), kept.get("c"), kept.get("d") is not None) == (None, None, True)
    answer(1, "late", b"1")  # read before the change: not kept
    assert kept.get("late") is None
