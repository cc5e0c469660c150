"""Caching by HTTP. Every answer's `ETag` is the request and the ledger's newest logged
change, so it changes exactly when an answer could (every change to the ledger is logged).

How long an answer may be kept without asking again follows one rule: no answer drawn from
the ledger is kept without asking. Every one (the newest list, a period's list, which a
correction re-rates, a numbered version, whose page names the versions after it and shows
today's names, the live list, a player, a calculation, a report) may be stored but is
revalidated on every use: the cache asks with `If-None-Match` and gets a `304` while the
ledger has not changed. A signed-in account's pages are never kept.
"""

from __future__ import annotations

import hashlib

REVALIDATED = "public, no-cache"
STATIC = "public, max-age=3600"
NOT_KEPT = "no-store"
PRIVATE = "private, no-store"

PRIVATE_PATHS = ("/desk", "/sign-in", "/sign-out", "/account/", "/api/v1/desk")
"""Where the pages and answers of a signed-in account are: never kept, never tagged (two
accounts see two answers at one address)."""


def entity_tag(change: int, path: str, query: str) -> str:
    """A strong ETag for the answer to `path?query` on the ledger whose newest logged change
    is `change` (`ledger.queries.last_change`)."""
    asked = f"{change} {path}?{query}"
    return '"' + hashlib.sha256(asked.encode()).hexdigest()[:32] + '"'


def is_private(path: str) -> bool:
    """Whether `path` is a signed-in account's (`PRIVATE_PATHS`)."""
    return path.startswith(PRIVATE_PATHS)


def matches(tag: str, if_none_match: str | None) -> bool:
    """Whether an `If-None-Match` header names `tag`, compared weakly as RFC 9110 (13.1.2)
    asks: `W/"x"`, what a compressing proxy sends back, names `"x"`. `*` is left to
    `matches_any`, since it holds only where the answer exists."""
    if not if_none_match:
        return False
    named = {each.strip().removeprefix("W/") for each in if_none_match.split(",")}
    return tag in named


def matches_any(if_none_match: str | None) -> bool:
    """Whether the header is `*`: any current answer (a `200`) matches it."""
    return if_none_match is not None and if_none_match.strip() == "*"
