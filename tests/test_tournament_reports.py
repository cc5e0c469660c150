"""Tournament reports sent in online (issue 39), on both backends: the check's three tiers,
a report's life from upload to rated, corrections, the officer's queue, the public events
received, who may do what, the log, and two changes at the same moment."""

from __future__ import annotations

import datetime as dt
import io
import threading
from pathlib import Path

import pytest
from sqlalchemy import func, select

from ledger.core.access import Forbidden, Role
from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict, InvalidInput, LedgerError, NotFound, RejectedRecords
from ledger.core.reports import (
    LARGEST_REPORT,
    MOST_FINDINGS_KEPT,
    Finding,
    PublicState,
    RejectedAs,
    ReportAction,
    ReportState,
    Tier,
    in_order,
    kept_findings,
)
from ledger.queries import live
from ledger.queries import tournament_reports as reports
from ledger.queries.events_received import ReceivedEvent, events_received
from ledger.queries.tournament_reports import COMMAND_LINE, QueueFilter, Reader
from ledger.queries.versions import list_diff
from ledger.services import tournament_reports as sending
from ledger.services.activity import Author
from ledger.services.edits import PlayerEdit, edit_player
from ledger.services.merges import merge_players
from ledger.storage.database import Ledger, open_ledger
from ledger.storage.models import Game, Import, LogEntry, Player, Report

from builders import NOW, account, close, entrant, fingerprint, game, player, trf_report

DATA = Path(__file__).parent / "data"
SENT = dt.datetime(2026, 10, 6, 9, 0)
"""Two days after the events of these tests end: no report is late."""
ADDRESS = "203.0.113.7"
EVENT = "Riverside Open"


