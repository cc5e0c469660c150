"""Tournament reports on the web (issue 39), on both backends: an organiser's pages (send a
report, its check shown in three tiers, a new version, acknowledgements, submit), the
officer's (the queue, accept, return, reject, close a period), the public events received,
and the JSON twins under /api/v1/desk with a token; forms from other sites refused, an
upload over the cap refused before it is read, hostile names shown as text, another
organiser's report never shown, two officers accepting at once."""

from __future__ import annotations

import asyncio
import datetime as dt
import html
import inspect
import json
import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from ledger.core.access import Role
from ledger.core.reports import (
    LARGEST_REPORT,
    OVERDUE_AFTER_DAYS,
    OVERDUE_VARIABLE,
    overdue_after,
)
from ledger.services import accounts
from ledger.services.activity import Author
from ledger.storage.database import Ledger
from ledger.storage.models import Game, LogEntry, Player, Report
from ledger.web import create_app, desk_api, report_pages, review_pages, signing
from ledger.web import desk as desk_pages
from ledger.web.answering import (
    LARGER_BODIES,
    REPORT_UPLOAD,
    REPORT_UPLOAD_API,
    UPLOAD_BYTES,
    body_limit,
)

from builders import NOW, fingerprint, player, reported_players, run, spring_open

SITE = "http://ledger.test"
SAME_SITE = {"Origin": SITE}
PASSWORD = "a long enough password"
ORGANISER, OTHER, OFFICER, SECOND_OFFICER = (
    "ari@club.test",
    "otto@club.test",
    "olga@federation.test",
    "sam@federation.test",
)
SENT = dt.datetime(2026, 4, 1, 10, 0)
"""The site's time: three days after the Spring Open ended (on time), and after its period."""
PERIOD = "2026-03"


class Clock:
    """The site's clock, which a test moves on."""

    def __init__(self, at: dt.datetime) -> None:
        self.at = at

    def __call__(self) -> dt.datetime:
        return self.at


@dataclass
class Desk:
    """A ledger with the `REPORTED` players, two organisers' and two officers' accounts,
    and the site over it at the `clock`'s time."""

    ledger: Ledger
    url: str
    clock: Clock
    app: FastAPI
    ford: int
    """A ledger player in none of the reports."""

    def client(self, email: str | None = None) -> TestClient:
        """A browser of the site (its forms sent from the site), signed in as `email`."""
        client = TestClient(self.app, base_url=SITE, headers=SAME_SITE)
        if email is not None:
            signed = client.post(
                "/sign-in",
                data={"email": email, "password": PASSWORD},
                follow_redirects=False,
            )
            assert signed.status_code == 303, signed.text
        return client

    def token(self, email: str, role: Role | None = None) -> dict[str, str]:
        """The headers of a script with a personal API token of `email`'s account."""
        with self.ledger.transaction() as session:
            secret = accounts.add_token(session, email, "script", role, NOW, Author("test"))
        return {"Authorization": f"Bearer {secret}"}


@pytest.fixture
def desk(ledger: Ledger, database_url: str) -> Iterator[Desk]:
    reported_players(ledger)
    ford = player(ledger, "Ford, Fay", rating=1600, birth_year=1960)
    for email, role in (
        (ORGANISER, Role.ORGANISER),
        (OTHER, Role.ORGANISER),
        (OFFICER, Role.OFFICER),
        (SECOND_OFFICER, Role.OFFICER),
    ):
        with ledger.transaction() as session:
            name = email.split("@")[0].capitalize()
            accounts.add_account(session, email, name, role, Author("test"), NOW, PASSWORD)
    clock = Clock(SENT)
    app = create_app(database_url, clock=clock)
    yield Desk(ledger, database_url, clock, app, ford)
    app.state.ledger.dispose()
    app.state.writer.dispose()


def _upload(client: TestClient, content: bytes, name: str = "spring.trf", **fields: str) -> int:
    """Send a report from the upload form; the report's number, from its page's address."""
    sent = client.post(
        "/desk/reports/upload",
        data={"pool": "standard", **fields},
        files={"file": (name, content, "text/plain")},
        follow_redirects=False,
    )
    assert sent.status_code == 303, sent.text
    found = re.fullmatch(r"/desk/reports/(\d+)", sent.headers["location"])
    assert found is not None
    return int(found[1])


