"""Answers of the public site kept in a worker's memory, by their ETag.

An answer's ETag names the request and the ledger's newest logged change
(`ledger.web.caching`), so an answer kept under its tag is the answer to any later request
with the same tag: it is sent again without reading the ledger beyond the one query the tag
costs. A change to the ledger (a game, a close, a correction, in any process) gives every
answer a new tag, so nothing kept is ever shown after it; what was kept under an older
change is let go as soon as a newer one is seen. Memory is bounded: at most `most_bytes` in
all, answers larger than `largest` are never kept, and the least recently used go first.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from starlette.types import Message, Send

MOST_BYTES = 64 * 1024 * 1024
LARGEST = 1024 * 1024


@dataclass(frozen=True, slots=True)
class KeptAnswer:
    headers: list[tuple[bytes, bytes]]
    body: bytes


class KeptAnswers:
    """The `200` answers of one worker, by tag (see the module). Used from the worker's
    event loop only."""

    def __init__(self, most_bytes: int = MOST_BYTES, largest: int = LARGEST) -> None:
        self.most_bytes = most_bytes
        self.largest = largest
        self._kept: OrderedDict[str, KeptAnswer] = OrderedDict()
        self._bytes = 0
        self._newest = 0

    def get(self, tag: str) -> KeptAnswer | None:
        found = self._kept.get(tag)
        if found is not None:
            self._kept.move_to_end(tag)
        return found

    async def send(self, kept: KeptAnswer, send: Send) -> None:
        """Send a kept answer again through `send`."""
        start = {"type": "http.response.start", "status": 200, "headers": list(kept.headers)}
        await send(start)
        await send({"type": "http.response.body", "body": kept.body})

    def recording(self, change: int, tag: str, send: Send) -> Send:
        """`send`, keeping the answer it carries if it is a `200` small enough."""
        headers: list[tuple[bytes, bytes]] | None = None
        body: list[bytes] = []
        size = 0

        async def recorded(message: Message) -> None:
            nonlocal headers, size
            if message["type"] == "http.response.start" and message["status"] == 200:
                headers = list(message.get("headers", []))
            elif message["type"] == "http.response.body" and headers is not None:
                size += len(message.get("body", b""))
                if size > self.largest:
                    headers = None
                else:
                    body.append(message.get("body", b""))
                    if not message.get("more_body", False):
                        self._keep(change, tag, KeptAnswer(headers, b"".join(body)))
            await send(message)

        return recorded

    def _keep(self, change: int, tag: str, answer: KeptAnswer) -> None:
        if change < self._newest:
            return
        if change > self._newest:
            self._kept.clear()
            self._bytes = 0
            self._newest = change
        if tag in self._kept:
            return
        self._kept[tag] = answer
        self._bytes += len(answer.body)
        while self._bytes > self.most_bytes:
            _, gone = self._kept.popitem(last=False)
            self._bytes -= len(gone.body)