class Scene:
    """A ledger with an officer, two organisers and four rated players with FIDE IDs."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.officer = account(ledger, "olga@federation.test", Role.OFFICER)
        self.organiser = account(ledger, "ari@club.test")
        self.other = account(ledger, "otto@club.test")
        self.a = player(
            ledger,
            "Adams, Ann",
            rating=2000,
            fide_id=1001,
            federation="NOR",
            sex="F",
            birth_year=1990,
        )
        self.b = player(
            ledger,
            "Brown, Bob",
            rating=1900,
            fide_id=1002,
            federation="NOR",
            sex="M",
            birth_year=1985,
        )
        self.c = player(
            ledger,
            "Clark, Cy",
            rating=1800,
            fide_id=1003,
            federation="SWE",
            sex="M",
            birth_year=1979,
        )
        self.d = player(
            ledger,
            "Dahl, Di",
            rating=1700,
            fide_id=1004,
            federation="SWE",
            sex="F",
            birth_year=2001,
        )

    def by(self, account_id: int, reason: str | None = None) -> Author:
        """A change made on the web by `account_id`, from `ADDRESS`."""
        return Author(f"account {account_id}", reason, account_id=account_id, address=ADDRESS)

    def upload(
        self,
        content: bytes,
        *,
        name: str = "riverside.trf",
        who: int | None = None,
        role: Role = Role.ORGANISER,
        now: dt.datetime = SENT,
        report_id: int | None = None,
    ) -> sending.Uploaded:
        account_id = self.organiser if who is None else who
        with self.ledger.transaction() as session:
            return sending.upload(
                session,
                name,
                io.BytesIO(content),
                now,
                self.by(account_id),
                role,
                pool=Pool.STANDARD,
                report_id=report_id,
            )

    def detail(self, report_id: int) -> reports.ReportDetail:
        with self.ledger.reading() as session:
            return reports.report_detail(session, report_id, COMMAND_LINE)

    def findings(self, report_id: int) -> list[reports.FindingRow]:
        return self.detail(report_id).versions[0].findings

    def acknowledge_all(self, report_id: int, note: str = "checked with the arbiter") -> None:
        for found in self.findings(report_id):
            if found.tier is Tier.WARNING and found.acknowledged is None:
                with self.ledger.transaction() as session:
                    sending.acknowledge(
                        session,
                        report_id,
                        found.id,
                        note,
                        SENT,
                        self.by(self.organiser),
                        Role.ORGANISER,
                    )

    def submit(self, report_id: int, now: dt.datetime = SENT) -> sending.ReportChanged:
        with self.ledger.transaction() as session:
            return sending.submit(session, report_id, now, self.by(self.organiser), Role.ORGANISER)

    def accept(
        self, report_id: int, now: dt.datetime = SENT, **options: object
    ) -> sending.Accepted:
        with self.ledger.transaction() as session:
            return sending.accept(
                session,
                report_id,
                now,
                self.by(self.officer),
                Role.OFFICER,
                **options,  # type: ignore[arg-type]
            )

    def events(self, period: str = "2026-10") -> list[ReceivedEvent]:
        with self.ledger.reading() as session:
            return events_received(session, Pool.STANDARD, Period.parse(period))


def _round_robin(
    event: str = EVENT, end: str = "2026-10-04", first_result: str = "1-0", **first: object
) -> bytes:
    """The scene's four players, a round each against the others; `first_result` is the
    first game's (Adams-Brown, round 1), `first` changes the first player's line."""
    players = [
        entrant("Adams, Ann", 1001, federation="NOR", sex="F", birth_year=1990),
        entrant("Brown, Bob", 1002, federation="NOR", sex="M", birth_year=1985),
        entrant("Clark, Cy", 1003, federation="SWE", sex="M", birth_year=1979),
        entrant("Dahl, Di", 1004, federation="SWE", sex="F", birth_year=2001),
    ]
    players[0] = {**players[0], **first}
    games = [
        (1, 1, 2, first_result), (1, 3, 4, "1/2-1/2"),
        (2, 4, 1, "0-1"), (2, 2, 3, "1-0"),
        (3, 1, 3, "1/2-1/2"), (3, 4, 2, "0-1"),
    ]  # fmt: skip
    return trf_report(event, end, players, games)


def _codes(findings: list[reports.FindingRow], tier: Tier) -> list[tuple[str, int | None]]:
    return [(found.code, found.line) for found in findings if found.tier is tier]


@pytest.fixture
def scene(ledger: Ledger) -> Scene:
    return Scene(ledger)


# A report's life -----------------------------------------------------------------------


def test_a_clean_report_goes_from_draft_to_received_accepted_and_rated(scene: Scene) -> None:
    uploaded = scene.upload(_round_robin())
    assert (uploaded.state, uploaded.errors, uploaded.warnings) == (ReportState.DRAFT, 0, 0)
    notes = [found.message for found in scene.findings(uploaded.report)]
    assert notes[:2] == [
        "the games are rated in standard period 2026-10, whose list is published when the "
        "rating officer closes it.",
        "4 players in the ledger and 0 new; 6 games for rating and 0 not; 0 byes.",
    ]
    assert scene.events() == []  # a draft is never public
    scene.submit(uploaded.report, now=SENT + dt.timedelta(hours=1))
    (received,) = scene.events()
    assert (received.event, received.state, received.received) == (
        EVENT,
        PublicState.RECEIVED,
        dt.date(2026, 10, 6),
    )
    accepted = scene.accept(uploaded.report)
    assert (accepted.period, accepted.rerated) == (Period(2026, 10), {})
    with scene.ledger.reading() as session:
        games = session.scalar(select(func.count()).select_from(Game))
        kinds = session.scalars(select(Import.kind)).all()
    assert (games, kinds) == (6, ["trf"])  # recorded by the TRF import, once
    assert scene.events()[0].state is PublicState.ACCEPTED
    close(scene.ledger, "2026-10")
    assert scene.events()[0].state is PublicState.RATED
    assert scene.detail(uploaded.report).public is PublicState.RATED


def test_the_expected_changes_are_the_live_lists(scene: Scene) -> None:
    close(scene.ledger, "2026-09")  # a first list, so the live list has one to start from
    uploaded = scene.upload(_round_robin())
    expected = {
        found.subject: found.message
        for found in scene.findings(uploaded.report)
        if found.code == "expected-change"
    }
    scene.submit(uploaded.report)
    scene.accept(uploaded.report)
    with scene.ledger.reading() as session:
        rows = {row.id: row for row in live.live_list(session, Pool.STANDARD).rows}
    # Lines 6 to 9 are Adams, Brown, Clark and Dahl.
    for line, player_id in zip("6789", (scene.a, scene.b, scene.c, scene.d), strict=True):
        change = rows[player_id].change
        assert f": {change:+d} expected from the report's 3 rated games" in expected[line]


def test_every_transition_is_logged_with_the_account_address_and_reason(scene: Scene) -> None:
    uploaded = scene.upload(_round_robin())
    scene.submit(uploaded.report)
    with scene.ledger.transaction() as session:
        sending.send_back(
            session,
            uploaded.report,
            SENT,
            scene.by(scene.officer, "round 3 is missing"),
            Role.OFFICER,
        )
    history = scene.detail(uploaded.report).history
    assert [(entry.action, entry.state, entry.reason) for entry in history] == [
        (ReportAction.UPLOAD, ReportState.DRAFT, None),
        (ReportAction.SUBMIT, ReportState.SUBMITTED, None),
        (ReportAction.RETURN, ReportState.RETURNED, "round 3 is missing"),
    ]
    with scene.ledger.reading() as session:
        logged = session.execute(
            select(LogEntry.action, LogEntry.account_id, LogEntry.address, LogEntry.report_id)
            .where(LogEntry.report_id.is_not(None))
            .order_by(LogEntry.id)
        ).all()
    assert [tuple(row) for row in logged] == [
        ("upload-report", scene.organiser, ADDRESS, uploaded.report),
        ("submit-report", scene.organiser, ADDRESS, uploaded.report),
        ("return-report", scene.officer, ADDRESS, uploaded.report),
    ]


def test_a_returned_report_takes_a_new_version_and_is_submitted_again(scene: Scene) -> None:
    first = scene.upload(_round_robin())
    scene.submit(first.report)
    with scene.ledger.transaction() as session:
        sending.send_back(
            session, first.report, SENT, scene.by(scene.officer, "wrong result"), Role.OFFICER
        )
    assert scene.events()[0].state is PublicState.RETURNED
    fixed = _round_robin(first_result="1/2-1/2")
    second = scene.upload(fixed)
    assert (second.report, second.version, second.errors) == (first.report, 2, 0)
    scene.submit(first.report)
    detail = scene.detail(first.report)
    assert [version.number for version in detail.versions] == [2, 1]
    assert detail.versions[1].sha256 != detail.versions[0].sha256  # version 1 kept as sent
    assert detail.received_at == SENT  # received when first submitted


def test_the_same_event_again_is_a_new_version_never_a_second_report(scene: Scene) -> None:
    first = scene.upload(_round_robin())
    again = _round_robin(first_result="1/2-1/2")
    second = scene.upload(again, name="riverside-2.trf")
    assert (second.report, second.version) == (first.report, 2)
    with scene.ledger.reading() as session:
        assert session.scalar(select(func.count()).select_from(Report)) == 1


def test_the_same_file_twice_is_refused(scene: Scene) -> None:
    scene.upload(_round_robin())
    with pytest.raises(Conflict, match="is the same file as report 1's version 1"):
        scene.upload(_round_robin())


def test_withdrawn_rejected_and_their_public_faces(scene: Scene) -> None:
    kept = scene.upload(_round_robin())
    with scene.ledger.transaction() as session:
        sending.withdraw(session, kept.report, SENT, scene.by(scene.organiser), Role.ORGANISER)
    again = scene.upload(_round_robin())  # a withdrawn report is closed: a new one starts
    assert again.report != kept.report
    scene.submit(again.report)
    with scene.ledger.transaction() as session:
        sending.reject(
            session,
            again.report,
            RejectedAs.DUPLICATE,
            SENT,
            scene.by(scene.officer, "the same as the club's own report"),
            Role.OFFICER,
        )
    (rejected,) = scene.events()
    assert (rejected.state, rejected.rejected_as) == (PublicState.REJECTED, RejectedAs.DUPLICATE)
    with pytest.raises(Conflict, match="a rejected report is final"):
        scene.upload(_round_robin(end="2026-10-05"))


# The check: errors ------------------------------------------------------------------------


def test_an_unreadable_file_lists_every_problem_of_its_reader(scene: Scene) -> None:
    uploaded = scene.upload((DATA / "trf" / "defective.trf").read_bytes(), name="bad.trf")
    findings = scene.findings(uploaded.report)
    assert uploaded.errors == len(findings) > 3
    assert {found.code for found in findings} == {"unreadable"}
    assert scene.detail(uploaded.report).event is None
    with pytest.raises(Conflict, match=f"has {uploaded.errors} error"):
        scene.submit(uploaded.report)


def test_a_file_of_endless_errors_keeps_the_first_and_says_how_many_more(scene: Scene) -> None:
    """Each of a file's lines may be a problem: a version keeps at most `MOST_FINDINGS_KEPT`
    of a tier and one error that counts the rest, so that a million bad lines neither take
    minutes to keep nor make a page of hundreds of megabytes."""
    lines = MOST_FINDINGS_KEPT + 500
    content = b"012 Endless\n" + b"132\n" * (lines + 1)
    uploaded = scene.upload(content, name="endless.trf")
    assert uploaded.errors == lines + 1  # and the file has no player lines
    findings = scene.findings(uploaded.report)
    assert len(findings) == MOST_FINDINGS_KEPT + 1
    more = [found for found in findings if found.code == "more-findings"]
    assert [(found.tier, found.message) for found in more] == [
        (
            Tier.ERROR,
            f"501 more errors than the {MOST_FINDINGS_KEPT:,} shown, too many to deal with one "
            "by one: correct the file and upload it again.",
        )
    ]


def test_the_findings_kept_are_the_first_of_each_tier_in_order() -> None:
    errors = [Finding(Tier.ERROR, "e", "x", line=line) for line in range(2_100, 0, -1)]
    notes = [Finding(Tier.NOTE, "n", "y", line=line) for line in range(MOST_FINDINGS_KEPT + 1)]
    warning = Finding(Tier.WARNING, "w", "z", line=7)
    kept = kept_findings([*notes, warning, *errors])
    assert [found.line for found in kept if found.code == "e"] == list(range(1, 2_001))
    assert [(found.tier, found.code) for found in kept if found.line is None] == [
        (Tier.ERROR, "more-findings"),
        (Tier.NOTE, "more-findings"),
    ]
    assert warning in kept
    assert len(kept) == 2 * MOST_FINDINGS_KEPT + 3
    assert kept == in_order(kept)


def test_pairings_that_disagree_name_both_lines(scene: Scene) -> None:
    content = _round_robin().replace(b"2 w 1", b"3 w 1", 1)
    found = scene.findings(scene.upload(content).report)
    assert [(f.code, f.line, f.field, f.message) for f in found] == [
        (
            "unreadable",
            6,
            "round 1",
            "this line pairs 1 with 3, but line 8 pairs 3 with 4; the two lines must agree.",
        ),
        (
            "unreadable",
            7,
            "round 1",
            "this line pairs 2 with 1, but line 6 pairs 1 with 3; the two lines must agree.",
        ),
    ]


def test_players_known_with_other_details_are_errors_each_with_its_line(scene: Scene) -> None:
    content = _round_robin(name="Adamson, Ann", birth_year=1991, federation="DEN")
    uploaded = scene.upload(content)
    (error,) = [f for f in scene.findings(uploaded.report) if f.tier is Tier.ERROR]
    assert (error.code, error.line, error.subject) == ("other-identity", 6, "6")
    assert error.message == (
        f"FIDE ID 1001 is ledger player {scene.a}, Adams, Ann (NOR, born 1990, F), but the "
        "report gives the name 'Adamson, Ann', the birth year 1991, the federation DEN; "
        "correct the report, or ask the rating officer to correct the player's record."
    )


def test_a_closed_period_and_an_event_reported_already_are_errors_together(
    scene: Scene,
) -> None:
    theirs = scene.upload(_round_robin(end="2026-10-04"), who=scene.other)
    with scene.ledger.transaction() as session:
        sending.submit(session, theirs.report, SENT, scene.by(scene.other), Role.ORGANISER)
    close(scene.ledger, "2026-10")
    mine = scene.upload(_round_robin(end="2026-10-04", birth_year=1989))
    codes = _codes(scene.findings(mine.report), Tier.ERROR)
    assert sorted(code for code, _ in codes) == [
        "already-reported",
        "closed-period",
        "other-identity",
    ]
    assert mine.report != theirs.report
    assert "as report 1;" in next(
        f.message for f in scene.findings(mine.report) if f.code == "already-reported"
    )


def test_another_organisers_draft_keeps_no_event_from_the_one_who_sends_it(
    scene: Scene,
) -> None:
    """A draft is seen by no one but its organiser: it does not stand in the way of another
    organiser's report of the event, and once that one is sent the draft cannot be."""
    squatted = scene.upload(_round_robin(), who=scene.other)
    mine = scene.upload(_round_robin())
    assert mine.report != squatted.report
    assert _codes(scene.findings(mine.report), Tier.ERROR) == []
    scene.acknowledge_all(mine.report)
    scene.submit(mine.report)
    refused = pytest.raises(Conflict, match=rf"already, as report {mine.report}; a second")
    with refused, scene.ledger.transaction() as session:
        sending.submit(session, squatted.report, SENT, scene.by(scene.other), Role.ORGANISER)
    again = scene.upload(_round_robin(birth_year=1989), who=scene.other, report_id=squatted.report)
    assert ("already-reported", None) in _codes(scene.findings(again.report), Tier.ERROR)


