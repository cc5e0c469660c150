"""The web application: the routes of `pages` and `api`, the served style sheet, the error
boundary, and the two middlewares every request passes: `admission` (how many are taken on
at once) and `answering` (reads only, one snapshot each, caching and security headers)."""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib.resources import files
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.staticfiles import StaticFiles

from ledger.core.access import Forbidden, NotSignedIn, TooManyAttempts
from ledger.core.errors import Conflict, InvalidInput, LedgerError, NotFound
from ledger.core.reports import OVERDUE_AFTER_DAYS, OVERDUE_VARIABLE, overdue_after
from ledger.queries import KeptCounts
from ledger.services.accounts import prepare_sign_ins
from ledger.storage import interpreter
from ledger.storage.database import (
    ANSWERS_MEMORY_VARIABLE,
    UNCHANGING_VARIABLE,
    open_reader,
    open_writer,
    resolve_url,
)
from ledger.web import api, desk, desk_api, pages, report_pages, review_pages, signing, site
from ledger.web.admission import WAITING, WORKING, Admission
from ledger.web.answering import Answering
from ledger.web.errors import failure, not_signed_in, refusal, too_many_attempts, unexpected
from ledger.web.gate import Clock, gate, utc_now
from ledger.web.kept_answers import MOST_BYTES, KeptAnswers


def create_app(
    url: str,
    working: int = WORKING,
    waiting: int = WAITING,
    *,
    unchanging: bool = False,
    kept_bytes: int = MOST_BYTES,
    clock: Clock = utc_now,
    overdue_after: int = OVERDUE_AFTER_DAYS,
) -> FastAPI:
    """The site and API over the ledger at `url`, read through a read-only connection (as
    `unchanging`: see `open_reader`) for at most `working` requests at once with `waiting`
    more in line (`ledger.web.admission`), keeping up to `kept_bytes` of answers to send
    again (`ledger.web.kept_answers`; 0: none). Signed-in accounts write through a
    connection of their own; an `unchanging` ledger is a public mirror, which no one signs
    in to. `clock` tells the site's time (when a change is made, when a session ends);
    the officer's queue flags the reports waiting more than `overdue_after` days."""
    app = FastAPI(
        title="Ledger rating lists API",
        version="1",
        description="Public and read-only: rating lists, players, calculations, events and "
        "reports, with the same fields as `ledger ... --format json`. Under /api/v1/desk, "
        "with a personal API token (`Authorization: Bearer`): tournament reports sent in "
        "and reviewed.",
        openapi_url="/api/v1/openapi.json",
        docs_url=None,
        redoc_url=None,
        dependencies=[Depends(gate)],
    )
    app.state.ledger = open_reader(url, connections=working, unchanging=unchanging)
    app.state.writer = None if unchanging else open_writer(url)
    app.state.rating_counts = KeptCounts()
    app.state.clock = clock
    app.state.overdue_after = overdue_after
    app.include_router(pages.router)
    app.include_router(api.router, prefix="/api/v1")
    if app.state.writer is None:
        app.include_router(signing.mirror_router)
    else:
        for private in (signing, desk, report_pages, review_pages, desk_api):
            app.include_router(private.router)
    app.mount("/static", StaticFiles(directory=str(files("ledger.web") / "static")), "static")
    app.add_exception_handler(NotFound, refusal(404))
    app.add_exception_handler(InvalidInput, refusal(400))
    app.add_exception_handler(NotSignedIn, not_signed_in)
    app.add_exception_handler(Forbidden, refusal(403))
    app.add_exception_handler(Conflict, refusal(409))
    app.add_exception_handler(TooManyAttempts, too_many_attempts)
    app.add_exception_handler(LedgerError, unexpected)
    app.add_exception_handler(RequestValidationError, refusal(422))
    app.add_exception_handler(HTTPException, failure)
    app.add_exception_handler(Exception, unexpected)
    app.add_middleware(
        Answering,
        ledger=app.state.ledger,
        writes=app.state.writer is not None,
        kept=KeptAnswers(kept_bytes),
    )
    app.add_middleware(Admission, working=working, waiting=waiting)
    app.router.on_shutdown.append(app.state.ledger.dispose)
    if app.state.writer is not None:
        app.router.on_startup.append(prepare_sign_ins)
        app.router.on_shutdown.append(app.state.writer.dispose)
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
DESK_REFUSALS = {
    "400": "A field the ledger cannot take",
    "401": "No token, or one unknown, revoked or of a disabled account",
    "403": "The token's role may not do this, or a form sent from another site",
    "404": "No such report, warning or version that the token's account may see",
    "409": "The report's state (or the period's) does not allow this now",
    "413": "More than the route takes (a report: 10 MB)",
    "422": "A field of the wrong kind",
}
DESK = "/api/v1/desk/"
BEARER = {"type": "http", "scheme": "bearer", "description": "A personal API token."}


def _described_with_errors(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """FastAPI's OpenAPI description, with the errors as the app answers them: one object
    `{"error": ...}` (in place of FastAPI's validation dump) for 400, 404 and 422, and for
    the desk's routes, which need a token, for 401, 403, 409 and 413 too."""
    described = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = described()
        components = schema.setdefault("components", {})
        components.setdefault("schemas", {})["Error"] = ERROR_SCHEMA
        error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
        for path, operations in schema["paths"].items():
            desk = path.startswith(DESK)
            refusals = DESK_REFUSALS if desk else REFUSALS
            for operation in operations.values():
                operation["responses"].update(
                    {code: {"description": why, "content": error} for code, why in refusals.items()}
                )
                if desk:
                    operation["security"] = [{"bearer": []}]
        if any(path.startswith(DESK) for path in schema["paths"]):
            components.setdefault("securitySchemes", {})["bearer"] = BEARER
        return schema

    return openapi


def app_from_environment() -> FastAPI:
    """The app over `$LEDGER_DATABASE_URL`: what `ledger serve` gives uvicorn to import in
    each worker. What the worker holds once the app is made (its modules, classes, the app)
    lives as long as the worker, so it is frozen out of the cycle collector's full
    collections, which would walk it all while requests wait (`ledger.storage.interpreter`)."""
    megabytes = int(os.environ.get(ANSWERS_MEMORY_VARIABLE) or MOST_BYTES >> 20)
    app = create_app(
        resolve_url(),
        unchanging=bool(os.environ.get(UNCHANGING_VARIABLE)),
        kept_bytes=megabytes << 20,
        overdue_after=overdue_after(os.environ.get(OVERDUE_VARIABLE)),
    )
    interpreter.keep_out_of_collections()
    return app
