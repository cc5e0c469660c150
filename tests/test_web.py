"""The web face: every page and API route on both backends, the API equal to the CLI's
`--format json`, every error in plain words, names escaped, caching, the headers, and that
nothing can be written through it."""

from __future__ import annotations

import asyncio
import datetime as dt
import html
import json
import re
import socket
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from ledger import queries
from ledger.cli.serving import listening_socket
from ledger.core.domain import GameResult, Period, Pool
from ledger.core.errors import LedgerError
from ledger.core.records import new_game
from ledger.queries.federation_names import federation_name
from ledger.services.demo import build_demo
from ledger.services.games import add_games
from ledger.storage.database import Ledger
from ledger.web import api, create_app, desk_api
from ledger.web.chart import rating_chart
from ledger.web.errors import SECURITY_HEADERS

from builders import NOW, close, game, player, run

HOSTILE = ("<script>alert(1)</script>", '"><img src=x onerror=alert(2)>')


@pytest.fixture
def site(ledger: Ledger, database_url: str) -> dict[str, int]:
    """Five players (two with hostile names), an event in 2026-09, the lists of 2026-09
    and 2026-10 (the first re-rated: two versions) and a game in the open period 2026-11."""
    ids = {
        "Ann": player(ledger, "Carlsen, Ann", rating=2400, federation="NOR", sex="F"),
        "Bob": player(ledger, "Müller, Bob", rating=2300, federation="GER", sex="M"),
        "Cid": player(ledger, "Cid", rating=2200, federation="NOR", sex="M", title="FM"),
        "script": player(ledger, HOSTILE[0], rating=2100, federation="NOR"),
        "img": player(ledger, HOSTILE[1], rating=2000, federation="GER"),
    }
    for white, black, result, day in (
        ("Ann", "Bob", "1-0", "05"),
        ("Cid", "script", "1/2-1/2", "06"),
        ("img", "Ann", "0-1", "07"),
        ("Bob", "Cid", "1-0", "08"),
    ):
        game(ledger, ids[white], ids[black], result, f"2026-09-{day}", event="Oslo Open", round=1)
    close(ledger, "2026-09")
    game(ledger, ids["Bob"], ids["Ann"], "1/2-1/2", "2026-10-05")
    close(ledger, "2026-10")
    game(ledger, ids["Ann"], ids["Cid"], "1-0", "2026-11-03")
    corrected = run("correct-game", "2", "--result", "1-0", "--reason", "arbiter", db=database_url)
    assert corrected.exit_code == 0, corrected.stderr
    return ids


@pytest.fixture
def client(site: dict[str, int], database_url: str) -> Iterator[TestClient]:
    app = create_app(database_url)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def cli_json(url: str, *args: str) -> Any:
    result = run(*args, "--format", "json", db=url)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("path", "command"),
    [
        ("/api/v1/players/1", ("player", "1")),
        ("/api/v1/players/1?pool=standard", ("player", "1", "--pool", "standard")),
        (
            "/api/v1/players/1/calculations/standard/2026-09",
            ("explain", "1", "--period", "2026-09"),
        ),
        ("/api/v1/players/5/calculations/standard/latest", ("explain", "5")),
        ("/api/v1/players/1/games", ("games", "--player", "1")),
        ("/api/v1/search?q=mueller", ("find", "mueller")),
        ("/api/v1/search?q=ann%20carl", ("find", "ann", "carl")),
        ("/api/v1/events", ("events",)),
        (
            "/api/v1/events?period=2026-09&player=2",
            ("events", "--period", "2026-09", "--player", "2"),
        ),
        ("/api/v1/events/standard/Oslo%20Open", ("event", "Oslo Open")),
        ("/api/v1/lists/standard/2026-09/diff", ("diff", "--period", "2026-09")),
        (
            "/api/v1/reports/standard/stats?from=1900&band=100",
            ("stats", "--from", "1900", "--band", "100"),
        ),
        ("/api/v1/reports/standard/federations?top=2", ("federations", "--top", "2")),
        ("/api/v1/reports/standard/peaks?federation=NOR", ("peaks", "--federation", "NOR")),
        ("/api/v1/reports/standard/rank-history?rank=2", ("history", "--rank", "2")),
        ("/api/v1/reports/standard/rank-history?summary=1", ("history", "--summary")),
    ],
)
def test_each_api_answer_is_the_commands_json(
    client: TestClient, database_url: str, path: str, command: tuple[str, ...]
) -> None:
    answer = client.get(path)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert answer.json() == cli_json(database_url, *command)


def test_the_site_and_its_api_name_no_operator(ledger: Ledger, database_url: str) -> None:
    """Who closed a list is the officers' (`ledger periods`, `ledger log`): the public pages
    and API answers show when a list was published, never by whom."""
    ann, bob = player(ledger, "Ann", rating=2000), player(ledger, "Bob", rating=1900)
    game(ledger, ann, bob, "1-0", "2026-09-05")
    closed = run("close-period", "2026-09", "--operator", "Olga Officer", db=database_url)
    assert closed.exit_code == 0, closed.stderr
    officers = cli_json(database_url, "periods")
    assert [row["closed_by"] for row in officers] == ["Olga Officer"]
    with TestClient(create_app(database_url)) as client:
        shown = {
            path: client.get(path).text
            for path in ("/", "/periods/standard", "/lists/standard/2026-09", "/api/v1/home")
        }
        public = client.get("/api/v1/periods/standard").json()
    assert not [path for path, text in shown.items() if "Olga" in text]
    assert public == [row | {"closed_by": None} for row in officers]
    assert "Standard Oct 2026 (2026-09)</a>, published 20" in shown["/"]


