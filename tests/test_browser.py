"""The web site in a real browser: Debian's chromium driven by Playwright, over `ledger serve`
on the demo ledger with a month more closed, on SQLite and PostgreSQL.

Playwright is told to use /usr/bin/chromium (it must never download a browser of its own;
the `browser` fixture of `conftest`). Where that browser is missing the tests skip and say
so, unless LEDGER_REQUIRE_BROWSER=1 (as in CI), where they fail instead.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from ledger.core.domain import GameResult, Period, Pool
from ledger.core.records import new_game
from ledger.services.closing import close_period
from ledger.services.demo import build_demo
from ledger.services.games import add_games
from ledger.storage.database import open_ledger

from conftest import BACKENDS, PostgreSQLServer
from servers import serving

pytestmark = pytest.mark.browser

DEMO_NOW = dt.datetime(2026, 3, 1, 12)
DEMO_PERIOD = Period(2026, 2)
SECOND_PERIOD = DEMO_PERIOD + 1
PUBLISHED_LISTS = 6
PHONE, DESKTOP = 360, 1280
ELITE = 10
CORRECTED = DEMO_PERIOD - 1
"""The demo corrects a game of January: its list and February's have a second version."""
FIRST_RATED = DEMO_PERIOD - 2
"""The demo's newcomer is first rated on December's list, from games of two months."""


def _two_lists(url: str) -> None:
    """The demo (October to February closed), then in March a round robin of the ten
    players of its grandmasters' event, closed too: they have six published ratings."""
    build_demo(url, Pool.STANDARD, replace=False, now=DEMO_NOW)
    march = dt.date(SECOND_PERIOD.year, SECOND_PERIOD.month, 5)
    results = itertools.cycle((GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS))
    games = [
        new_game(
            date=march,
            white=white,
            black=black,
            result=next(results),
            event="March Round Robin",
            today=march,
        )
        for white, black in itertools.combinations(range(1, ELITE + 1), 2)
    ]
    ledger = open_ledger(url)
    try:
        with ledger.transaction() as session:
            add_games(session, Pool.STANDARD, games)
        with ledger.transaction() as session:
            close_period(session, Pool.STANDARD, SECOND_PERIOD, dt.datetime(2026, 4, 1, 12))
    finally:
        ledger.dispose()


@pytest.fixture(scope="module", params=BACKENDS)
def site(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    postgresql_server: PostgreSQLServer | None,
) -> Iterator[str]:
    """The address of `ledger serve` over the two-list demo ledger, on each backend."""
    directory = tmp_path_factory.mktemp("site")
    if request.param == "sqlite":
        url, name = f"sqlite:///{directory / 'demo.db'}", None
    elif postgresql_server is None:
        pytest.skip("no PostgreSQL server")
    else:
        name = f"ledger_browser_{uuid.uuid4().hex[:12]}"
        url = postgresql_server.create(name)
    _two_lists(url)
    try:
        with serving(url, directory / "serve.log") as address:
            yield address
    finally:
        if name is not None and postgresql_server is not None:
            postgresql_server.drop(name)


