"""Accounts of the ledger's site: made by an officer (the first one from the command line,
where nothing on the web can make one), their passwords, sign-ins and the throttling of
failed ones, sessions, personal API tokens and one-time links to set a password.

Passwords are hashed with argon2 (`argon2-cffi`, RFC 9106's parameters). Every secret (a
session, a token, a link) is 32 random bytes, shown once when made and kept as its SHA-256
digest alone: a copy of the database opens no account. Each change is logged.
"""

from __future__ import annotations

import datetime as dt
import functools
import secrets
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from ledger.core.access import Role, TooManyAttempts, account_email, digest
from ledger.core.errors import Conflict, InvalidInput, NotFound
from ledger.core.records import refuse_controls
from ledger.services import activity
from ledger.services.activity import Author
from ledger.storage.database import lock_sign_ins
from ledger.storage.models import Account, AccountSecret, SecretKind, SignInFailure

SESSION_LIFETIME = dt.timedelta(days=14)
PASSWORD_LINK_LIFETIME = dt.timedelta(days=7)
THROTTLE_WINDOW = dt.timedelta(minutes=15)
MOST_FAILURES_PER_ACCOUNT = 5
"""Wrong passwords for one account within the window before it is locked until the window
has passed since the oldest of them."""
MOST_FAILURES_PER_ADDRESS = 20
"""Wrong passwords from one address, whatever the accounts, within the window."""
ADDRESS_LENGTH = 45
"""The longest address kept (an IPv6 address written in full, with an IPv4 tail)."""
FAILURES_FORGOTTEN_AT_ONCE = 10
"""The most wrong passwords past the window deleted as another is kept."""
SHORTEST_PASSWORD = 10
LONGEST_PASSWORD = 200
TOKEN_PREFIX = "ledger_"
"""Tokens begin so, for secret scanners and for the eye."""

_HASHER = PasswordHasher()


@functools.cache
def _unknown_password_hash() -> str:
    """Verified against for an unknown e-mail, so that a sign-in takes as long either way;
    made when the site starts (`prepare_sign_ins`), not on import: a hash takes a third of
    a second, which every command that imports the accounts (the demo) would wait for."""
    return _HASHER.hash(secrets.token_hex(16))


def prepare_sign_ins() -> None:
    """Make what a sign-in verifies an unknown e-mail against, so that the first sign-in
    takes as long as any other (the site calls it as it starts)."""
    _unknown_password_hash()


@dataclass(frozen=True, slots=True)
class AccountMade:
    id: int
    email: str
    role: Role
    password_link: str | None
    """The one-time secret of the link to set the password (None: one was set)."""


def add_account(
    session: Session,
    email: str,
    name: str,
    role: Role,
    author: Author,
    now: dt.datetime,
    password: str | None = None,
) -> AccountMade:
    """A new account; with no `password`, a one-time link to set one is made."""
    email = account_email(email)
    if session.scalar(select(Account.id).where(Account.email == email)) is not None:
        raise Conflict(f"there is already an account for {email}.")
    shown = name.strip()
    if not shown or len(shown) > 200:
        raise InvalidInput("name: give the account holder's name (at most 200 characters).")
    refuse_controls("name", "the name", shown)
    account = Account(email=email, name=shown, role=role, created_at=now)
    if password is not None:
        account.password_hash = _HASHER.hash(_checked_password(password))
    session.add(account)
    session.flush()
    link = None if password is not None else password_link(session, account.id, now)
    made = AccountMade(account.id, email, role, link)
    activity.record(
        session, "add-account", _LoggedRole(email, role), author, now, marks=activity.OPEN_WORK
    )
    return made


@dataclass(frozen=True, slots=True)
class _Logged:
    """What the log says of a change to an account: the account."""

    email: str


@dataclass(frozen=True, slots=True)
class _LoggedRole:
    """What the log says of an account given a role, or of a token made for one."""

    email: str
    role: Role


def password_link(session: Session, account_id: int, now: dt.datetime) -> str:
    """A one-time link's secret for the account to set its password (those before it no
    longer count)."""
    _revoke(session, account_id, SecretKind.PASSWORD_LINK, now)
    return _secret(session, account_id, SecretKind.PASSWORD_LINK, now, PASSWORD_LINK_LIFETIME)


