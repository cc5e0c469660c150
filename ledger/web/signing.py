"""Signing in and out, and setting a password from a one-time link.

A session is an opaque random secret in a cookie (HttpOnly, SameSite=Lax, Secure where the
site is reached over HTTPS) whose digest is a row of the ledger: revoked by signing out, by
disabling the account or by a new password, and ended after `SESSION_LIFETIME`.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from starlette.responses import RedirectResponse, Response

from ledger.core.access import Action
from ledger.core.errors import InvalidInput
from ledger.services import accounts
from ledger.web.gate import SESSION_COOKIE, now, serves
from ledger.web.site import SiteShown
from ledger.web.templating import page
from ledger.web.writing import address_of, writing

router = APIRouter(include_in_schema=False)
mirror_router = APIRouter(include_in_schema=False)
"""A public mirror's (`ledger serve --read-only`): no one signs in to it, and its sign-in
page says so, so that the header's link leads somewhere."""

Email = Annotated[str, Form(max_length=254)]
Password = Annotated[str, Form(max_length=accounts.LONGEST_PASSWORD)]
Next = Annotated[str, Form(max_length=500)]


def _next_page(asked: str) -> str:
    """Where to go after signing in: a page of this site only (never `//elsewhere`)."""
    return asked if asked.startswith("/") and not asked.startswith("//") else "/desk"


@router.get("/sign-in")
@serves(Action.SIGN_IN)
def sign_in_form(site: SiteShown, next: str = "/desk", password: str = "") -> Response:
    """The form; after a password is set from a link (`password=set`), it says so."""
    return page(
        site,
        "sign_in.html",
        next=_next_page(next),
        problem=None,
        email="",
        mirror=False,
        password_set=password == "set",
    )


@mirror_router.get("/sign-in")
@serves(Action.READ_PUBLIC)
def mirror_sign_in(site: SiteShown) -> Response:
    return page(
        site, "sign_in.html", next="/", problem=None, email="", mirror=True, password_set=False
    )


@router.post("/sign-in")
@serves(Action.SIGN_IN)
def sign_in(
    request: Request, site: SiteShown, email: Email, password: Password, next: Next = "/desk"
) -> Response:
    with writing(request) as session:
        secret = accounts.sign_in(session, email, password, address_of(request), now(request))
    if secret is None:
        problem = accounts.WRONG_PASSWORD
        shown = {"next": _next_page(next), "problem": problem, "email": email, "mirror": False}
        return page(site, "sign_in.html", 400, password_set=False, **shown)
    signed_in = RedirectResponse(_next_page(next), status_code=303)
    signed_in.set_cookie(
        SESSION_COOKIE,
        secret,
        max_age=int(accounts.SESSION_LIFETIME.total_seconds()),
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return signed_in


@router.post("/sign-out")
@serves(Action.SIGN_IN)
def sign_out(request: Request) -> Response:
    secret = request.cookies.get(SESSION_COOKIE)
    if secret is not None:
        with writing(request) as session:
            accounts.sign_out(session, secret, now(request))
    signed_out = RedirectResponse("/", status_code=303)
    signed_out.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    return signed_out


@router.get("/account/password/{link}")
@serves(Action.SIGN_IN)
def password_form(site: SiteShown, link: str) -> Response:
    return page(site, "password.html", link=quote(link, safe=""), problem=None)


@router.post("/account/password/{link}")
@serves(Action.SIGN_IN)
def set_password(
    request: Request, site: SiteShown, link: str, password: Password, again: Password
) -> Response:
    if password != again:
        problem = "the two passwords differ; type the same one twice."
        return page(site, "password.html", 400, link=quote(link, safe=""), problem=problem)
    try:
        with writing(request) as session:
            accounts.set_password_by_link(session, link, password, now(request))
    except InvalidInput as refused:
        return page(site, "password.html", 400, link=quote(link, safe=""), problem=str(refused))
    return RedirectResponse("/sign-in?password=set", status_code=303)
