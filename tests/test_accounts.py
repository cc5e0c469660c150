"""Accounts of the site: made from the command line (the first officer) and by officers,
passwords set from one-time links, sign-ins throttled, sessions and tokens revocable, forms
refused from other sites, and who may open what, route by route. Both backends."""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import json
import re
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote, unquote

import pytest
from fastapi import APIRouter
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from typer.testing import CliRunner

from ledger.cli import app
from ledger.core.access import Action, Role, TooManyAttempts
from ledger.services import accounts
from ledger.services.activity import Author
from ledger.storage.database import Ledger
from ledger.storage.models import Account, AccountSecret, SecretKind, SignInFailure
from ledger.web import (
    api,
    caching,
    create_app,
    desk,
    desk_api,
    pages,
    report_pages,
    review_pages,
    signing,
)
from ledger.web.answering import FORM_BYTES
from ledger.web.gate import action_of, serves

from builders import NOW, run

SITE = "http://ledger.test"
SAME_SITE = {"Origin": SITE}
PASSWORDS = {Role.ORGANISER: "organiser's password", Role.OFFICER: "officer's password"}
EMAILS = {Role.ORGANISER: "oscar@club.test", Role.OFFICER: "olga@federation.test"}


def _account(ledger: Ledger, role: Role, email: str | None = None) -> int:
    with ledger.transaction() as session:
        made = accounts.add_account(
            session,
            email or EMAILS[role],
            f"A {role}",
            role,
            Author("test"),
            NOW,
            PASSWORDS[role],
        )
    return made.id


@pytest.fixture
def site(ledger: Ledger, database_url: str) -> Iterator[TestClient]:
    """The site over a ledger with an organiser's and an officer's accounts."""
    for role in (Role.ORGANISER, Role.OFFICER):
        _account(ledger, role)
    with TestClient(create_app(database_url), base_url=SITE) as client:
        yield client


def _signed_in(client: TestClient, role: Role) -> TestClient:
    answer = client.post(
        "/sign-in",
        data={"email": EMAILS[role], "password": PASSWORDS[role]},
        headers=SAME_SITE,
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    return client


# The command line.


def test_the_first_officer_is_made_from_the_command_line(database_url: str) -> None:
    made = run(
        "users",
        "add",
        "Olga@Federation.test",
        "--name",
        "Olga",
        "--role",
        "officer",
        db=database_url,
    )
    assert made.exit_code == 0, made.stderr
    first, second = made.stdout.splitlines()
    assert first == "Made account 1, olga@federation.test, an officer."
    assert re.fullmatch(
        r"Its holder sets the password once, within 7 days, at "
        r"http://127\.0\.0\.1:8000/account/password/[A-Za-z0-9_-]{43}",
        second,
    )
    listed = run("users", "list", "--format", "csv", db=database_url)
    assert listed.stdout.splitlines()[1].startswith("1,olga@federation.test,Olga,officer,")
    assert ",False" in listed.stdout.splitlines()[1]


def test_a_password_set_from_a_prompt(database_url: str) -> None:
    arguments = ["users", "add", "o@club.test", "--name", "O", "--role", "organiser"]
    typed = "a long password\na long password\n"
    result = CliRunner().invoke(app, [*arguments, "--password", "--db", database_url], input=typed)
    assert result.exit_code == 0, result.stderr
    assert "/account/password/" not in result.stdout
    assert "a long password" not in result.stdout
    with TestClient(create_app(database_url), base_url=SITE) as client:
        signed = client.post(
            "/sign-in",
            data={"email": "o@club.test", "password": "a long password"},
            headers=SAME_SITE,
            follow_redirects=False,
        )
        assert signed.status_code == 303


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        (
            ("users", "add", "not-an-address", "--name", "X", "--role", "officer"),
            "error: email: 'not-an-address' is not an e-mail address (name@example.org).\n",
        ),
        (
            ("users", "add", "x@club.test", "--name", " ", "--role", "officer"),
            "error: name: give the account holder's name (at most 200 characters).\n",
        ),
        (
            ("users", "add", "OLGA@federation.test", "--name", "X", "--role", "officer"),
            "error: there is already an account for olga@federation.test.\n",
        ),
        (
            ("users", "disable", "nobody@club.test"),
            "error: there is no account for nobody@club.test; `ledger users list` lists them.\n",
        ),
        (
            ("users", "role", "olga@federation.test", "officer"),
            "error: olga@federation.test is already an officer.\n",
        ),
        (
            ("tokens", "add", "oscar@club.test", "--name", "x", "--role", "officer"),
            "error: role: a token of oscar@club.test may do at most what an organiser may.\n",
        ),
        (("tokens", "revoke", "99"), "error: there is no token 99.\n"),
        *(
            (
                arguments,
                "error: olga@federation.test is the site's last officer; make another officer "
                "first (`ledger users add EMAIL --role officer`), so that someone can manage "
                "the site.\n",
            )
            for arguments in (
                ("users", "disable", "olga@federation.test"),
                ("users", "role", "olga@federation.test", "organiser"),
            )
        ),
        (
            ("users", "add", "x@club.test", "--name", "X\x1b[2J", "--role", "officer"),
            "error: name: the name holds the control character \\x1b; names, titles and events "
            "are plain text.\n",
        ),
        (
            ("users", "disable", "x\x1b@club.test"),
            "error: email: the address holds the control character \\x1b; names, titles and "
            "events are plain text.\n",
        ),
        (
            ("tokens", "add", "olga@federation.test", "--name", "ci\u202etxt"),
            "error: name: the token's name holds the right-to-left override U+202E, which "
            "reorders the text shown around it; names, titles and events are plain text.\n",
        ),
    ],
)
def test_the_command_line_refuses_in_one_line(
    ledger: Ledger, database_url: str, arguments: tuple[str, ...], error: str
) -> None:
    _account(ledger, Role.OFFICER)
    _account(ledger, Role.ORGANISER)
    refused = run(*arguments, db=database_url)
    assert (refused.exit_code, refused.stderr) == (1, error)


