"""Benchmark: the web site and JSON API under a bounded load, on SQLite and PostgreSQL.

Builds (once) a ledger of N players with several closed periods through the bulk services of
close_period.py: M games in the first month, `--next-games` in each month after (played by a
twentieth of the list), a few games in the open month. Then starts `ledger serve` with
`--workers` processes and drives it from a second process on loopback with `--threads`
client threads, `--requests` requests per page, and prints latency p50/p95/p99 and
requests per second for each page. Building a million players takes a long while, so the
ledger is kept (a SQLite file, a PostgreSQL database) and reused by the next run; `--rebuild`
makes it again. Run by hand:

    python benchmarks/web.py --backend sqlite --sqlite-file /tmp/ledger-web-1m.db
    python benchmarks/web.py --backend postgresql --database ledger_web_1m
    python benchmarks/web.py --players 20000 --games 20000 --build-only

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import http.client
import math
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psycopg
from close_period import NOW, PERIOD, games, players, timed
from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url

from ledger.core.domain import Period, Pool
from ledger.core.records import NewGame
from ledger.services.closing import close_period
from ledger.services.games import add_games
from ledger.services.players import add_players
from ledger.storage.database import open_ledger, shown_url, upgrade_schema
from ledger.storage.models import Game, Player

CLOSED_MONTHS = 3
OPEN_MONTH_GAMES = 1_000


def closed_months() -> list[Period]:
    """The periods the built ledger has closed, oldest first; the one after is open."""
    return [PERIOD - (CLOSED_MONTHS - 1 - back) for back in range(CLOSED_MONTHS)]


def build(url: str, player_count: int, game_count: int, next_games: int, seed: int) -> None:
    """Fill the empty database at `url`: the players, the closed months, the open month."""
    months = closed_months()
    print(f"building {player_count:,} players; {game_count:,} games in {months[0]}, ", end="")
    print(f"{next_games:,} in each of {', '.join(map(str, months[1:]))}", flush=True)
    randomness = random.Random(seed)
    ledger = open_ledger(url)
    roster = players(player_count, randomness)

    def load_players() -> list[int]:
        with ledger.transaction() as session:
            return add_players(session, Pool.STANDARD, roster)

    ids = timed("add players (bulk)", load_players)
    active = randomness.sample(ids, max(2, len(ids) // 20))
    later = len(months) - 1
    counts = [game_count, *[next_games] * later]
    for month, count, who in zip(months, counts, [ids, *[active] * later], strict=True):
        month_games = games(count, who, randomness, month)

        def load(month_games: list[NewGame] = month_games) -> None:
            with ledger.transaction() as session:
                add_games(session, Pool.STANDARD, month_games)

        def close(month: Period = month) -> None:
            with ledger.transaction() as session:
                close_period(session, Pool.STANDARD, month, NOW)

        timed(f"add {count:,} games in {month}", load)
        timed(f"close-period {month}", close)
    open_month = games(OPEN_MONTH_GAMES, active, randomness, months[-1] + 1)

    def load_open_month() -> None:
        with ledger.transaction() as session:
            add_games(session, Pool.STANDARD, open_month)

    timed(f"add {OPEN_MONTH_GAMES:,} games in {months[-1] + 1} (open)", load_open_month)
    ledger.dispose()


def reused(url: str) -> str:
    """A ledger built by an earlier run, its schema brought to this ledger's revision."""
    before, after = upgrade_schema(url)
    upgraded = f" (schema upgraded from {before} to {after})" if before != after else ""
    print(f"reusing {shown_url(url)}{upgraded}")
    return url


def sqlite_ledger(path: Path, *, rebuild: bool, sizes: tuple[int, int, int, int]) -> str:
    """The URL of the SQLite ledger at `path`, built first when missing (into a side file,
    renamed at the end, so an interrupted build is never taken for a finished one)."""
    if path.exists() and not rebuild:
        return reused(f"sqlite:///{path}")
    building = path.with_name(path.name + ".building")
    for stale in (building, path):
        for suffix in ("", "-wal", "-shm"):
            Path(str(stale) + suffix).unlink(missing_ok=True)
    build(f"sqlite:///{building}", *sizes)
    building.rename(path)
    return f"sqlite:///{path}"


