"""The federation's public site as `ledger site set` gave it, with the defaults of a site
that was given nothing: what every page's header and footer, and the API's description,
show. Read side only."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.storage.models import SiteSettings

DEFAULT_NAME = "Rating ledger"


@dataclass(frozen=True, slots=True)
class Site:
    """The site's name, its short name (the header's; the name when none is given), its
    footer text (contact, the data's licence; None: none given) and its logo's media type
    (None: no logo)."""

    name: str
    short_name: str
    footer: str | None
    logo_type: str | None


DEFAULT_SITE = Site(DEFAULT_NAME, DEFAULT_NAME, None, None)
"""The site of a ledger given no settings."""


@dataclass(frozen=True, slots=True)
class Logo:
    content: bytes
    media_type: str


def site(session: Session) -> Site:
    """The site's settings (the defaults where none were given)."""
    row = session.execute(
        select(
            SiteSettings.name,
            SiteSettings.short_name,
            SiteSettings.footer,
            SiteSettings.logo_type,
        )
    ).first()
    if row is None:
        return DEFAULT_SITE
    name = row.name or DEFAULT_NAME
    return Site(name, row.short_name or name, row.footer, row.logo_type)


def site_logo(session: Session) -> Logo | None:
    """The site's logo, its bytes and media type (None: no logo)."""
    row = session.execute(select(SiteSettings.logo, SiteSettings.logo_type)).first()
    if row is None or row.logo is None or row.logo_type is None:
        return None
    return Logo(bytes(row.logo), row.logo_type)