def test_an_officer_is_disabled_while_another_remains(ledger: Ledger, database_url: str) -> None:
    _account(ledger, Role.OFFICER)
    _account(ledger, Role.OFFICER, "otto@federation.test")
    assert run("users", "disable", "otto@federation.test", db=database_url).exit_code == 0
    refused = run("users", "role", "olga@federation.test", "organiser", db=database_url)
    assert "the site's last officer" in refused.stderr


@pytest.mark.parametrize(
    "arguments",
    [
        ("users", "add", "x@club.test", "--name", "X", "--role", "reader"),
        ("users", "role", "olga@federation.test", "reader"),
        ("tokens", "add", "olga@federation.test", "--name", "x", "--role", "boss"),
    ],
)
def test_a_role_that_is_not_one_is_a_usage_error(
    ledger: Ledger, database_url: str, arguments: tuple[str, ...]
) -> None:
    _account(ledger, Role.OFFICER)
    refused = run(*arguments, db=database_url)
    assert refused.exit_code == 2
    assert refused.stderr.startswith("error: role: '")
    assert refused.stderr.endswith("' is not a role an account has; choose organiser or officer.\n")


def test_a_token_is_shown_once_kept_as_a_digest_and_revoked(
    ledger: Ledger, database_url: str
) -> None:
    _account(ledger, Role.ORGANISER)
    made = run("tokens", "add", "oscar@club.test", "--name", "pairing program", db=database_url)
    token = made.stdout.strip()
    assert re.fullmatch(r"ledger_[A-Za-z0-9_-]{43}", token)
    with ledger.reading() as session:
        kept = session.scalars(
            select(AccountSecret.digest).where(AccountSecret.kind == SecretKind.TOKEN)
        ).all()
    assert kept == [hashlib.sha256(token.encode()).hexdigest()]
    listed = run("tokens", "list", "oscar@club.test", "--format", "json", db=database_url)
    assert token not in listed.stdout
    [shown] = json.loads(listed.stdout)
    assert (shown["name"], shown["role"], shown["revoked_at"]) == (
        "pairing program",
        "organiser",
        None,
    )
    with TestClient(create_app(database_url), base_url=SITE) as client:
        bearer = {"Authorization": f"Bearer {token}"}
        assert client.get("/desk", headers=bearer).status_code == 200
        assert run("tokens", "revoke", str(shown["id"]), db=database_url).exit_code == 0
        refused = client.get("/desk", headers=bearer)
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"] == 'Bearer realm="ledger"'


@pytest.mark.parametrize(
    ("method", "path", "form"),
    [
        ("GET", "/desk/tokens", None),
        ("POST", "/desk/tokens", {"name": "another", "role": "officer"}),
        ("GET", "/desk/accounts", None),
        ("POST", "/desk/accounts", {"email": "new@club.test", "name": "New", "role": "officer"}),
    ],
)
def test_a_token_manages_neither_tokens_nor_accounts(
    ledger: Ledger, database_url: str, method: str, path: str, form: dict[str, str] | None
) -> None:
    """A leaked token could otherwise make another that outlives its revocation: tokens and
    accounts are managed from a page session, begun with the password."""
    _account(ledger, Role.OFFICER)
    token = run("tokens", "add", EMAILS[Role.OFFICER], "--name", "ci", db=database_url)
    bearer = {"Authorization": f"Bearer {token.stdout.strip()}"}
    with TestClient(create_app(database_url), base_url=SITE) as client:
        assert client.get("/api/v1/desk/queue", headers=bearer).status_code == 200
        refused = client.request(method, path, data=form, headers=bearer)
    assert refused.status_code == 403
    assert "a token may not manage tokens or accounts; sign in on the site." in refused.text
    listed = run("tokens", "list", EMAILS[Role.OFFICER], "--format", "json", db=database_url)
    assert len(json.loads(listed.stdout)) == 1
    assert "new@club.test" not in run("users", "list", db=database_url).stdout


# Signing in.


def test_an_account_signs_in_and_out(site: TestClient) -> None:
    assert site.get("/desk", follow_redirects=False).headers["location"] == "/sign-in?next=/desk"
    _signed_in(site, Role.ORGANISER)
    shown = site.get("/desk")
    assert "Signed in as A organiser (oscar@club.test), organiser." in shown.text
    assert shown.headers["cache-control"] == "private, no-store"
    assert "etag" not in shown.headers
    cookie = site.cookies["ledger_session"]
    assert site.post("/sign-out", headers=SAME_SITE, follow_redirects=False).status_code == 303
    site.cookies.set("ledger_session", cookie)
    assert site.get("/desk", follow_redirects=False).status_code == 303