@pytest.mark.parametrize(
    ("path", "options"),
    [
        ("/api/v1/lists/standard/latest", ()),
        ("/api/v1/lists/standard/2026-09", ("--period", "2026-09")),
        ("/api/v1/lists/standard/2026-09?version=1", ("--period", "2026-09", "--version", "1")),
        ("/api/v1/lists/standard/latest?as_of=2026-10-15", ("--as-of", "2026-10-15")),
        ("/api/v1/lists/standard/live", ("--live",)),
        (
            "/api/v1/lists/standard/latest?federation=NOR&women=1",
            ("--federation", "NOR", "--women"),
        ),
        (
            "/api/v1/lists/standard/latest?active=true&min_rating=2050",
            ("--active", "--min-rating", "2050"),
        ),
        (
            "/api/v1/lists/standard/latest?title=fm&max_rating=2300",
            ("--title", "fm", "--max-rating", "2300"),
        ),
    ],
)
def test_a_list_answer_holds_the_rows_of_ledger_list(
    client: TestClient, database_url: str, path: str, options: tuple[str, ...]
) -> None:
    answer = client.get(path).json()
    rows = cli_json(database_url, "list", *options)
    assert answer["rows"] == rows
    assert answer["total"] == len(rows)
    assert (answer["page"], answer["per_page"]) == (1, 100)


def test_a_list_is_paged_with_its_total(client: TestClient, database_url: str) -> None:
    whole = cli_json(database_url, "list")
    pages = [
        client.get(f"/api/v1/lists/standard/latest?per_page=2&page={n}").json() for n in (1, 2, 3)
    ]
    assert [row for each in pages for row in each["rows"]] == whole
    assert {each["total"] for each in pages} == {5}
    csv = client.get("/api/v1/lists/standard/latest?per_page=2&page=2&format=csv")
    assert csv.headers["content-type"].startswith("text/csv")
    lines = run("list", "--format", "csv", db=database_url).stdout.splitlines(keepends=True)
    assert csv.text == "".join([lines[0], *lines[3:5]])


def test_the_rating_in_force_on_a_day(client: TestClient, site: dict[str, int]) -> None:
    listed = client.get(f"/api/v1/players/{site['Ann']}/history").json()
    (standard,) = listed
    october = next(row for row in standard["history"] if row["period"] == "2026-10")
    answer = client.get(f"/api/v1/players/{site['Ann']}/rating?date=2026-11-20").json()
    assert answer == {
        "id": site["Ann"],
        "pool": "standard",
        "date": "2026-11-20",
        "period": "2026-10",
        "list_name": "Nov 2026",
        "rating": october["rating"],
    }


@pytest.mark.parametrize(
    ("path", "status", "message"),
    [
        ("/api/v1/players/99", 404, "no player with ID 99."),
        ("/api/v1/players/99/calculations/standard/latest", 404, "no player"),
        (
            "/api/v1/lists/standard/2001-01",
            404,
            "no standard list was published for period 2001-01",
        ),
        ("/api/v1/lists/rapid/latest", 404, "no rapid list has been published yet."),
        (
            "/api/v1/lists/standard/2026-13",
            422,
            "period: '2026-13' is not a list; give latest, live or a period YYYY-MM (the "
            "ledger keeps the periods from 1970-01 to 2099-12).",
        ),
        ("/api/v1/lists/standard/soon", 422, "period: 'soon' is not a list; give latest,"),
        ("/api/v1/lists/standard/0001-01", 422, "period: '0001-01' is not a list; give latest"),
        ("/api/v1/lists/standard/9999-12/versions", 422, "period: '9999-12' is not a period;"),
        ("/api/v1/lists/standard/1969-12/diff", 422, "period: '1969-12' is not a period;"),
        (
            "/api/v1/lists/standard/latest?as_of=9999-12-31",
            422,
            "as_of: '9999-12-31' is not a date; write it as YYYY-MM-DD (the ledger keeps the "
            "periods from 1970-01 to 2099-12).",
        ),
        ("/api/v1/events?period=0001-01", 422, "period: '0001-01' is not a period; write it"),
        (
            "/api/v1/players/1/calculations/standard/2100-01",
            422,
            "period: '2100-01' is not a period; give latest or a period YYYY-MM",
        ),
        (
            "/api/v1/players/2147483648",
            422,
            "player: input should be less than or equal to 2147483647.",
        ),
        (
            "/api/v1/players/99999999999999999999999999/history",
            422,
            "player: input should be less than or equal to 2147483647.",
        ),
        ("/api/v1/players/0/games", 422, "player: input should be greater than or equal to 1."),
        (
            "/api/v1/events?player=2147483648",
            422,
            "player: input should be less than or equal to 2147483647.",
        ),
        (
            "/api/v1/lists/standard/2026-09?version=2147483648",
            422,
            "version: input should be less than or equal to 2147483647.",
        ),
        (
            "/api/v1/search?q=Carl%00sen",
            422,
            "q: 'Carl\\x00sen' holds a control character; names, titles and events are plain text.",
        ),
        ("/api/v1/events/standard/Oslo%00Open", 422, "name: 'Oslo\\x00Open' holds a control"),
        (
            "/api/v1/lists/standard/latest?federation=N%00R",
            422,
            "federation: 'N\\x00R' is not a federation",
        ),
        ("/api/v1/reports/standard/peaks?federation=%00", 422, "federation: '\\x00' is not a"),
        (
            "/api/v1/lists/standard/latest?page=9",
            404,
            "the list has 5 rows; page 9 is past its end.",
        ),
        (
            "/api/v1/lists/standard/latest?per_page=501",
            422,
            "per_page: input should be less than or equal to 500.",
        ),
        (
            "/api/v1/lists/standard/latest?page=0",
            422,
            "page: input should be greater than or equal to 1.",
        ),
        (
            "/api/v1/lists/standard/latest?women=perhaps",
            422,
            "women: input should be a valid boolean",
        ),
        (
            "/api/v1/lists/chess960/latest",
            422,
            "pool: input should be 'standard', 'rapid' or 'blitz'.",
        ),
        (
            "/api/v1/lists/standard/2026-09?as_of=2026-10-01",
            400,
            "a list is asked for by its period or by a day, not both.",
        ),
        ("/api/v1/lists/standard/live?version=1", 400, "a live list is the newest list"),
        ("/api/v1/lists/standard/2026-09?version=7", 404, "there is no version 7."),
        (
            "/api/v1/lists/rapid/2026-10/diff",
            404,
            "no rapid list was published for period 2026-10.",
        ),
        (
            "/api/v1/lists/standard/2001-01/versions",
            404,
            "no standard list was published for period 2001-01.",
        ),
        (
            "/api/v1/players/1/rating?date=yesterday",
            422,
            "date: 'yesterday' is not a date; write it as YYYY-MM-DD (the ledger keeps",
        ),
        (
            "/api/v1/players/1/rating?date=2026-02-30",
            400,
            "date: '2026-02-30' is not a date; write it as YYYY-MM-DD.",
        ),
        ("/api/v1/players/1/rating", 422, "date: field required."),
        ("/api/v1/players/1/rating?date=", 422, "date: '' is not a date"),
        (
            "/api/v1/players/1/rating?date=2001-01-01",
            404,
            "no standard list was in force on 2001-01-01.",
        ),
        ("/api/v1/players/abc", 422, "player: input should be a valid integer"),
        ("/api/v1/events/standard/Nowhere", 404, "Nowhere"),
        ("/api/v1/search?q=%20", 400, "the search has no name in it"),
        (
            "/api/v1/nothing-here",
            404,
            "there is no such page; the API's routes are described at /api/v1/docs.",
        ),
        ("/api/v1", 404, "the API's routes are described at /api/v1/docs."),
        (
            "/api/v1/lists/standard/latest?federation=ENGLAND",
            422,
            "federation: 'ENGLAND' is not a federation; give its three-letter code, such as ENG",
        ),
        (
            "/api/v1/lists/standard/latest?title=XM",
            422,
            "title: 'XM' is not a FIDE title; the titles are GM, IM, FM, CM, WGM, WIM, WFM, WCM.",
        ),
        ("/api/v1/reports/standard/peaks?federation=XX", 422, "'XX' is not a federation"),
        (
            "/api/v1/lists/standard/latest?federation=" + "NOR" * 1000,
            422,
            "'NORNORNORNORNORNORNORNORNORNORNORNORNORN'... (3,000 characters) is not a federation",
        ),
    ],
)
def test_each_api_error_is_one_plain_sentence(
    client: TestClient, path: str, status: int, message: str
) -> None:
    answer = client.get(path)
    assert answer.status_code == status
    assert list(answer.json()) == ["error"]
    assert message in answer.json()["error"]
    assert "\n" not in answer.json()["error"]


