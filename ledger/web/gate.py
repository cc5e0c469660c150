"""The one place the site decides who may do what.

Every route says which action it serves (`serves`, an `ledger.core.access.Action`); the
gate, a dependency of the whole app, finds who asks (a page session's cookie, or a personal
API token sent as `Authorization: Bearer`) and lets the request through only if the table
of `ledger.core.access` grants that action to their role. A route that names no action is
refused to everyone: nothing is allowed unless granted. Public reading is granted to every
role (as signing in is), so it never looks anyone up.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Request
from fastapi.routing import APIRoute
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ledger.core.access import Action, Forbidden, NotSignedIn, Role, permits, require
from ledger.queries import accounts
from ledger.queries.accounts import SignedIn
from ledger.storage.database import Ledger
from ledger.storage.models import SecretKind

SESSION_COOKIE = "ledger_session"
F = TypeVar("F", bound=Callable[..., Any])
_ACTION = "ledger_action"


def serves(action: Action) -> Callable[[F], F]:
    """Mark a route's function with the action it serves, for the gate."""

    def marked(endpoint: F) -> F:
        setattr(endpoint, _ACTION, action)
        return endpoint

    return marked


def serves_all(router: APIRouter, action: Action) -> None:
    """Mark every route of `router` (the public pages, the public API) with `action`."""
    for route in router.routes:
        if isinstance(route, APIRoute) and action_of(route.endpoint) is None:
            setattr(route.endpoint, _ACTION, action)


def action_of(endpoint: Callable[..., Any] | None) -> Action | None:
    """The action a route serves (None: it names none, and is refused)."""
    action: Action | None = getattr(endpoint, _ACTION, None)
    return action


async def gate(request: Request) -> None:
    """Let the request through if its account's role is granted its route's action."""
    action = action_of(request.scope.get("endpoint"))
    if action is None:
        raise Forbidden("nothing may be done here.")
    if permits(Role.READER, action):
        return
    who = await run_in_threadpool(_signed_in, request)
    request.state.signed_in = who
    if who is None:
        require(Role.READER, action)
    else:
        require(who.role, action, by_token=who.by_token)


def _signed_in(request: Request) -> SignedIn | None:
    """Who holds the request's token (`Authorization: Bearer`) or page session (cookie). A
    request with the header, even empty, is a token's: never its cookie's, as the check of
    where a form comes from (`answering`) lets it through for the token it carries."""
    session: Session = request.state.session
    ledger: Ledger = request.app.state.ledger
    given = request.headers.get("authorization")
    scheme, _, token = (given or "").partition(" ")
    with ledger.errors():
        if given is not None:
            if scheme.lower() != "bearer" or not token.strip():
                raise NotSignedIn("send a token as `Authorization: Bearer TOKEN`.")
            found = accounts.signed_in(session, token.strip(), SecretKind.TOKEN, now(request))
            if found is None:
                raise NotSignedIn("the token is unknown, revoked, or its account disabled.")
            return found
        cookie = request.cookies.get(SESSION_COOKIE)
        if cookie is None:
            return None
        return accounts.signed_in(session, cookie, SecretKind.SESSION, now(request))


Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    """The site's clock unless its app is given another: the time as the ledger stores
    times (UTC, without a zone)."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def now(request: Request) -> dt.datetime:
    """The time on the clock of the request's app (`create_app`'s `clock`): when a change
    is made, and when sessions and tokens expire."""
    clock: Clock = request.app.state.clock
    return clock()


def signed_in(request: Request) -> SignedIn:
    """The signed-in account of a request the gate let through for an account's action."""
    who: SignedIn | None = getattr(request.state, "signed_in", None)
    if who is None:
        raise NotSignedIn("sign in first.")
    return who


Account = Annotated[SignedIn, Depends(signed_in)]