def test_an_action_refused_says_it_was_not_done_and_a_read_what_it_cannot_show(
    site: TestClient,
) -> None:
    officer = _signed_in(site, Role.OFFICER)
    refused = officer.post(
        "/desk/periods/close",
        data={"pool": "standard", "period": "2026-01"},
        headers=SAME_SITE,
    )
    assert refused.status_code == 409
    assert "<h1>Not done</h1>" in refused.text
    unknown = officer.get("/lists/standard/2001-01")
    assert unknown.status_code == 404
    assert "<h1>Not found</h1>" in unknown.text
    refused_read = officer.get("/lists/standard/latest?as_of=2026-02-30")
    assert refused_read.status_code == 400
    assert "<h1>Cannot show this</h1>" in refused_read.text
    read_only = officer.post("/lists/standard/latest", headers=SAME_SITE)
    assert read_only.status_code == 405
    assert "this address answers GET, HEAD, not POST." in read_only.text
    wrong_way = officer.get("/desk/periods/close")
    assert wrong_way.status_code == 405
    assert wrong_way.headers["allow"] == "POST"
    assert "this address answers POST, not GET." in wrong_way.text


def test_the_session_cookie_is_http_only_and_lax(site: TestClient) -> None:
    answer = site.post(
        "/sign-in",
        data={"email": EMAILS[Role.OFFICER], "password": PASSWORDS[Role.OFFICER]},
        headers=SAME_SITE,
        follow_redirects=False,
    )
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=lax" in cookie
    assert "Secure" not in cookie  # the test site is plain HTTP
    with TestClient(site.app, base_url="https://ledger.test") as secure:
        signed = secure.post(
            "/sign-in",
            data={"email": EMAILS[Role.OFFICER], "password": PASSWORDS[Role.OFFICER]},
            headers={"Origin": "https://ledger.test"},
            follow_redirects=False,
        )
        assert "Secure" in signed.headers["set-cookie"]


def test_an_expired_session_and_a_disabled_account_are_refused(
    site: TestClient, ledger: Ledger
) -> None:
    _signed_in(site, Role.ORGANISER)
    assert site.get("/desk").status_code == 200
    with ledger.transaction() as session:
        session.execute(
            update(AccountSecret)
            .where(AccountSecret.kind == SecretKind.SESSION)
            .values(expires_at=dt.datetime(2000, 1, 1))
        )
    assert site.get("/desk", follow_redirects=False).status_code == 303
    _signed_in(site, Role.ORGANISER)
    with ledger.transaction() as session:
        accounts.disable_account(session, EMAILS[Role.ORGANISER], Author("test"), NOW)
    assert site.get("/desk", follow_redirects=False).status_code == 303
    refused = site.post(
        "/sign-in",
        data={"email": EMAILS[Role.ORGANISER], "password": PASSWORDS[Role.ORGANISER]},
        headers=SAME_SITE,
    )
    assert refused.status_code == 400
    assert "the e-mail address or the password is wrong." in refused.text


def test_a_password_link_works_once(ledger: Ledger, database_url: str) -> None:
    with ledger.transaction() as session:
        made = accounts.add_account(
            session, "new@club.test", "New", Role.ORGANISER, Author("t"), NOW
        )
    link = f"/account/password/{made.password_link}"
    with TestClient(create_app(database_url), base_url=SITE) as client:
        assert client.get(link).status_code == 200
        short = client.post(link, data={"password": "short", "again": "short"}, headers=SAME_SITE)
        assert short.status_code == 400
        assert "choose one of 10 to 200 characters" in short.text
        chosen = {"password": "a new password", "again": "a new password"}
        set_now = client.post(link, data=chosen, headers=SAME_SITE, follow_redirects=False)
        assert (set_now.status_code, set_now.headers["location"]) == (303, "/sign-in?password=set")
        told = client.get(set_now.headers["location"])
        assert "Your password is set: sign in with it." in told.text
        assert "password is set" not in client.get("/sign-in").text
        again = client.post(link, data=chosen, headers=SAME_SITE)
        assert again.status_code == 404
        signed = client.post(
            "/sign-in",
            data={"email": "new@club.test", "password": "a new password"},
            headers=SAME_SITE,
            follow_redirects=False,
        )
        assert signed.status_code == 303


def test_a_password_link_expires(ledger: Ledger) -> None:
    with ledger.transaction() as session:
        made = accounts.add_account(
            session, "late@club.test", "Late", Role.ORGANISER, Author("t"), NOW
        )
    assert made.password_link is not None
    later = NOW + accounts.PASSWORD_LINK_LIFETIME + dt.timedelta(minutes=1)
    with pytest.raises(Exception, match="has expired or was used"), ledger.transaction() as session:
        accounts.set_password_by_link(session, made.password_link, "a fine password", later)


