"""The HTML: Jinja2 templates, every value escaped (autoescape on for every template, so a
name is always text), and the few words the pages share for the ledger's values."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined
from starlette.responses import HTMLResponse

from ledger.core.domain import Period, Pool
from ledger.core.printable import counted
from ledger.queries import Site
from ledger.queries.federation_names import federation_name

_TEMPLATES = Environment(
    loader=PackageLoader("ledger.web"),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def list_text(period: Period | None) -> str:
    """A list by its date and its period: "Nov 2026 (2026-10)"."""
    return "" if period is None else f"{period.list_name} ({period})"


def signed(change: int | None) -> str:
    """A rating change as the lists print it: +12, -3, 0, or new."""
    if change is None:
        return "new"
    return f"{change:+d}" if change else "0"


def movement(places: int | None) -> tuple[str, str]:
    """The class and text of a movement in positions: ("up", "↑3"), ("same", "=")."""
    if places is None:
        return "new", "new"
    if places == 0:
        return "same", "="
    return ("up", f"↑{places}") if places > 0 else ("down", f"↓{-places}")


def text(value: object) -> str:
    return "" if value is None else str(value)


def segment(value: object) -> str:
    """A value as one segment of a link's path, every character but letters, digits and
    `-._~` percent-encoded: an event named "a/../b" links to its own page, not to "b" (Jinja's
    `urlencode` leaves `/` as it is)."""
    return quote(str(value), safe="")


_TEMPLATES.globals.update(
    pools=list(Pool),
    list_text=list_text,
    signed=signed,
    movement=movement,
    text=text,
    federation_name=federation_name,
    counted=counted,
)
_TEMPLATES.filters["segment"] = segment


def page(site: Site, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """The page of template `name` on the federation's site (its header and footer)."""
    return HTMLResponse(_TEMPLATES.get_template(name).render(site=site, **context), status_code)
