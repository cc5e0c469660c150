"""The frame of every answer: only reads are answered, each on one read session of the
ledger that its ETag and its answer share (so both see one snapshot), a request whose ETag
matches is answered `304` without reading further, an answer kept under its ETag
(`ledger.web.kept_answers`) is sent again without reading further, and every answer
carries the caching headers of `ledger.web.caching` and the security headers of
`ledger.web.errors`."""

from __future__ import annotations

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ledger import queries
from ledger.core.reports import LARGEST_REPORT
from ledger.storage.database import Ledger
from ledger.web import caching
from ledger.web.errors import READ_METHODS, answer, not_allowed, secured
from ledger.web.kept_answers import KeptAnswers

WRITE_METHOD = "POST"
FORM_BYTES = 64 * 1024
"""The most a POST's body may hold (a form); a route that takes files says more in
`LARGER_BODIES`."""
REPORT_UPLOAD = "/desk/reports/upload"
REPORT_UPLOAD_API = "/api/v1/desk/reports/upload"
UPLOAD_BYTES = LARGEST_REPORT + FORM_BYTES
"""A tournament report's file at its largest, and the form around it."""
LARGER_BODIES: dict[str, int] = {REPORT_UPLOAD: UPLOAD_BYTES, REPORT_UPLOAD_API: UPLOAD_BYTES}
"""Paths (by their start) whose POSTs may carry more than `FORM_BYTES`: uploads."""
CROSS_SITE = (
    "a form is sent to the ledger from its own pages only; open the page again and send it."
)