def test_a_password_is_kept_as_its_argon2id_hash_alone(ledger: Ledger) -> None:
    _account(ledger, Role.OFFICER)
    with ledger.transaction() as session:
        made = accounts.add_account(
            session, "new@club.test", "New", Role.ORGANISER, Author("t"), NOW
        )
        assert made.password_link is not None
        accounts.set_password_by_link(session, made.password_link, "a new password", NOW)
    for email, password in (
        (EMAILS[Role.OFFICER], PASSWORDS[Role.OFFICER]),
        (made.email, "a new password"),
    ):
        stored = _kept(ledger, email).password_hash
        assert stored is not None
        assert stored.startswith("$argon2id$v=19$"), stored
        assert password not in stored


def _kept(ledger: Ledger, email: str) -> Account:
    """The account as the ledger keeps it."""
    with ledger.reading() as session:
        kept = session.scalars(select(Account).where(Account.email == email)).one()
        session.expunge(kept)
        return kept


def test_wrong_passwords_lock_an_account_for_a_while(ledger: Ledger) -> None:
    _account(ledger, Role.OFFICER)
    email = EMAILS[Role.OFFICER]
    for minute in range(accounts.MOST_FAILURES_PER_ACCOUNT):
        with ledger.transaction() as session:
            at = NOW + dt.timedelta(minutes=minute)
            assert accounts.sign_in(session, email, "guess", "10.0.0.1", at) is None
    locked_at = NOW + dt.timedelta(minutes=5)
    locked = pytest.raises(TooManyAttempts, match=r"try again after 12:15 UTC \(2030-01-01\)")
    with locked, ledger.transaction() as session:
        accounts.sign_in(session, email, PASSWORDS[Role.OFFICER], "10.0.0.2", locked_at)
    with ledger.transaction() as session:
        later = NOW + accounts.THROTTLE_WINDOW + dt.timedelta(minutes=1)
        assert accounts.sign_in(session, email, PASSWORDS[Role.OFFICER], "10.0.0.2", later)


def test_wrong_passwords_from_one_address_lock_it(ledger: Ledger) -> None:
    _account(ledger, Role.OFFICER)
    for number in range(accounts.MOST_FAILURES_PER_ADDRESS):
        with ledger.transaction() as session:
            assert accounts.sign_in(session, f"u{number}@x.test", "guess", "10.9.9.9", NOW) is None
    with pytest.raises(TooManyAttempts, match="for this address"), ledger.transaction() as session:
        accounts.sign_in(session, EMAILS[Role.OFFICER], PASSWORDS[Role.OFFICER], "10.9.9.9", NOW)


def test_wrong_passwords_past_the_window_are_forgotten_as_new_ones_come(ledger: Ledger) -> None:
    for number in range(12):
        with ledger.transaction() as session:
            accounts.sign_in(session, f"u{number}@x.test", "guess", f"10.2.0.{number}", NOW)
    later = NOW + accounts.THROTTLE_WINDOW + dt.timedelta(seconds=1)
    with ledger.transaction() as session:
        accounts.sign_in(session, "late@x.test", "guess", "10.3.0.1", later)
    with ledger.reading() as session:
        kept = session.scalars(select(SignInFailure.email).order_by(SignInFailure.id)).all()
    forgotten = accounts.FAILURES_FORGOTTEN_AT_ONCE
    assert kept == [f"u{number}@x.test" for number in range(forgotten, 12)] + ["late@x.test"]


def test_a_locked_account_is_told_when_to_try_again_on_the_web(site: TestClient) -> None:
    for _ in range(accounts.MOST_FAILURES_PER_ACCOUNT):
        wrong = {"email": EMAILS[Role.OFFICER], "password": "not the password"}
        assert site.post("/sign-in", data=wrong, headers=SAME_SITE).status_code == 400
    locked = site.post(
        "/sign-in",
        data={"email": EMAILS[Role.OFFICER], "password": PASSWORDS[Role.OFFICER]},
        headers=SAME_SITE,
    )
    assert locked.status_code == 429
    assert "too many wrong passwords for this account; try again after" in locked.text
    assert 1 <= int(locked.headers["retry-after"]) <= 15 * 60


@pytest.mark.parametrize(
    ("path", "form", "words"),
    [
        (
            "/desk/accounts",
            {"email": "n\x00ul@club.test", "name": "New", "role": "organiser"},
            "email: the address holds the control character \\x00",
        ),
        (
            "/desk/accounts",
            {"email": "new@club.test", "name": "a\x00b", "role": "organiser"},
            "name: the name holds the control character \\x00",
        ),
        ("/desk/tokens", {"name": "n\x00", "role": "officer"}, "the token&#39;s name holds"),
        ("/desk/accounts/a%00b@club.test/disable", {}, "the address holds the control character"),
    ],
    ids=["e-mail", "name", "token", "account named in the address"],
)
def test_a_nul_is_refused_in_one_sentence_on_either_backend(
    site: TestClient, path: str, form: dict[str, str], words: str
) -> None:
    """PostgreSQL cannot keep a NUL, SQLite can: the ledger refuses it first, the same on
    both, without naming either."""
    _signed_in(site, Role.OFFICER)
    refused = site.post(path, data=form, headers=SAME_SITE)
    assert refused.status_code == 400
    assert words in refused.text
    assert "PostgreSQL" not in refused.text
    assert "\x00" not in site.get("/desk/accounts").text