def test_an_upload_never_lands_on_another_organisers_draft(scene: Scene) -> None:
    """The squatter's draft came first: the organiser's own upload again is a new version
    of their own report, and an officer's upload is a report of its own, not a version of
    the draft (whose organiser would then read the officer's file)."""
    squatted = scene.upload(_round_robin(), who=scene.other)
    mine = scene.upload(_round_robin())
    again = scene.upload(_round_robin(birth_year=1989))
    assert (again.report, again.version) == (mine.report, 2)
    officers = scene.upload(_round_robin(end="2026-10-06"), who=scene.officer, role=Role.OFFICER)
    assert officers.report not in (squatted.report, mine.report)
    assert scene.detail(squatted.report).versions[0].number == 1
    again = scene.upload(_round_robin(end="2026-10-07"), who=scene.officer, role=Role.OFFICER)
    assert (again.report, again.version) == (officers.report, 2)


def test_an_upload_of_an_event_another_organiser_sent_says_to_ask_the_officer(
    scene: Scene,
) -> None:
    theirs = scene.upload(_round_robin(), who=scene.other)
    with scene.ledger.transaction() as session:
        sending.submit(session, theirs.report, SENT, scene.by(scene.other), Role.ORGANISER)
    mine = scene.upload(_round_robin())
    (refused,) = [f for f in scene.findings(mine.report) if f.code == "already-reported"]
    assert refused.message == (
        f"the event {EVENT!r} is reported already, as report {theirs.report}; a second report "
        "of it is refused: if this is another event, rename it; else ask the rating officer."
    )