def set_password_by_link(session: Session, link: str, password: str, now: dt.datetime) -> int:
    """Set the password of the account whose one-time link this is; returns its ID."""
    held = _held(session, link, SecretKind.PASSWORD_LINK, now)
    if held is None:
        raise NotFound("this link to set a password has expired or was used; ask an officer.")
    held.revoked_at = now
    account = session.get_one(Account, held.account_id)
    account.password_hash = _HASHER.hash(_checked_password(password))
    _revoke(session, account.id, SecretKind.SESSION, now)
    activity.record(
        session,
        "set-password",
        _Logged(account.email),
        Author(account.email),
        now,
        marks=activity.OPEN_WORK,
    )
    return account.id


def _checked_password(password: str) -> str:
    if not SHORTEST_PASSWORD <= len(password) <= LONGEST_PASSWORD:
        raise InvalidInput(
            f"password: choose one of {SHORTEST_PASSWORD} to {LONGEST_PASSWORD} characters."
        )
    return password


WRONG_PASSWORD = "the e-mail address or the password is wrong."


def sign_in(
    session: Session, email: str, password: str, address: str, now: dt.datetime
) -> str | None:
    """A new session's secret for the account, if the password is its own; None if not
    (the failure is recorded: commit it). Refused while the account or the address has had
    too many wrong passwords lately."""
    try:
        email = account_email(email)
    except InvalidInput:  # no account has such an address (nor can PostgreSQL keep a NUL)
        _password_holds(None, password)  # as long as a wrong password takes
        return None
    address = address[:ADDRESS_LENGTH]  # as kept, so that it is counted as kept
    lock_sign_ins(session, email, address)
    _refuse_while_throttled(session, email, address, now)
    account = session.scalar(select(Account).where(Account.email == email))
    if not _password_holds(account, password):
        _forget_old_failures(session, now - THROTTLE_WINDOW)
        session.add(SignInFailure(email=email, address=address, at=now))
        return None
    assert account is not None
    return _secret(session, account.id, SecretKind.SESSION, now, SESSION_LIFETIME, address=address)


