"""The frame of every answer: only reads are answered, each on one read session of the
ledger that its ETag and its answer share (so both see one snapshot), a request whose ETag
matches is answered `304` without reading further, and every answer carries the caching
headers of `ledger.web.caching` and the security headers of `ledger.web.errors`."""

from __future__ import annotations

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, MutableHeaders, QueryParams
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ledger.storage.database import Ledger
from ledger.web import caching
from ledger.web.errors import STATUS_WORDS, answer, secured

READ_METHODS = ("GET", "HEAD")


class Answering:
    """ASGI middleware framing each request to the ledger's site (see the module)."""

    def __init__(self, app: ASGIApp, ledger: Ledger) -> None:
        self.app = app
        self.ledger = ledger

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        if method not in READ_METHODS:
            refused = answer(Request(scope), 405, STATUS_WORDS[405])
            refused.headers["Allow"] = ", ".join(READ_METHODS)
            await refused(scope, receive, Framed(send, caching.NOT_KEPT))
            return
        scope["method"] = "GET"  # the routes are GET's; a HEAD's body is left out below
        head = method == "HEAD"
        if scope["path"].startswith("/static/"):
            await self.app(scope, receive, Framed(send, caching.STATIC, head=head))
            return
        await self._read(scope, receive, send, head=head)

    async def _read(self, scope: Scope, receive: Receive, send: Send, *, head: bool) -> None:
        asked = Headers(scope=scope).get("if-none-match")
        query = scope["query_string"].decode("latin-1")
        session = self.ledger.read_session()
        try:
            tag = await run_in_threadpool(self._tag, session, scope["path"], query)
            lifetime = caching.cache_control(dict(QueryParams(query)))
            framed = Framed(send, lifetime, tag, head=head)
            if caching.matches(tag, asked):
                await framed.not_modified()
                return
            framed.any_matches = caching.matches_any(asked)
            scope.setdefault("state", {})["session"] = session
            await self.app(scope, receive, framed)
        finally:
            await run_in_threadpool(session.close)

    def _tag(self, session: Session, path: str, query: str) -> str:
        with self.ledger.errors():
            return caching.entity_tag(session, path, query)


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