def test_an_event_already_in_the_ledger_is_an_error(scene: Scene) -> None:
    game(scene.ledger, scene.a, scene.b, "1-0", "2026-10-04", event=EVENT, round=1)
    found = scene.findings(scene.upload(_round_robin()).report)
    assert _codes(found, Tier.ERROR) == [("already-recorded", None)]


def test_fewer_than_two_players_is_an_error(scene: Scene) -> None:
    content = trf_report("Solo", "2026-10-04", [entrant("Adams, Ann", 1001)], [])
    found = scene.findings(scene.upload(content).report)
    assert ("too-few-players", None) in _codes(found, Tier.ERROR)


def test_games_already_in_the_ledger_and_two_in_a_round_are_errors_of_the_trial(
    scene: Scene,
) -> None:
    game(scene.ledger, scene.a, scene.b, "1-0", "2026-10-04", event="Club night", round=1)
    content = (
        "date,white,black,result,event,round\n"
        f"2026-10-04,{scene.a},{scene.b},1-0,Club night,1\n"
        f"2026-10-04,{scene.c},{scene.a},0-1,Club night,2\n"
        f"2026-10-04,{scene.d},{scene.a},0-1,Club night,2\n"
    ).encode()
    uploaded = scene.upload(content, name="club.csv")
    errors = [f for f in scene.findings(uploaded.report) if f.tier is Tier.ERROR]
    assert [(f.code, f.line) for f in errors] == [("already-recorded", None)]
    renamed = content.replace(b"Club night", b"Club night II")
    errors = [
        f
        for f in scene.findings(scene.upload(renamed, name="club2.csv").report)
        if f.tier is Tier.ERROR
    ]
    assert [(f.code, f.line) for f in errors] == [("refused", 4)]
    assert "already has a game in round 2" in errors[0].message
    assert errors[0].message.endswith("correct the report and send it again.")


