"""The web's error boundary: a refusal is one JSON object `{"error": "<message>"}` for the
API, or a page saying the same, with the query's own words (as the CLI prints after
`error:`); anything unexpected is a plain 500 that shows no traceback, SQL or database URL.
Every answer, a failure's included, carries the security headers."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote

from fastapi.exceptions import RequestValidationError
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ledger import queries
from ledger.core.access import TooManyAttempts
from ledger.core.errors import Busy
from ledger.core.printable import quoted
from ledger.queries import Site, to_json
from ledger.queries.site import DEFAULT_SITE
from ledger.storage.database import BUSY, is_lock_wait_refused
from ledger.web.caching import NOT_KEPT
from ledger.web.gate import now
from ledger.web.inputs import PATTERN_WORDS
from ledger.web.templating import page

Handler = Callable[[Request, Any], Awaitable[Response]]

UNEXPECTED = (
    "the ledger could not answer this request; the site's operator can find why in its log."
)
BUSY_RETRY_AFTER = "5"
"""Seconds: a close that holds the tables a read needs takes tens of seconds on a large
ledger."""
STATUS_WORDS = {404: "there is no such page."}
READ_METHODS = ("GET", "HEAD")
"""The methods that read; any other acts (the error page of a refused one says "Not done")."""


def not_allowed(method: str, allowed: str) -> str:
    """The words of a 405: what the address answers (its `Allow` header) and what it does
    not."""
    return f"this address answers {allowed}, not {method}."


SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
_log = logging.getLogger("ledger.web")


def secured(headers: MutableHeaders) -> None:
    """Add the security headers every answer carries (no inline script or style: the
    page's look is `/static/ledger.css` alone; no framing; forms post to the site only)."""
    headers.update(SECURITY_HEADERS)


def answer(request: Request, status: int, message: str) -> Response:
    """The error as the API's JSON object or as a page, by the path asked for."""
    if request.url.path.startswith("/api/"):
        body = to_json({"error": message})
        return Response(body, status, media_type="application/json")
    desk = request.url.path.startswith("/desk")
    acted = request.method not in READ_METHODS
    shown = {"status": status, "message": message, "desk": desk, "acted": acted}
    return page(_site(request, status), "error.html", status, **shown)


def _site(request: Request, status: int) -> Site:
    """The site's settings for an error page: read with the request's session where a
    request was refused (4xx), the defaults where the ledger may be what failed (5xx) or
    no session was opened."""
    session = getattr(request.state, "session", None)
    if session is None or status >= 500:
        return DEFAULT_SITE
    return queries.site(session)


def refusal(status: int) -> Handler:
    """A handler answering a refused request with `status` and the refusal's words."""

    async def refuse(request: Request, error: Exception) -> Response:
        return answer(request, status, _words(error))

    return refuse


def _words(error: Exception) -> str:
    if isinstance(error, RequestValidationError):
        return _validation_words(error)
    return str(error)


def _validation_words(error: RequestValidationError) -> str:
    """The first problem of a parameter as a sentence: "per_page: input should be less
    than or equal to 500." (FastAPI's own answer is a dump of the validation library's); a
    value that does not match the parameter's pattern as what it is not ("period: '2026-13'
    is not a period; ...")."""
    problem = error.errors()[0]
    location = problem.get("loc", ("", "parameter"))
    name = _NAMES.get(str(location[1]), str(location[1])) if len(location) > 1 else "parameter"
    words = PATTERN_WORDS.get(str(problem.get("ctx", {}).get("pattern")))
    if problem.get("type") == "string_pattern_mismatch" and words is not None:
        return f"{name}: {quoted(str(problem.get('input')))} {words}."
    said = str(problem.get("msg", "is not valid")).rstrip(".")
    return f"{name}: {said[:1].lower()}{said[1:]}."


_NAMES = {"which": "period"}
"""Parameters by the name the sentence gives them: the `{which}` of a list or calculation
is its period (or latest, live)."""


async def failure(request: Request, error: Exception) -> Response:
    """Starlette's own refusals (no route, a method other than a read) in our words."""
    assert isinstance(error, HTTPException)
    words = STATUS_WORDS.get(error.status_code, error.detail)
    allowed = (error.headers or {}).get("Allow")
    if error.status_code == 405 and allowed:
        words = not_allowed(request.method, allowed)
    if error.status_code == 404 and request.url.path.startswith("/api/"):
        words = f"{words[:-1]}; the API's routes are described at /api/v1/docs."
    refused = answer(request, error.status_code, words)
    if allowed:
        refused.headers["Allow"] = allowed
    return refused


async def unexpected(request: Request, error: Exception) -> Response:
    """A bug or a failing database: logged for the operator, a plain 500 for the reader;
    a read refused after waiting for a close (`storage.database.READ_LOCK_WAIT`) is a 503
    to ask again. Starlette answers it outside every middleware, so its headers are set
    here."""
    if isinstance(error, Busy) or is_lock_wait_refused(error):
        response = answer(request, 503, BUSY)
        response.headers["Retry-After"] = BUSY_RETRY_AFTER
    else:
        _log.error("%s %s failed", request.method, request.url.path, exc_info=error)
        response = answer(request, 500, UNEXPECTED)
    response.headers["Cache-Control"] = NOT_KEPT
    secured(response.headers)
    return response


async def not_signed_in(request: Request, error: Exception) -> Response:
    """401: a page asked for with GET goes to the sign-in page, then back; an API answer,
    or anything asked for with a token, asks for a token."""
    if request.url.path.startswith("/api/") or "authorization" in request.headers:
        response = answer(request, 401, str(error))
        response.headers["WWW-Authenticate"] = 'Bearer realm="ledger"'
        return response
    if request.method == "GET":
        back = quote(request.url.path + (f"?{request.url.query}" if request.url.query else ""))
        return RedirectResponse(f"/sign-in?next={back}", status_code=303)
    return answer(request, 401, str(error))


async def too_many_attempts(request: Request, error: Exception) -> Response:
    """429, with when to try again."""
    assert isinstance(error, TooManyAttempts)
    response = answer(request, 429, str(error))
    wait = max(1, int((error.retry_at - now(request)).total_seconds()))
    response.headers["Retry-After"] = str(wait)
    return response