@pytest.mark.parametrize(
    ("path", "status", "message"),
    [
        ("/players/99", 404, "no player with ID 99."),
        ("/lists/standard/2001-01", 404, "no standard list was published for period 2001-01"),
        (
            "/lists/standard/latest?min_rating=lots",
            422,
            "min_rating: input should be a valid integer",
        ),
        (
            "/lists/standard/latest?max_rating=4001",
            422,
            "max_rating: input should be less than or equal to 4000.",
        ),
        ("/reports/standard/rank-history?rank=0", 422, "rank: input should be greater than"),
        ("/players/2147483648", 422, "player: input should be less than or equal to 2147483647"),
        ("/lists/standard/0001-01", 422, "period: '0001-01' is not a list; give latest, live"),
        ("/lists/standard/latest/download.pdf", 404, "there is no pdf download"),
        ("/events/standard/Nowhere", 404, "no standard event named 'Nowhere'"),
        ("/nothing-here", 404, "there is no such page."),
    ],
)
def test_each_page_error_is_a_page_saying_so(
    client: TestClient, path: str, status: int, message: str
) -> None:
    answer = client.get(path)
    assert answer.status_code == status
    assert answer.headers["content-type"].startswith("text/html")
    assert f'<p class="error">{message}' in html.unescape(answer.text)


PAGES = (
    "/",
    "/search?q=carl",
    "/search?q=",
    "/lists/standard/latest",
    "/lists/standard/latest?federation=NOR&women=on&as_of=2026-10-20",
    "/lists/standard/live",
    "/lists/standard/2026-09",
    "/lists/standard/2026-09?version=1",
    "/lists/standard/2026-09/diff",
    "/lists/standard/2026-09/diff?from_version=1&to_version=2",
    "/players/1",
    "/players/1?pool=standard",
    "/players/1/calculations/standard/2026-09",
    "/players/1/calculations/standard/latest",
    "/events",
    "/events?pool=standard&period=2026-09&player=1",
    "/events/standard/Oslo%20Open",
    "/periods/standard",
    "/periods/blitz",
    "/reports/standard/stats?from=2000&band=100",
    "/reports/standard/federations?top=2&women=on",
    "/reports/standard/peaks?federation=NOR",
    "/reports/standard/rank-history?rank=2",
    "/reports/standard/rank-history?summary=on",
    "/api/v1/docs",
    # what a browser sends for a form's empty fields: no filter, or the parameter's default
    "/lists/standard/latest?federation=&title=&min_rating=&max_rating=&as_of=",
    "/lists/standard/latest?min_rating=2100&max_rating=",
    "/lists/standard/2026-09?min_rating=&max_rating=2300",
    "/reports/standard/rank-history?rank=&federation=",
    "/reports/standard/peaks?min_rating=&federation=",
)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_linked_and_styled_by_its_own_sheet(
    client: TestClient, path: str
) -> None:
    answer = client.get(path)
    assert answer.status_code == 200, answer.text
    assert '<link rel="stylesheet" href="/static/ledger.css">' in answer.text
    assert 'href="/"' in answer.text
    assert 'id="search"' in answer.text
    assert "<script" not in answer.text
    assert "style=" not in answer.text


@pytest.mark.parametrize(
    ("emptied", "plain"),
    [
        (
            "/api/v1/lists/standard/latest?federation=&title=&min_rating=&max_rating=&as_of=",
            "/api/v1/lists/standard/latest",
        ),
        ("/api/v1/lists/standard/2026-09?max_rating=", "/api/v1/lists/standard/2026-09"),
        ("/api/v1/reports/standard/peaks?min_rating=", "/api/v1/reports/standard/peaks"),
        (
            "/api/v1/reports/standard/rank-history?rank=&federation=",
            "/api/v1/reports/standard/rank-history",
        ),
    ],
)
def test_a_field_left_empty_is_no_filter(client: TestClient, emptied: str, plain: str) -> None:
    answer = client.get(emptied)
    assert answer.status_code == 200, answer.text
    assert answer.json() == client.get(plain).json()