def test_an_address_the_ledger_keeps_signs_in_whatever_its_characters(
    ledger: Ledger, site: TestClient
) -> None:
    """An e-mail with a zero-width space is printable text the ledger keeps: its account
    signs in (a sign-in checks an address as an account's is checked, once)."""
    _account(ledger, Role.ORGANISER, "ann\u200b@club.test")
    signed = site.post(
        "/sign-in",
        data={"email": "ANN\u200b@club.test", "password": PASSWORDS[Role.ORGANISER]},
        headers=SAME_SITE,
        follow_redirects=False,
    )
    assert signed.status_code == 303


def test_a_sign_in_with_a_nul_in_its_address_is_a_wrong_password(site: TestClient) -> None:
    wrong = {"email": "olga\x00@federation.test", "password": PASSWORDS[Role.OFFICER]}
    refused = site.post("/sign-in", data=wrong, headers=SAME_SITE)
    assert refused.status_code == 400
    assert accounts.WRONG_PASSWORD in refused.text


def test_sign_ins_at_once_try_no_more_passwords_than_the_limit(
    ledger: Ledger, database_url: str
) -> None:
    """Twenty wrong sign-ins for one account at once: each counts those before it (on
    PostgreSQL under a lock per account and address), so only the limit's number try a
    password and the rest are refused."""
    _account(ledger, Role.OFFICER)

    def attempt(number: int) -> str:
        try:
            with ledger.transaction() as session:
                tried = accounts.sign_in(
                    session, EMAILS[Role.OFFICER], "guess", f"10.1.0.{number}", NOW
                )
        except TooManyAttempts:
            return "refused"
        assert tried is None
        return "tried"

    with ThreadPoolExecutor(max_workers=10) as pool:
        outcomes = Counter(pool.map(attempt, range(20)))
    assert outcomes == {"tried": accounts.MOST_FAILURES_PER_ACCOUNT, "refused": 15}


# Forms from other sites.


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Origin": "https://elsewhere.test"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site", "Origin": SITE},
        {"Sec-Fetch-Site": "same-site"},
    ],
    ids=["no origin", "another site", "opaque origin", "cross-site fetch", "a sibling site"],
)
def test_a_form_sent_from_another_site_is_refused(
    site: TestClient, headers: dict[str, str]
) -> None:
    _signed_in(site, Role.OFFICER)
    sent = site.post("/desk/tokens", data={"name": "stolen", "role": "officer"}, headers=headers)
    assert sent.status_code == 403
    assert "from its own pages only" in sent.text
    assert "stolen" not in site.get("/desk/tokens").text


@pytest.mark.parametrize("authorization", ["", "Bearer", "Basic b2xnYTpwdw=="])
def test_a_request_that_names_no_token_is_not_taken_on_its_cookie(
    site: TestClient, authorization: str
) -> None:
    """A request with an `Authorization` header is a token's: the form check lets it
    through for that token, so its cookie never signs it in."""
    _signed_in(site, Role.OFFICER)
    headers = {"Authorization": authorization}
    sent = site.post("/desk/tokens", data={"name": "smuggled", "role": "officer"}, headers=headers)
    assert sent.status_code == 401
    assert "send a token as `Authorization: Bearer TOKEN`" in sent.text
    assert "smuggled" not in site.get("/desk/tokens").text


def test_a_form_sent_from_the_site_itself_is_taken(site: TestClient) -> None:
    _signed_in(site, Role.OFFICER)
    for headers in ({"Sec-Fetch-Site": "same-origin"}, SAME_SITE):
        sent = site.post("/desk/tokens", data={"name": "mine", "role": "officer"}, headers=headers)
        assert sent.status_code == 200


# Changed by an officer on the site.


def _changed(officer: TestClient, email: str, action: str, form: dict[str, str]) -> None:
    sent = officer.post(
        f"/desk/accounts/{quote(email, safe='')}/{action}",
        data=form,
        headers=SAME_SITE,
        follow_redirects=False,
    )
    assert (sent.status_code, sent.headers.get("location")) == (303, "/desk/accounts"), sent.text


def test_a_role_changed_on_the_site_counts_at_once_for_the_signed_in_account(
    site: TestClient, ledger: Ledger, database_url: str
) -> None:
    email = EMAILS[Role.ORGANISER]
    with TestClient(site.app, base_url=SITE) as organiser:
        _signed_in(organiser, Role.ORGANISER)
        assert organiser.get("/desk/queue").status_code == 403
        _changed(_signed_in(site, Role.OFFICER), email, "role", {"role": "officer"})
        assert _kept(ledger, email).role == Role.OFFICER
        assert organiser.get("/desk/queue").status_code == 200
        assert f"({email}), officer." in organiser.get("/desk").text
        _changed(site, email, "role", {"role": "organiser"})
        assert organiser.get("/desk/queue").status_code == 403
    newest = json.loads(run("log", "--format", "json", db=database_url).stdout)
    assert [entry["action"] for entry in newest[:2]] == ["change-role", "change-role"]


