"""How many requests a worker takes on at once, and what it does with a client that has gone.

A request that reads the ledger holds a database connection from the moment its ETag is
read until its answer is sent, and runs its query in a thread of the worker's pool. Were
every request that arrives let in, requests holding connections would wait for threads that
requests waiting for connections hold: the site stalled for the pool's whole time-out
after a hundred clients sent a request and hung up at once. So at most `working` requests
read at once, with as many connections (`ledger.storage.database.open_reader`) and fewer
than the threads of the pool; up to `waiting` more wait for their turn, and the rest are
answered `503` with `Retry-After` at once. A request whose client hung up before its turn
is dropped without reading anything.
"""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Message, Receive, Scope, Send

WORKING = 8
"""Requests a worker reads for at once: as many database connections."""
WAITING = 256
"""Requests a worker keeps waiting for their turn beyond those: a few hundred milliseconds'
work, and room for a burst of clients that hang up (the server learns that they did only
after their requests are in line)."""
RETRY_AFTER_SECONDS = 1

BUSY = b"The site is busy; try again in a moment.\n"


class Admission:
    """ASGI middleware letting at most `working` requests through at once, `waiting` more
    wait, and the rest answered `503` at once; requests for `/static/` pass untouched."""

    def __init__(self, app: ASGIApp, working: int = WORKING, waiting: int = WAITING) -> None:
        self.app = app
        self.waiting = waiting
        self._turns = asyncio.Semaphore(working)
        self._queued = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/static/"):
            await self.app(scope, receive, send)
            return
        if self._turns.locked() and self._queued >= self.waiting:
            await busy(send)
            return
        client = Client(scope, receive)
        try:
            if await self._turn(client):
                try:
                    await self.app(scope, client.receive, send)
                finally:
                    self._turns.release()
        finally:
            client.close()

    async def _turn(self, client: Client) -> bool:
        """Wait for a turn to read; False (and no turn) if the client hangs up first."""
        self._queued += 1
        try:
            hung_up = await client.listen()
            turn = asyncio.ensure_future(self._turns.acquire())
            await asyncio.wait((turn, hung_up), return_when=asyncio.FIRST_COMPLETED)
            if not turn.done():
                turn.cancel()
                return False
            if hung_up.done():
                self._turns.release()
                return False
            return True
        finally:
            self._queued -= 1


async def busy(send: Send) -> None:
    """`503` with `Retry-After`: the worker has as many requests as it keeps."""
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"retry-after", str(RETRY_AFTER_SECONDS).encode()),
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": BUSY})


class Client:
    """The client of one request, as the ASGI server reports it: whether it has hung up.

    A request without a body (GET, HEAD) has nothing more to receive once its request is
    read, but the news that its client disconnected: that request is read at once and kept
    for the app, and one task waits for the news, which every later `receive` shares."""

    def __init__(self, scope: Scope, receive: Receive) -> None:
        self._receive = receive
        self._watches = scope["method"] in ("GET", "HEAD")
        self._request: Message | None = None
        self._news: asyncio.Future[Message] | None = None

    async def listen(self) -> asyncio.Future[Message]:
        """A future done when the client hangs up (never, for a request with a body)."""
        if self._news is not None:
            return self._news
        if self._watches:
            self._request = await self._receive()
        if self._request is None or self._request.get("more_body"):
            self._news = asyncio.get_running_loop().create_future()
        elif self._request["type"] == "http.disconnect":
            self._news = asyncio.get_running_loop().create_future()
            self._news.set_result(self._request)
        else:
            self._news = asyncio.ensure_future(self._receive())
            await asyncio.sleep(0)  # a hang-up the server has seen is news at once
        return self._news

    async def receive(self) -> Message:
        """The app's `receive`: the request read first, then the shared news."""
        if self._request is not None:
            request, self._request = self._request, None
            return request
        if self._news is None or not self._watching():
            return await self._receive()
        return await asyncio.shield(self._news)

    def _watching(self) -> bool:
        return isinstance(self._news, asyncio.Task)

    def close(self) -> None:
        if self._news is not None and not self._news.done():
            self._news.cancel()
