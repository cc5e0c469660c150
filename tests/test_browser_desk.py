"""The desk's forms in a real browser, on SQLite and PostgreSQL, over `ledger serve`: each
form an officer or an organiser sends from the desk (accounts made, their role changed,
disabled; a password set from its link; tokens made and revoked; a report returned,
rejected or withdrawn; the queue filtered; signing out) is filled and its button clicked as
a person does, and the test sees both the page that answers and the change in the ledger.
(`tests/test_form_census.py` holds that every form of the templates has such a test.)
"""

from __future__ import annotations

import datetime as dt
import io
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from sqlalchemy import select

from ledger.core.access import Role
from ledger.core.domain import Pool
from ledger.queries.tournament_reports import COMMAND_LINE, report_detail
from ledger.services import accounts
from ledger.services import tournament_reports as reports
from ledger.services.activity import Author
from ledger.storage.database import Ledger
from ledger.storage.models import Account, AccountSecret, SecretKind
from ledger.web.gate import SESSION_COOKIE

from builders import NOW, reported_players, spring_open
from servers import serving

pytestmark = pytest.mark.browser

PASSWORD = "a long enough password"
ORGANISER, OFFICER = "ari@club.test", "olga@federation.test"
SENT = dt.datetime(2026, 4, 1, 10, 0)
"""When the organiser's report was sent and submitted: three days after its event ended."""


def _submitted_report(ledger: Ledger, organiser: int) -> int:
    """The organiser's Spring Open, its warning acknowledged, submitted to the officer."""
    sender = Author(ORGANISER, account_id=organiser)
    with ledger.transaction() as session:
        sent = reports.upload(
            session,
            "spring.trf",
            io.BytesIO(spring_open(fixed=True)),
            SENT,
            sender,
            Role.ORGANISER,
            pool=Pool.STANDARD,
        )
    with ledger.transaction() as session:
        detail = report_detail(session, sent.report, COMMAND_LINE)
        for found in detail.versions[0].findings:
            if found.tier == "warning":
                reports.acknowledge(
                    session, sent.report, found.id, "checked", SENT, sender, Role.ORGANISER
                )
        reports.submit(session, sent.report, SENT, sender, Role.ORGANISER)
    return sent.report


@pytest.fixture
def report(ledger: Ledger) -> int:
    """The ledger's accounts (an organiser, an officer) and the organiser's report."""
    reported_players(ledger)
    made = {}
    for email, role in ((ORGANISER, Role.ORGANISER), (OFFICER, Role.OFFICER)):
        with ledger.transaction() as session:
            name = email.split("@")[0].capitalize()
            made[email] = accounts.add_account(
                session, email, name, role, Author("test"), NOW, PASSWORD
            ).id
    return _submitted_report(ledger, made[ORGANISER])


@pytest.fixture
def site(report: int, database_url: str, tmp_path: Path) -> Iterator[str]:
    """The address of `ledger serve` over the accounts and the report."""
    with serving(database_url, tmp_path / "serve.log") as address:
        yield address


