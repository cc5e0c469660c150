"""`ledger reports`: the officer's twins of the site's report pages, and a report sent from a
file for its organiser, on both backends. The events are of 2024, so every report sent now
is late (a warning whatever today is)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.storage.database import Ledger

from builders import entrant, player, run, trf_report

EVENT = "Bilbao Club Cup"


def _report(tmp_path: Path, event: str = EVENT, name: str = "cup.trf") -> Path:
    players = [
        entrant("Adams, Ann", 1001, federation="NOR", sex="F", birth_year=1990),
        entrant("Brown, Bob", 1002, federation="NOR", sex="M", birth_year=1985),
        entrant("Newman, Ned", birth_year=2002),
    ]
    games = [(1, 1, 2, "1-0"), (2, 3, 1, "0-1"), (3, 2, 3, "1/2-1/2")]
    path = tmp_path / name
    path.write_bytes(trf_report(event, "2024-09-08", players, games))
    return path


@pytest.fixture
def officer_ledger(ledger: Ledger, database_url: str) -> str:
    """A ledger with an organiser's account and two rated players."""
    player(ledger, "Adams, Ann", rating=2000, fide_id=1001, federation="NOR", sex="F",
           birth_year=1990)  # fmt: skip
    player(ledger, "Brown, Bob", rating=1900, fide_id=1002, federation="NOR", sex="M",
           birth_year=1985)  # fmt: skip
    made = run("users", "add", "ari@club.test", "--name", "Ari Arbiter", "--role", "organiser",
               db=database_url)  # fmt: skip
    assert made.exit_code == 0, made.stderr
    return database_url


def _json(*args: str, db: str) -> object:
    shown = run(*args, "--format", "json", db=db)
    assert shown.exit_code == 0, shown.stderr
    return json.loads(shown.stdout)


def test_an_officer_runs_a_report_from_a_file_to_its_acceptance(
    officer_ledger: str, tmp_path: Path
) -> None:
    db = officer_ledger
    sent = run("reports", "upload", str(_report(tmp_path)), "--organiser", "ari@club.test", db=db)
    assert (sent.exit_code, sent.stderr) == (0, "")
    assert sent.stdout == (
        "Report 1, version 1 (draft): 0 error(s), 1 warning(s), 5 note(s); "
        "`ledger reports show 1` lists them.\n"
    )
    assert "; draft. Not received yet.\n" in run("reports", "show", "1", db=db).stdout
    detail = _json("reports", "show", "1", db=db)
    assert isinstance(detail, dict)
    (warning,) = [f for f in detail["versions"][0]["findings"] if f["tier"] == "warning"]
    assert warning["code"] == "late"
    refused = run("reports", "submit", "1", db=db)
    assert (refused.exit_code, refused.stderr) == (
        1,
        f"error: report 1 has 1 warning(s) not acknowledged (warning {warning['id']}); "
        "acknowledge each with a note, then submit it.\n",
    )
    noted = run(
        "reports", "acknowledge", "1", str(warning["id"]), "--note", "sent by post",
        "--operator", "Olga Officer", db=db,
    )  # fmt: skip
    assert noted.stdout == "Acknowledged the late warning of report 1, version 1.\n"
    assert run("reports", "submit", "1", db=db).stdout == (f"Report 1 ({EVENT}) is submitted.\n")
    queue = _json("reports", "list", db=db)
    assert [(row["id"], row["state"]) for row in queue] == [(1, "submitted")]  # type: ignore[index, union-attr]
    accepted = run("reports", "accept", "1", "--reason", "checked", db=db)
    assert accepted.stdout == (
        f"Accepted report 1, version 1 ({EVENT}): its games are recorded in period 2024-09.\n"
    )
    shown = run("reports", "show", "1", db=db)
    assert "; accepted (public: accepted). Received 20" in shown.stdout
    assert "    acknowledged by Olga Officer on " in shown.stdout
    assert "accept-report" in shown.stdout
    assert "accept-report" in run("log", db=db).stdout
    findings = run("reports", "show", "1", "--format", "csv", db=db).stdout.splitlines()
    assert findings[0] == "version,id,tier,code,line,field,subject,message,acknowledged"
    assert findings[1].endswith(",sent by post")  # the late warning first, with its note
    assert run("reports", "list", db=db).stdout == "Reports submitted: none.\n"


