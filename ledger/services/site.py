"""The federation's public site: its name, short name, footer and logo, kept in the ledger
(`SiteSettings`) so that every worker serving the site reads the same, and logged as every
change is (so the site's cached answers change with it).

A logo is an image the site serves itself (its Content-Security-Policy loads nothing from
elsewhere): PNG, JPEG, GIF or WebP, known by its content (`filetype` reads the signatures),
of at most `LOGO_BYTES`. SVG is refused: it can carry scripts.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import filetype
from sqlalchemy.orm import Session

from ledger.core.errors import InvalidInput
from ledger.core.records import refuse_controls
from ledger.services import activity
from ledger.services.activity import OS_USER, Author
from ledger.storage.models import SiteSettings

LOGO_BYTES = 100_000
LOGO_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")
LENGTHS = {"name": 200, "short_name": 40, "footer": 1000}
"""The longest text of each setting, as the table keeps it."""


@dataclass(frozen=True, slots=True)
class SiteChange:
    """The settings to give the site; None keeps one as it is, "" removes a text.
    `no_logo` removes the logo."""

    name: str | None = None
    short_name: str | None = None
    footer: str | None = None
    logo: bytes | None = None
    no_logo: bool = False


@dataclass(frozen=True, slots=True)
class SiteSet:
    """What `set_site` changed, for the log: the settings' names, and the logo's type."""

    changed: str
    logo_type: str | None


def set_site(
    session: Session, change: SiteChange, now: dt.datetime, author: Author = OS_USER
) -> SiteSet:
    """Give the site the settings of `change`, and log it. Refused, with nothing written,
    if a text is too long or holds a control character, or the logo is not an image the
    site can serve."""
    texts = {key: getattr(change, key) for key in LENGTHS if getattr(change, key) is not None}
    changed = [*texts, *(["logo"] if change.logo is not None or change.no_logo else [])]
    words = ", ".join(key.replace("_", " ") for key in changed)
    if not changed:
        raise InvalidInput("nothing to set; give --name, --short-name, --footer or --logo.")
    for key, value in texts.items():
        _check_text(key, value)
    settings = session.get(SiteSettings, 1) or SiteSettings(id=1)
    for key, value in texts.items():
        setattr(settings, key, value.strip() or None)
    logo_type = None
    if change.logo is not None:
        logo_type = logo_media_type(change.logo)
        settings.logo, settings.logo_type = change.logo, logo_type
    elif change.no_logo:
        settings.logo, settings.logo_type = None, None
    session.add(settings)
    done = SiteSet(words, logo_type)
    activity.record(session, "site-set", done, author, now)
    return done


def _check_text(key: str, value: str) -> None:
    refuse_controls(key.replace("_", "-"), "the text", value, tab=False)
    if len(value.strip()) > LENGTHS[key]:
        raise InvalidInput(f"{key.replace('_', '-')}: longer than {LENGTHS[key]} characters.")


def logo_media_type(content: bytes) -> str:
    """The media type of a logo the site can serve; refused if it is too large or not a
    PNG, JPEG, GIF or WebP image."""
    if len(content) > LOGO_BYTES:
        raise InvalidInput(
            f"logo: the file is larger than {LOGO_BYTES:,} bytes; give a smaller image."
        )
    kind = filetype.guess_mime(content)
    if kind not in LOGO_TYPES:
        raise InvalidInput(
            "logo: the file is not a PNG, JPEG, GIF or WebP image (SVG is refused: it can "
            "hold scripts)."
        )
    return str(kind)
