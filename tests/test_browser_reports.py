"""A tournament report's round in a real browser (issue 39), on SQLite and PostgreSQL: an
organiser signs in, sends a TRF with one error and one warning and sees both with their
lines, sends the fixed version, acknowledges the warning and submits; the public events
page shows it received; an officer signs in, accepts it into the open period and closes
the period; the public page shows it rated with its cross-table; the organiser sees the
ratings. The site runs in this process with its clock held (`create_app(clock=...)`), so
that the report is on time and its period has ended whatever the day the tests run.

Each page of the round fits a phone (360 pixels) and a desktop (1280) without scrolling
sideways; with LEDGER_SHOTS=DIRECTORY the check report, the queue, the officer's review and
the public events received are photographed at both widths into that directory, for a
person to look at.
"""

from __future__ import annotations

import datetime as dt
import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy.orm import Session

from ledger.core.access import Role
from ledger.core.domain import Pool
from ledger.queries.tournament_reports import COMMAND_LINE, report_detail
from ledger.services import accounts
from ledger.services import tournament_reports as reports
from ledger.services.activity import Author
from ledger.storage.database import Ledger
from ledger.web import create_app

from builders import NOW, reported_players, spring_open
from servers import serving_app

pytestmark = pytest.mark.browser

CLOCK = dt.datetime(2026, 4, 1, 10, 0)
"""The site's time: three days after the Spring Open ended, and after its period, 2026-03."""
WAITING_SINCE = dt.datetime(2026, 3, 10, 9, 0)
"""When another organiser's report was submitted: 22 days before, overdue."""
PASSWORD = "a long enough password"
ORGANISER, OTHER, OFFICER = "ari@club.test", "otto@club.test", "olga@federation.test"
PHONE, DESKTOP = 360, 1280
SHOTS = os.environ.get("LEDGER_SHOTS")


def _older_report(ledger: Ledger, organiser: int) -> None:
    """Another organiser's report, submitted long ago: the queue's oldest, overdue."""
    sender = Author(OTHER, account_id=organiser)
    content = spring_open(fixed=True, event="Winter Cup", end="2026-03-08")
    with ledger.transaction() as session:
        sent = reports.upload(
            session,
            "winter.trf",
            io.BytesIO(content.replace(b"Elder, Ed ", b"Elder, Eva")),
            WAITING_SINCE,
            sender,
            Role.ORGANISER,
            pool=Pool.STANDARD,
        )
    with ledger.transaction() as session:
        for warning in _warnings(session, sent.report):
            reports.acknowledge(
                session, sent.report, warning, "checked", WAITING_SINCE, sender, Role.ORGANISER
            )
        reports.submit(session, sent.report, WAITING_SINCE, sender, Role.ORGANISER)


def _warnings(session: Session, report: int) -> list[int]:
    detail = report_detail(session, report, COMMAND_LINE)
    return [found.id for found in detail.versions[0].findings if found.tier == "warning"]


@pytest.fixture
def site(ledger: Ledger, database_url: str) -> Iterator[str]:
    """The site, at `CLOCK`, over the reported players and the accounts."""
    reported_players(ledger)
    made = {}
    for email, role in (
        (ORGANISER, Role.ORGANISER),
        (OTHER, Role.ORGANISER),
        (OFFICER, Role.OFFICER),
    ):
        with ledger.transaction() as session:
            name = email.split("@")[0].capitalize()
            made[email] = accounts.add_account(
                session, email, name, role, Author("test"), NOW, PASSWORD
            ).id
    _older_report(ledger, made[OTHER])
    app = create_app(database_url, clock=lambda: CLOCK)
    with serving_app(app) as address:
        yield address


