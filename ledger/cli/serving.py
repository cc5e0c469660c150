"""`ledger serve`: the read-only web site and JSON API (`ledger.web`) under uvicorn.

uvicorn and FastAPI are imported inside the command, so the other commands start as fast
as before. uvicorn imports the app by name in each worker (`ledger.web:app_from_environment`),
given the ledger's URL through the environment, as several workers need. The address is
bound here, before anything is said to be served, so a port in use or an address the
machine does not have is one sentence.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
from typing import Annotated

import typer

from ledger import render
from ledger.cli.options import DbOption, database_url
from ledger.cli.usage import Commands
from ledger.core.errors import LedgerError
from ledger.core.reports import OVERDUE_VARIABLE, overdue_after
from ledger.storage.database import (
    ANSWERS_MEMORY_VARIABLE,
    UNCHANGING_VARIABLE,
    URL_VARIABLE,
    open_reader,
    open_writer,
    shown_url,
)

app = Commands()

WEB_APP = "ledger.web:app_from_environment"


@app.command("serve")
def serve(
    ctx: typer.Context,
    host: Annotated[
        str,
        typer.Option(
            "--host", metavar="ADDRESS", help="The address to listen on (0.0.0.0: every one)."
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", metavar="PORT", min=1, max=65535)] = 8000,
    workers: Annotated[
        int, typer.Option("--workers", metavar="N", min=1, max=64, help="Worker processes.")
    ] = 1,
    read_only: Annotated[
        bool,
        typer.Option(
            "--read-only",
            help="A public mirror of a ledger that nothing writes while it is served: a "
            "SQLite file is read as unchanging, so it may lie in a folder this user "
            "cannot write.",
        ),
    ] = False,
    answers_memory: Annotated[
        int,
        typer.Option(
            "--answers-memory",
            metavar="MB",
            min=0,
            max=65536,
            help="Megabytes of answers each worker keeps to send again (0: none).",
        ),
    ] = 64,
    db: DbOption = None,
) -> None:
    """Serve the ledger on the web: rating lists, players, calculations, events and reports
    as pages and as a JSON API under /api/v1, read by anyone; organisers and officers sign
    in to send and review tournament reports (--read-only: a mirror, no sign-in).

    Example: ledger serve --db sqlite:///ledger-demo.db --port 8080
    """
    import uvicorn

    url = database_url(ctx, db)
    overdue_after(os.environ.get(OVERDUE_VARIABLE))  # refused here, not in each worker
    open_reader(url, unchanging=read_only).dispose()
    if not read_only:
        open_writer(url).dispose()
    os.environ[URL_VARIABLE] = url
    os.environ[UNCHANGING_VARIABLE] = "1" if read_only else ""
    os.environ[ANSWERS_MEMORY_VARIABLE] = str(answers_memory)
    listening = listening_socket(host, port)
    config = uvicorn.Config(
        WEB_APP, factory=True, host=host, port=port, workers=workers, log_level="warning"
    )
    how = "read only (a mirror)" if read_only else "to readers, and to accounts that sign in,"
    render.message(f"Serving {shown_url(url)} {how} at http://{host}:{port}/ (Ctrl-C stops).")
    if workers == 1:
        uvicorn.Server(config).run(sockets=[listening])
        return
    from uvicorn.supervisors import Multiprocess

    with contextlib.suppress(KeyboardInterrupt):  # as uvicorn.run: the workers stop quietly
        Multiprocess(config, sockets=[listening]).run()


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to `host` and `port`, which the workers share, or a one-line error.

    It is made with the TCP protocol named (uvicorn's own has protocol 0, which its
    connections inherit, and asyncio sets TCP_NODELAY only on a connection it knows as TCP,
    uvicorn issue 3149: without it, each answer on a kept-alive connection waited for the
    client's delayed ACK)."""
    where = f"{host}:{port}"
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
        )[0]
    except (socket.gaierror, UnicodeError):
        raise LedgerError(
            f"cannot listen on {where}: there is no such address; give --host an address "
            "of this machine (127.0.0.1: this machine only, 0.0.0.0: every one)."
        ) from None
    listening = socket.socket(family, kind, protocol)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind(address)
    except OSError as error:
        listening.close()
        raise LedgerError(f"cannot listen on {where}: {_why_not(error)}") from None
    listening.set_inheritable(True)
    return listening


def _why_not(error: OSError) -> str:
    if error.errno == errno.EADDRINUSE:
        return "the port is in use; stop what uses it, or give another --port."
    if error.errno == errno.EADDRNOTAVAIL:
        return (
            "this machine has no such address; give --host one of its addresses "
            "(127.0.0.1: this machine only, 0.0.0.0: every one)."
        )
    if error.errno == errno.EACCES:
        return (
            "permission denied (a port below 1024 needs the administrator); "
            "give --port 1024 or above."
        )
    return f"{error.strerror or error}."
