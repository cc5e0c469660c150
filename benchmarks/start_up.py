"""Benchmark: how long a new `ledger` process takes to answer, beyond its libraries' import.

Runs `ledger --help`, `ledger list --top 10`, `ledger player ID` and `ledger explain ID
--period P` as new processes, N times each, interleaved with a bare
`python -c "import sqlalchemy.orm, typer, rich"` so that the machine's load falls on all
alike, and prints for each command the median of its runs minus the median of the bare
import: wall time, and CPU time (user + system, steadier on a busy machine). On a
PostgreSQL ledger it also times the bare import with the driver and SQLAlchemy's dialect for it
(`psycopg`, `sqlalchemy.dialects.postgresql.psycopg`), which every command reading the ledger
loads, and prints each command that opens the ledger beyond that too. The ledger is a
demo (`ledger demo --db` in a temporary folder) unless `--db` names one; the player is
White in the first game of the newest closed period, P that period.

The ledger's bytecode is written first (`compileall`), as an installed package has it, so
the figures measure imports and work, not compiling source (`--source` leaves it out).
Run by hand:

    .venv/bin/python benchmarks/start_up.py --runs 15
    .venv/bin/python benchmarks/start_up.py --db /tmp/ledger-web-1m.db

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ledger
from ledger.storage.database import as_url, parsed_url

BARE_IMPORT = "import sqlalchemy.orm, typer, rich"
DRIVER_IMPORT = f"{BARE_IMPORT}, psycopg, sqlalchemy.dialects.postgresql.psycopg"
LEDGER = (sys.executable, "-m", "ledger")


def timed(command: tuple[str, ...]) -> tuple[float, float]:
    """One new process running `command`: its wall time and CPU time, in seconds."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed")
    return elapsed, usage.ru_utime + usage.ru_stime


def answer(*arguments: str) -> object:
    """What a ledger command prints as JSON."""
    printed = subprocess.run([*LEDGER, *arguments], capture_output=True, text=True, check=True)
    return json.loads(printed.stdout)


def commands(url: str) -> dict[str, tuple[str, ...]]:
    """The commands to time, on a player of the newest closed period."""
    periods = answer("periods", "--format", "json", "--db", url)
    assert isinstance(periods, list)
    period = next(row["period"] for row in periods if row["closed"])
    games = answer("games", "--period", period, "--format", "json", "--db", url)
    assert isinstance(games, list)
    assert games, f"no games in {period}"
    player = str(games[0]["white"])
    return {
        "--help": (*LEDGER, "--help"),
        "list --top 10": (*LEDGER, "list", "--top", "10", "--db", url),
        f"player {player}": (*LEDGER, "player", player, "--db", url),
        f"explain {player} --period {period}": (
            *LEDGER,
            "explain",
            player,
            "--period",
            period,
            "--db",
            url,
        ),
    }


def measure(url: str, runs: int) -> None:
    timed_commands = commands(url)
    baselines = {"bare import": BARE_IMPORT}
    if parsed_url(as_url(url)).get_backend_name() == "postgresql":
        baselines["bare import with the driver"] = DRIVER_IMPORT
    times: dict[str, list[tuple[float, float]]] = {
        name: [] for name in [*baselines, *timed_commands]
    }
    for _ in range(runs):
        for name, imports in baselines.items():
            times[name].append(timed((sys.executable, "-c", imports)))
        for name, command in timed_commands.items():
            times[name].append(timed(command))
    medians = {
        name: tuple(statistics.median(each) for each in zip(*measured, strict=True))
        for name, measured in times.items()
    }
    bare = {name: medians.pop(name) for name in baselines}
    for name, imports in baselines.items():
        print(f"{name} ({imports}): median {bare[name][0]:.3f} s wall, {bare[name][1]:.3f} s CPU")
    for name, (bare_wall, bare_cpu) in bare.items():
        print(f"{runs} runs each; the median beyond the {name}:")
        for label, (wall, cpu) in medians.items():
            if name != "bare import" and "--db" not in timed_commands[label]:
                continue  # a command that opens no ledger loads no driver
            print(f"  {label:<32} {wall - bare_wall:+7.3f} s wall {cpu - bare_cpu:+7.3f} s CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="A ledger to read (default: a new demo ledger).")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--source", action="store_true", help="Do not write bytecode first.")
    arguments = parser.parse_args()
    if not arguments.source:
        compileall.compile_dir(Path(ledger.__file__).parent, quiet=1)
    with tempfile.TemporaryDirectory() as directory:
        url = arguments.db
        if url is None:
            url = f"sqlite:///{Path(directory) / 'demo.db'}"
            subprocess.run([*LEDGER, "demo", "--db", url], stdout=subprocess.DEVNULL, check=True)
        measure(url, arguments.runs)


if __name__ == "__main__":
    main()
