"""What a signed-in page needs to change the ledger: a write transaction on the app's
writing connection, and the author the log records (the account, its address, and the
reason given). The time is the app's clock (`ledger.web.gate.now`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.orm import Session
from starlette.requests import Request

from ledger.queries.accounts import SignedIn
from ledger.services.activity import Author
from ledger.storage.database import Ledger


@contextmanager
def writing(request: Request) -> Iterator[Session]:
    """One transaction on the app's writer: committed whole, or not at all."""
    writer: Ledger = request.app.state.writer
    with writer.transaction() as session:
        yield session


def address_of(request: Request) -> str:
    """The address a request comes from (the proxy's client, where uvicorn trusts it)."""
    return request.client.host if request.client else "unknown"


def author(request: Request, who: SignedIn, reason: str | None = None) -> Author:
    """The log's author of a change made on the web by `who`."""
    return Author(who.email, reason, account_id=who.account_id, address=address_of(request))