def _findings(shown: str, tier: str) -> list[str]:
    """The findings of `tier` the report's page lists for its newest version, each as its
    text."""
    check = shown.partition('<section id="check">')[2].partition('<section id="versions">')[0]
    section = re.search(rf'<ol class="findings {tier}s">(.*?)</ol>', check, re.DOTALL)
    if section is None:
        return []
    items = re.findall(r"<li class=\"finding [a-z]+\"[^>]*>(.*?)</li>", section[1], re.DOTALL)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", item)).split()) for item in items]


def _warning_ids(shown: str) -> list[str]:
    return re.findall(r'action="/desk/reports/\d+/warnings/(\d+)/acknowledge"', shown)


def _state(shown: str) -> str:
    found = re.search(r'<dd class="state" data-state="([a-z]+)">', shown)
    assert found is not None
    return found[1]


def _received(client: TestClient) -> list[tuple[str, str]]:
    """The public events received of 2026-03: (event, state)."""
    answer = client.get(f"/api/v1/events-received/standard?period={PERIOD}")
    assert answer.status_code == 200, answer.text
    return [(row["event"], row["state"]) for row in answer.json()["events"]]


def _send_the_spring_open(desk: Desk) -> int:
    """The organiser's round: a report with an error and a warning, the fixed version, the
    warning acknowledged, submitted."""
    organiser = desk.client(ORGANISER)
    report = _upload(organiser, spring_open())
    _upload(organiser, spring_open(fixed=True), report=str(report))
    (warning,) = _warning_ids(organiser.get(f"/desk/reports/{report}").text)
    organiser.post(
        f"/desk/reports/{report}/warnings/{warning}/acknowledge",
        data={"note": "the arbiter saw his ID: born in 1920"},
    )
    assert organiser.post(f"/desk/reports/{report}/submit").status_code == 200
    return report


# An organiser's round ---------------------------------------------------------------------


def test_an_organiser_sees_every_problem_with_its_line_and_submits_the_fixed_report(
    desk: Desk,
) -> None:
    organiser = desk.client(ORGANISER)
    assert "No reports yet" in organiser.get("/desk/reports").text
    report = _upload(organiser, spring_open())
    shown = organiser.get(f"/desk/reports/{report}").text
    assert _state(shown) == "draft"
    assert "1 error, 1 warning (1 to acknowledge), 7 notes" in shown
    (error,) = _findings(shown, "error")
    assert error.startswith("Line 8, player: FIDE ID 1003 is ledger player 3, Clark, Cy")
    assert "but the report gives the birth year 1980; correct the report" in error
    (warning,) = _findings(shown, "warning")
    assert warning.startswith("Line 10, birth year: the birth year 1920 makes Elder, Ed 106")
    assert "Correct the 1 error and send the file again" in shown
    assert 'id="submit"' not in shown

    assert _upload(organiser, spring_open(fixed=True), report=str(report)) == report
    shown = organiser.get(f"/desk/reports/{report}").text
    assert _findings(shown, "error") == []
    assert "Acknowledge each warning above with a note" in shown
    (warning_id,) = _warning_ids(shown)
    acknowledged = organiser.post(
        f"/desk/reports/{report}/warnings/{warning_id}/acknowledge",
        data={"note": "the arbiter saw his ID: born in 1920"},
        follow_redirects=False,
    )
    assert (acknowledged.status_code, acknowledged.headers["location"]) == (
        303,
        f"/desk/reports/{report}",
    )
    shown = organiser.get(f"/desk/reports/{report}").text
    assert "the arbiter saw his ID: born in 1920" in shown
    assert _received(organiser) == []  # a draft is not public
    organiser.post(f"/desk/reports/{report}/submit")
    shown = organiser.get(f"/desk/reports/{report}").text
    assert _state(shown) == "submitted"
    assert _received(organiser) == [("Spring Open", "received")]
    public = desk.client().get("/events-received/standard").text
    assert '<td class="state">received</td><td>2026-04-01</td>' in public
    assert re.findall(r"<summary>Version (\d)", shown) == ["2", "1"]


