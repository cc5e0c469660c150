"""Caching by HTTP: every answer's `ETag` is the request and the ledger's newest logged
change, so it changes exactly when an answer could (every change to the ledger is logged).
A published list of a named period is read for a long time; the newest, the live list and
everything else for a minute."""

from __future__ import annotations

import hashlib
import re

from sqlalchemy.orm import Session
from starlette.requests import Request

from ledger import queries

LONG = "public, max-age=86400"
SHORT = "public, max-age=60"
STATIC = "public, max-age=3600"

_PUBLISHED = re.compile(r"(/api/v1)?/(lists|players/[0-9]+/calculations)/[a-z]+/[0-9]{4}-[0-9]{2}")


def entity_tag(request: Request, session: Session) -> str:
    """A strong ETag for the answer to `request` on the ledger as `session` sees it."""
    change = queries.last_change(session)
    asked = f"{change} {request.url.path}?{request.url.query}"
    return '"' + hashlib.sha256(asked.encode()).hexdigest()[:32] + '"'


def cache_control(path: str) -> str:
    """How long an answer may be kept: long for a published period's list or calculation."""
    if path.startswith("/static/"):
        return STATIC
    return LONG if _PUBLISHED.match(path) else SHORT


def matches(tag: str, if_none_match: str | None) -> bool:
    """Whether an `If-None-Match` header names `tag` (or is `*`)."""
    if not if_none_match:
        return False
    named = {each.strip() for each in if_none_match.split(",")}
    return "*" in named or tag in named