def postgresql_ledger(server_url: str, name: str, *, rebuild: bool, sizes: tuple[int, ...]) -> str:
    """The URL of the PostgreSQL ledger `name`, built first when missing (into a side
    database, renamed at the end, then vacuumed so that index-only scans serve counts)."""
    server = make_url(server_url)
    admin = {
        "host": server.host,
        "port": server.port or 5432,
        "user": server.username,
        "password": server.password,
        "dbname": server.database,
        "autocommit": True,
    }
    building = f"{name}_building"
    with psycopg.connect(**admin) as connection:  # type: ignore[arg-type]
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
        ).fetchone()
        if exists and not rebuild:
            return reused(server.set(database=name).render_as_string(hide_password=False))
        for stale in (building, name):
            connection.execute(f'DROP DATABASE IF EXISTS "{stale}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{building}"')
    build(server.set(database=building).render_as_string(hide_password=False), *sizes)
    with psycopg.connect(**admin) as connection:  # type: ignore[arg-type]
        connection.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
    with psycopg.connect(**{**admin, "dbname": name}) as connection:  # type: ignore[arg-type]
        connection.execute("VACUUM ANALYZE")  # what autovacuum does to a settled ledger
    return server.set(database=name).render_as_string(hide_password=False)


@dataclass(frozen=True, slots=True)
class Sample:
    """The ledger's players to ask for: some who played in the newest closed month."""

    players: int
    active: list[int]
    server: str
    """What of the database server's settings bears on the figures (PostgreSQL's cache)."""


def sample(url: str, size: int, seed: int) -> Sample:
    newest = closed_months()[-1]
    ledger = open_ledger(url)
    try:
        with ledger.reading() as session:
            count = session.scalar(select(func.count()).select_from(Player)) or 0
            played = session.scalars(
                select(Game.white_id).where(Game.period == newest).order_by(Game.id).limit(5_000)
            ).all()
            server = ""
            if session.get_bind().dialect.name == "postgresql":
                server = f", shared_buffers {session.scalar(text('SHOW shared_buffers'))}"
    finally:
        ledger.dispose()
    population = sorted(set(played))
    chosen = random.Random(seed).sample(population, min(size, len(population)))
    return Sample(count, chosen, server)


def pages(chosen: Sample, deep: int) -> dict[str, Callable[[int], str]]:
    """Each page measured: its name and the path of its n-th request (the players and the
    events vary: `close_period.games` names a month's events "2026-09 event 1" to 500)."""
    newest = closed_months()[-1]
    day = f"{newest + 1}-01"

    def player(n: int) -> int:
        return chosen.active[n % len(chosen.active)]

    return {
        "home page": lambda n: "/",
        "list page 1": lambda n: "/lists/standard/latest",
        f"list page {deep:,}": lambda n: f"/lists/standard/latest?page={deep}",
        "filtered (NOR, women)": lambda n: "/lists/standard/latest?federation=NOR&women=on",
        "player page": lambda n: f"/players/{player(n)}",
        "calculation page": lambda n: f"/players/{player(n)}/calculations/standard/{newest}",
        "event page": lambda n: f"/events/standard/{newest}%20event%20{n % 500 + 1}",
        "stats report": lambda n: "/reports/standard/stats",
        "live list page 1": lambda n: "/lists/standard/live",
        "API list, 500 rows": lambda n: (
            f"/api/v1/lists/standard/latest?per_page=500&page={n % 9 + 1}"
        ),
        "API rating as of a date": lambda n: f"/api/v1/players/{player(n)}/rating?date={day}",
    }


@dataclass(frozen=True, slots=True)
class Measured:
    latencies: list[float]
    seconds: float
    failures: dict[str, int]