def _signed_in(browser: Browser, site: str, email: str | None, width: int = DESKTOP) -> Page:
    context = browser.new_context(base_url=site, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    if email is not None:
        page.goto("/")
        page.click("a.sign-in")
        page.fill("form#sign-in input[name=email]", email)
        page.fill("form#sign-in input[name=password]", PASSWORD)
        page.click("form#sign-in button[type=submit]")
        expect(page.locator("#signed-in-as")).to_contain_text(email)
    return page


def _send(page: Page, form: str, content: bytes) -> None:
    page.set_input_files(
        f"{form} input[name=file]",
        files=[{"name": "spring.trf", "mimeType": "text/plain", "buffer": content}],
    )
    page.click(f"{form} button[type=submit]")


def _fits(page: Page, width: int) -> None:
    scrolled: int = page.evaluate("document.documentElement.scrollWidth")
    assert scrolled <= width, page.url


def _shots(browser: Browser, site: str, email: str | None, name: str, url: str) -> None:
    """The page at `url` as `email` (None: the public) sees it on a desktop and on a
    phone: it never scrolls sideways; photographed where LEDGER_SHOTS asks."""
    for width in (DESKTOP, PHONE):
        page = _signed_in(browser, site, email, width)
        page.goto(url)
        _fits(page, width)
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{SHOTS}/{name}-{width}.png", full_page=True)
        page.context.close()


def _public_state(page: Page) -> str:
    page.goto("/")
    page.click("#latest-events a.received")
    row = page.locator("table.received tr", has_text="Spring Open")
    return row.locator("td.state").inner_text()


def test_a_report_goes_from_the_organiser_to_the_published_list(
    browser: Browser, site: str
) -> None:
    organiser = _signed_in(browser, site, ORGANISER)
    organiser.click("a[href='/desk/reports']")
    organiser.click("a.upload")
    organiser.select_option("form#upload select[name=pool]", "standard")
    _send(organiser, "form#upload", spring_open())
    expect(organiser.locator("#check-counts")).to_contain_text("1 error, 1 warning")
    error = organiser.locator("#check li.finding.error")
    expect(error).to_have_count(1)
    expect(error).to_contain_text("Line 8, player:")
    expect(error).to_contain_text("the report gives the birth year 1980")
    warning = organiser.locator("#check li.finding.warning")
    expect(warning).to_have_count(1)
    expect(warning).to_contain_text("Line 10, birth year:")
    expect(organiser.locator("#submit-blocked")).to_contain_text("Correct the 1 error")
    report = organiser.url
    _shots(browser, site, ORGANISER, "check-report", report)

    _send(organiser, "form#new-version", spring_open(fixed=True))
    expect(organiser.locator("#check-counts")).to_contain_text("0 errors, 1 warning")
    organiser.fill("#check form.acknowledge input[name=note]", "The arbiter saw his ID: 1920.")
    organiser.click("#check form.acknowledge button[type=submit]")
    expect(organiser.locator("#check p.acknowledged")).to_contain_text("The arbiter saw his ID")
    organiser.click("form#submit button[type=submit]")
    expect(organiser.locator("#report-summary dd.state")).to_have_text("submitted")
    public = _signed_in(browser, site, None)
    assert _public_state(public) == "received"

    officer = _signed_in(browser, site, OFFICER)
    officer.click("a[href='/desk/reports']")
    officer.click("a.queue")
    rows = officer.locator("table.queue tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("Winter Cup")
    expect(rows.first.locator("strong.overdue")).to_have_text("overdue")
    _shots(browser, site, OFFICER, "queue", "/desk/queue")
    officer.click("table.queue a.report:has-text('Spring Open')")
    _shots(browser, site, OFFICER, "review", officer.url)
    officer.click("form#accept button[type=submit]")
    expect(officer.locator("#report-summary dd.state")).to_have_text("accepted")
    officer.goto("/desk/periods")
    officer.click("form.close button:has-text('Close 2026-03')")
    expect(officer.locator("h1#list-title")).to_be_visible()

    assert _public_state(public) == "rated"
    _shots(browser, site, None, "events-received", public.url)
    public.click("table.received a.event:has-text('Spring Open')")
    expect(public.locator("table.crosstable tbody tr")).to_have_count(5)
    organiser.goto(report)
    expect(organiser.locator("#report-summary dd.state")).to_have_text("rated")
    ratings = organiser.locator("#in-ledger table.ratings tbody tr")
    expect(ratings).to_have_count(5)
    expect(ratings.first.locator("td.rating")).to_have_text("2000")
    expect(ratings.first.locator("td.change")).not_to_be_empty()
