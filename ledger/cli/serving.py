"""`ledger serve`: the read-only web site and JSON API (`ledger.web`) under uvicorn.

uvicorn and FastAPI are imported inside the command, so the other commands start as fast
as before. uvicorn imports the app by name in each worker (`ledger.web:app_from_environment`),
given the ledger's URL through the environment, as several workers need.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from ledger import render
from ledger.cli.options import DbOption, database_url
from ledger.cli.usage import Commands
from ledger.storage.database import URL_VARIABLE, open_reader, shown_url

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
    uvicorn.run(WEB_APP, factory=True, host=host, port=port, workers=workers, log_level="warning")