def load(
    port: int, path_of: Callable[[int], str], requests: int, threads: int, seconds: float
) -> Measured:
    """`requests` GETs shared by `threads` clients, each on its own keep-alive connection;
    no new request is sent after `seconds` (a slow page is measured on fewer)."""
    latencies: list[float] = []
    failures: dict[str, int] = {}
    lock = threading.Lock()
    counter = iter(range(requests))
    deadline = time.perf_counter() + seconds

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        for n in counter:
            if time.perf_counter() > deadline:
                break
            started = time.perf_counter()
            try:
                connection.request("GET", path_of(n))
                answer = connection.getresponse()
                answer.read()
                status = str(answer.status)
            except (OSError, http.client.HTTPException) as error:
                status = type(error).__name__
                connection.close()
            took = time.perf_counter() - started
            with lock:
                if status == "200":
                    latencies.append(took)
                else:
                    failures[status] = failures.get(status, 0) + 1
        connection.close()

    workers = [threading.Thread(target=client) for _ in range(threads)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return Measured(latencies, time.perf_counter() - started, failures)


def percentile(latencies: list[float], share: int) -> float:
    """The nearest-rank percentile, in milliseconds."""
    ordered = sorted(latencies)
    return ordered[max(0, math.ceil(share * len(ordered) / 100) - 1)] * 1000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def serve(url: str, workers: int, answers_memory: int) -> tuple[subprocess.Popen[bytes], int]:
    """`ledger serve` on a free port, once it answers."""
    port = free_port()
    command = [sys.executable, "-m", "ledger", "serve", "--db", url, "--port", str(port)]
    options = ["--workers", str(workers), "--answers-memory", str(answers_memory)]
    server = subprocess.Popen([*command, *options], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"ledger serve stopped with status {server.returncode}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("GET", "/")
            connection.getresponse().read()
            return server, port
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise SystemExit("ledger serve did not answer in two minutes")


def measure(backend: str, url: str, arguments: argparse.Namespace, answers_memory: int) -> None:
    chosen = sample(url, 200, arguments.seed)
    server, port = serve(url, arguments.workers, answers_memory)
    print(
        f"{backend}: {chosen.players:,} players; {arguments.workers} workers, "
        f"{arguments.threads} client threads, {arguments.requests} requests a page, "
        f"answers kept: {answers_memory} MB a worker{chosen.server}"
    )
    print(f"  {'page':<26}{'n':>6}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'req/s':>9}")
    try:
        for name, path_of in pages(chosen, arguments.deep_page).items():
            if arguments.only not in name or (arguments.skip and arguments.skip in name):
                continue
            bound = arguments.threads, arguments.seconds
            load(port, path_of, arguments.warm_up, *bound)
            measured = load(port, path_of, arguments.requests, *bound)
            count = len(measured.latencies)
            if not count:
                print(f"  {name:<26}{0:6}  no answer: {measured.failures}", flush=True)
                continue
            p50, p95, p99 = (percentile(measured.latencies, share) for share in (50, 95, 99))
            rate = count / measured.seconds
            failed = f"  failures: {measured.failures}" if measured.failures else ""
            figures = f"{count:6}{p50:9.1f}{p95:9.1f}{p99:9.1f}{rate:9.1f}"
            print(f"  {name:<26}{figures}{failed}", flush=True)
        print(f"  peak memory of each worker: {worker_peaks(server.pid)}", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=60)


def worker_peaks(pid: int) -> str:
    """The peak resident memory of each worker process of `ledger serve` (Linux's VmHWM)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    peaks = []
    for child in children or [str(pid)]:
        status = Path(f"/proc/{child}/status").read_text()
        kib = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM"))
        peaks.append(f"{kib / 1024:.0f} MiB")
    return ", ".join(peaks)


def officer_copy(backend: str, url: str, arguments: argparse.Namespace) -> str:
    """A copy of the benchmark's ledger for the officer to change (the ledger itself is kept
    as built, for the next run)."""
    if backend == "sqlite":
        copy = arguments.sqlite_file.with_name(arguments.sqlite_file.name + ".officer")
        for suffix in ("", "-wal", "-shm"):
            Path(str(copy) + suffix).unlink(missing_ok=True)
        subprocess.run(
            [sys.executable, "-m", "ledger", "db", "backup", str(copy), "--db", url], check=True
        )
        return f"sqlite:///{copy}"
    server = make_url(url)
    name = f"{server.database}_officer"
    admin = {"host": server.host, "port": server.port or 5432, "user": server.username}
    with psycopg.connect(**admin, dbname="postgres", autocommit=True) as connection:  # type: ignore[arg-type]
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{server.database}"')
    return server.set(database=name).render_as_string(hide_password=False)


def officer_work(url: str, chosen: Sample, folder: Path) -> list[str]:
    """What an officer does on a publication day, one command after the other: import a
    month's games file, close the open month (a later month's close), correct a game of it
    (a re-rate). Each command's seconds and outcome."""
    open_month = closed_months()[-1] + 1
    games_file = folder / "officer-games.csv"
    randomness = random.Random(7)
    lines = ["date,white,black,result,event"]
    for n in range(5_000):
        white, black = randomness.sample(chosen.active, 2)
        lines.append(f"{open_month + 1}-{n % 28 + 1:02d},{white},{black},1-0,Officer {n % 50}")
    games_file.write_text("\n".join(lines) + "\n")
    steps = [
        ["import-games", str(games_file), "--allow-repeat"],
        ["close-period", str(open_month)],
        ["correct-game", str(first_game(url, open_month)), "--result", "0-1", "--reason", "bench"],
    ]
    done = []
    for step in steps:
        started = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "ledger", *step, "--db", url], capture_output=True, text=True
        )
        outcome = "ok" if result.returncode == 0 else result.stderr.strip()
        done.append(f"{step[0]} {time.perf_counter() - started:.1f} s {outcome}")
    return done