def test_the_list_page_shows_the_figures_of_ledger_list(
    client: TestClient, database_url: str
) -> None:
    rows = cli_json(database_url, "list", "--federation", "NOR")
    page = client.get("/lists/standard/latest?federation=NOR").text
    assert '<th scope="col">World</th>' in page
    cells = re.findall(r'<td class="rating">(\d+)</td>', page)
    assert cells == [str(row["rating"]) for row in rows]
    assert 'class="download-csv" href="/lists/standard/latest/download.csv?federation=NOR"' in page
    assert "page 1 of 1" in page
    assert "next-page" not in page


@pytest.fixture
def tied_lists(ledger: Ledger, database_url: str) -> str:
    """45 players in tied threes, two federations; the lists of 2026-09 (re-rated: two
    versions) and 2026-10, and games in the open period: pages end inside ties."""
    ids = [
        player(
            ledger,
            f"Player {n:02d}",
            rating=2000 + n // 3 * 10,
            sex="MF"[n % 2],
            federation=("NOR", "GER")[n % 4 // 2],
        )
        for n in range(45)
    ]
    for day, (white, black) in enumerate(zip(ids[::2], ids[1::2], strict=False), start=1):
        game(ledger, white, black, "1-0", f"2026-09-{day:02d}")
    close(ledger, "2026-09")
    game(ledger, ids[3], ids[40], "0-1", "2026-10-02")
    close(ledger, "2026-10")
    game(ledger, ids[5], ids[30], "0-1", "2026-11-02")
    corrected = run("correct-game", "1", "--result", "0-1", "--reason", "arbiter", db=database_url)
    assert corrected.exit_code == 0, corrected.stderr
    return database_url


@pytest.mark.parametrize(
    ("which", "query", "options"),
    [
        ("latest", "", ()),
        ("latest", "federation=NOR", ("--federation", "NOR")),
        ("latest", "women=1&min_rating=2030", ("--women", "--min-rating", "2030")),
        ("2026-09", "", ("--period", "2026-09")),
        ("2026-09", "federation=GER", ("--period", "2026-09", "--federation", "GER")),
        ("2026-09", "version=1", ("--period", "2026-09", "--version", "1")),
        ("live", "", ("--live",)),
        ("live", "federation=NOR", ("--live", "--federation", "NOR")),
    ],
)
def test_every_page_of_a_list_holds_its_rows_and_places_on_the_whole_list(
    tied_lists: str, which: str, query: str, options: tuple[str, ...]
) -> None:
    whole = cli_json(tied_lists, "list", *options)
    with TestClient(create_app(tied_lists)) as client:
        first = client.get(f"/api/v1/lists/standard/{which}?per_page=4&{query}").json()
        pages = [
            client.get(f"/api/v1/lists/standard/{which}?per_page=4&page={n}&{query}").json()
            for n in range(1, -(-first["total"] // 4) + 1)
        ]
    assert first["total"] == len(whole)
    assert [row for each in pages for row in each["rows"]] == whole


def test_a_long_list_pages_forward(ledger: Ledger, database_url: str) -> None:
    for number in range(205):
        player(ledger, f"Player {number:03d}", rating=1500 + number // 3)
    game(ledger, 1, 2, "1-0", "2026-09-05")
    close(ledger, "2026-09")
    with TestClient(create_app(database_url)) as client:
        first = client.get("/lists/standard/latest").text
        assert 'class="next-page" rel="next" href="/lists/standard/latest?page=2"' in first
        third = client.get("/lists/standard/latest?page=3").text
    whole = cli_json(database_url, "list")
    assert re.findall(r'<td class="position">(\d+)</td>', third) == [
        str(row["position"]) for row in whole[200:]
    ]
    assert re.findall(r'<td class="rank optional">(\d+)</td>', third) == [
        str(row["rank"]) for row in whole[200:]
    ]
    assert "page 3 of 3" in third
    assert "prev-page" in third
    assert "next-page" not in third


def test_downloads_are_the_whole_view_as_the_cli_writes_it(
    client: TestClient, database_url: str
) -> None:
    csv = client.get("/lists/standard/latest/download.csv?federation=NOR")
    assert csv.text == run("list", "--federation", "NOR", "--format", "csv", db=database_url).stdout
    assert "attachment" in csv.headers["content-disposition"]
    data = client.get("/lists/standard/2026-09/download.json")
    assert (
        data.text == run("list", "--period", "2026-09", "--format", "json", db=database_url).stdout
    )
    whole = client.get("/lists/standard/latest/download.csv")
    assert whole.text == run("list", "--format", "csv", db=database_url).stdout
    assert "content-length" not in whole.headers  # sent as its lines come, never held whole
    txt = client.get("/lists/standard/2026-09/download.txt")
    exported = run(
        "export-list",
        "--format",
        "fide-txt",
        "--pool",
        "standard",
        "--period",
        "2026-09",
        db=database_url,
    )
    assert txt.text.replace("\r\n", "\n") == exported.stdout.replace("\r\n", "\n")


def test_the_player_page_has_a_chart_point_and_a_row_per_list(
    client: TestClient, site: dict[str, int]
) -> None:
    page = client.get(f"/players/{site['Ann']}").text
    assert page.count("<circle ") == 2
    assert re.findall(r'<text class="label month"[^>]*>([^<]+)</text>', page) == [
        "Oct 2026",
        "Nov 2026",
    ]
    assert "<title>Oct 2026: " in page
    assert "<title>Nov 2026: " in page
    assert '<table class="history">' in page
    assert 'class="live"' in page
    assert "unofficial" in page
    assert '<table class="games">' in page
    assert f'href="/players/{site["Ann"]}/calculations/standard/2026-09"' in page


def test_a_search_with_one_match_goes_to_the_player(
    client: TestClient, site: dict[str, int]
) -> None:
    answer = client.get("/search?q=muller", follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/players/{site['Bob']}"
    several = client.get("/search?q=c")
    assert several.status_code == 200
    assert '<table class="found">' in several.text


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/lists/standard/latest",
        "/players/4",
        "/players/5",
        "/search?q=script",
        "/events/standard/Oslo%20Open",
    ],
)
def test_hostile_names_show_as_text(client: TestClient, path: str) -> None:
    shown = client.get(path).text
    assert "<script>alert" not in shown
    assert "<img src=x" not in shown
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shown or "&#34;&gt;&lt;img" in shown


LINKED_EVENTS = ("a/../b", "x/./y", "b", "y", "Open 50%? #2", "Cup (a+b) & Co")
"""Events whose names hold what a link's path reads otherwise: `/`, dot segments, `%`, `?`,
`#`; and "b" and "y", where a path that lost its dot segments would land."""


def test_every_event_links_to_its_own_page(ledger: Ledger, database_url: str) -> None:
    ids = [player(ledger, f"Player {n}", rating=2000 + n) for n in range(2)]
    for day, name in enumerate(LINKED_EVENTS, start=1):
        game(ledger, ids[0], ids[1], "1-0", f"2026-09-{day:02d}", event=name, round=1)
    with TestClient(create_app(database_url)) as client:
        listed = client.get("/events?period=2026-09").text
        links = re.findall(r'<a class="event" href="([^"]+)">([^<]+)</a>', listed)
        assert sorted(html.unescape(name) for _, name in links) == sorted(LINKED_EVENTS)
        for href, name in links:
            address = urljoin("http://testserver/events", html.unescape(href))
            shown = client.get(address)
            assert shown.status_code == 200, (href, shown.text)
            assert f"<h1>{name}</h1>" in shown.text, href


@pytest.mark.parametrize(
    ("path", "kept"),
    [
        ("/lists/standard/2026-09?version=1", "public, no-cache"),
        ("/api/v1/lists/standard/2026-09?version=2", "public, no-cache"),
        ("/lists/standard/2026-09/download.csv?version=1", "public, no-cache"),
        ("/lists/standard/2026-09/diff?from_version=1&to_version=2", "public, no-cache"),
        ("/lists/standard/2026-09", "public, no-cache"),
        ("/api/v1/lists/standard/2026-09", "public, no-cache"),
        ("/lists/standard/2026-09/download.csv", "public, no-cache"),
        ("/lists/standard/2026-09/diff", "public, no-cache"),
        ("/lists/standard/2026-09/diff?from_version=1", "public, no-cache"),
        ("/api/v1/lists/standard/2026-09/versions", "public, no-cache"),
        ("/players/1/calculations/standard/2026-09", "public, no-cache"),
        ("/lists/standard/latest", "public, no-cache"),
        ("/lists/standard/live", "public, no-cache"),
        ("/players/1", "public, no-cache"),
        ("/", "public, no-cache"),
        ("/static/ledger.css", "public, max-age=3600"),
        ("/players/99", "no-store"),
        ("/lists/standard/2026-09?version=9", "no-store"),
    ],
)
def test_no_answer_of_the_ledger_is_kept_without_asking(
    client: TestClient, path: str, kept: str
) -> None:
    """A period's list changes (a correction re-rates it, a reopen withdraws it), and so does
    a numbered version's page (it names the versions after it, and today's names), so every
    answer drawn from the ledger is revalidated with its ETag on every use."""
    assert client.get(path).headers["cache-control"] == kept


def test_an_answer_is_304_while_the_ledger_has_not_changed(client: TestClient) -> None:
    first = client.get("/lists/standard/2026-09")
    tag = first.headers["etag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', tag)
    again = client.get("/lists/standard/2026-09", headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.content == b""
    assert (again.headers["etag"], again.headers["cache-control"]) == (tag, "public, no-cache")
    assert again.headers["x-content-type-options"] == "nosniff"
    assert (
        client.get("/api/v1/lists/standard/2026-09?version=2").headers["etag"]
        != client.get("/api/v1/lists/standard/2026-09?version=1").headers["etag"]
    )


CHANGED_BY_A_CORRECTION = [
    "/lists/standard/2026-09",
    "/api/v1/lists/standard/2026-09",
    "/lists/standard/2026-09/download.csv",
    "/api/v1/lists/standard/2026-09/versions",
    "/players/1/calculations/standard/2026-09",
    "/lists/standard/latest",
]


def test_after_a_correction_the_old_tag_is_never_answered_304(
    client: TestClient, database_url: str
) -> None:
    """The issue's scenario: a reader (or a cache) holds the list of 2026-09; a game of it
    is corrected; asked again with the tag it holds, the reader gets the new list."""
    before = {path: client.get(path) for path in CHANGED_BY_A_CORRECTION}
    corrected = run(
        "correct-game", "1", "--result", "0-1", "--reason", "scoresheet", db=database_url
    )
    assert corrected.exit_code == 0, corrected.stderr
    for path, held in before.items():
        asked = client.get(path, headers={"If-None-Match": held.headers["etag"]})
        assert asked.status_code == 200, path
        assert asked.text != held.text, path


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/players/1", 304),
        ("/api/v1/players/1", 304),
        ("/players/99", 404),
        ("/api/v1/players/99", 404),
        ("/api/v1/lists/standard/latest?per_page=900", 422),
        ("/lists/standard/2026-13", 422),
        ("/lists/standard/2026-02?as_of=2026-02-30", 400),
    ],
)
def test_if_none_match_any_is_304_only_where_the_answer_exists(
    client: TestClient, path: str, status: int
) -> None:
    """`If-None-Match: *` holds where there is a current answer (RFC 9110, 13.1.2): an
    unknown player or a bad parameter is still refused."""
    assert client.get(path, headers={"If-None-Match": "*"}).status_code == status


def test_a_weak_tag_from_a_compressing_proxy_is_answered_304(client: TestClient) -> None:
    tag = client.get("/players/1").headers["etag"]
    for held in (f"W/{tag}", f'"other", W/{tag}'):
        assert client.get("/players/1", headers={"If-None-Match": held}).status_code == 304
    assert client.get("/players/1", headers={"If-None-Match": 'W/"other"'}).status_code == 200


def test_when_the_database_fails_the_answer_is_secured_and_the_style_sheet_loads(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(session: object) -> int:
        raise OperationalError("SELECT max(id) FROM log_entries", {}, ConnectionError("gone"))

    monkeypatch.setattr(queries, "last_change", unreachable)
    for path in ("/", "/api/v1/players/1"):
        failed = client.get(path)
        assert failed.status_code == 500
        assert "could not answer" in failed.text
        assert failed.headers["cache-control"] == "no-store"
        for header, value in SECURITY_HEADERS.items():
            assert failed.headers[header] == value
    style = client.get("/static/ledger.css")
    assert style.status_code == 200
    assert style.headers["content-security-policy"] == SECURITY_HEADERS["Content-Security-Policy"]


def test_a_change_to_the_ledger_changes_every_tag(client: TestClient, database_url: str) -> None:
    before = client.get("/lists/standard/2026-09").headers["etag"]
    edited = run(
        "edit-player", "1", "--name", "Carlsen, Annette", "--reason", "spelling", db=database_url
    )
    assert edited.exit_code == 0, edited.stderr
    answer = client.get("/lists/standard/2026-09", headers={"If-None-Match": before})
    assert answer.status_code == 200
    assert "Carlsen, Annette" in answer.text


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in (
        "/",
        "/api/v1/players/1",
        "/players/99",
        "/static/ledger.css",
        "/api/v1/openapi.json",
    ):
        headers = client.get(path).headers
        assert headers["content-security-policy"].startswith("default-src 'self'")
        assert headers["x-content-type-options"] == "nosniff"


def test_head_is_answered_as_get_without_a_body(client: TestClient) -> None:
    answer = client.head("/lists/standard/latest")
    assert answer.status_code == 200
    assert answer.content == b""
    assert answer.headers["etag"] == client.get("/lists/standard/latest").headers["etag"]


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_nothing_can_be_written_through_the_web(client: TestClient, method: str) -> None:
    for path in ("/", "/api/v1/players/1", "/lists/standard/latest"):
        answer = client.request(method, path)
        assert answer.status_code == 405
        assert answer.headers["allow"] == "GET, HEAD"


def test_the_web_reads_the_ledger_read_only(client: TestClient, database_url: str) -> None:
    """SQLite in mode=ro, PostgreSQL in read-only transactions: a write is refused by the
    database itself, whatever a route did."""
    reader: Ledger = client.app.state.ledger  # type: ignore[attr-defined]
    if database_url.startswith("sqlite"):
        assert "mode=ro" in str(reader.engine.url)
    with pytest.raises(LedgerError, match=r"read-only|readonly"), reader.reading() as session:
        session.execute(text("CREATE TABLE intruder (a INTEGER)"))


def test_a_database_without_a_ledger_is_refused(tmp_path: Path) -> None:
    with pytest.raises(LedgerError, match="no such ledger file"):
        create_app(f"sqlite:///{tmp_path / 'missing.db'}")


def test_a_failure_shows_no_traceback_sql_or_url(
    client: TestClient, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError(f"SELECT secret FROM players -- {database_url}")

    monkeypatch.setattr(queries, "player_card", broken)
    for path in ("/players/1", "/api/v1/players/1"):
        answer = client.get(path)
        assert answer.status_code == 500
        assert "could not answer" in answer.text
        assert "SELECT" not in answer.text
        assert database_url not in answer.text
        assert "Traceback" not in answer.text


def test_the_openapi_description_names_every_api_route(client: TestClient) -> None:
    described = client.get("/api/v1/openapi.json").json()["paths"]
    public = {route.path for route in api.router.routes}  # type: ignore[attr-defined]
    desk = {route.path for route in desk_api.router.routes}  # type: ignore[attr-defined]
    assert set(described) == {"/api/v1" + path.replace(":path", "") for path in public} | desk
    docs = client.get("/api/v1/docs").text
    for path, operations in described.items():
        for method in operations:
            assert f"<code>{method.upper()} {path}</code>" in docs


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src", "action") and value and value.startswith("/"):
                self.found.append(value)


KIND_VISITS = 3
"""The crawl opens at most this many links of one kind (`_kind`)."""
CRAWL_LIMIT = 3000


def _kind(link: str) -> str:
    """A link with its player IDs, page numbers and federations blanked: the crawl opens a
    few links of each kind, so every route, period, version, event and report linked is
    opened, while 300 players' cards, a list's pages and its federations' lists are not
    opened one by one."""
    path, _, query = link.partition("?")
    path = re.sub(r"/[0-9]+(?=/|$)", "/#", path)
    return path + "?" + re.sub(r"\b(page|player|federation)=[0-9A-Z]+", r"\1=#", query)


def test_no_page_of_the_demo_links_to_a_page_that_does_not_exist(
    database_url: str, ledger: Ledger
) -> None:
    """From the home page, every same-site link (a few of each kind) answers 200: no page
    links to a 4xx. An event of the open month is among them: its period has no list yet."""
    build_demo(database_url, Pool.STANDARD, replace=False, now=NOW)
    game(ledger, 1, 2, "1-0", "2030-01-01", event="New Year Cup", round=1)
    seen, queue, opened = {"/"}, ["/"], Counter[str]()
    with TestClient(create_app(database_url)) as client:
        while queue and opened.total() < CRAWL_LIMIT:
            path = queue.pop(0)
            if opened[_kind(path)] == KIND_VISITS:
                continue
            opened[_kind(path)] += 1
            answer = client.get(path)
            assert answer.status_code == 200, (path, answer.text[:300])
            if answer.headers["content-type"].startswith("text/html"):
                links = _Links()
                links.feed(answer.text)
                queue += [link for link in dict.fromkeys(links.found) if link not in seen]
                seen.update(links.found)
    assert not queue
    assert {"/lists/standard/live", "/reports/standard/stats?period=2029-12"} <= seen
    assert "/events/standard/New%20Year%20Cup" in seen


def test_serve_refuses_a_missing_ledger_in_one_line(tmp_path: Path) -> None:
    missing = f"sqlite:///{tmp_path / 'missing.db'}"
    refused = run("serve", db=missing)
    assert refused.exit_code == 1
    assert refused.stderr == f"error: {missing}: no such ledger file.\n"
    assert not (tmp_path / "missing.db").exists()


def test_the_socket_several_workers_share_answers_without_waiting_on_nagle() -> None:
    """Each connection the workers accept has TCP_NODELAY, as a single worker's has: without
    it a small answer on a kept-alive connection waits for the client's delayed ACK."""
    listening = listening_socket("127.0.0.1", 0)
    accepted: list[int] = []

    async def accept_one() -> None:
        def note(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            connection = writer.get_extra_info("socket")
            accepted.append(connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(note, sock=listening)
        _, writer = await asyncio.open_connection(*listening.getsockname())
        while not accepted:
            await asyncio.sleep(0.01)
        writer.close()
        server.close()

    # A thread of its own: the browser tests' Playwright keeps an event loop in this one.
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, asyncio.wait_for(accept_one(), timeout=30)).result()
    assert listening.proto == socket.IPPROTO_TCP
    assert accepted == [1]


def test_a_csv_download_neutralises_a_formula_name(
    ledger: Ledger, database_url: str, site: dict[str, int]
) -> None:
    """The web's CSV is the CLI's: a name a spreadsheet would run as a formula starts with '."""
    formula = player(ledger, "=HYPERLINK(1)", rating=1900, federation="NOR")
    game(ledger, formula, site["Cid"], "1-0", "2026-11-04")
    close(ledger, "2026-11")
    with TestClient(create_app(database_url)) as client:
        download = client.get("/lists/standard/latest/download.csv").text
        api = client.get("/api/v1/lists/standard/latest?format=csv").text
    assert "'=HYPERLINK(1)" in download
    assert "'=HYPERLINK(1)" in api
    assert ",=HYPERLINK" not in download + api


JANUARY = Period(2026, 1)


def _history(ratings: list[int], start: Period = JANUARY) -> list[queries.HistoryRow]:
    return [
        queries.HistoryRow(start + month, (start + month).list_name, rating, 0, 5, 20)
        for month, rating in enumerate(ratings)
    ]


@pytest.mark.parametrize(
    "ratings", [[2000, 2015], [2000, 2000], [1999, 2001, 2018], [2000, 2026], [1420, 2610], [2400]]
)
def test_the_value_axis_spans_at_least_100_points_in_round_ticks(ratings: list[int]) -> None:
    chart = rating_chart(_history(ratings))
    assert chart is not None
    assert chart.low <= min(ratings) <= max(ratings) <= chart.high
    assert chart.high - chart.low >= 100
    values = [int(tick.label) for tick in chart.rating_ticks]
    step = values[1] - values[0]
    assert step in (10, 20, 25, 50, 100, 200, 250, 500)
    assert values == list(range(chart.low, chart.high + 1, step))
    assert all(value % step == 0 for value in values)
    assert len(values) <= 6
    assert all(chart.top <= point.y <= chart.bottom for point in chart.points)
    assert all(chart.left <= point.x <= chart.right for point in chart.points)


def test_a_26_point_move_is_a_small_part_of_the_chart() -> None:
    chart = rating_chart(_history([2000, 2026]))
    assert chart is not None
    first, second = chart.points
    assert (first.y - second.y) * 4 <= chart.bottom - chart.top


@pytest.mark.parametrize(
    ("months", "labels"),
    [
        (1, ["Feb 2026"]),
        (4, ["Feb 2026", "Mar 2026", "Apr 2026", "May 2026"]),
        (14, ["Feb 2026", "May 2026", "Aug 2026", "Nov 2026", "Feb 2027"]),
        (40, ["Feb 2026", "Feb 2027", "Feb 2028", "Feb 2029"]),
    ],
)
def test_the_time_axis_names_the_lists_months(months: int, labels: list[str]) -> None:
    chart = rating_chart(_history([2000 + 10 * (n % 3) for n in range(months)]))
    assert chart is not None
    assert [tick.label for tick in chart.month_ticks] == labels
    xs = [tick.at for tick in chart.month_ticks]
    assert xs == sorted(set(xs))
    assert {tick.at for tick in chart.month_ticks} <= {point.x for point in chart.points}


def test_a_gap_in_the_lists_is_a_gap_on_the_time_axis() -> None:
    history = _history([2000, 2010]) + _history([2020], Period(2026, 11))
    chart = rating_chart(history)
    assert chart is not None
    january, february, november = (point.x for point in chart.points)
    assert 8 * (february - january) < november - february < 10 * (february - january)


def test_a_player_added_changes_the_answers(client: TestClient, database_url: str) -> None:
    """add-player is logged like every write, so a cached answer is not kept past it."""
    before = client.get("/api/v1/search?q=Newcomer")
    added = run("add-player", "--name", "Newcomer, Nina", "--operator", "olga", db=database_url)
    assert added.exit_code == 0, added.stderr
    after = client.get(
        "/api/v1/search?q=Newcomer", headers={"If-None-Match": before.headers["etag"]}
    )
    assert after.status_code == 200
    assert "Newcomer, Nina" in after.text
    logged = json.loads(
        run("log", "--action", "add-player", "--format", "json", db=database_url).stdout
    )
    assert [(entry["operator"], entry["counts"]) for entry in logged] == [
        ("olga", {"id": int(added.stdout)})
    ]


def test_a_first_ratings_calculation_shows_every_pooled_game(
    ledger: Ledger, database_url: str
) -> None:
    """A player first rated on the list of 2026-10 from games of two periods: the page
    lists all six, as `ledger explain` and the JSON do, and no empty table of rated games;
    the change is "new" there, and none on the page of the month the player stayed unrated."""
    rated = [player(ledger, f"Rated {n}", rating=1900 + 20 * n) for n in range(6)]
    newcomer = player(ledger, "Newcomer, Nina")
    for day, opponent in enumerate(rated[:3], start=1):
        game(ledger, newcomer, opponent, "1/2-1/2", f"2026-09-{day:02d}", event="Sep Open")
    close(ledger, "2026-09")
    for day, opponent in enumerate(rated[3:], start=1):
        game(ledger, opponent, newcomer, "1-0", f"2026-10-{day:02d}", event="Oct Open")
    close(ledger, "2026-10")
    explained = cli_json(database_url, "explain", str(newcomer), "--period", "2026-10")
    with TestClient(create_app(database_url)) as client:
        path = f"/players/{newcomer}/calculations/standard/2026-10"
        page = client.get(path).text
        assert client.get(f"/api/v1{path}").json() == explained
        still_unrated = client.get(f"/players/{newcomer}/calculations/standard/2026-09").text
    assert "<dt>Change</dt><dd>new</dd>" in page
    assert "<dt>Change</dt><dd>-</dd>" in still_unrated
    pooled = explained["first_rating"]["games"]
    assert len(pooled) == 6
    body = page.split('<table class="pooled">')[1].split("</table>")[0]
    assert ">Result<" not in body  # White-Black without the colour: the score is the player's
    assert re.findall(r'<a href="/players/(\d+)">', body) == [
        str(each["opponent"]) for each in pooled
    ]
    assert "Sep Open" in body
    assert "Oct Open" in body
    assert "6 games counted" in page
    assert '<table class="calculation">' not in page
    assert "Games not rated" not in page


def test_the_calculation_shows_the_capped_difference_beside_the_difference(
    ledger: Ledger, database_url: str
) -> None:
    strong, weak = player(ledger, "Strong", rating=2400), player(ledger, "Weak", rating=1900)
    game(ledger, strong, weak, "1-0", "2026-09-05")
    close(ledger, "2026-09")
    with TestClient(create_app(database_url)) as client:
        page = client.get(f"/players/{strong}/calculations/standard/2026-09").text
    assert '<td class="d">500</td><td class="d400">400</td>' in page


def test_the_diff_of_a_corrected_list_shows_the_corrections_reason(
    client: TestClient, database_url: str
) -> None:
    page = client.get("/lists/standard/2026-09/diff").text
    assert '<p class="reason">Reason: arbiter</p>' in page
    assert client.get("/api/v1/lists/standard/2026-09/diff").json()["reasons"] == ["arbiter"]
    assert "Reason: arbiter" in run("diff", "--period", "2026-09", db=database_url).stdout


def test_a_players_games_of_closed_periods_are_listed_newest_first_a_page_at_a_time(
    ledger: Ledger, database_url: str
) -> None:
    """The card shows the newest 20 games of closed periods and links to all of them, 100 a
    page; a game of the open period is among the open period's games only."""
    ann, bob = player(ledger, "Ann", rating=2000), player(ledger, "Bob", rating=1900)
    match = [
        new_game(
            date=dt.date(2026, 9, 5),
            white=(ann, bob)[number % 2],
            black=(bob, ann)[number % 2],
            result=GameResult.DRAW,
            event="Long Match",
            round=number,
            today=NOW.date(),
        )
        for number in range(1, 106)
    ]
    with ledger.transaction() as session:
        add_games(session, Pool.STANDARD, match)
    close(ledger, "2026-09")
    game(ledger, ann, bob, "1-0", "2026-10-03", event="October Game", round=1)
    with TestClient(create_app(database_url)) as client:
        card = client.get(f"/players/{ann}").text
        pages = [client.get(f"/players/{ann}/games/standard?page={n}") for n in (1, 2, 3)]
    played = card.split('<table class="played">')[1].split("</table>")[0]
    assert _rounds(played) == list(range(105, 85, -1))
    assert f'href="/players/{ann}/games/standard">All standard games (105), newest first' in card
    assert "October Game" not in played
    assert "October Game" in card.split('<table class="games">')[1]
    assert [answer.status_code for answer in pages] == [200, 200, 404]
    assert _rounds(pages[0].text) == list(range(105, 5, -1))
    assert _rounds(pages[1].text) == [5, 4, 3, 2, 1]
    assert "page 1 of 2" in pages[0].text
    assert 'class="next-page" rel="next" href="?page=2"' in pages[0].text
    assert 'class="prev-page" rel="prev" href="?page=1"' in pages[1].text
    assert f'href="/players/{ann}/calculations/standard/2026-09">2026-09</a>' in played


def _rounds(table: str) -> list[int]:
    return [int(each) for each in re.findall(r'<td class="optional">(\d+)</td>', table)]


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("NOR", "Norway"),
        ("GER", "Germany"),
        ("NED", "Netherlands"),
        ("ENG", "England"),
        ("BRN", "Bahrain"),
        ("BRU", "Brunei"),
        ("SUI", "Switzerland"),
        ("FID", "FIDE"),
        ("KOR", "South Korea"),
        ("ngr", "Nigeria"),
        ("XXX", None),
        (None, None),
    ],
)
def test_a_federation_is_named_by_its_fide_code(code: str | None, name: str | None) -> None:
    assert federation_name(code) == name


def test_federations_are_shown_with_their_names_and_home_links_the_special_lists(
    client: TestClient, site: dict[str, int]
) -> None:
    home = client.get("/").text
    for kind in ("women", "juniors", "girls"):
        assert f'class="{kind}" href="/lists/standard/latest?{kind}=on"' in home
    assert '<abbr title="Norway">NOR</abbr>' in home
    card = client.get(f"/players/{site['Bob']}").text
    assert "<dd>Germany (GER)</dd>" in card
    report = client.get("/reports/standard/federations").text
    assert '?federation=NOR">NOR</a> Norway</td>' in report


def test_a_list_that_rates_no_one_says_so_on_the_home_page(
    ledger: Ledger, database_url: str
) -> None:
    ann, bob = player(ledger, "Ann", rating=2100), player(ledger, "Bob", rating=2000)
    game(ledger, ann, bob, "1-0", "2026-10-05", pool=Pool.RAPID)  # neither rated in rapid
    close(ledger, "2026-10")
    close(ledger, "2026-10", Pool.RAPID)
    with TestClient(create_app(database_url)) as client:
        home = client.get("/").text
    rapid = home.split('data-pool="rapid"', 1)[1].split("</section>", 1)[0]
    assert "No player is rated on this list." in rapid
    assert "<table" not in rapid
    standard = home.split('data-pool="standard"', 1)[1].split("</section>", 1)[0]
    assert "Ann" in standard


def test_a_version_of_a_reopened_period_says_it_was_withdrawn(
    client: TestClient, database_url: str
) -> None:
    """The period's address is gone once a reopen takes its list back; a numbered version
    stays readable, as the history it is, and says it was withdrawn."""
    asked = "/lists/standard/2026-10?version=2"
    assert client.get(f"/api/v1{asked}").json()["version"]["current"]
    reopened = run("reopen-period", "2026-10", "--reason", "arbiter", db=database_url)
    assert reopened.exit_code == 0, reopened.stderr
    assert client.get("/lists/standard/2026-10").status_code == 404
    shown = client.get(f"/api/v1{asked}").json()["version"]
    assert (shown["current"], shown["withdrawn"]) == (False, True)
    assert "version 2 (revised, withdrawn)" in client.get(asked).text