def test_unknown_and_merged_away_ledger_ids_of_a_csv_are_errors(scene: Scene) -> None:
    twin = player(scene.ledger, "Adams, Ann", birth_year=1990)
    with scene.ledger.transaction() as session:
        merge_players(session, scene.a, twin, NOW)
    content = (
        "date,white,black,result,event,round\n"
        f"2026-10-04,{twin},{scene.b},1-0,Club night,1\n"
        f"2026-10-04,{scene.c},9999,0-1,Club night,1\n"
    ).encode()
    findings = scene.findings(scene.upload(content, name="club.csv").report)
    errors = {f.code: f for f in findings if f.tier is Tier.ERROR}
    assert errors["merged-player"].message == (
        f"player {twin} was merged into player {scene.a}; write {scene.a} instead."
    )
    assert (errors["unknown-player"].line, errors["unknown-player"].subject) == (3, "9999")


def test_a_fide_id_of_a_player_merged_away_is_an_error(scene: Scene) -> None:
    kept = player(scene.ledger, "Evans, Eve", birth_year=1995)
    dropped = player(scene.ledger, "Evans, Eve", fide_id=5005, birth_year=1995)
    with scene.ledger.transaction() as session:
        merge_players(session, kept, dropped, NOW)
        edit_player(session, kept, PlayerEdit(fide_id=5006), NOW)  # 5005 was a typo
    players = [
        entrant("Adams, Ann", 1001, federation="NOR", sex="F", birth_year=1990),
        entrant("Evans, Eve", 5005, birth_year=1995),
    ]
    content = trf_report(EVENT, "2026-10-04", players, [(1, 1, 2, "1-0")])
    errors = [f for f in scene.findings(scene.upload(content).report) if f.tier is Tier.ERROR]
    assert [(f.code, f.line) for f in errors] == [("merged-player", 7)]
    assert errors[0].message.startswith(
        f"FIDE ID 5005 was a ledger player merged into player {kept}"
    )


def test_a_pgn_report_is_recorded_by_the_pgn_import(scene: Scene) -> None:
    content = "".join(
        f'[Event "{EVENT}"]\n[Date "2026.10.04"]\n[Round "{round}"]\n[White "{white}"]\n'
        f'[Black "{black}"]\n[WhiteFideId "{white_id}"]\n[BlackFideId "{black_id}"]\n'
        f'[Result "{result}"]\n\n1. d4 d5 {result}\n\n'
        for round, white, white_id, black, black_id, result in (
            (1, "Adams, Ann", 1001, "Brown, Bob", 1002, "1-0"),
            (2, "Brown, Bob", 1002, "Newcomer, Nia", "", "1/2-1/2"),
        )
    ).encode()
    uploaded = scene.upload(content, name="riverside.pgn")
    new = [(f.subject, f.line) for f in scene.findings(uploaded.report) if f.code == "new-player"]
    assert (uploaded.errors, new) == (0, [("Newcomer, Nia", 12)])
    scene.submit(uploaded.report)
    scene.accept(uploaded.report)
    with scene.ledger.reading() as session:
        kinds = session.scalars(select(Import.kind)).all()
        games = session.scalar(select(func.count()).select_from(Game))
    assert (kinds, games) == (["pgn"], 2)


def test_what_the_reader_did_not_take_as_written_is_a_warning_at_its_line(
    scene: Scene,
) -> None:
    """A PGN's game with a result and no moves (maybe a forfeit, which FIDE does not rate)
    and a TRF's birth date written DDMMYY (left empty: "warning if wrong") each wait for
    the organiser's note, at their line and field; points that disagree with the rounds
    touch the standings alone: a note."""
    pgn = (
        f'[Event "{EVENT}"]\n[Date "2026.10.04"]\n[Round "1"]\n[White "Adams, Ann"]\n'
        '[Black "Brown, Bob"]\n[Result "1-0"]\n\n1-0\n'
    ).encode()
    findings = scene.findings(scene.upload(pgn, name="forfeit.pgn").report)
    [warned] = [f for f in findings if f.code == "read-otherwise"]
    assert (warned.tier, warned.line, warned.field) == (Tier.WARNING, 1, "moves")
    assert warned.message.startswith("1 game gives a result and no moves (game 1 at line 1)")
    players = [entrant("Adams, Ann", 1001, birth_year=1990), entrant("Brown, Bob", 1002)]
    trf = trf_report("Another Open", "2026-10-04", players, [(1, 1, 2, "1-0")]).decode()
    written = next(line for line in trf.splitlines() if line.startswith("001    1"))
    ddmmyy = written[:69] + "120242    " + written[79:]
    content = trf.replace(written, ddmmyy).encode()
    findings = scene.findings(scene.upload(content, name="another.trf").report)
    [warned] = [f for f in findings if f.code == "read-otherwise"]
    assert (warned.tier, warned.line, warned.field) == (Tier.WARNING, 6, "birth date")
    assert warned.message.startswith("columns 70-79: the birth date '120242' is not YYYY/MM/DD")
    played = _round_robin().decode()
    first = next(line for line in played.splitlines() if line.startswith("001    1"))
    misscored = played.replace(first, first[:80] + " 9.0" + first[84:]).encode()
    findings = scene.findings(scene.upload(misscored, name="points.trf").report)
    [noted] = [f for f in findings if f.code == "read-otherwise"]
    assert (noted.tier, noted.line, noted.field) == (Tier.NOTE, 6, "points")


