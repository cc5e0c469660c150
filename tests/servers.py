"""`ledger serve` as a real process for the tests that need one: started on a free port,
waited for until it answers, and stopped at the end; its output kept in a log file. And an
app made by a test (its clock set, say) served by uvicorn in a thread of the test's own."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI

STARTING_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until_up(address: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTING_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"ledger serve stopped: {log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(address, timeout=2):
                return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    pytest.fail(f"ledger serve did not answer at {address}: {log.read_text(errors='replace')}")


@contextmanager
def serving(url: str, log: Path, *options: str) -> Iterator[str]:
    """The address of `ledger serve --db url` with `options`, until the block ends."""
    port = free_port()
    address = f"http://127.0.0.1:{port}/"
    command = [sys.executable, "-m", "ledger", "serve", "--db", url, "--port", str(port)]
    with log.open("wb") as output:
        server = subprocess.Popen([*command, *options], stdout=output, stderr=subprocess.STDOUT)
    try:
        wait_until_up(address, server, log)
        yield address
    finally:
        server.terminate()
        server.wait(timeout=30)


@contextmanager
def serving_app(app: FastAPI) -> Iterator[str]:
    """The address of uvicorn serving `app` from a thread of this process, until the block
    ends."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="none")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn")
    thread.start()
    deadline = time.monotonic() + STARTING_SECONDS
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            pytest.fail("uvicorn did not start serving the app")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
