"""The accounts of the ledger's site as read: who holds a session or a token (and what it
may do), the accounts and their tokens for the officer's and the owner's pages."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.core.access import Role, account_email, digest
from ledger.core.errors import NotFound
from ledger.storage.models import Account, AccountSecret, SecretKind


@dataclass(frozen=True, slots=True)
class SignedIn:
    """The account behind a request's session or token, and what it may do: a token's role
    at most the account's."""

    account_id: int
    email: str
    name: str
    role: Role
    secret_id: int
    by_token: bool
    """Signed in by a token (a script), not a page session."""


def signed_in(session: Session, secret: str, kind: SecretKind, now: dt.datetime) -> SignedIn | None:
    """Who holds `secret` (None: nobody, or a secret expired, revoked or of a disabled
    account)."""
    found = session.execute(
        select(Account, AccountSecret)
        .join(AccountSecret, AccountSecret.account_id == Account.id)
        .where(
            AccountSecret.digest == digest(secret),
            AccountSecret.kind == kind,
            AccountSecret.revoked_at.is_(None),
            AccountSecret.expires_at.is_(None) | (AccountSecret.expires_at > now),
            Account.disabled_at.is_(None),
        )
    ).first()
    if found is None:
        return None
    account, held = found
    role = account.role if held.role is None else account.role.at_most(held.role)
    return SignedIn(
        account_id=account.id,
        email=account.email,
        name=account.name,
        role=role,
        secret_id=held.id,
        by_token=kind is SecretKind.TOKEN,
    )


@dataclass(frozen=True, slots=True)
class AccountRow:
    id: int
    email: str
    name: str
    role: Role
    created_at: dt.datetime
    disabled_at: dt.datetime | None
    password_set: bool


def account_list(session: Session) -> list[AccountRow]:
    """Every account, by e-mail."""
    return [
        AccountRow(
            id=account.id,
            email=account.email,
            name=account.name,
            role=account.role,
            created_at=account.created_at,
            disabled_at=account.disabled_at,
            password_set=account.password_hash is not None,
        )
        for account in session.scalars(select(Account).order_by(Account.email))
    ]


@dataclass(frozen=True, slots=True)
class TokenRow:
    id: int
    email: str
    name: str | None
    role: Role | None
    created_at: dt.datetime
    revoked_at: dt.datetime | None


def token_list(session: Session, account_id: int | None = None) -> list[TokenRow]:
    """The API tokens (of one account, if `account_id`), newest first; never their secrets."""
    statement = (
        select(AccountSecret, Account.email)
        .join(Account, Account.id == AccountSecret.account_id)
        .where(AccountSecret.kind == SecretKind.TOKEN)
        .order_by(AccountSecret.id.desc())
    )
    if account_id is not None:
        statement = statement.where(AccountSecret.account_id == account_id)
    return [
        TokenRow(
            id=held.id,
            email=email,
            name=held.name,
            role=held.role,
            created_at=held.created_at,
            revoked_at=held.revoked_at,
        )
        for held, email in session.execute(statement)
    ]


def account_id(session: Session, email: str) -> int:
    """The ID of the account of `email`."""
    kept = account_email(email)
    found = session.scalar(select(Account.id).where(Account.email == kept))
    if found is None:
        raise NotFound(f"there is no account for {kept}; `ledger users list` lists them.")
    return found
