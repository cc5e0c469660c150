"""Benchmark importing and exporting a FIDE combined rating list of N players.

Writes a list with `fide_list_file.py` (or takes yours), then on each backend runs, as a new
user would, `ledger import-fide-list` into an empty ledger and `ledger export-list --format
fide-txt`, printing each command's time and peak memory (the process's maximum resident set).
Figures are printed, never asserted. Run by hand:

    .venv/bin/python benchmarks/import_fide_list.py --players 1000000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from close_period import database
from fide_list_file import write_players_list

LEDGER = Path(sys.executable).with_name("ledger")


def measured(label: str, *arguments: str) -> None:
    """Run one ledger command; print its time and peak memory."""
    started = time.perf_counter()
    process = subprocess.Popen([str(LEDGER), *arguments], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{label} failed")
    print(f"  {label:<28} {elapsed:8.2f} s {usage.ru_maxrss / 1024:8.0f} MB peak", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--file", type=Path, help="A FIDE list to import instead.")
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument(
        "--postgresql-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )
    arguments = parser.parse_args()
    backends = ("sqlite", "postgresql") if arguments.backend == "both" else (arguments.backend,)
    with tempfile.TemporaryDirectory() as directory:
        listed = arguments.file or Path(directory) / "players_list_foa.txt"
        if arguments.file is None:
            write_players_list(listed, arguments.players)
        size = listed.stat().st_size / 1_000_000
        print(f"{listed.name}: {size:.0f} MB", flush=True)
        for backend in backends:
            print(backend, flush=True)
            with database(backend, arguments.postgresql_url) as url:
                measured("import-fide-list", "import-fide-list", str(listed), "--db", url)
                exported = str(Path(directory) / "exported.txt")
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


if __name__ == "__main__":
    main()
