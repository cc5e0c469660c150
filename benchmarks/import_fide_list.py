"""Benchmark importing and exporting a FIDE combined rating list of N players.

Writes a list with `fide_list_file.py` (or takes yours), then on each backend runs, as a new
user would, `ledger import-fide-list` into an empty ledger and `ledger export-list --format
fide-txt`, printing each command's time, CPU time and peak memory (the process's maximum
resident set).
Then the whole list as CSV: `ledger export-list --format csv` and `ledger list --format csv`,
beside a plain Python loop (in a process of its own) that runs the list's query and writes
its rows with the csv module, nothing more (no ranks, movement or cell checks: the floor of
writing those rows).
Last, once, plain Python loops over the FIDE file: one that reads it (each line decoded and
cut at the header's columns, nothing checked, the values kept in a list) and one that writes
those values back in the same columns, the floors of reading and writing that file (last, as
a command started after them would count the rows they hold in its peak).
With `--db URL` it measures the exports of that ledger instead (say one that
`benchmarks/web.py` built, whose lists have a list before them, so movement). Figures are
printed, never asserted. Run by hand:

    .venv/bin/python benchmarks/import_fide_list.py --players 1000000
    .venv/bin/python benchmarks/import_fide_list.py --db sqlite:////tmp/ledger-web-1m.db
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

from close_period import database
from fide_list_file import write_players_list

from ledger.core.domain import Pool
from ledger.queries.filters import EVERYONE
from ledger.queries.lists.in_force import published_period
from ledger.queries.lists.sql import best_first, newest_list
from ledger.storage.batches import collector_paused
from ledger.storage.database import open_ledger

LEDGER = Path(sys.executable).with_name("ledger")


def measured(label: str, *arguments: str) -> None:
    """Run one ledger command; print its time and peak memory."""
    started = time.perf_counter()
    process = subprocess.Popen([str(LEDGER), *arguments], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{label} failed")
    cpu = usage.ru_utime + usage.ru_stime
    peak = usage.ru_maxrss / 1024
    print(f"  {label:<28} {elapsed:8.2f} s {cpu:8.2f} s CPU {peak:8.0f} MB peak", flush=True)


def plain_file_loops(listed: Path, path: Path) -> None:
    """Read a FIDE TXT list with a plain loop (each line cut at the header's column starts,
    the values kept for the second loop) and write the values back in the same columns:
    what reading and writing the file cost without checks, records or a database, with the
    cycle collector paused as the ledger pauses it. Nothing for an XML list."""
    with listed.open("rb") as file:
        header = file.readline().decode("utf-8").rstrip("\r\n")
    if not header.startswith("ID Number"):
        return
    starts = [match.start() for match in re.finditer(r"ID Number|\S+", header)]
    with collector_paused():
        rows = _plain_read(listed, starts)
        _plain_write(header, starts, rows, path)
    print(f"  ({len(rows):,} rows)", flush=True)


def _plain_read(listed: Path, starts: list[int]) -> list[tuple[str, ...]]:
    started, cpu_started = time.perf_counter(), time.process_time()
    spans = list(zip(starts, [*starts[1:], None], strict=True))
    with listed.open("rb") as file:
        file.readline()
        rows = [
            tuple(line[start:end].strip() for start, end in spans)
            for line in (raw.decode("utf-8").rstrip("\r\n") for raw in file)
            if line
        ]
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    print(f"  {'plain loop, read the file':<28} {elapsed:8.2f} s {cpu:8.2f} s CPU", flush=True)
    return rows


def _plain_write(header: str, starts: list[int], rows: list[tuple[str, ...]], path: Path) -> None:
    started, cpu_started = time.perf_counter(), time.process_time()
    widths = [end - start for start, end in pairwise(starts)]
    with path.open("w", encoding="utf-8", newline="") as file:
        file.write(header + "\r\n")
        for row in rows:
            cells = [value.ljust(width) for value, width in zip(row, widths, strict=False)]
            file.write("".join(cells) + row[-1] + "\r\n")
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    print(f"  {'plain loop, write it again':<28} {elapsed:8.2f} s {cpu:8.2f} s CPU", flush=True)


def plain_loop(url: str, path: Path) -> None:
    """The newest standard list's query, its rows written one by one by the csv module."""
    started, cpu_started = time.perf_counter(), time.process_time()
    ledger = open_ledger(url, create=False)
    with ledger.reading() as session, path.open("w", encoding="utf-8", newline="") as file:
        period, _ = published_period(session, Pool.STANDARD)
        statement = best_first(newest_list(Pool.STANDARD, period), EVERYONE, period, None)
        rows = session.connection().execute(statement.execution_options(yield_per=5_000))
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(rows.keys())
        writer.writerows(rows)
    ledger.dispose()
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    print(f"  {'plain loop, same rows':<28} {elapsed:8.2f} s {cpu:8.2f} s CPU", flush=True)


def in_its_own_process(loop: Callable[..., None], *arguments: object) -> None:
    """Run `loop` in a new process: the rows it holds would raise this one's largest
    resident set, and Linux starts a child's peak at its parent's, so every command measured
    after it would report at least that."""
    process = multiprocessing.get_context("spawn").Process(target=loop, args=arguments)
    process.start()
    process.join()
    if process.exitcode != 0:
        raise SystemExit(f"{loop.__name__} failed")


def whole_list_files(url: str, directory: Path) -> None:
    """The whole newest list as CSV: the ledger's commands and the plain loop."""
    exported = directory / "exported.csv"
    measured("export-list csv", "export-list", "--format", "csv", "-o", str(exported), "--db", url)
    measured("list --format csv", "list", "--format", "csv", "--db", url)
    in_its_own_process(plain_loop, url, directory / "plain.csv")
    lines = sum(1 for _ in exported.open(encoding="utf-8"))
    print(f"  ({lines - 1:,} rows)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--file", type=Path, help="A FIDE list to import instead.")
    parser.add_argument("--db", help="Measure the exports of this ledger; import nothing.")
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument(
        "--postgresql-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )
    arguments = parser.parse_args()
    backends = ("sqlite", "postgresql") if arguments.backend == "both" else (arguments.backend,)
    if arguments.db:
        with tempfile.TemporaryDirectory() as directory:
            whole_list_files(arguments.db, Path(directory))
        return
    with tempfile.TemporaryDirectory() as directory:
        listed = arguments.file or Path(directory) / "players_list_foa.txt"
        if arguments.file is None:
            write_players_list(listed, arguments.players)
        size = listed.stat().st_size / 1_000_000
        print(f"{listed.name}: {size:.0f} MB", flush=True)
        for backend in backends:
            print(backend, flush=True)
            files = Path(directory) / backend
            files.mkdir()
            with database(backend, arguments.postgresql_url) as url:
                measured("import-fide-list", "import-fide-list", str(listed), "--db", url)
                exported = str(files / "exported.txt")
                measured(
                    "export-list fide-txt",
                    "export-list",
                    "--format",
                    "fide-txt",
                    "-o",
                    exported,
                    "--db",
                    url,
                )
                measured("list --top 10", "list", "--top", "10", "--db", url)
                whole_list_files(url, files)
        plain_file_loops(listed, Path(directory) / "plain.txt")


if __name__ == "__main__":
    main()
