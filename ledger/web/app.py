"""The web application: the routes of `pages` and `api`, the served style sheet, the error
boundary, and the headers every answer carries (caching, Content-Security-Policy)."""

from __future__ import annotations

import gc
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles

from ledger.core.errors import InvalidInput, LedgerError, NotFound
from ledger.queries import KeptCounts
from ledger.storage.database import open_reader, resolve_url
from ledger.web import api, caching, pages, site
from ledger.web.errors import failure, refusal, unexpected

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
READ_METHODS = ("GET", "HEAD")


def create_app(url: str) -> FastAPI:
    """The site and API over the ledger at `url`, opened read-only."""
    app = FastAPI(
        title="Ledger rating lists API",
        version="1",
        description="Read-only: rating lists, players, calculations, events and reports, "
        "with the same fields as `ledger ... --format json`.",
        openapi_url="/api/v1/openapi.json",
        docs_url=None,
        redoc_url=None,
    )
    app.state.ledger = open_reader(url)
    app.state.rating_counts = KeptCounts()
    app.include_router(pages.router)
    app.include_router(api.router, prefix="/api/v1")
    app.mount("/static", StaticFiles(directory=str(files("ledger.web") / "static")), "static")
    app.add_exception_handler(NotFound, refusal(404))
    app.add_exception_handler(InvalidInput, refusal(400))
    app.add_exception_handler(LedgerError, unexpected)
    app.add_exception_handler(RequestValidationError, refusal(422))
    app.add_exception_handler(HTTPException, failure)
    app.add_exception_handler(Exception, unexpected)
    app.middleware("http")(_answer)
    app.router.on_shutdown.append(app.state.ledger.dispose)
    app.openapi = site.described(app, _described_with_errors(app))  # type: ignore[method-assign]
    return app


ERROR_SCHEMA = {
    "type": "object",
    "properties": {"error": {"type": "string"}},
    "required": ["error"],
    "additionalProperties": False,
}
REFUSALS = {
    "400": "A parameter the ledger cannot read",
    "404": "No such player, list, period or event",
    "422": "A parameter of the wrong kind",
}


def _described_with_errors(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """FastAPI's OpenAPI description, with the errors as the app answers them: one object
    `{"error": ...}` (in place of FastAPI's validation dump) for 400, 404 and 422."""
    described = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = described()
        schema.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
        error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
        for operations in schema["paths"].values():
            for operation in operations.values():
                operation["responses"].update(
                    {code: {"description": why, "content": error} for code, why in REFUSALS.items()}
                )
        return schema

    return openapi


def app_from_environment() -> FastAPI:
    """The app over `$LEDGER_DATABASE_URL`: what `ledger serve` gives uvicorn to import in
    each worker. What the worker holds once the app is made (its modules, classes, the app)
    lives as long as the worker, so it is frozen out of the garbage collector's full
    collections, which walked it all: one came about every 100 answers of the API's 500-row
    page of the 1M ledger and took 40-55 ms, stalling every request the worker held."""
    app = create_app(resolve_url())
    gc.freeze()
    return app


Next = Callable[[Request], Awaitable[Response]]


async def _answer(request: Request, call_next: Next) -> Response:
    """Only reads are answered; HEAD as GET without the body; a request whose ETag matches
    is answered 304 without reading the ledger further. The ETag and the answer are read in
    one session (`ledger.web.inputs.reading`), so on one snapshot of the ledger."""
    method = request.method
    if method not in READ_METHODS:
        response = await failure(request, HTTPException(405))
        response.headers["Allow"] = ", ".join(READ_METHODS)
        return _secured(response)
    request.scope["method"] = "GET"
    session = request.app.state.ledger.read_session()
    try:
        tag = await run_in_threadpool(caching.entity_tag, request, session)
        lifetime = caching.cache_control(request.url.path)
        if caching.matches(tag, request.headers.get("if-none-match")):
            headers = {"ETag": tag, "Cache-Control": lifetime}
            return _secured(Response(status_code=304, headers=headers))
        request.state.session = session
        response = await call_next(request)
    finally:
        await run_in_threadpool(session.close)
    if response.status_code == 200:
        response.headers["ETag"] = tag
        response.headers["Cache-Control"] = lifetime
    else:
        response.headers["Cache-Control"] = "no-store"
    if method == "HEAD":
        async for _ in response.body_iterator:  # type: ignore[attr-defined]
            pass
        response = Response(status_code=response.status_code, headers=dict(response.headers))
    return _secured(response)


def _secured(response: Response) -> Response:
    response.headers.update(SECURITY_HEADERS)
    return response