def test_a_pgn_of_two_events_is_refused_by_line(scene: Scene) -> None:
    content = (DATA / "pgn" / "two-events.pgn").read_bytes()
    findings = scene.findings(scene.upload(content, name="two.pgn").report)
    assert {f.code for f in findings} == {"unreadable"}
    events = [(f.line, f.message) for f in findings if f.field == "event"]
    assert [line for line, _ in events] == [64, 74, 85, 96]
    assert "a report is one event's: send each event in a file of its own." in events[0][1]
    assert events[-1][1] == "the game names no event; give its event in the Event header."


# The check: warnings and notes -----------------------------------------------------------


def test_warnings_wait_for_a_note_each_before_the_report_is_submitted(scene: Scene) -> None:
    player(scene.ledger, "Newman, Ned", rating=1750, birth_year=2001)
    players = [
        entrant("Adams, Ann", 1001, federation="NOR", sex="F", birth_year=1990),
        entrant("Brown, Bob", 1002, federation="NOR", sex="M", birth_year=1985),
        entrant("Clark, Cy", 1003, federation="SWE", sex="M", birth_year=1979),
        entrant("Dahl, Di", 1004, federation="SWE", sex="F", birth_year=2001),
        entrant("Newman, Ned", birth_year=2002),
        entrant("Tiny, Tim", birth_year=2025),
    ]
    games = [(1, 4, 1, "1-0"), (2, 2, 4, "0-1"), (3, 4, 3, "1-0"), (4, 1, 4, "0-1"),
             (1, 5, 6, "1-0"), (2, 6, 5, "0-1")]  # fmt: skip
    late = dt.datetime(2026, 10, 20, 12, 0)
    uploaded = scene.upload(trf_report(EVENT, "2026-10-04", players, games), now=late)
    warnings = _codes(scene.findings(uploaded.report), Tier.WARNING)
    assert sorted(warnings, key=str) == sorted(
        [("late", None), ("performance", 9), ("look-alike", 10), ("birth-year", 11)], key=str
    )
    with pytest.raises(Conflict, match="4 warning"):
        scene.submit(uploaded.report, now=late)
    scene.acknowledge_all(uploaded.report)
    scene.submit(uploaded.report, now=late)
    acknowledged = [f.acknowledged for f in scene.findings(uploaded.report) if f.acknowledged]
    assert [a.note for a in acknowledged] == ["checked with the arbiter"] * 4


def test_an_officer_matches_a_new_player_to_a_ledger_player(scene: Scene) -> None:
    ned = player(scene.ledger, "Newman, Ned", rating=1750, birth_year=2001)
    players = [
        entrant("Adams, Ann", 1001, federation="NOR", sex="F", birth_year=1990),
        entrant("Newman, Ned", birth_year=2002),
    ]
    uploaded = scene.upload(trf_report(EVENT, "2026-10-04", players, [(1, 1, 2, "1-0")]))
    new = [f for f in scene.findings(uploaded.report) if f.code == "new-player"]
    assert [(f.subject, f.line) for f in new] == [("7", 7)]
    scene.acknowledge_all(uploaded.report)
    scene.submit(uploaded.report)
    with pytest.raises(RejectedRecords, match="'8' is no new player"):
        scene.accept(uploaded.report, matches={"8": ned})
    accepted = scene.accept(uploaded.report, matches={"7": ned})
    assert accepted.matched == 1
    with scene.ledger.reading() as session:
        recorded = session.execute(select(Game.white_id, Game.black_id)).all()
        players_now = session.scalar(select(func.count()).select_from(Player))
    assert [tuple(row) for row in recorded] == [(scene.a, ned)]
    assert players_now == 5  # nobody created


# Hostile input ----------------------------------------------------------------------------