class Answering:
    """ASGI middleware framing each request to the ledger's site (see the module). With
    `writes`, a signed-in account's pages also take POSTs (the only writes), from the site's
    own pages only; without, the site is a public mirror that only reads."""

    def __init__(self, app: ASGIApp, ledger: Ledger, *, writes: bool, kept: KeptAnswers) -> None:
        self.app = app
        self.ledger = ledger
        self.writes = writes
        self.kept = kept

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method, path = scope["method"], scope["path"]
        private = caching.is_private(path)
        if method == WRITE_METHOD and private and self.writes:
            await self._write(scope, receive, send)
            return
        if method not in READ_METHODS:
            await _not_allowed(scope, receive, send, allow_writes=private and self.writes)
            return
        scope["method"] = "GET"  # the routes are GET's; a HEAD's body is left out below
        head = method == "HEAD"
        if path.startswith("/static/"):
            await self.app(scope, receive, Framed(send, caching.STATIC, head=head))
        elif private:
            framed = Framed(send, caching.PRIVATE, head=head)
            await self._with_session(scope, receive, framed)
        else:
            await self._read(scope, receive, send, head=head)

    async def _read(self, scope: Scope, receive: Receive, send: Send, *, head: bool) -> None:
        asked = Headers(scope=scope).get("if-none-match")
        query = scope["query_string"].decode("latin-1")
        session = self.ledger.read_session()
        try:
            change, tag = await run_in_threadpool(self._tag, session, scope["path"], query)
            framed = Framed(send, caching.REVALIDATED, tag, head=head)
            if caching.matches(tag, asked):
                await framed.not_modified()
                return
            framed.any_matches = caching.matches_any(asked)
            kept = self.kept.get(tag)
            if kept is not None:
                await self.kept.send(kept, framed)
                return
            scope.setdefault("state", {})["session"] = session
            await self.app(scope, receive, self.kept.recording(change, tag, framed))
        finally:
            await run_in_threadpool(session.close)

    async def _write(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A POST: from the site's own pages (or a script with a token), its body bounded
        before it is read (`body_limit`), never kept."""
        headers = Headers(scope=scope)
        if not _same_site(headers):
            await _refused(scope, receive, send, 403, CROSS_SITE)
            return
        limit = body_limit(scope["path"])
        declared = headers.get("content-length", "0")
        if not declared.isdigit() or int(declared) > limit:
            await _refused(scope, receive, send, 413, too_large(limit))
            return
        bounded = _bounded(receive, limit)
        await self._with_session(scope, bounded, Framed(send, caching.NOT_KEPT))

    async def _with_session(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The app with a read session (for the pages' queries and the gate) and no ETag."""
        session = self.ledger.read_session()
        try:
            scope.setdefault("state", {})["session"] = session
            await self.app(scope, receive, send)
        finally:
            await run_in_threadpool(session.close)

    def _tag(self, session: Session, path: str, query: str) -> tuple[int, str]:
        """The ledger's newest logged change, and the answer's ETag under it."""
        with self.ledger.errors():
            change = queries.last_change(session)
            return change, caching.entity_tag(change, path, query)


class TooLarge(HTTPException):
    """A POST's body grew larger than its route takes: 413. An HTTP exception, which
    FastAPI lets through while it reads a body (any other error there becomes a 400)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, too_large(limit))


def body_limit(path: str) -> int:
    """The most bytes a POST to `path` may send."""
    return next(
        (limit for start, limit in LARGER_BODIES.items() if path.startswith(start)), FORM_BYTES
    )


def too_large(limit: int) -> str:
    return f"what was sent is larger than this page takes ({limit // 1024} KB at most)."


def _bounded(receive: Receive, limit: int) -> Receive:
    """`receive`, refusing a body that grows past `limit` (one sent without its length)."""
    received = 0

    async def bounded() -> Message:
        nonlocal received
        message = await receive()
        received += len(message.get("body", b""))
        if received > limit:
            raise TooLarge(limit)
        return message

    return bounded


def _same_site(headers: Headers) -> bool:
    """Whether a POST comes from the site's own pages: what the browser says of where the
    request comes from (`Sec-Fetch-Site`), or else its `Origin` against the `Host` it is
    sent to. A request with a token (`Authorization`) carries no ambient credentials that
    another site could borrow, so it needs neither."""
    if "authorization" in headers:
        return True
    fetched_from = headers.get("sec-fetch-site")
    if fetched_from is not None:
        return fetched_from == "same-origin"
    origin = headers.get("origin")
    if origin is None or origin == "null":
        return False
    return origin.partition("://")[2] == headers.get("host", "")


async def _refused(scope: Scope, receive: Receive, send: Send, status: int, words: str) -> None:
    await answer(Request(scope), status, words)(scope, receive, Framed(send, caching.NOT_KEPT))


async def _not_allowed(scope: Scope, receive: Receive, send: Send, *, allow_writes: bool) -> None:
    """A 405 for a method the address does not take, with the methods it does."""
    allowed = ", ".join((*READ_METHODS, WRITE_METHOD) if allow_writes else READ_METHODS)
    refused = answer(Request(scope), 405, not_allowed(scope["method"], allowed))
    refused.headers["Allow"] = allowed
    await refused(scope, receive, Framed(send, caching.NOT_KEPT))


class Framed:
    """A `send` that adds the answer's headers: a `200` is tagged and may be kept for
    `lifetime`, any other answer is never kept; a HEAD's body is left out; a `200` asked
    for with `If-None-Match: *` is answered `304`."""

    def __init__(
        self, send: Send, lifetime: str, tag: str | None = None, *, head: bool = False
    ) -> None:
        self.send = send
        self.lifetime = lifetime
        self.tag = tag
        self.head = head
        self.any_matches = False
        self._dropping = False
        self._replaced = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            await self._start(message)
        elif message["type"] == "http.response.body" and self._dropping:
            if not message.get("more_body") and not self._replaced:
                await self.send({"type": "http.response.body", "body": b""})
        else:
            await self.send(message)

    async def _start(self, message: Message) -> None:
        ok = message["status"] == 200
        if ok and self.any_matches:
            self._dropping = self._replaced = True
            await self.not_modified()
            return
        headers = MutableHeaders(scope=message)
        if ok and self.tag is not None:
            headers["ETag"] = self.tag
        headers["Cache-Control"] = self.lifetime if ok else caching.NOT_KEPT
        secured(headers)
        self._dropping = self.head
        await self.send(message)

    async def not_modified(self) -> None:
        """`304`: the answer the client holds, named by `If-None-Match`, is current."""
        headers = MutableHeaders()
        if self.tag is not None:
            headers["ETag"] = self.tag
        headers["Cache-Control"] = self.lifetime
        secured(headers)
        await self.send({"type": "http.response.start", "status": 304, "headers": headers.raw})
        await self.send({"type": "http.response.body", "body": b""})
