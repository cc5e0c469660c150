"""Who may do what: the roles of the ledger's accounts, the actions a face offers, and the
one table that grants each action to roles. Everything not granted here is denied.

A reader is anyone, signed in or not: what is public (lists, players, events, the reports
received) needs no account. An organiser sends in tournament reports and follows their own;
an officer does everything: reviews and accepts reports, closes periods, manages accounts.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from enum import StrEnum

from ledger.core.errors import InvalidInput, LedgerError
from ledger.core.printable import quoted
from ledger.core.records import OPERATOR_LENGTH, refuse_controls

_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


def account_email(text: str) -> str:
    """An account's e-mail as kept and looked up (lower case), or a refusal naming the
    field: plain text (no control character, as a NUL, which PostgreSQL cannot keep), one
    `@` and a domain. It names the account in the log, so it is no longer than the log's
    operators."""
    email = text.strip().lower()
    refuse_controls("email", "the address", email)
    if not _EMAIL.fullmatch(email):
        raise InvalidInput(f"email: {quoted(text)} is not an e-mail address (name@example.org).")
    if len(email) > OPERATOR_LENGTH:
        raise InvalidInput(f"email: an account's e-mail has at most {OPERATOR_LENGTH} characters.")
    return email


class Role(StrEnum):
    """What an account is for; a higher role may do all that a lower one may."""

    READER = "reader"
    ORGANISER = "organiser"
    OFFICER = "officer"

    @classmethod
    def of_account(cls, text: str) -> Role:
        """The role an account may be given: organiser or officer (a reader needs none)."""
        try:
            role = cls(text.strip().lower())
        except ValueError:
            role = cls.READER
        if role is cls.READER:
            raise InvalidInput(
                f"{quoted(text)} is not a role an account has; choose organiser or officer."
            )
        return role

    @property
    def rank(self) -> int:
        return list(Role).index(self)

    def at_most(self, other: Role) -> Role:
        """The lower of two roles: what a token of `other` may do for an account of this."""
        return self if self.rank <= other.rank else other


class Action(StrEnum):
    """What a signed-in face can ask of the ledger."""

    READ_PUBLIC = "read-public"
    SIGN_IN = "sign-in"
    """Sign in and out, and set one's password from a one-time link."""
    SEE_OWN_ACCOUNT = "see-own-account"
    MANAGE_OWN_TOKENS = "manage-own-tokens"
    SEND_REPORTS = "send-reports"
    """Upload, check, acknowledge, submit and withdraw one's own tournament reports."""
    REVIEW_REPORTS = "review-reports"
    """See every report; accept, return and reject them."""
    SEE_LOG = "see-log"
    MANAGE_ACCOUNTS = "manage-accounts"
    CLOSE_PERIODS = "close-periods"


GRANTED: dict[Action, frozenset[Role]] = {
    Action.READ_PUBLIC: frozenset(Role),
    Action.SIGN_IN: frozenset(Role),
    Action.SEE_OWN_ACCOUNT: frozenset({Role.ORGANISER, Role.OFFICER}),
    Action.MANAGE_OWN_TOKENS: frozenset({Role.ORGANISER, Role.OFFICER}),
    Action.SEND_REPORTS: frozenset({Role.ORGANISER, Role.OFFICER}),
    Action.REVIEW_REPORTS: frozenset({Role.OFFICER}),
    Action.SEE_LOG: frozenset({Role.OFFICER}),
    Action.MANAGE_ACCOUNTS: frozenset({Role.OFFICER}),
    Action.CLOSE_PERIODS: frozenset({Role.OFFICER}),
}
"""The one table of permissions: the roles each action is granted to."""
BY_PASSWORD_ONLY = frozenset({Action.MANAGE_OWN_TOKENS, Action.MANAGE_ACCOUNTS})
"""What a token may never do, whatever its role: make or revoke tokens, make or change
accounts. A token is a script's; one that leaked could otherwise make another that outlives
its own revocation, or an account. These need a page session, begun with the password."""


class NotSignedIn(LedgerError):
    """The action needs an account, and none is signed in (the web's 401)."""


class Forbidden(LedgerError):
    """The signed-in account's role is not granted the action (the web's 403)."""


class TooManyAttempts(LedgerError):
    """Sign-ins are refused for a while after too many wrong passwords (the web's 429)."""

    def __init__(self, message: str, retry_at: dt.datetime) -> None:
        super().__init__(message)
        self.retry_at = retry_at


def permits(role: Role, action: Action) -> bool:
    """Whether `role` is granted `action` (an action missing from the table: never)."""
    return role in GRANTED.get(action, frozenset())


def require(role: Role, action: Action, *, by_token: bool = False) -> None:
    """Refuse `action` to `role` unless the table grants it (`by_token`: to a token, unless
    a token may do it, `BY_PASSWORD_ONLY`)."""
    if by_token and action in BY_PASSWORD_ONLY:
        raise Forbidden("a token may not manage tokens or accounts; sign in on the site.")
    if permits(role, action):
        return
    if role is Role.READER:
        raise NotSignedIn("sign in with an account that may do this.")
    raise Forbidden(f"an {role}'s account may not do this; ask a rating officer.")


def digest(secret: str) -> str:
    """How the ledger keeps a secret (a session, a token, a password link): its SHA-256 in
    hex, from which the secret cannot be found again."""
    return hashlib.sha256(secret.encode()).hexdigest()