def test_the_officer_accepts_closes_the_period_and_the_organiser_sees_the_ratings(
    desk: Desk,
) -> None:
    report = _send_the_spring_open(desk)
    officer = desk.client(OFFICER)
    queue = officer.get("/desk/queue").text
    assert f'href="/desk/reports/{report}">Spring Open</a>' in queue
    assert "0 days" in queue
    shown = officer.get(f"/desk/reports/{report}").text
    assert 'form id="accept"' in shown
    assert "Elder, Ed is new to the ledger" in shown
    accepted = officer.post(
        f"/desk/reports/{report}/accept",
        data={"reference": ["10"], "player": [""]},
        follow_redirects=False,
    )
    assert accepted.status_code == 303, accepted.text
    assert _received(officer) == [("Spring Open", "accepted")]
    periods = officer.get("/desk/periods").text
    assert f"Close {PERIOD} and publish its list" in periods
    closed = officer.post(
        "/desk/periods/close", data={"pool": "standard", "period": PERIOD}, follow_redirects=False
    )
    assert (closed.status_code, closed.headers["location"]) == (303, f"/lists/standard/{PERIOD}")
    assert _received(officer) == [("Spring Open", "rated")]
    public = desk.client().get(f"/events-received/standard?period={PERIOD}").text
    assert '<a class="event" href="/events/standard/Spring%20Open">Spring Open</a>' in public
    assert desk.client().get("/events/standard/Spring%20Open").status_code == 200

    organiser = desk.client(ORGANISER)
    shown = organiser.get(f"/desk/reports/{report}").text
    assert _state(shown) == "rated"
    assert f"Rated on the standard list of period {PERIOD}." in shown
    ratings = re.findall(
        r'<td class="rating">(\d+)</td><td>([\d.]+)</td><td class="change">(-?[\d.]+)</td>', shown
    )
    assert [(rating, score) for rating, score, _ in ratings] == [
        ("2000", "2.5"),
        ("1700", "1.5"),
        ("1900", "1"),
        ("1800", "1"),
    ]
    with desk.ledger.reading() as session:
        closes = session.scalars(select(LogEntry).where(LogEntry.action == "close")).all()
    assert [(entry.operator, entry.address) for entry in closes] == [(OFFICER, "testclient")]


def test_an_officer_matches_a_new_player_to_a_ledger_player(desk: Desk) -> None:
    report = _send_the_spring_open(desk)
    officer = desk.client(OFFICER)
    wrong = officer.post(
        f"/desk/reports/{report}/accept", data={"reference": ["9"], "player": [str(desk.ford)]}
    )
    assert wrong.status_code == 400
    assert "match: &#39;9&#39; is no new player of the report" in wrong.text
    uneven = officer.post(f"/desk/reports/{report}/accept", data={"reference": ["10", "9"]})
    assert uneven.status_code == 400
    accepted = officer.post(
        f"/desk/reports/{report}/accept",
        data={"reference": ["10"], "player": [str(desk.ford)]},
        follow_redirects=False,
    )
    assert accepted.status_code == 303
    with desk.ledger.reading() as session:
        players = session.scalar(select(func.count()).select_from(Player))
        white = session.scalars(select(Game.white_id).where(Game.round == 4)).one()
    assert (players, white) == (5, desk.ford)  # Elder, Ed is Ford, Fay: nobody was created


def test_a_report_returned_with_a_reason_and_one_rejected_for_the_public(desk: Desk) -> None:
    organiser = desk.client(ORGANISER)
    first = _send_the_spring_open(desk)
    second = _upload(organiser, spring_open(fixed=True, event="Summer Cup"))
    (warning,) = _warning_ids(organiser.get(f"/desk/reports/{second}").text)
    organiser.post(f"/desk/reports/{second}/warnings/{warning}/acknowledge", data={"note": "ok"})
    organiser.post(f"/desk/reports/{second}/submit")
    officer = desk.client(OFFICER)
    missing = officer.post(f"/desk/reports/{first}/return", data={"reason": " "})
    assert missing.status_code == 400
    officer.post(f"/desk/reports/{first}/return", data={"reason": "round 3 is missing"})
    officer.post(
        f"/desk/reports/{second}/reject",
        data={"category": "duplicate", "reason": "the same as the Spring Open"},
    )
    shown = organiser.get(f"/desk/reports/{first}").text
    assert _state(shown) == "returned"
    assert "round 3 is missing" in shown
    assert 'id="new-version"' in shown
    assert "testclient" not in shown  # an organiser is not shown the officer's address
    assert _received(organiser) == [("Spring Open", "returned"), ("Summer Cup", "rejected")]
    public = desk.client().get("/events-received/standard").text
    assert "rejected: already reported or rated" in public
    assert "the same as the Spring Open" not in public