def _password_holds(account: Account | None, password: str) -> bool:
    usable = account is not None and account.disabled_at is None and account.password_hash
    stored = account.password_hash if usable and account is not None else None
    try:
        return _HASHER.verify(stored or _unknown_password_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def _forget_old_failures(session: Session, since: dt.datetime) -> None:
    """Delete the oldest wrong passwords, up to `FAILURES_FORGOTTEN_AT_ONCE`, where they no
    longer count: each failure kept makes room, so guesses from ever new addresses do not
    fill the table. The oldest are the first by ID; only those are read."""
    oldest = select(SignInFailure.id).order_by(SignInFailure.id).limit(FAILURES_FORGOTTEN_AT_ONCE)
    session.execute(
        delete(SignInFailure).where(SignInFailure.id.in_(oldest), SignInFailure.at <= since)
    )


def _refuse_while_throttled(session: Session, email: str, address: str, now: dt.datetime) -> None:
    since = now - THROTTLE_WINDOW
    for column, value, most, whose in (
        (SignInFailure.email, email, MOST_FAILURES_PER_ACCOUNT, "this account"),
        (SignInFailure.address, address, MOST_FAILURES_PER_ADDRESS, "this address"),
    ):
        failures = list(
            session.scalars(
                select(SignInFailure.at)
                .where(column == value, SignInFailure.at > since)
                .order_by(SignInFailure.at.desc())
                .limit(most)
            )
        )
        if len(failures) >= most:
            retry_at = failures[-1] + THROTTLE_WINDOW
            raise TooManyAttempts(
                f"too many wrong passwords for {whose}; try again after "
                f"{retry_at:%H:%M} UTC ({retry_at:%Y-%m-%d}).",
                retry_at,
            )


def sign_out(session: Session, secret: str, now: dt.datetime) -> None:
    """End the session whose secret this is (nothing if it has ended)."""
    session.execute(
        update(AccountSecret)
        .where(AccountSecret.digest == digest(secret), AccountSecret.revoked_at.is_(None))
        .values(revoked_at=now)
    )


def add_token(
    session: Session, email: str, name: str, role: Role | None, now: dt.datetime, author: Author
) -> str:
    """A personal API token's secret for the account, doing what `role` may (at most the
    account's role; None: the account's)."""
    account = _account(session, email)
    if role is not None and role.rank > account.role.rank:
        raise InvalidInput(
            f"role: a token of {account.email} may do at most what an {account.role} may."
        )
    label = name.strip()
    if not label or len(label) > 100:
        raise InvalidInput("name: name the token for what uses it (at most 100 characters).")
    refuse_controls("name", "the token's name", label)
    scope = role or account.role
    secret = _secret(
        session, account.id, SecretKind.TOKEN, now, None, TOKEN_PREFIX, name=label, role=scope
    )
    activity.record(
        session,
        "add-token",
        _LoggedRole(account.email, scope),
        author,
        now,
        marks=activity.OPEN_WORK,
    )
    return secret


def revoke_token(
    session: Session, token_id: int, now: dt.datetime, author: Author, owner: int | None = None
) -> None:
    """Revoke a token (if `owner`, only one of that account's)."""
    held = session.get(AccountSecret, token_id)
    if held is None or held.kind is not SecretKind.TOKEN or owner not in (None, held.account_id):
        raise NotFound(f"there is no token {token_id}.")
    if held.revoked_at is not None:
        raise Conflict(f"token {token_id} was already revoked.")
    held.revoked_at = now
    email = session.get_one(Account, held.account_id).email
    activity.record(session, "revoke-token", _Logged(email), author, now, marks=activity.OPEN_WORK)


def disable_account(session: Session, email: str, author: Author, now: dt.datetime) -> None:
    """Disable an account: it cannot sign in, and its sessions and tokens end."""
    account = _account(session, email)
    if account.disabled_at is not None:
        raise Conflict(f"{account.email} is already disabled.")
    _refuse_leaving_no_officer(session, account)
    account.disabled_at = now
    for kind in SecretKind:
        _revoke(session, account.id, kind, now)
    activity.record(
        session, "disable-account", _Logged(account.email), author, now, marks=activity.OPEN_WORK
    )


def change_role(session: Session, email: str, role: Role, author: Author, now: dt.datetime) -> None:
    """Give an account another role; its tokens never do more than the account may
    (`ledger.queries.accounts.signed_in`)."""
    account = _account(session, email)
    if account.role is role:
        raise Conflict(f"{account.email} is already an {role}.")
    _refuse_leaving_no_officer(session, account)
    account.role = role
    activity.record(
        session,
        "change-role",
        _LoggedRole(account.email, role),
        author,
        now,
        marks=activity.OPEN_WORK,
    )


def _refuse_leaving_no_officer(session: Session, account: Account) -> None:
    """Refuse to disable the last officer, or give them another role: no one could then
    manage the site's accounts but from the command line. The officers' rows are locked,
    so that two officers disabling each other at once do not both succeed."""
    officers = session.scalars(
        select(Account.id)
        .where(Account.role == Role.OFFICER, Account.disabled_at.is_(None))
        .with_for_update()
    ).all()
    if list(officers) == [account.id]:
        raise Conflict(
            f"{account.email} is the site's last officer; make another officer first "
            "(`ledger users add EMAIL --role officer`), so that someone can manage the site."
        )


def _account(session: Session, email: str) -> Account:
    kept = account_email(email)
    account = session.scalar(select(Account).where(Account.email == kept))
    if account is None:
        raise NotFound(f"there is no account for {kept}; `ledger users list` lists them.")
    return account


def _secret(
    session: Session,
    account_id: int,
    kind: SecretKind,
    now: dt.datetime,
    lifetime: dt.timedelta | None,
    prefix: str = "",
    **details: object,
) -> str:
    """A new random secret of the account, kept as its digest with its `details`."""
    secret = prefix + secrets.token_urlsafe(32)
    session.add(
        AccountSecret(
            account_id=account_id,
            kind=kind,
            digest=digest(secret),
            created_at=now,
            expires_at=None if lifetime is None else now + lifetime,
            **details,
        )
    )
    session.flush()
    return secret


def _held(
    session: Session, secret: str, kind: SecretKind, now: dt.datetime
) -> AccountSecret | None:
    return session.scalar(
        select(AccountSecret).where(
            AccountSecret.digest == digest(secret),
            AccountSecret.kind == kind,
            AccountSecret.revoked_at.is_(None),
            (AccountSecret.expires_at.is_(None)) | (AccountSecret.expires_at > now),
        )
    )


def _revoke(session: Session, account_id: int, kind: SecretKind, now: dt.datetime) -> None:
    session.execute(
        update(AccountSecret)
        .where(
            AccountSecret.account_id == account_id,
            AccountSecret.kind == kind,
            AccountSecret.revoked_at.is_(None),
        )
        .values(revoked_at=now)
    )