def _page(browser: Browser, site: str) -> Page:
    context = browser.new_context(base_url=site, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _signed_in(browser: Browser, site: str, email: str, password: str = PASSWORD) -> Page:
    page = _page(browser, site)
    page.goto("/")
    page.click("a.sign-in")
    _sign_in(page, email, password)
    expect(page.locator("#signed-in-as")).to_contain_text(email)
    return page


def _sign_in(page: Page, email: str, password: str) -> None:
    page.fill("form#sign-in input[name=email]", email)
    page.fill("form#sign-in input[name=password]", password)
    page.click("form#sign-in button[type=submit]")


def _account(ledger: Ledger, email: str) -> Account:
    with ledger.reading() as session:
        found = session.scalars(select(Account).where(Account.email == email)).one()
        session.expunge(found)
        return found


def _state(ledger: Ledger, report: int) -> str:
    with ledger.reading() as session:
        return report_detail(session, report, COMMAND_LINE).state


def _row(page: Page, table: str, text: str) -> Locator:
    return page.locator(f"table.{table} tbody tr", has_text=text)


def _status(page: Page, address: str) -> int:
    answer = page.goto(address)
    assert answer is not None
    return answer.status


def _api_status(site: str, token: str) -> int:
    """The status of the officer's queue in the API, asked with `token`."""
    asked = urllib.request.Request(
        f"{site.rstrip('/')}/api/v1/desk/queue", headers={"Authorization": f"Bearer {token}"}
    )
    try:
        with urllib.request.urlopen(asked, timeout=30) as answer:
            status: int = answer.status
            return status
    except urllib.error.HTTPError as refused:
        return refused.code


def test_an_account_made_on_the_desk_sets_its_password_and_signs_in(
    browser: Browser, site: str, ledger: Ledger
) -> None:
    officer = _signed_in(browser, site, OFFICER)
    officer.click("a[href='/desk/accounts']")
    officer.fill("form#add-account input[name=email]", "Nina@Club.test")
    officer.fill("form#add-account input[name=name]", "Nina New")
    officer.select_option("form#add-account select[name=role]", "organiser")
    officer.click("form#add-account button[type=submit]")
    expect(officer.locator("#made-account")).to_contain_text("Made nina@club.test, an organiser.")
    expect(_row(officer, "accounts", "nina@club.test").locator("td").nth(3)).to_have_text("not set")
    made = _account(ledger, "nina@club.test")
    assert (made.name, made.role, made.password_hash) == ("Nina New", Role.ORGANISER, None)

    link = officer.locator("#made-account code").inner_text()
    newcomer = _page(browser, site)
    newcomer.goto(link)
    newcomer.fill("form#set-password input[name=password]", "Nina's own password")
    newcomer.fill("form#set-password input[name=again]", "Nina's own password")
    newcomer.click("form#set-password button[type=submit]")
    expect(newcomer.locator("#password-set")).to_be_visible()
    _sign_in(newcomer, "nina@club.test", "Nina's own password")
    expect(newcomer.locator("#signed-in-as")).to_contain_text("nina@club.test), organiser.")
    stored = _account(ledger, "nina@club.test").password_hash
    assert stored is not None
    assert stored.startswith("$argon2id$")
    officer.goto("/desk/accounts")
    expect(_row(officer, "accounts", "nina@club.test").locator("td").nth(3)).to_have_text("set")


def test_an_officer_makes_an_organiser_an_officer_and_back(
    browser: Browser, site: str, ledger: Ledger
) -> None:
    organiser = _signed_in(browser, site, ORGANISER)
    assert _status(organiser, "/desk/queue") == 403
    officer = _signed_in(browser, site, OFFICER)
    officer.goto("/desk/accounts")
    _row(officer, "accounts", ORGANISER).get_by_role("button", name="Make officer").click()
    expect(officer).to_have_url(re.compile(r"/desk/accounts$"))
    row = _row(officer, "accounts", ORGANISER)
    expect(row.locator("td").nth(2)).to_have_text("officer")
    assert _account(ledger, ORGANISER).role == Role.OFFICER
    assert _status(organiser, "/desk/queue") == 200
    expect(organiser.locator("table.queue tbody tr")).to_have_count(1)

    row.get_by_role("button", name="Make organiser").click()
    expect(_row(officer, "accounts", ORGANISER).locator("td").nth(2)).to_have_text("organiser")
    assert _account(ledger, ORGANISER).role == Role.ORGANISER
    assert _status(organiser, "/desk/queue") == 403


def test_an_account_disabled_on_the_desk_is_signed_out_and_cannot_sign_in(
    browser: Browser, site: str, ledger: Ledger
) -> None:
    organiser = _signed_in(browser, site, ORGANISER)
    officer = _signed_in(browser, site, OFFICER)
    officer.goto("/desk/accounts")
    _row(officer, "accounts", ORGANISER).get_by_role("button", name="Disable").click()
    expect(officer).to_have_url(re.compile(r"/desk/accounts$"))
    row = _row(officer, "accounts", ORGANISER)
    expect(row.locator("td").nth(4)).to_have_text(re.compile(r"\d{4}-\d{2}-\d{2}"))
    expect(row.locator("button")).to_have_count(0)
    assert _account(ledger, ORGANISER).disabled_at is not None

    organiser.goto("/desk")
    expect(organiser).to_have_url(re.compile(r"/sign-in\?next=/desk$"))
    _sign_in(organiser, ORGANISER, PASSWORD)
    expect(organiser.locator("#problem")).to_have_text(accounts.WRONG_PASSWORD)
    expect(organiser.locator("#signed-in-as")).to_have_count(0)


def test_an_account_whose_address_holds_a_slash_is_changed_from_its_row(
    browser: Browser, site: str, ledger: Ledger
) -> None:
    """RFC 5321 allows a `/` before the `@`; the row's forms send it as `%2F`."""
    with ledger.transaction() as session:
        accounts.add_account(
            session, "ari/cup@club.test", "Cup", Role.ORGANISER, Author("test"), NOW, PASSWORD
        )
    officer = _signed_in(browser, site, OFFICER)
    officer.goto("/desk/accounts")
    _row(officer, "accounts", "ari/cup@").get_by_role("button", name="Make officer").click()
    expect(_row(officer, "accounts", "ari/cup@").locator("td").nth(2)).to_have_text("officer")
    _row(officer, "accounts", "ari/cup@").get_by_role("button", name="Disable").click()
    expect(_row(officer, "accounts", "ari/cup@").locator("button")).to_have_count(0)
    changed = _account(ledger, "ari/cup@club.test")
    assert (changed.role, changed.disabled_at is not None) == (Role.OFFICER, True)


def test_a_token_made_on_the_desk_opens_the_api_until_it_is_revoked(
    browser: Browser, site: str, ledger: Ledger
) -> None:
    officer = _signed_in(browser, site, OFFICER)
    officer.click("a[href='/desk/tokens']")
    officer.fill("form#add-token input[name=name]", "results script")
    officer.select_option("form#add-token select[name=role]", "organiser")
    officer.click("form#add-token button[type=submit]")
    token = officer.locator("#made-token code").inner_text()
    assert re.fullmatch(r"ledger_[A-Za-z0-9_-]{43}", token)
    row = _row(officer, "tokens", "results script")
    expect(row.locator("td").nth(2)).to_have_text("organiser")
    assert _api_status(site, token) == 403  # an organiser's token: not the queue

    officer.fill("form#add-token input[name=name]", "queue watcher")
    officer.select_option("form#add-token select[name=role]", "officer")
    officer.click("form#add-token button[type=submit]")
    token = officer.locator("#made-token code").inner_text()
    assert _api_status(site, token) == 200
    _row(officer, "tokens", "queue watcher").get_by_role("button", name="Revoke").click()
    expect(officer).to_have_url(re.compile(r"/desk/tokens$"))
    revoked = _row(officer, "tokens", "queue watcher")
    expect(revoked.locator("td").nth(4)).to_have_text(re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}"))
    expect(revoked.locator("button")).to_have_count(0)
    expect(_row(officer, "tokens", "results script").locator("button")).to_have_count(1)
    assert _api_status(site, token) == 401
    with ledger.reading() as session:
        tokens = session.execute(
            select(AccountSecret.name, AccountSecret.revoked_at)
            .where(AccountSecret.kind == SecretKind.TOKEN)
            .order_by(AccountSecret.id)
        ).all()
    assert [(name, at is not None) for name, at in tokens] == [
        ("results script", False),
        ("queue watcher", True),
    ]


def _review(browser: Browser, site: str) -> Page:
    """The officer, on the report's page, opened from the queue."""
    officer = _signed_in(browser, site, OFFICER)
    officer.click("a[href='/desk/queue']")
    officer.click("table.queue a.report:has-text('Spring Open')")
    return officer


def test_an_officer_returns_a_report_with_a_reason(
    browser: Browser, site: str, ledger: Ledger, report: int
) -> None:
    officer = _review(browser, site)
    officer.fill("form#return input[name=reason]", "Round 3 is missing.")
    officer.click("form#return button[type=submit]")
    expect(officer).to_have_url(re.compile(rf"/desk/reports/{report}$"))
    expect(officer.locator("#report-summary dd.state")).to_have_text("returned")
    expect(officer.locator("table.history")).to_contain_text("Round 3 is missing.")
    assert _state(ledger, report) == "returned"
    organiser = _signed_in(browser, site, ORGANISER)
    organiser.goto(f"/desk/reports/{report}")
    expect(organiser.locator("table.history")).to_contain_text("Round 3 is missing.")
    expect(organiser.locator("form#new-version")).to_be_visible()


def test_an_officer_rejects_a_report_and_the_public_sees_why(
    browser: Browser, site: str, ledger: Ledger, report: int
) -> None:
    officer = _review(browser, site)
    officer.fill("form#reject input[name=reason]", "The same as the Winter Cup.")
    officer.click("form#reject button[type=submit]")
    assert officer.locator("form#reject select[name=category]").evaluate(
        "select => !select.validity.valid"
    ), "the public reason is chosen by the officer, never by default"
    assert _state(ledger, report) != "rejected"
    officer.select_option("form#reject select[name=category]", "duplicate")
    officer.click("form#reject button[type=submit]")
    expect(officer).to_have_url(re.compile(rf"/desk/reports/{report}$"))
    expect(officer.locator("#report-summary dd.state")).to_have_text("rejected")
    expect(officer.locator("#report-summary")).to_contain_text("already reported or rated")
    assert _state(ledger, report) == "rejected"
    public = _page(browser, site)
    public.goto("/events-received/standard")
    row = _row(public, "received", "Spring Open")
    expect(row).to_contain_text("already reported or rated")
    expect(row).not_to_contain_text("Winter Cup")


def test_an_organiser_withdraws_their_report(
    browser: Browser, site: str, ledger: Ledger, report: int
) -> None:
    organiser = _signed_in(browser, site, ORGANISER)
    organiser.click("a[href='/desk/reports']")
    organiser.click(f"a[href='/desk/reports/{report}']")
    organiser.fill("form#withdraw input[name=reason]", "Sent for the wrong pool.")
    organiser.click("form#withdraw button[type=submit]")
    expect(organiser).to_have_url(re.compile(rf"/desk/reports/{report}$"))
    expect(organiser.locator("#report-summary dd.state")).to_have_text("withdrawn")
    expect(organiser.locator("form#withdraw")).to_have_count(0)
    assert _state(ledger, report) == "withdrawn"


@pytest.mark.parametrize(
    "fields",
    [
        {"state": "submitted", "pool": "", "period": "", "older_than": ""},
        {"state": "all", "pool": "standard", "period": "2026-03", "older_than": "0"},
    ],
    ids=["left empty but the state", "every field"],
)
def test_the_queue_filter_submitted_as_a_person_fills_it(
    browser: Browser, site: str, fields: dict[str, str]
) -> None:
    officer = _signed_in(browser, site, OFFICER)
    officer.goto("/desk/queue")
    for name, value in fields.items():
        field = officer.locator(f"form#queue-filter [name={name}]")
        if field.evaluate("field => field.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    with officer.expect_navigation() as navigation:
        officer.click("form#queue-filter button[type=submit]")
    answer = navigation.value
    assert answer is not None
    assert answer.status == 200, officer.locator("p.error").all_inner_texts()
    expect(officer.locator("table.queue tbody tr")).to_have_count(1)
    expect(officer.locator("form#queue-filter select[name=state]")).to_have_value(fields["state"])


def test_signing_out_ends_the_session_on_the_server(
    browser: Browser, site: str, ledger: Ledger
) -> None:
    officer = _signed_in(browser, site, OFFICER)
    [kept] = [each for each in officer.context.cookies() if each["name"] == SESSION_COOKIE]
    officer.click("form#sign-out button[type=submit]")
    expect(officer).to_have_url(site)
    expect(officer.locator("a.sign-in")).to_be_visible()
    officer.context.add_cookies([{"name": kept["name"], "value": kept["value"], "url": site}])
    officer.goto("/desk")
    expect(officer).to_have_url(re.compile(r"/sign-in\?next=/desk$"))
    with ledger.reading() as session:
        sessions = session.scalars(
            select(AccountSecret.revoked_at).where(AccountSecret.kind == SecretKind.SESSION)
        ).all()
    assert len(sessions) == 1
    assert sessions[0] is not None