def test_the_queue_shows_the_longest_waiting_first_and_flags_the_overdue(desk: Desk) -> None:
    first = _send_the_spring_open(desk)
    desk.clock.at = SENT + dt.timedelta(days=3)
    organiser = desk.client(ORGANISER)
    second = _upload(organiser, spring_open(fixed=True, event="Summer Cup", end="2026-04-02"))
    (warning,) = _warning_ids(organiser.get(f"/desk/reports/{second}").text)
    organiser.post(f"/desk/reports/{second}/warnings/{warning}/acknowledge", data={"note": "ok"})
    organiser.post(f"/desk/reports/{second}/submit")
    desk.clock.at = SENT + dt.timedelta(days=15)
    officer = desk.client(OFFICER)
    queue = officer.get("/desk/queue").text
    rows = re.findall(r'<tr( class="overdue")?><td>(\d+)</td>.*?<td class="age">(\d+) days', queue)
    assert rows == [(' class="overdue"', str(first), "15"), ("", str(second), "12")]
    old = officer.get("/desk/queue?older_than=13&pool=&period=").text
    assert f'href="/desk/reports/{second}"' not in old
    april = officer.get("/desk/queue?state=all&pool=standard&period=2026-04").text
    assert f'href="/desk/reports/{second}"' in april
    assert f'href="/desk/reports/{first}"' not in april
    refused = officer.get("/desk/queue?state=lost")
    assert refused.status_code == 422
    api = officer.get("/api/v1/desk/queue?older_than=13").json()
    assert [(row["id"], row["age"], row["overdue"]) for row in api] == [(first, 15, True)]


# Who may see what --------------------------------------------------------------------------


def test_an_organiser_never_sees_another_organisers_report(desk: Desk) -> None:
    report = _upload(desk.client(ORGANISER), spring_open())
    other = desk.client(OTHER)
    assert f"/desk/reports/{report}" not in other.get("/desk/reports").text
    for path in (
        f"/desk/reports/{report}",
        f"/desk/reports/{report}/versions/1/file",
        f"/api/v1/desk/reports/{report}",
    ):
        refused = other.get(path)
        assert refused.status_code == 404, path
        assert f"there is no report {report} that you may see" in html.unescape(refused.text)
    for action in ("submit", "withdraw"):
        assert other.post(f"/desk/reports/{report}/{action}").status_code == 404
    assert other.get("/api/v1/desk/reports").json() == []
    with desk.ledger.reading() as session:
        assert session.scalar(select(Report.state).where(Report.id == report)) == "draft"


@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("/desk/reports/{report}/submit", {}),
        ("/desk/reports/{report}/withdraw", {"reason": "x"}),
        ("/desk/reports/{report}/warnings/{warning}/acknowledge", {"note": "x"}),
        ("/desk/reports/{report}/return", {"reason": "x"}),
        ("/desk/reports/{report}/reject", {"category": "other", "reason": "x"}),
        ("/desk/reports/{report}/accept", {}),
        ("/desk/periods/close", {"pool": "standard", "period": PERIOD}),
        ("/api/v1/desk/reports/{report}/submit", {}),
    ],
)
def test_a_report_form_sent_from_another_site_is_refused(
    desk: Desk, path: str, fields: dict[str, str]
) -> None:
    organiser = desk.client(ORGANISER)
    report = _upload(organiser, spring_open(fixed=True))
    (warning,) = _warning_ids(organiser.get(f"/desk/reports/{report}").text)
    officer = desk.client(OFFICER)
    filled = path.format(report=report, warning=warning)
    before = fingerprint(desk.url)
    sent = officer.post(filled, data=fields, headers={"Origin": "https://elsewhere.test"})
    assert sent.status_code == 403
    assert "from its own pages only" in sent.text
    assert fingerprint(desk.url) == before


