"""The signed-in account's pages: the desk (what the account may do from here), its API
tokens, and for an officer the accounts and the log. Every change goes through the same
service as the command line's (`ledger.services.accounts`), logged with the account, its
address and the time."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Path, Request
from sqlalchemy.orm import Session
from starlette.responses import RedirectResponse, Response

from ledger import queries
from ledger.core.access import Action, Role, permits
from ledger.core.records import LARGEST_ID
from ledger.queries import Site, accounts
from ledger.services import accounts as account_changes
from ledger.web.gate import Account, now, serves
from ledger.web.inputs import Reading
from ledger.web.site import SiteShown
from ledger.web.templating import page
from ledger.web.writing import author, writing

router = APIRouter(include_in_schema=False)

LOG_SHOWN = 200

Text = Annotated[str, Form(max_length=200)]
Email = Annotated[str, Form(max_length=254)]
TokenId = Annotated[int, Path(ge=1, le=LARGEST_ID)]


@router.get("/desk")
@serves(Action.SEE_OWN_ACCOUNT)
def desk(site: SiteShown, who: Account) -> Response:
    may = {action.value: permits(who.role, action) for action in Action}
    return page(site, "desk.html", who=who, may=may)


@router.get("/desk/tokens")
@serves(Action.MANAGE_OWN_TOKENS)
def tokens(session: Reading, site: SiteShown, who: Account) -> Response:
    return _tokens_page(session, site, who, made=None)


def _tokens_page(
    session: Session, site: Site, who: accounts.SignedIn, made: str | None
) -> Response:
    mine = accounts.token_list(session, who.account_id)
    roles = [role for role in Role if role is not Role.READER and role.rank <= who.role.rank]
    return page(site, "tokens.html", who=who, tokens=mine, made=made, roles=roles)


@router.post("/desk/tokens")
@serves(Action.MANAGE_OWN_TOKENS)
def add_token(request: Request, site: SiteShown, who: Account, name: Text, role: Text) -> Response:
    """The token is shown on this page, once; the list beside it is read as written."""
    scope = Role.of_account(role)
    with writing(request) as writes:
        made = account_changes.add_token(
            writes, who.email, name, scope, now(request), author(request, who)
        )
        return _tokens_page(writes, site, who, made)


@router.post("/desk/tokens/{token}/revoke")
@serves(Action.MANAGE_OWN_TOKENS)
def revoke_token(request: Request, who: Account, token: TokenId) -> Response:
    with writing(request) as writes:
        account_changes.revoke_token(
            writes, token, now(request), author(request, who), owner=who.account_id
        )
    return RedirectResponse("/desk/tokens", status_code=303)


@router.get("/desk/accounts")
@serves(Action.MANAGE_ACCOUNTS)
def account_list(session: Reading, site: SiteShown, who: Account) -> Response:
    return _accounts_page(session, site, who, made=None)


def _accounts_page(
    session: Session, site: Site, who: accounts.SignedIn, made: account_changes.AccountMade | None
) -> Response:
    rows = accounts.account_list(session)
    roles = [Role.ORGANISER, Role.OFFICER]
    return page(site, "accounts.html", who=who, rows=rows, made=made, roles=roles)


@router.post("/desk/accounts")
@serves(Action.MANAGE_ACCOUNTS)
def add_account(
    request: Request, site: SiteShown, who: Account, email: Email, name: Text, role: Text
) -> Response:
    """The new account's one-time link is shown on this page, once."""
    with writing(request) as writes:
        made = account_changes.add_account(
            writes, email, name, Role.of_account(role), author(request, who), now(request)
        )
        return _accounts_page(writes, site, who, made)


# An address may hold a `/` (RFC 5321), sent as `%2F` and decoded before the route is
# matched: the account is the whole path between `/desk/accounts/` and the action.
@router.post("/desk/accounts/{account:path}/disable")
@serves(Action.MANAGE_ACCOUNTS)
def disable_account(request: Request, who: Account, account: str) -> Response:
    with writing(request) as writes:
        account_changes.disable_account(writes, account, author(request, who), now(request))
    return RedirectResponse("/desk/accounts", status_code=303)


@router.post("/desk/accounts/{account:path}/role")
@serves(Action.MANAGE_ACCOUNTS)
def change_role(request: Request, who: Account, account: str, role: Text) -> Response:
    with writing(request) as writes:
        account_changes.change_role(
            writes, account, Role.of_account(role), author(request, who), now(request)
        )
    return RedirectResponse("/desk/accounts", status_code=303)


@router.get("/desk/log")
@serves(Action.SEE_LOG)
def log(session: Reading, site: SiteShown, who: Account) -> Response:
    return page(site, "desk_log.html", who=who, records=queries.log_records(session, LOG_SHOWN))