def test_a_report_is_returned_then_rejected_with_its_public_category(
    officer_ledger: str, tmp_path: Path
) -> None:
    db = officer_ledger
    run("reports", "upload", str(_report(tmp_path)), "--organiser", "ari@club.test", db=db)
    warning = next(
        f["id"]
        for f in _json("reports", "show", "1", db=db)["versions"][0]["findings"]  # type: ignore[index]
        if f["tier"] == "warning"
    )
    run("reports", "acknowledge", "1", str(warning), "--note", "late", db=db)
    run("reports", "submit", "1", db=db)
    returned = run("reports", "return", "1", "--reason", "round 3 is missing", db=db)
    assert returned.stdout == f"Report 1 ({EVENT}) is returned.\n"
    again = run("reports", "reject", "1", "--reason", "no", "--category", "duplicate", db=db)
    assert (again.exit_code, again.stderr) == (
        1,
        "error: report 1 is returned, so it cannot be rejected; its organiser uploads a new "
        "version, as the rating officer's reason asks.\n",
    )
    history = _json("reports", "show", "1", db=db)["history"]  # type: ignore[index]
    assert [entry["action"] for entry in history] == [
        "upload-report",
        "acknowledge-warning",
        "submit-report",
        "return-report",
    ]


def test_stored_text_is_shown_as_text_not_markup(officer_ledger: str, tmp_path: Path) -> None:
    db = officer_ledger
    path = _report(tmp_path, event="[bold]Cup[/bold]", name="[i]cup.trf")
    run("reports", "upload", str(path), "--organiser", "ari@club.test", db=db)
    listed = run("reports", "list", "--state", "draft", db=db)
    assert "[bold]Cup[/bold]" in listed.stdout
    assert "[i]cup.trf" in run("reports", "show", "1", db=db).stdout


@pytest.mark.parametrize(
    ("arguments", "code", "refusal"),
    [
        (
            ("reports", "accept", "99"),
            1,
            "error: there is no report 99 that you may see; look its number up in the list of "
            "reports.\n",
        ),
        (
            ("reports", "accept", "1", "--match", "twenty"),
            2,
            "error: match: 'twenty' is not REFERENCE=ID, e.g. 13=4711.\n",
        ),
        (
            ("reports", "reject", "1", "--reason", "no", "--category", "rude"),
            2,
            "error: category: 'rude' is not a reason category; choose duplicate, not-ratable, "
            "unconfirmed, other.\n",
        ),
        (
            ("reports", "list", "--state", "lost"),
            2,
            "error: state: 'lost' is not a report's state; choose draft, submitted, returned, "
            "accepted, rejected, withdrawn.\n",
        ),
        (
            ("reports", "upload", "{report}"),
            1,
            "error: organiser: give the account the report is sent for (an organiser's e-mail).\n",
        ),
        (
            ("reports", "upload", "{report}", "--organiser", "nobody@club.test"),
            1,
            "error: there is no account for nobody@club.test; `ledger users list` lists them.\n",
        ),
        (
            ("reports", "upload", "notes.doc"),
            2,
            "error: notes.doc: No such file or directory.\n",
        ),
    ],
    ids=[
        "no-report",
        "bad-match",
        "bad-category",
        "bad-state",
        "no-organiser",
        "no-account",
        "no-file",
    ],
)
def test_the_refusals_of_the_report_commands(
    officer_ledger: str,
    tmp_path: Path,
    arguments: tuple[str, ...],
    code: int,
    refusal: str,
) -> None:
    report = str(_report(tmp_path))
    given = [report if argument == "{report}" else argument for argument in arguments]
    refused = run(*given, db=officer_ledger)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (code, "", refusal)