def test_an_upload_form_from_another_site_is_refused(desk: Desk) -> None:
    organiser = desk.client(ORGANISER)
    sent = organiser.post(
        "/desk/reports/upload",
        data={"pool": "standard"},
        files={"file": ("spring.trf", spring_open(), "text/plain")},
        headers={"Origin": "https://elsewhere.test"},
    )
    assert sent.status_code == 403
    assert "No reports yet" in organiser.get("/desk/reports").text


# Hostile input -----------------------------------------------------------------------------


CHUNK = 1 << 16


def _sent_to_the_app(app: FastAPI, path: str, cookie: str, length: int | None) -> tuple[int, int]:
    """POST an upload that never ends straight to the app, as a server hands it over, a
    chunk at a time: the answer's status and how many chunks the app asked for."""
    asked = 0
    head = b'--x\r\nContent-Disposition: form-data; name="file"; filename="a.pgn"\r\n\r\n'

    async def receive() -> dict[str, object]:
        nonlocal asked
        asked += 1
        return {
            "type": "http.request",
            "body": head if asked == 1 else b"0" * CHUNK,
            "more_body": True,
        }

    answered: list[dict[str, object]] = []

    async def send(message: dict[str, object]) -> None:
        answered.append(message)

    headers = [
        (b"host", b"ledger.test"),
        (b"origin", SITE.encode()),
        (b"cookie", f"ledger_session={cookie}".encode()),
        (b"content-type", b"multipart/form-data; boundary=x"),
    ]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "client": ("203.0.113.9", 50000),
        "server": ("ledger.test", 80),
        "app": app,
    }
    with ThreadPoolExecutor(1) as aside:  # a loop of its own, wherever the test runs
        aside.submit(asyncio.run, app(scope, receive, send)).result()  # type: ignore[arg-type]
    return int(answered[0]["status"]), asked  # type: ignore[call-overload]


@pytest.mark.parametrize("path", [REPORT_UPLOAD, REPORT_UPLOAD_API])
def test_an_upload_over_the_cap_is_refused_before_it_is_read(desk: Desk, path: str) -> None:
    assert body_limit(path) == UPLOAD_BYTES == LARGEST_REPORT + 64 * 1024
    cookie = desk.client(ORGANISER).cookies["ledger_session"]
    declared = _sent_to_the_app(desk.app, path, cookie, UPLOAD_BYTES + 1)
    assert declared == (413, 0)  # refused by its length: not a byte read
    status, asked = _sent_to_the_app(desk.app, path, cookie, None)
    assert status == 413
    assert asked <= UPLOAD_BYTES // CHUNK + 2  # read up to the cap, and no further
    answer = desk.client(ORGANISER).post(
        path, content=b"", headers={"Content-Length": str(UPLOAD_BYTES + 1)}
    )
    assert answer.status_code == 413
    assert "larger than this page takes (10304 KB at most)." in answer.text
    with desk.ledger.reading() as session:
        assert session.scalar(select(func.count()).select_from(Report)) == 0


PRIVATE_ROUTERS = (
    signing.router,
    desk_pages.router,
    report_pages.router,
    review_pages.router,
    desk_api.router,
)


def test_the_routes_that_take_a_file_take_a_report_and_no_other_more_than_a_form() -> None:
    taking_files = {
        route.path
        for router in PRIVATE_ROUTERS
        for route in router.routes
        if isinstance(route, APIRoute)
        and any(
            "UploadFile" in str(parameter.annotation)
            for parameter in inspect.signature(route.endpoint).parameters.values()
        )
    }
    assert taking_files == set(LARGER_BODIES) == {REPORT_UPLOAD, REPORT_UPLOAD_API}