def test_an_account_disabled_on_the_site_loses_its_sessions_and_tokens(
    site: TestClient, ledger: Ledger, database_url: str
) -> None:
    email = EMAILS[Role.ORGANISER]
    token = run("tokens", "add", email, "--name", "pairings", db=database_url).stdout.strip()
    bearer = {"Authorization": f"Bearer {token}"}
    with TestClient(site.app, base_url=SITE) as organiser:
        _signed_in(organiser, Role.ORGANISER)
        assert organiser.get("/desk").status_code == 200
        assert organiser.get("/api/v1/desk/reports", headers=bearer).status_code == 200
        _changed(_signed_in(site, Role.OFFICER), email, "disable", {})
        assert _kept(ledger, email).disabled_at is not None
        refused = organiser.get("/desk", follow_redirects=False)
        assert (refused.status_code, refused.headers["location"]) == (303, "/sign-in?next=/desk")
        assert organiser.get("/api/v1/desk/reports", headers=bearer).status_code == 401
        again = organiser.post(
            "/sign-in",
            data={"email": email, "password": PASSWORDS[Role.ORGANISER]},
            headers=SAME_SITE,
        )
        assert again.status_code == 400
        assert accounts.WRONG_PASSWORD in again.text


def test_a_token_revoked_on_the_site_is_refused(site: TestClient, ledger: Ledger) -> None:
    officer = _signed_in(site, Role.OFFICER)
    made = officer.post("/desk/tokens", data={"name": "ci", "role": "officer"}, headers=SAME_SITE)
    [token] = re.findall(r"ledger_[A-Za-z0-9_-]{43}", made.text)
    bearer = {"Authorization": f"Bearer {token}"}
    assert officer.get("/api/v1/desk/queue", headers=bearer).status_code == 200
    with ledger.reading() as session:
        [number] = session.scalars(
            select(AccountSecret.id).where(AccountSecret.kind == SecretKind.TOKEN)
        ).all()
    revoked = officer.post(
        f"/desk/tokens/{number}/revoke", headers=SAME_SITE, follow_redirects=False
    )
    assert (revoked.status_code, revoked.headers["location"]) == (303, "/desk/tokens")
    refused = officer.get("/api/v1/desk/queue", headers=bearer)
    assert refused.status_code == 401
    assert refused.headers["www-authenticate"] == 'Bearer realm="ledger"'
    with ledger.reading() as session:
        kept = session.scalars(select(AccountSecret.revoked_at).where(AccountSecret.id == number))
        assert kept.one() is not None


@pytest.mark.parametrize(
    "email", ["ari/cup@club.test", "a+b@club.test", "o'neil@club.test", "a?b#c%d@club.test"]
)
def test_an_account_is_changed_and_disabled_from_its_row_whatever_its_address(
    site: TestClient, ledger: Ledger, email: str
) -> None:
    """The row's forms, as the page writes their actions (a `/` in an address, allowed by
    RFC 5321, sent as `%2F`, once led to no page)."""
    _account(ledger, Role.ORGANISER, email)
    officer = _signed_in(site, Role.OFFICER)
    shown = officer.get("/desk/accounts").text
    actions = [html.unescape(a) for a in re.findall(r'action="(/desk/accounts/[^"]+)"', shown)]
    role, disable = (a for a in actions if unquote(a.split("/")[3]) == email)
    assert officer.post(role, data={"role": "officer"}, headers=SAME_SITE).status_code == 200
    assert _kept(ledger, email).role == Role.OFFICER
    assert officer.post(disable, headers=SAME_SITE).status_code == 200
    assert _kept(ledger, email).disabled_at is not None


# Who may open what.

