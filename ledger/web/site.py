"""The federation's site on every page: its name, short name, footer and logo (`ledger site
set`), read with the request's session and kept while no change alters what the public pages
show of the lists and the site (`ledger.queries.last_list_change`); the
logo served from the site itself; and the API's description named for the site."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, FastAPI

from ledger import queries
from ledger.queries import Site
from ledger.web.inputs import Counts, Reading


def site_settings(session: Reading, kept: Counts) -> Site:
    """The site's settings (a plain `def`: FastAPI reads them in its thread pool)."""
    return kept.get(session, ("site",), lambda: queries.site(session), published=True)


SiteShown = Annotated[Site, Depends(site_settings)]


OpenAPI = Callable[[], dict[str, Any]]


def described(app: FastAPI, openapi: OpenAPI) -> OpenAPI:
    """The app's OpenAPI description (`openapi`), its title and description naming the site
    as the ledger holds it now (read for each request for it, which is seldom)."""

    def with_site() -> dict[str, Any]:
        schema = openapi()
        with app.state.ledger.reading() as session:
            shown = queries.site(session)
        about = f"{shown.name}. {schema['info']['description']}"
        if shown.footer:
            about += f" {shown.footer}"
        info = schema["info"] | {"title": f"{shown.name}: rating lists API", "description": about}
        return schema | {"info": info}

    return with_site
