"""Benchmark: what one worker spends on a page, in process, on a ledger `web.py` built.

    .venv/bin/python benchmarks/in_process.py first-pages URL
    .venv/bin/python benchmarks/in_process.py cross-tables URL --events 100

`first-pages`: each page that counts a list (a filtered list, the statistics, the live
list, list page `--deep-page`, list page 1) asked for three times of a new app that keeps no
answers (`create_app(url, kept_bytes=0)` through FastAPI's `TestClient`), after one
player page has warmed the app: the first request counts what a close or a correction
makes every worker count again, the others find it kept. `cross-tables`: the cross-table
of each of the newest closed month's first events (`close_period.games` names them
"2026-09 event 1" to 500), its time per event and the part its SQL statements took.

To compare two trees in one run, run the script from a checkout of each with its
`PYTHONPATH` set to it. URL is a database URL, e.g. `sqlite:////tmp/web-1m.db` or
`postgresql+psycopg://postgres@127.0.0.1:5432/ledger_web_1m`. Timings are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine
from web import closed_months

from ledger.core.domain import Pool
from ledger.queries import cross_table
from ledger.storage.database import open_ledger
from ledger.web.app import create_app

EVENTS = 490
"""At most this many events are timed, after ten that warm the session up (a month of
`close_period.games` holds 500)."""


def first_pages(url: str, deep: int) -> None:
    paths = (
        "/lists/standard/latest?federation=NOR&women=on",
        "/reports/standard/stats",
        "/lists/standard/live",
        f"/lists/standard/latest?page={deep}",
        "/lists/standard/latest",
    )
    print(f"{'page':50} {'first':>8} {'second':>8} {'third':>8}  (ms)")
    for path in paths:
        with TestClient(create_app(url, kept_bytes=0)) as client:
            client.get("/players/1")
            seconds = []
            for _ in range(3):
                started = time.perf_counter()
                answered = client.get(path)
                seconds.append(time.perf_counter() - started)
                if answered.status_code != 200:
                    raise SystemExit(f"{path}: {answered.status_code}")
        print(f"{path:50} " + " ".join(f"{1000 * each:8.1f}" for each in seconds))


def cross_tables(url: str, events: int) -> None:
    newest = closed_months()[-1]
    names = [f"{newest} event {n}" for n in range(1, events + 11)]
    in_statements: list[float] = []

    def before(connection: Any, *_: Any) -> None:
        connection.info["started"] = time.perf_counter()

    def after(connection: Any, *_: Any) -> None:
        in_statements.append(time.perf_counter() - connection.info["started"])

    ledger = open_ledger(url)
    event.listen(Engine, "before_cursor_execute", before)
    event.listen(Engine, "after_cursor_execute", after)
    try:
        with ledger.reading() as session:
            for name in names[:10]:
                cross_table(session, Pool.STANDARD, name)
            in_statements.clear()
            started = time.perf_counter()
            for name in names[10:]:
                cross_table(session, Pool.STANDARD, name)
            seconds = time.perf_counter() - started
    finally:
        event.remove(Engine, "before_cursor_execute", before)
        event.remove(Engine, "after_cursor_execute", after)
        ledger.dispose()
    print(
        f"a cross-table: {1000 * seconds / events:.1f} ms, of which "
        f"{1000 * sum(in_statements) / events:.1f} ms executing its "
        f"{len(in_statements) / events:.0f} statements ({events} events of {newest})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["first-pages", "cross-tables"])
    parser.add_argument("url")
    parser.add_argument("--events", type=int, default=100, help=f"1 to {EVENTS}")
    parser.add_argument(
        "--deep-page", type=int, default=5_000, help="the deep list page (web.py's default)"
    )
    arguments = parser.parse_args()
    if not 1 <= arguments.events <= EVENTS:
        parser.error(f"--events: give 1 to {EVENTS}")
    if arguments.what == "first-pages":
        first_pages(arguments.url, arguments.deep_page)
    else:
        cross_tables(arguments.url, arguments.events)


if __name__ == "__main__":
    main()