def first_game(url: str, period: Period) -> int:
    ledger = open_ledger(url)
    try:
        with ledger.reading() as session:
            found = session.scalar(select(func.min(Game.id)).where(Game.period == period))
    finally:
        ledger.dispose()
    assert found is not None
    return found


def measure_while_the_officer_works(backend: str, url: str, arguments: argparse.Namespace) -> None:
    """Every page asked for in turn, by `--threads` clients, while `officer_work` runs on
    the same ledger; per page the latencies and failures, and the longest wait."""
    working = officer_copy(backend, url, arguments)
    chosen = sample(working, 200, arguments.seed)
    server, port = serve(working, arguments.workers, 64)
    every = list(pages(chosen, arguments.deep_page).items())
    latencies: dict[str, list[float]] = {name: [] for name, _ in every}
    failures: dict[str, int] = {}
    done: list[str] = []
    folder = tempfile.TemporaryDirectory()
    officer = threading.Thread(
        target=lambda: done.extend(officer_work(working, chosen, Path(folder.name)))
    )
    lock = threading.Lock()
    counter = iter(range(10**9))

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        for n in counter:
            if not officer.is_alive():
                break
            name, path_of = every[n % len(every)]
            started = time.perf_counter()
            try:
                connection.request("GET", path_of(n // len(every)))
                answer = connection.getresponse()
                answer.read()
                status = str(answer.status)
            except (OSError, http.client.HTTPException) as error:
                status = type(error).__name__
                connection.close()
            with lock:
                if status == "200":
                    latencies[name].append(time.perf_counter() - started)
                else:
                    failures[f"{name} {status}"] = failures.get(f"{name} {status}", 0) + 1
        connection.close()

    try:
        officer.start()
        clients = [threading.Thread(target=client) for _ in range(arguments.threads)]
        for each in clients:
            each.start()
        for each in clients:
            each.join()
        officer.join()
        print(f"{backend}: while the officer works ({'; '.join(done)})")
        print(f"  {'page':<26}{'n':>6}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}")
        for name, took in latencies.items():
            if took:
                p50, p95 = percentile(took, 50), percentile(took, 95)
                print(f"  {name:<26}{len(took):6}{p50:9.1f}{p95:9.1f}{max(took) * 1000:9.1f}")
        print(f"  failures: {failures or 'none'}; peak memory: {worker_peaks(server.pid)}")
    finally:
        server.terminate()
        server.wait(timeout=60)
        folder.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--next-games", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--sqlite-file", type=Path, default=Path("ledger-web-bench.db"))
    parser.add_argument(
        "--postgresql-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )
    parser.add_argument("--database", default="ledger_web_bench")
    parser.add_argument("--rebuild", action="store_true", help="build the ledger again")
    parser.add_argument("--build-only", action="store_true", help="build, do not serve")
    parser.add_argument("--workers", type=int, default=2, help="ledger serve --workers")
    parser.add_argument("--threads", type=int, default=4, help="client threads")
    parser.add_argument("--requests", type=int, default=400, help="requests a page")
    parser.add_argument("--warm-up", type=int, default=20, help="requests a page, not timed")
    parser.add_argument("--deep-page", type=int, default=5_000, help="the deep page's number")
    parser.add_argument("--only", default="", help="measure only the pages whose name holds this")
    parser.add_argument("--skip", help="leave out the pages whose name holds this")
    parser.add_argument(
        "--seconds", type=float, default=60, help="at most this long a page (and its warm-up)"
    )
    parser.add_argument(
        "--answers-memory",
        default="64",
        help="ledger serve --answers-memory; several, comma-separated, are measured in turn",
    )
    parser.add_argument(
        "--officer-work",
        action="store_true",
        help="also measure every page while an officer imports, closes and corrects (on a copy)",
    )
    arguments = parser.parse_args()
    sizes = (arguments.players, arguments.games, arguments.next_games, arguments.seed)
    backends = ("sqlite", "postgresql") if arguments.backend == "both" else (arguments.backend,)
    for backend in backends:
        started = time.perf_counter()
        if backend == "sqlite":
            url = sqlite_ledger(arguments.sqlite_file, rebuild=arguments.rebuild, sizes=sizes)
        else:
            url = postgresql_ledger(
                arguments.postgresql_url, arguments.database, rebuild=arguments.rebuild, sizes=sizes
            )
        print(f"{backend}: ledger ready ({time.perf_counter() - started:.0f} s)", flush=True)
        if not arguments.build_only:
            for megabytes in arguments.answers_memory.split(","):
                measure(backend, url, arguments, int(megabytes))
            if arguments.officer_work:
                measure_while_the_officer_works(backend, url, arguments)


if __name__ == "__main__":
    main()