def _page(browser: Browser, site: str, width: int) -> Iterator[Page]:
    context = browser.new_context(base_url=site, viewport={"width": width, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def page(browser: Browser, site: str) -> Iterator[Page]:
    yield from _page(browser, site, DESKTOP)


@pytest.fixture
def phone(browser: Browser, site: str) -> Iterator[Page]:
    yield from _page(browser, site, PHONE)


def _open_the_best_players_card(page: Page) -> str:
    """From the home page, search the standard list's leader by name (given name first,
    as a user types it) and land on their card; returns the name as the list shows it."""
    page.goto("/")
    leader = page.locator("section.pool[data-pool=standard] table.list tbody tr").first
    name = leader.locator("td.name a").inner_text().strip()
    surname, _, given = name.partition(", ")
    page.fill("#search-q", f"{given} {surname}")
    page.press("#search-q", "Enter")
    page.wait_for_url(re.compile(r"/(players/\d+|search)"))
    if "/players/" not in page.url:
        page.locator("table.found a", has_text=name).first.click()
    expect(page.locator("h1#player-name")).to_contain_text(name)
    return name


def test_the_home_page_shows_the_newest_top_ten_and_the_latest_lists(page: Page) -> None:
    page.goto("/")
    assert page.title().strip()
    top = page.locator("section.pool[data-pool=standard] table.list tbody tr")
    expect(top).to_have_count(10)
    ratings = [int(text) for text in top.locator("td.rating").all_inner_texts()]
    assert ratings == sorted(ratings, reverse=True)
    expect(page.locator("#latest-lists")).to_contain_text(str(SECOND_PERIOD))
    expect(page.locator("form#search input#search-q")).to_be_visible()


def test_a_search_opens_the_card_with_one_chart_point_per_published_list(page: Page) -> None:
    _open_the_best_players_card(page)
    standing = page.locator("section.standing[data-pool=standard]")
    points = standing.locator("figure.chart svg.chart circle")
    expect(points).to_have_count(PUBLISHED_LISTS)
    expect(standing.locator("table.history tbody tr")).to_have_count(PUBLISHED_LISTS)
    history = standing.locator("table.history").inner_text()
    for title in points.locator("title").all_text_contents():
        rating = title.rsplit(" ", 1)[-1]
        assert rating.isdigit(), title
        assert rating in history, title


def test_a_list_page_pages_forward_and_back(page: Page) -> None:
    page.goto("/")
    page.locator("nav.site a[href*='/lists/standard/']").first.click()
    expect(page.locator("h1#list-title")).to_be_visible()
    rows = page.locator("div.table-wrap > table.list tbody tr")
    expect(rows).to_have_count(100)
    page_of = page.locator("nav.pager span.page-of")
    expect(page_of).to_have_text(re.compile(r"page 1 of [2-9]"))
    expect(page.locator("nav.pager a.prev-page")).to_have_count(0)
    first_page = rows.locator("td.name").all_inner_texts()
    page.locator("nav.pager a.next-page").click()
    expect(page_of).to_have_text(re.compile(r"page 2 of [2-9]"))
    assert "page=2" in page.url
    positions = [int(text) for text in rows.locator("td.position").all_inner_texts()]
    assert positions
    assert min(positions) > 100
    assert rows.locator("td.name").all_inner_texts() != first_page
    page.locator("nav.pager a.prev-page").click()
    expect(page_of).to_have_text(re.compile(r"page 1 of [2-9]"))
    assert rows.locator("td.name").all_inner_texts() == first_page


def test_the_card_links_to_a_calculation_of_its_games(page: Page) -> None:
    _open_the_best_players_card(page)
    calculation = page.locator(f"a.calculation[href$='/{SECOND_PERIOD}']").first
    calculation.click()
    expect(page.locator("h1#calculation-title")).to_be_visible()
    expect(page.locator("table.calculation tbody tr")).to_have_count(ELITE - 1)
    expect(page.locator("table.event-totals")).to_be_visible()
    expect(page.locator("body")).to_contain_text("March Round Robin")


def _pages_to_check(page: Page) -> list[str]:
    _open_the_best_players_card(page)
    card = page.url
    calculation = page.locator("a.calculation").first.get_attribute("href")
    assert calculation is not None
    return ["/", "/lists/standard/latest", "/lists/standard/latest?page=2", card, calculation]


def _document_width(page: Page) -> int:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width


def test_every_page_fits_a_phone_without_sideways_scrolling(page: Page, phone: Page) -> None:
    for address in _pages_to_check(page):
        phone.goto(address)
        assert _document_width(phone) <= PHONE, address
    phone.goto("/lists/standard/latest")
    expect(phone.locator("table.list td.rating").first).to_be_visible()


def test_a_desktop_shows_every_column_of_the_list(page: Page) -> None:
    for address in _pages_to_check(page):
        page.goto(address)
        assert _document_width(page) <= DESKTOP, address
    page.goto("/lists/standard/latest")
    first = page.locator("table.list tbody tr").first
    for column in ("position", "name", "rating", "change", "movement", "games", "k", "peak"):
        expect(first.locator(f"td.{column}")).to_be_visible()


def test_the_chart_names_its_months_and_the_list_shows_movement(page: Page) -> None:
    _open_the_best_players_card(page)
    months = page.locator("section.standing[data-pool=standard] svg.chart text.month")
    expect(months.first).to_be_visible()
    assert len(months.all_text_contents()) >= 2
    assert all(re.fullmatch(r"[A-Z][a-z]{2} \d{4}", each) for each in months.all_text_contents())
    page.goto(f"/lists/standard/{DEMO_PERIOD}")
    arrows = page.locator("table.list td.movement span.up, table.list td.movement span.down")
    expect(arrows.first).to_be_visible()


def test_a_corrected_list_has_a_second_version_and_says_why(page: Page) -> None:
    page.goto(f"/lists/standard/{CORRECTED}")
    versions = page.locator("ul#versions a.version")
    expect(versions).to_have_count(2)
    page.locator("ul#versions a.diff").click()
    expect(page.locator("p.reason")).to_contain_text("arbiter's report")
    expect(page.locator("table.diff tbody tr").first).to_be_visible()


def test_a_first_rating_shows_every_game_pooled(page: Page) -> None:
    page.goto("/")
    page.fill("#search-q", "Okafor")
    page.press("#search-q", "Enter")
    expect(page.locator("h1#player-name")).to_contain_text("Okafor, Nneka")
    page.locator(f"a.calculation[href$='/{FIRST_RATED}']").first.click()
    expect(page.locator("table.pooled tbody tr")).to_have_count(6)
    expect(page.locator("main")).to_contain_text("6 games counted")


def test_a_phone_shows_rating_change_and_movement_without_scrolling_sideways(
    page: Page, phone: Page
) -> None:
    _open_the_best_players_card(page)
    phone.goto(page.url)
    history = phone.locator("section.standing[data-pool=standard] table.history tbody tr").first
    phone.goto("/lists/standard/latest")
    row = phone.locator("table.list tbody tr").first
    for cell in (row.locator("td.rating"), row.locator("td.change"), row.locator("td.movement")):
        box = cell.bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= PHONE
    phone.go_back()
    for cell in (history.locator("td.rating"), history.locator("td").nth(2)):
        box = cell.bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= PHONE


FORMS = (
    pytest.param("/", "form#search", {"q": "an"}, id="the header's search"),
    pytest.param("/search", "main form", {"q": "", "pool": "rapid"}, id="the search page"),
    pytest.param(
        "/lists/standard/latest",
        "form#list-filter",
        {"federation": "", "title": "", "min_rating": "", "max_rating": "", "as_of": ""},
        id="the list's filter left empty",
    ),
    pytest.param(
        "/lists/standard/latest",
        "form#list-filter",
        {"min_rating": "2400", "max_rating": "", "women": "check"},
        id="the list's filter from a rating",
    ),
    pytest.param(
        f"/lists/standard/{DEMO_PERIOD}",
        "form#list-filter",
        {"federation": "", "min_rating": "", "max_rating": "2600", "active": "check"},
        id="a period's list filtered to a rating",
    ),
    pytest.param(
        "/lists/standard/live",
        "form#list-filter",
        {"title": "GM", "min_rating": "", "max_rating": ""},
        id="the live list's filter",
    ),
    pytest.param(
        "/reports/standard/rank-history",
        "main form",
        {"rank": "", "federation": "", "summary": "check"},
        id="the rank history with the rank left empty",
    ),
)
"""Every form of the site, filled in part as a person does: some fields filled, the others
left empty (an empty number field is sent as `name=`, which is no filter)."""
FORM_PAGES = (
    "/",
    "/search",
    "/lists/standard/latest",
    "/lists/standard/live",
    f"/lists/standard/{DEMO_PERIOD}",
    "/events",
    "/periods/standard",
    "/reports/standard/stats",
    "/reports/standard/federations",
    "/reports/standard/peaks",
    "/reports/standard/rank-history",
)


def _form_key(page: Page, form: str) -> str:
    key: str = page.locator(form).evaluate("form => form.id || new URL(form.action).pathname")
    return key


@pytest.mark.parametrize(("address", "form", "fields"), FORMS)
def test_each_form_submitted_as_a_person_fills_it_shows_its_page(
    page: Page, address: str, form: str, fields: dict[str, str]
) -> None:
    page.goto(address)
    for name, value in fields.items():
        field = page.locator(f"{form} [name={name}]")
        if value == "check":
            field.check()
        elif field.evaluate("field => field.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    with page.expect_navigation() as navigation:
        page.locator(f"{form} button[type=submit]").click()
    answer = navigation.value
    assert answer is not None
    assert answer.status == 200, (page.url, page.locator("p.error").all_inner_texts())
    for name, value in fields.items():
        if value not in ("", "check"):
            assert f"{name}={value}" in page.url


def test_every_form_of_the_site_is_submitted_by_a_test(page: Page) -> None:
    submitted = set()
    for address, form, _ in (each.values for each in FORMS):
        page.goto(address)
        submitted.add(_form_key(page, form))
    found = set()
    for address in FORM_PAGES:
        page.goto(address)
        forms = page.locator("form")
        found |= {_form_key(page, f"form >> nth={n}") for n in range(forms.count())}
    assert found <= submitted, found - submitted