class _Endless(io.RawIOBase):
    """A stream that never ends, counting what is read of it."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        size = min(len(buffer), 1 << 16)
        buffer[:size] = b"0" * size
        self.given += size
        return size


def test_an_upload_over_the_cap_is_refused_without_being_read_whole(
    scene: Scene, database_url: str
) -> None:
    before = fingerprint(database_url)
    stream = _Endless()
    with pytest.raises(InvalidInput, match="is larger than 10 MB"), scene.ledger.transaction() as s:
        sending.upload(
            s,
            "huge.pgn",
            stream,
            SENT,
            scene.by(scene.organiser),
            Role.ORGANISER,
            pool=Pool.STANDARD,
        )
    assert stream.given == LARGEST_REPORT + 1
    assert fingerprint(database_url) == before


@pytest.mark.parametrize(
    ("name", "refusal"),
    [
        ("report.exe", "is not a report the ledger reads"),
        ("bad\x1b[2Jname.trf", "control character"),
        ("evil\u202etrf.txt", "reorders the text"),
        ("", "the file has no name"),
    ],
)
def test_hostile_file_names_are_refused(scene: Scene, name: str, refusal: str) -> None:
    with pytest.raises(InvalidInput, match=refusal):
        scene.upload(_round_robin(), name=name)


def test_markup_in_names_is_kept_as_text(scene: Scene) -> None:
    players = [
        entrant("<script>alert(1)</script>", birth_year=1990),
        entrant("Adams, Ann", 1001, federation="NOR", sex="F", birth_year=1990),
    ]
    content = trf_report("<b>Open</b>", "2026-10-04", players, [(1, 1, 2, "0-1")])
    uploaded = scene.upload(content, name="folder/../<i>riverside</i>.trf")
    detail = scene.detail(uploaded.report)
    assert detail.event == "<b>Open</b>"
    assert detail.versions[0].file_name == "i>.trf"  # no folders: the name after the last /
    (new,) = [f for f in detail.versions[0].findings if f.code == "new-player"]
    assert new.message.startswith("<script>alert(1)</script> is new to the ledger")


# Who may do what --------------------------------------------------------------------------


def test_an_organiser_sees_and_changes_only_their_own_reports(scene: Scene) -> None:
    uploaded = scene.upload(_round_robin())
    other = Reader(account_id=scene.other, role=Role.ORGANISER)
    with scene.ledger.reading() as session, pytest.raises(NotFound):
        reports.report_detail(session, uploaded.report, other)
    with scene.ledger.transaction() as session, pytest.raises(NotFound):
        sending.submit(session, uploaded.report, SENT, scene.by(scene.other), Role.ORGANISER)
    with scene.ledger.transaction() as session, pytest.raises(Forbidden):
        sending.accept(session, uploaded.report, SENT, scene.by(scene.organiser), Role.ORGANISER)
    with scene.ledger.reading() as session:
        assert reports.organiser_reports(session, scene.other, SENT) == []
        (mine,) = reports.organiser_reports(session, scene.organiser, SENT)
    assert mine.id == uploaded.report


# The queue --------------------------------------------------------------------------------


def test_the_queue_shows_the_longest_waiting_first_and_flags_the_overdue(scene: Scene) -> None:
    first = scene.upload(_round_robin(event="Autumn Cup"))
    second = scene.upload(_round_robin(event="Winter Cup"))
    scene.submit(second.report, now=SENT)
    scene.submit(first.report, now=SENT + dt.timedelta(days=3))
    now = SENT + dt.timedelta(days=20)
    with scene.ledger.reading() as session:
        queue = reports.report_queue(session, now, QueueFilter(overdue_after=18))
        old = reports.report_queue(session, now, QueueFilter(older_than=19))
        october = reports.report_queue(
            session, now, QueueFilter(state=None, period=Period(2026, 10))
        )
    assert [(row.id, row.age, row.overdue) for row in queue] == [
        (second.report, 20, True),
        (first.report, 17, False),
    ]
    assert [row.id for row in old] == [second.report]
    assert len(october) == 2


# Corrections ------------------------------------------------------------------------------


def test_a_correction_of_a_rated_report_re_rates_through_the_cascade(scene: Scene) -> None:
    uploaded = scene.upload(_round_robin())
    scene.submit(uploaded.report)
    scene.accept(uploaded.report)
    close(scene.ledger, "2026-10")
    close(scene.ledger, "2026-11")
    corrected = _round_robin().replace(b"2 w 1", b"2 w 0").replace(b"1 b 0", b"1 b 1")
    later = dt.datetime(2026, 12, 2, 9, 0)
    version = scene.upload(corrected, now=later)
    assert (version.report, version.version, version.errors) == (uploaded.report, 2, 0)
    detail = scene.detail(uploaded.report)
    assert (detail.state, detail.public) == (ReportState.DRAFT, PublicState.RATED)
    rerate = [f.message for f in detail.versions[0].findings if f.code == "rerate"]
    assert rerate == [
        "accepting this version re-rates standard from 2026-10: the lists of 2026-10, 2026-11 "
        "are published again as their next versions, and their diffs show what changed."
    ]
    scene.acknowledge_all(uploaded.report)
    scene.submit(uploaded.report, now=later)
    accepted = scene.accept(uploaded.report, now=later)
    assert accepted.rerated == {Period(2026, 10): 2, Period(2026, 11): 2}
    with scene.ledger.reading() as session:
        diff = list_diff(session, Pool.STANDARD, Period(2026, 10))
        imports = session.scalar(select(func.count()).select_from(Import))
        games = session.scalar(select(func.count()).select_from(Game))
    assert {row.id for row in diff.changed} == {scene.a, scene.b}
    assert (imports, games) == (1, 6)  # the first version's import is gone, its games too
    assert scene.detail(uploaded.report).accepted_version == 2


def test_a_correction_is_returned_or_withdrawn_never_rejected(scene: Scene) -> None:
    uploaded = scene.upload(_round_robin())
    scene.submit(uploaded.report)
    scene.accept(uploaded.report)
    scene.upload(_round_robin(first_result="1/2-1/2"))
    scene.submit(uploaded.report)
    with scene.ledger.transaction() as session, pytest.raises(Conflict, match="not rejected"):
        sending.reject(
            session,
            uploaded.report,
            RejectedAs.OTHER,
            SENT,
            scene.by(scene.officer, "no"),
            Role.OFFICER,
        )
    with scene.ledger.transaction() as session:
        done = sending.withdraw(
            session, uploaded.report, SENT, scene.by(scene.organiser), Role.ORGANISER
        )
    assert (done.state, scene.detail(uploaded.report).accepted_version) == (
        ReportState.ACCEPTED,
        1,
    )


def test_a_correction_in_an_open_period_replaces_the_games_without_a_re_rate(
    scene: Scene,
) -> None:
    uploaded = scene.upload(_round_robin())
    scene.submit(uploaded.report)
    scene.accept(uploaded.report)
    drawn = _round_robin(first_result="1/2-1/2")
    scene.upload(drawn)
    with scene.ledger.reading() as session:
        (row,) = reports.report_queue(session, SENT, QueueFilter(state=ReportState.DRAFT))
    assert row.correction
    scene.submit(uploaded.report)
    accepted = scene.accept(uploaded.report)
    assert (accepted.version, accepted.rerated) == (2, {})
    with scene.ledger.reading() as session:
        first = session.scalar(select(Game.result).where(Game.round == 1, Game.white_id == scene.a))
        imports = session.scalar(select(func.count()).select_from(Import))
    assert (str(first), imports) == ("1/2-1/2", 1)


# Two changes at the same moment -----------------------------------------------------------


def _at_once(database_url: str, *changes: object) -> list[str]:
    """Run each change in its own connection, all starting together; their outcomes."""
    start = threading.Barrier(len(changes))
    outcomes: list[str] = []

    def run(change: object) -> None:
        ledger = open_ledger(database_url)
        try:
            start.wait()
            with ledger.transaction() as session:
                change(session)  # type: ignore[operator]
            outcomes.append("done")
        except LedgerError as refused:
            outcomes.append(str(refused))
        finally:
            ledger.dispose()

    threads = [threading.Thread(target=run, args=(change,)) for change in changes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_two_officers_accepting_one_report_at_once_one_wins(
    scene: Scene, database_url: str
) -> None:
    uploaded = scene.upload(_round_robin())
    scene.submit(uploaded.report)
    second = account(scene.ledger, "sam@federation.test", Role.OFFICER)

    def accept_as(officer: int) -> object:
        return lambda session: sending.accept(
            session, uploaded.report, SENT, scene.by(officer), Role.OFFICER
        )

    outcomes = _at_once(database_url, accept_as(scene.officer), accept_as(second))
    assert sorted(outcomes) == [
        "done",
        f"report {uploaded.report} is accepted, so it cannot be accepted; it is locked: a new "
        "version of it is a correction, which the rating officer accepts.",
    ]
    with scene.ledger.reading() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 6
        accepts = session.scalar(select(func.count()).where(LogEntry.action == "accept-report"))
    assert accepts == 1


def test_accepting_while_the_period_closes_is_never_half_recorded(
    scene: Scene, database_url: str
) -> None:
    uploaded = scene.upload(_round_robin())
    scene.submit(uploaded.report)
    from ledger.services.closing import close_period

    outcomes = _at_once(
        database_url,
        lambda session: sending.accept(
            session, uploaded.report, SENT, scene.by(scene.officer), Role.OFFICER
        ),
        lambda session: close_period(session, Pool.STANDARD, Period(2026, 10), NOW),
    )
    detail = scene.detail(uploaded.report)
    with scene.ledger.reading() as session:
        games = session.scalar(select(func.count()).select_from(Game))
    if detail.state is ReportState.ACCEPTED:  # accepted first: the close rated its games
        assert (outcomes, games, detail.public) == (["done", "done"], 6, PublicState.RATED)
    else:  # closed first: nothing of the report is in the ledger
        assert (detail.state, games) == (ReportState.SUBMITTED, 0)
        assert any("which is closed" in outcome for outcome in outcomes)


def test_a_report_whose_period_closed_while_it_waited_is_accepted_late(scene: Scene) -> None:
    uploaded = scene.upload(_round_robin())
    scene.submit(uploaded.report)
    close(scene.ledger, "2026-10")
    november = dt.datetime(2026, 11, 2, 9, 0)
    with pytest.raises(RejectedRecords, match="which is closed"):
        scene.accept(uploaded.report, now=november)
    accepted = scene.accept(uploaded.report, now=november, late=True)
    assert accepted.rerated == {Period(2026, 10): 2}
