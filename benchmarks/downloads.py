"""Benchmark: a worker's memory while readers download the whole newest list at once.

    .venv/bin/python benchmarks/downloads.py sqlite:////tmp/web-1m.db --clients 4
    .venv/bin/python benchmarks/downloads.py \\
        postgresql+psycopg://postgres@127.0.0.1:5432/ledger_web_1m --clients 4 --format csv

Starts `ledger serve --read-only --workers 2` on the ledger (one `web.py` built), warms both
workers with a list page, then lets `--clients` threads download
`/lists/standard/latest/download.FORMAT` at once, and prints each worker's resident memory
before and its peak after (`VmHWM`, Linux), with the bytes and the time the downloads took.
The downloads stream their rows (`queries.list_cells`), so what a worker holds for one is
bounded by its caches and the previous list's positions, not by the list's size. Figures
are printed, never asserted.
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

LEDGER = Path(sys.executable).with_name("ledger")


def memory_mib(pid: int) -> dict[str, int]:
    """A process's resident memory now (`VmRSS`) and at its peak (`VmHWM`), in MiB."""
    figures = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            figures[name] = int(value.split()[0]) // 1024
    return figures


def workers(server: subprocess.Popen[bytes]) -> list[int]:
    """The worker processes of a `ledger serve`."""
    found = subprocess.run(
        ["pgrep", "-P", str(server.pid)], capture_output=True, text=True, check=False
    )
    return [int(pid) for pid in found.stdout.split()]


def get(port: int, path: str, timeout: float = 600) -> tuple[int, int]:
    """The status of a GET and the bytes of its body, read as it streams."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("GET", path)
    answer = connection.getresponse()
    size = 0
    while chunk := answer.read(1 << 16):
        size += len(chunk)
    connection.close()
    return answer.status, size


def wait_until_answering(port: int) -> None:
    for _ in range(200):
        try:
            get(port, "/", timeout=5)
        except OSError:
            time.sleep(0.2)
        else:
            return
    raise SystemExit("ledger serve did not answer")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the ledger's database URL")
    parser.add_argument("--clients", type=int, default=4, help="downloads at once")
    parser.add_argument("--format", choices=("csv", "json", "txt"), default="csv")
    parser.add_argument("--port", type=int, default=8123)
    options = parser.parse_args()
    command = [str(LEDGER), "serve", "--db", options.url, "--port", str(options.port)]
    server = subprocess.Popen(
        [*command, "--workers", "2", "--read-only"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_until_answering(options.port)
        for _ in range(6):
            get(options.port, "/lists/standard/latest")
        before = {pid: memory_mib(pid)["VmRSS"] for pid in workers(server)}
        answers: list[tuple[int, int]] = []
        path = f"/lists/standard/latest/download.{options.format}"
        started = time.perf_counter()
        threads = [
            threading.Thread(target=lambda: answers.append(get(options.port, path)))
            for _ in range(options.clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
        peaks = {pid: memory_mib(pid)["VmHWM"] for pid in workers(server)}
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
    sizes = sorted({size for _, size in answers})
    print(
        f"{options.clients} downloads of {path} at once: statuses "
        f"{sorted(status for status, _ in answers)}, {sizes} bytes, {seconds:.1f} s"
    )
    for pid, resident in before.items():
        print(f"  worker {pid}: {resident} MiB before, peak {peaks.get(pid, 0)} MiB")


if __name__ == "__main__":
    main()
