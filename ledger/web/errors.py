"""The web's error boundary: a refusal is one JSON object `{"error": "<message>"}` for the
API, or a page saying the same, with the query's own words (as the CLI prints after
`error:`); anything unexpected is a plain 500 that shows no traceback, SQL or database URL."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ledger.queries import to_json
from ledger.web.inputs import PATTERN_WORDS
from ledger.web.templating import page

Handler = Callable[[Request, Any], Awaitable[Response]]

UNEXPECTED = (
    "the ledger could not answer this request; the site's operator can find why in its log."
)
_STATUS_WORDS = {
    404: "there is no such page.",
    405: "the ledger's site only reads (GET and HEAD); nothing can be changed through the web.",
}
_log = logging.getLogger("ledger.web")


def answer(request: Request, status: int, message: str) -> Response:
    """The error as the API's JSON object or as a page, by the path asked for."""
    if request.url.path.startswith("/api/"):
        body = to_json({"error": message})
        return Response(body, status, media_type="application/json")
    return page("error.html", status, status=status, message=message)


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
        return f"{name}: {problem.get('input')!r} {words}."
    said = str(problem.get("msg", "is not valid")).rstrip(".")
    return f"{name}: {said[:1].lower()}{said[1:]}."


_NAMES = {"which": "period"}
"""Parameters by the name the sentence gives them: the `{which}` of a list or calculation
is its period (or latest, live)."""


async def failure(request: Request, error: Exception) -> Response:
    """Starlette's own refusals (no route, a method other than a read) in our words."""
    assert isinstance(error, HTTPException)
    return answer(request, error.status_code, _STATUS_WORDS.get(error.status_code, error.detail))


async def unexpected(request: Request, error: Exception) -> Response:
    """A bug or a failing database: logged for the operator, a plain 500 for the reader."""
    _log.error("%s %s failed", request.method, request.url.path, exc_info=error)
    response = answer(request, 500, UNEXPECTED)
    response.headers["Content-Security-Policy"] = "default-src 'self'"
    return response