def test_hostile_names_and_contents_show_as_text(desk: Desk) -> None:
    organiser = desk.client(ORGANISER)
    script = b"<script>alert(1)</script>"
    content = spring_open(fixed=True, event="<b>Open</b>").replace(
        b"Elder, Ed".ljust(len(script)), script
    )
    name = "<img src=x onerror=alert(2)>.trf"
    report = _upload(organiser, content, name=name)
    (warning,) = _warning_ids(organiser.get(f"/desk/reports/{report}").text)
    organiser.post(f"/desk/reports/{report}/warnings/{warning}/acknowledge", data={"note": "<i>"})
    organiser.post(f"/desk/reports/{report}/submit")
    officer = desk.client(OFFICER)
    for client, path in (
        (organiser, f"/desk/reports/{report}"),
        (organiser, "/desk/reports"),
        (officer, "/desk/queue"),
        (officer, f"/desk/reports/{report}"),
        (desk.client(), "/events-received/standard"),
    ):
        shown = client.get(path).text
        assert "<script>alert" not in shown, path
        assert "<img src=x" not in shown, path
        assert "<b>Open" not in shown, path
        assert "&lt;b&gt;Open&lt;/b&gt;" in shown, path
    shown = officer.get(f"/desk/reports/{report}").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; is new to the ledger" in shown
    assert "&lt;img src=x onerror=alert(2)&gt;.trf" in shown
    download = officer.get(f"/desk/reports/{report}/versions/1/file")
    assert download.content == content
    assert download.headers["content-disposition"] == (
        'attachment; filename="report-1-version-1.trf"; '
        "filename*=UTF-8''%3Cimg%20src%3Dx%20onerror%3Dalert%282%29%3E.trf"
    )


# Two officers at once ----------------------------------------------------------------------