ANONYMOUS = None
ROUTES: dict[tuple[str, str], dict[Role | None, int]] = {
    ("GET", "/desk"): {ANONYMOUS: 303, Role.ORGANISER: 200, Role.OFFICER: 200},
    ("GET", "/desk/tokens"): {ANONYMOUS: 303, Role.ORGANISER: 200, Role.OFFICER: 200},
    ("POST", "/desk/tokens"): {ANONYMOUS: 401, Role.ORGANISER: 200, Role.OFFICER: 200},
    ("POST", "/desk/tokens/{token}/revoke"): {
        ANONYMOUS: 401,
        Role.ORGANISER: 404,
        Role.OFFICER: 404,
    },
    ("GET", "/desk/accounts"): {ANONYMOUS: 303, Role.ORGANISER: 403, Role.OFFICER: 200},
    ("POST", "/desk/accounts"): {ANONYMOUS: 401, Role.ORGANISER: 403, Role.OFFICER: 200},
    ("POST", "/desk/accounts/{account:path}/disable"): {
        ANONYMOUS: 401,
        Role.ORGANISER: 403,
        Role.OFFICER: 404,
    },
    ("POST", "/desk/accounts/{account:path}/role"): {
        ANONYMOUS: 401,
        Role.ORGANISER: 403,
        Role.OFFICER: 404,
    },
    ("GET", "/desk/log"): {ANONYMOUS: 303, Role.ORGANISER: 403, Role.OFFICER: 200},
    ("GET", "/sign-in"): {ANONYMOUS: 200, Role.ORGANISER: 200, Role.OFFICER: 200},
    ("POST", "/sign-in"): {ANONYMOUS: 400, Role.ORGANISER: 400, Role.OFFICER: 400},
    ("POST", "/sign-out"): {ANONYMOUS: 303, Role.ORGANISER: 303, Role.OFFICER: 303},
    ("GET", "/account/password/{link}"): {ANONYMOUS: 200, Role.ORGANISER: 200, Role.OFFICER: 200},
    ("POST", "/account/password/{link}"): {ANONYMOUS: 404, Role.ORGANISER: 404, Role.OFFICER: 404},
    ("GET", "/desk/reports"): {ANONYMOUS: 303, Role.ORGANISER: 200, Role.OFFICER: 200},
    ("GET", "/desk/reports/upload"): {ANONYMOUS: 303, Role.ORGANISER: 200, Role.OFFICER: 200},
    ("POST", "/desk/reports/upload"): {ANONYMOUS: 401, Role.ORGANISER: 303, Role.OFFICER: 303},
    ("GET", "/desk/reports/{report}"): {ANONYMOUS: 303, Role.ORGANISER: 404, Role.OFFICER: 404},
    ("GET", "/desk/reports/{report}/versions/{number}/file"): {
        ANONYMOUS: 303,
        Role.ORGANISER: 404,
        Role.OFFICER: 404,
    },
    ("GET", "/desk/queue"): {ANONYMOUS: 303, Role.ORGANISER: 403, Role.OFFICER: 200},
    ("GET", "/desk/periods"): {ANONYMOUS: 303, Role.ORGANISER: 403, Role.OFFICER: 200},
    ("GET", "/api/v1/desk/reports"): {ANONYMOUS: 401, Role.ORGANISER: 200, Role.OFFICER: 200},
    ("POST", "/api/v1/desk/reports/upload"): {
        ANONYMOUS: 401,
        Role.ORGANISER: 200,
        Role.OFFICER: 200,
    },
    ("GET", "/api/v1/desk/reports/{report}"): {
        ANONYMOUS: 401,
        Role.ORGANISER: 404,
        Role.OFFICER: 404,
    },
    ("GET", "/api/v1/desk/queue"): {ANONYMOUS: 401, Role.ORGANISER: 403, Role.OFFICER: 200},
    **{
        ("POST", f"{api}{path}"): answers
        for api in ("", "/api/v1")
        for path, answers in {
            "/desk/reports/{report}/warnings/{warning}/acknowledge": {
                ANONYMOUS: 401,
                Role.ORGANISER: 404,
                Role.OFFICER: 404,
            },
            "/desk/reports/{report}/submit": {
                ANONYMOUS: 401,
                Role.ORGANISER: 404,
                Role.OFFICER: 404,
            },
            "/desk/reports/{report}/withdraw": {
                ANONYMOUS: 401,
                Role.ORGANISER: 404,
                Role.OFFICER: 404,
            },
            "/desk/reports/{report}/accept": {
                ANONYMOUS: 401,
                Role.ORGANISER: 403,
                Role.OFFICER: 404,
            },
            "/desk/reports/{report}/return": {
                ANONYMOUS: 401,
                Role.ORGANISER: 403,
                Role.OFFICER: 404,
            },
            "/desk/reports/{report}/reject": {
                ANONYMOUS: 401,
                Role.ORGANISER: 403,
                Role.OFFICER: 404,
            },
            "/desk/periods/close": {ANONYMOUS: 401, Role.ORGANISER: 403, Role.OFFICER: 409},
        }.items()
    },
}
"""Every route a signed-in account's pages add, with the answer each role gets: 200 (or a
redirect) where allowed, 401 (a page asked for with GET: 303 to sign in) for anyone not
signed in, 403 for a role not granted. The bodies sent are valid but name nothing that
exists, so an allowed write answers 404 where it names an account, a token, a password
link or a report, 400 where it is a sign-in the ledger refuses, 409 where it closes a
period of a ledger with nothing to publish; an upload of a file the ledger cannot read is
taken (a draft that lists its problems), and its page is shown (303) or its JSON (200)."""
REPORT_BODIES = {
    "/desk/reports/upload": {"pool": "standard"},
    "/desk/reports/{report}/warnings/{warning}/acknowledge": {"note": "the arbiter confirms"},
    "/desk/reports/{report}/return": {"reason": "round 3 is missing"},
    "/desk/reports/{report}/reject": {"category": "other", "reason": "not a FIDE event"},
    "/desk/periods/close": {"pool": "standard", "period": "2026-01"},
}
BODIES = {
    "/desk/tokens": {"name": "script", "role": "organiser"},
    "/desk/accounts": {"email": "new@club.test", "name": "New", "role": "organiser"},
    "/desk/accounts/{account:path}/role": {"role": "officer"},
    "/sign-in": {"email": "nobody@club.test", "password": "no password at all"},
    "/account/password/{link}": {"password": "a long password", "again": "a long password"},
    **{api + path: body for api in ("", "/api/v1") for path, body in REPORT_BODIES.items()},
}
FILES = {
    api + "/desk/reports/upload": {"file": ("cup.trf", b"012 Cup\n", "text/plain")}
    for api in ("", "/api/v1")
}
FILLED = {
    "{token}": "99",
    "{account:path}": "nobody%40club.test",
    "{link}": "no-such-link",
    "{report}": "99",
    "{number}": "1",
    "{warning}": "99",
}


