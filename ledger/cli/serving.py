"""`ledger serve`: the read-only web site and JSON API (`ledger.web`) under uvicorn.

uvicorn and FastAPI are imported inside the command, so the other commands start as fast
as before. uvicorn imports the app by name in each worker (`ledger.web:app_from_environment`),
given the ledger's URL through the environment, as several workers need.
"""

from __future__ import annotations

import contextlib
import os
import socket
from typing import TYPE_CHECKING, Annotated

import typer

from ledger import render
from ledger.cli.options import DbOption, database_url
from ledger.cli.usage import Commands
from ledger.storage.database import URL_VARIABLE, open_reader, shown_url

if TYPE_CHECKING:
    import uvicorn

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
    db: DbOption = None,
) -> None:
    """Serve the ledger read only on the web: rating lists, players, calculations, events
    and reports as pages, and the same as a JSON API under /api/v1.

    Example: ledger serve --db sqlite:///ledger-demo.db --port 8080
    """
    import uvicorn

    url = database_url(ctx, db)
    open_reader(url).dispose()
    os.environ[URL_VARIABLE] = url
    render.message(f"Serving {shown_url(url)} read only at http://{host}:{port}/ (Ctrl-C stops).")
    if workers == 1:
        uvicorn.run(WEB_APP, factory=True, host=host, port=port, log_level="warning")
        return
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config(
        WEB_APP, factory=True, host=host, port=port, workers=workers, log_level="warning"
    )
    with contextlib.suppress(KeyboardInterrupt):  # as uvicorn.run: the workers stop quietly
        Multiprocess(config, sockets=[listening_socket(config)]).run()


def listening_socket(config: uvicorn.Config) -> socket.socket:
    """The socket several workers share, bound as uvicorn binds it but known as TCP.

    uvicorn binds it with protocol 0, its workers' connections inherit that, and asyncio sets
    TCP_NODELAY only on a connection it knows as TCP (uvicorn issue 3149): without it, each
    answer on a kept-alive connection waited about 40 ms for the client's delayed ACK.
    """
    bound = config.bind_socket()
    listening = socket.socket(bound.family, bound.type, socket.IPPROTO_TCP, bound.detach())
    listening.set_inheritable(True)
    return listening