def test_two_officers_accepting_one_report_at_once_one_wins(desk: Desk) -> None:
    """Two workers of the site (two apps), each an officer's script: one accepts, the other
    is told the report is accepted; the games are recorded once."""
    report = _send_the_spring_open(desk)
    tokens = [desk.token(OFFICER), desk.token(SECOND_OFFICER)]
    apps = [create_app(desk.url, clock=desk.clock) for _ in tokens]
    clients = [TestClient(app, base_url=SITE) for app in apps]
    for client, token in zip(clients, tokens, strict=True):
        # FastAPI makes a route's checks on its first request; two first requests at once
        # race on the warnings filter (which the tests make errors): each worker has
        # answered once before.
        assert client.post("/api/v1/desk/reports/9999/accept", headers=token).status_code == 404
    start = threading.Barrier(len(apps), timeout=60)
    answers: list[tuple[int, object]] = []

    def accept(client: TestClient, token: dict[str, str]) -> None:
        start.wait()
        answer = client.post(f"/api/v1/desk/reports/{report}/accept", headers=token)
        answers.append((answer.status_code, answer.json()))

    threads = [
        threading.Thread(target=accept, args=pair) for pair in zip(clients, tokens, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for app in apps:
        app.state.ledger.dispose()
        app.state.writer.dispose()
    assert sorted(status for status, _ in answers) == [200, 409]
    (refused,) = [body for status, body in answers if status == 409]
    assert refused == {
        "error": f"report {report} is accepted, so it cannot be accepted; it is locked: a new "
        "version of it is a correction, which the rating officer accepts."
    }
    with desk.ledger.reading() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 6
        accepts = session.scalar(select(func.count()).where(LogEntry.action == "accept-report"))
    assert accepts == 1


# The API with a token ----------------------------------------------------------------------


def test_a_script_sends_a_report_and_the_officers_script_accepts_it(desk: Desk) -> None:
    script, officer = desk.client(), desk.client()
    organiser_token, officer_token = desk.token(ORGANISER), desk.token(OFFICER)
    uploaded = script.post(
        "/api/v1/desk/reports/upload",
        data={"pool": "standard"},
        files={"file": ("spring.trf", spring_open(fixed=True), "text/plain")},
        headers=organiser_token,
    )
    assert uploaded.status_code == 200, uploaded.text
    assert uploaded.json() == {
        "report": 1,
        "event": "Spring Open",
        "version": 1,
        "state": "draft",
        "errors": 0,
        "warnings": 1,
        "notes": 7,
    }
    status = script.get("/api/v1/desk/reports/1", headers=organiser_token).json()
    (warning,) = [f for f in status["versions"][0]["findings"] if f["tier"] == "warning"]
    refused = script.post("/api/v1/desk/reports/1/submit", headers=organiser_token)
    assert refused.status_code == 409
    assert refused.json()["error"] == (
        f"report 1 has 1 warning(s) not acknowledged (warning {warning['id']}); acknowledge "
        "each with a note, then submit it."
    )
    noted = script.post(
        f"/api/v1/desk/reports/1/warnings/{warning['id']}/acknowledge",
        data={"note": "born in 1920, says the arbiter"},
        headers=organiser_token,
    )
    assert noted.json() == {"report": 1, "version": 1, "warning": "birth-year", "line": 10}
    submitted = script.post("/api/v1/desk/reports/1/submit", headers=organiser_token)
    assert submitted.json() == {
        "report": 1,
        "event": "Spring Open",
        "version": 1,
        "state": "submitted",
    }
    forbidden = script.get("/api/v1/desk/queue", headers=organiser_token)
    assert forbidden.status_code == 403
    assert forbidden.json() == {
        "error": "an organiser's account may not do this; ask a rating officer."
    }
    limited = desk.token(OFFICER, Role.ORGANISER)
    assert script.post("/api/v1/desk/reports/1/accept", headers=limited).status_code == 403
    queue = officer.get("/api/v1/desk/queue", headers=officer_token).json()
    assert [(row["id"], row["state"], row["age"]) for row in queue] == [(1, "submitted", 0)]
    accepted = officer.post(
        "/api/v1/desk/reports/1/accept", data={"match": [f"10={desk.ford}"]}, headers=officer_token
    )
    assert accepted.json() == {
        "report": 1,
        "pool": "standard",
        "event": "Spring Open",
        "version": 1,
        "period": PERIOD,
        "matched": 1,
        "rerated": {},
    }
    closed = officer.post(
        "/api/v1/desk/periods/close",
        data={"pool": "standard", "period": PERIOD, "reason": "March is in"},
        headers=officer_token,
    )
    assert closed.status_code == 200, closed.text
    assert _received(officer) == [("Spring Open", "rated")]


@pytest.mark.parametrize(
    ("method", "path", "fields", "status", "error"),
    [
        ("GET", "/api/v1/desk/reports", {}, 401, "sign in with an account that may do this."),
        ("GET", "/api/v1/desk/reports/7", {}, 404, "there is no report 7 that you may see"),
        ("POST", "/api/v1/desk/reports/7/submit", {}, 404, "there is no report 7"),
        ("POST", "/api/v1/desk/reports/7/return", {}, 422, "reason: field required."),
        ("POST", "/api/v1/desk/reports/7/accept", {"match": "x"}, 400, "match: 'x' is not"),
        (
            "POST",
            "/api/v1/desk/periods/close",
            {"pool": "standard", "period": "2026-04"},
            409,
            "period 2026-04 has not ended yet",
        ),
    ],
)
def test_the_api_refuses_in_one_sentence(
    desk: Desk, method: str, path: str, fields: dict[str, str], status: int, error: str
) -> None:
    headers = {} if status == 401 else desk.token(OFFICER)
    answer = desk.client().request(method, path, data=fields or None, headers=headers)
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert answer.json()["error"].startswith(error)
    assert answer.headers["cache-control"] == "no-store"


def test_the_openapi_description_declares_the_desk_and_its_refusals(desk: Desk) -> None:
    described = desk.client().get("/api/v1/openapi.json").json()
    assert described["components"]["securitySchemes"] == {
        "bearer": {"type": "http", "scheme": "bearer", "description": "A personal API token."}
    }
    desk_operations = [
        operation
        for path, operations in described["paths"].items()
        if path.startswith("/api/v1/desk/")
        for operation in operations.values()
    ]
    assert len(desk_operations) == 11
    for operation in desk_operations:
        assert operation["security"] == [{"bearer": []}]
        assert {"401", "403", "404", "409", "413", "422"} <= set(operation["responses"])
    upload = described["paths"]["/api/v1/desk/reports/upload"]["post"]
    assert "multipart/form-data" in upload["requestBody"]["content"]
    assert json.dumps(described).count("/api/v1/events-received/{pool}") == 1


def test_serve_refuses_a_deadline_that_is_no_number_of_days(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(OVERDUE_VARIABLE, "a fortnight")
    refused = run("serve", db=f"sqlite:///{tmp_path / 'none.db'}")
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: LEDGER_REPORTS_OVERDUE_AFTER: 'a fortnight' is not a number of days; give one "
        "of 0 to 36500.\n",
    )
    assert (overdue_after(""), overdue_after(" 7 ")) == (OVERDUE_AFTER_DAYS, 7)