PUBLIC_ROUTERS = (pages.router, api.router)
ACCOUNT_ROUTERS = (
    signing.router,
    desk.router,
    report_pages.router,
    review_pages.router,
    desk_api.router,
)


def _routes(router: APIRouter) -> list[APIRoute]:
    return [route for route in router.routes if isinstance(route, APIRoute)]


def test_every_route_names_its_action_and_the_private_ones_are_in_the_table() -> None:
    """A new route names its action (else the gate refuses it to everyone); a signed-in
    account's route must be added to `ROUTES` above, with what each role gets."""
    for router in PUBLIC_ROUTERS:
        for route in _routes(router):
            assert action_of(route.endpoint) is Action.READ_PUBLIC, route.path
            assert not caching.is_private(route.path), route.path
    private = {
        (method, route.path)
        for router in ACCOUNT_ROUTERS
        for route in _routes(router)
        for method in route.methods
    }
    assert private == set(ROUTES)
    for router in ACCOUNT_ROUTERS:
        for route in _routes(router):
            assert action_of(route.endpoint) is not None, route.path
            assert caching.is_private(route.path), route.path


@pytest.mark.parametrize(("method", "path"), list(ROUTES), ids=[" ".join(r) for r in ROUTES])
@pytest.mark.parametrize("role", [ANONYMOUS, Role.ORGANISER, Role.OFFICER], ids=str)
def test_who_may_open_what(site: TestClient, method: str, path: str, role: Role | None) -> None:
    if role is not None:
        _signed_in(site, role)
    filled = path
    for name, value in FILLED.items():
        filled = filled.replace(name, value)
    sent = site.request(
        method,
        filled,
        data=BODIES.get(path),
        files=FILES.get(path),
        headers=SAME_SITE,
        follow_redirects=False,
    )
    assert sent.status_code == ROUTES[(method, path)][role], sent.text[:300]


def test_the_public_pages_need_no_account(site: TestClient) -> None:
    for path in ("/", "/events", "/api/v1/home"):
        assert site.get(path).status_code == 200


def test_a_route_that_names_no_action_is_refused_to_everyone(
    database_url: str, ledger: Ledger
) -> None:
    _account(ledger, Role.OFFICER)
    app = create_app(database_url)
    forgotten = APIRouter()

    @forgotten.get("/desk/forgotten")
    def unmarked() -> dict[str, str]:
        return {"secret": "x"}

    @forgotten.get("/desk/marked")
    @serves(Action.SEE_LOG)
    def marked() -> dict[str, str]:
        return {"fine": "x"}

    app.include_router(forgotten)
    with TestClient(app, base_url=SITE) as client:
        _signed_in(client, Role.OFFICER)
        assert client.get("/desk/forgotten").status_code == 403
        assert client.get("/desk/marked").status_code == 200


def test_a_mirror_has_no_sign_in(tmp_path: Path, ledger: Ledger, database_url: str) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("--read-only reads a SQLite file as unchanging")
    _account(ledger, Role.OFFICER)
    copy = tmp_path / "mirror.db"
    assert run("db", "backup", str(copy), db=database_url).exit_code == 0
    with TestClient(create_app(f"sqlite:///{copy}", unchanging=True), base_url=SITE) as mirror:
        shown = mirror.get("/sign-in")
        assert shown.status_code == 200
        assert "a public mirror of the rating lists: no one signs in to it" in shown.text
        assert 'id="sign-in"' not in shown.text
        assert mirror.get("/desk").status_code == 404
        refused = mirror.post("/sign-in", data={}, headers=SAME_SITE)
        assert (refused.status_code, refused.headers["allow"]) == (405, "GET, HEAD")


def test_every_account_change_is_logged_with_who_and_where(
    site: TestClient, database_url: str
) -> None:
    _signed_in(site, Role.OFFICER)
    site.post(
        "/desk/accounts",
        data={"email": "a@club.test", "name": "A", "role": "organiser"},
        headers=SAME_SITE,
    )
    newest = json.loads(run("log", "--format", "json", db=database_url).stdout)[0]
    assert (newest["action"], newest["operator"], newest["address"]) == (
        "add-account",
        "olga@federation.test",
        "testclient",
    )


def test_a_body_larger_than_a_form_is_refused_before_it_is_read(site: TestClient) -> None:
    _signed_in(site, Role.OFFICER)
    huge = {"name": "x" * (FORM_BYTES + 1), "role": "officer"}
    refused = site.post("/desk/tokens", data=huge, headers=SAME_SITE)
    assert refused.status_code == 413
    assert "larger than this page takes (64 KB at most)" in refused.text

    def chunks() -> Iterator[bytes]:
        """A body sent without its length, in pieces, growing past the limit."""
        for _ in range(100):
            yield b"name=" + b"x" * 4096

    streamed = site.post(
        "/desk/tokens",
        content=chunks(),
        headers={**SAME_SITE, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert streamed.status_code == 413
    assert "No tokens yet." in site.get("/desk/tokens").text
