"""One read side for every face: requests checked by the query, errors that speak of the data
(each face adding its own next step), one JSON shape; and the log written by the services."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from sqlalchemy import select

from ledger import queries
from ledger.core.domain import GameResult, Period, Pool
from ledger.core.errors import Hint, InvalidInput, NotFound
from ledger.queries.lists.ranking import Places
from ledger.queries.log import counts
from ledger.queries.shape import json_lines
from ledger.services import closing, reopening
from ledger.services.activity import Author
from ledger.storage.database import Ledger
from ledger.storage.models import LogEntry

from builders import NOW, close, game, player, run


@pytest.fixture
def two_lists(ledger: Ledger) -> dict[str, int]:
    """Three players, the lists of 2026-09 and 2026-10."""
    ids = {
        name: player(ledger, name, rating=rating, federation="NOR", sex=sex)
        for name, rating, sex in (("Ann", 2200, "F"), ("Bob", 2100, "M"), ("Cid", 2000, "M"))
    }
    game(ledger, ids["Ann"], ids["Bob"], "1-0", "2026-09-05")
    close(ledger, "2026-09")
    game(ledger, ids["Cid"], ids["Ann"], "1/2-1/2", "2026-10-05")
    close(ledger, "2026-10")
    return ids


@pytest.mark.parametrize(
    ("request_options", "hint"),
    [
        ({"period": Period(2026, 9), "as_of": dt.date(2026, 10, 5)}, Hint.PERIOD_OR_DAY),
        ({"version": 1, "as_of": dt.date(2026, 10, 5)}, Hint.VERSION_OF_A_PERIOD),
    ],
    ids=["period-and-day", "version-and-day"],
)
def test_a_list_request_is_checked_by_the_query(
    request_options: dict[str, object], hint: Hint
) -> None:
    with pytest.raises(InvalidInput) as refused:
        queries.ListRequest(Pool.STANDARD, **request_options)  # type: ignore[arg-type]
    assert refused.value.hint is hint
    assert "--" not in str(refused.value)


def test_query_errors_speak_of_the_data_and_the_cli_adds_the_command(
    ledger: Ledger, database_url: str
) -> None:
    with ledger.reading() as session, pytest.raises(NotFound) as refused:
        queries.published_list(session, queries.ListRequest(Pool.STANDARD))
    assert str(refused.value) == "no standard list has been published yet."
    assert refused.value.hint is Hint.CLOSE_A_PERIOD
    shown = run("list", db=database_url)
    assert shown.stderr == (
        "error: no standard list has been published yet; close a period first "
        "(`ledger close-period YYYY-MM`); until then `ledger player ID` shows a starting "
        "rating.\n"
    )


def test_a_hint_about_a_rapid_list_names_the_rapid_pool(ledger: Ledger, database_url: str) -> None:
    shown = run("list", "--pool", "rapid", db=database_url)
    assert shown.stderr == (
        "error: no rapid list has been published yet; close a period first "
        "(`ledger close-period YYYY-MM --pool rapid`); until then `ledger player ID` shows a "
        "starting rating.\n"
    )
    event = run("event", "Blitz Open", "--pool", "blitz", db=database_url)
    assert event.stderr == (
        "error: no blitz event named 'Blitz Open'; `ledger events --pool blitz` lists the events.\n"
    )


def test_closing_a_closed_period_hints_at_correcting_and_reopening(
    ledger: Ledger, database_url: str
) -> None:
    ann, bob = player(ledger, "Ann", rating=2000), player(ledger, "Bob", rating=1900)
    game(ledger, ann, bob, "1-0", "2026-09-05", pool=Pool.RAPID)
    close(ledger, "2026-09", Pool.RAPID)
    again = run("close-period", "2026-09", "--pool", "rapid", db=database_url)
    assert again.exit_code == 1
    assert again.stderr == (
        "error: period 2026-09 is already closed; correct a game of it with `ledger "
        "correct-game GAME` (`ledger games --period 2026-09 --pool rapid` lists them), add a "
        "missed one with `ledger add-game --late --pool rapid`, or reopen it with `ledger "
        "reopen-period 2026-09 --pool rapid`.\n"
    )


def test_closing_past_an_open_period_names_it_and_its_pool(
    ledger: Ledger, database_url: str
) -> None:
    ann, bob = player(ledger, "Ann", rating=2000), player(ledger, "Bob", rating=1900)
    game(ledger, ann, bob, "1-0", "2026-09-05", pool=Pool.BLITZ)
    close(ledger, "2026-09", Pool.BLITZ)
    game(ledger, bob, ann, "1-0", "2026-10-05", pool=Pool.BLITZ)
    game(ledger, ann, bob, "0-1", "2026-11-06", pool=Pool.BLITZ)
    refused = run("close-period", "2026-11", "--pool", "blitz", db=database_url)
    assert refused.exit_code == 1
    assert refused.stderr == (
        "error: period 2026-10 holds games and is still open; close it first "
        "(`ledger close-period 2026-10 --pool blitz`).\n"
    )


def test_a_reopened_lists_error_names_its_versions_and_the_cli_the_option(
    ledger: Ledger, two_lists: dict[str, int], database_url: str
) -> None:
    with ledger.transaction() as session:
        reopening.reopen_period(session, Pool.STANDARD, Period(2026, 10), NOW)
    with ledger.reading() as session, pytest.raises(NotFound) as refused:
        queries.list_diff(session, Pool.STANDARD, Period(2026, 10))
    assert str(refused.value) == (
        "the standard list of 2026-10 was withdrawn (the period was reopened); its versions "
        "1 to 1 stay readable."
    )
    assert refused.value.hint is Hint.EARLIER_VERSIONS
    diff = run("diff", "--period", "2026-10", db=database_url)
    assert diff.stderr.endswith("its versions 1 to 1 stay readable with --version.\n")


@pytest.mark.parametrize(
    "command",
    [
        ["list"],
        ["list", "--women", "--period", "2026-09"],
        ["player", "1"],
        ["explain", "1"],
        ["stats"],
        ["peaks"],
        ["history"],
        ["games"],
        ["find", "ann"],
        ["log"],
    ],
    ids=lambda command: " ".join(command),
)
def test_json_output_is_the_read_sides_one_shape(
    ledger: Ledger, two_lists: dict[str, int], database_url: str, command: list[str]
) -> None:
    """`--format json` prints exactly `queries.to_json` of what the query returns."""
    asked = {
        "list": lambda s: queries.published_list(
            s,
            queries.ListRequest(
                Pool.STANDARD,
                Period(2026, 9) if "--period" in command else None,
                only=queries.ListFilter(women="--women" in command),
            ),
        ),
        "player": lambda s: queries.player_card(s, 1, None),
        "explain": lambda s: queries.explain(s, Pool.STANDARD, 1, None),
        "stats": lambda s: queries.list_statistics(s, Pool.STANDARD, None, 2200, 50),
        "peaks": lambda s: queries.peaks(s, Pool.STANDARD, None, None, women=False),
        "history": lambda s: queries.rank_history(s, Pool.STANDARD, 1, None),
        "games": lambda s: queries.game_listing(s, Pool.STANDARD, queries.GameFilter()),
        "find": lambda s: queries.find_players(s, "ann", Pool.STANDARD),
        "log": lambda s: queries.log_records(s, None, None),
    }[command[0]]
    with ledger.reading() as session:
        answer = asked(session)
    printed = run(*command, "--format", "json", db=database_url)
    assert printed.exit_code == 0, printed.stderr
    rows = answer.rows if command[0] == "list" else answer
    assert printed.stdout == queries.to_json(queries.plain(rows)) + "\n"
    assert json.loads(printed.stdout)
    for indented in (True, False):
        assert queries.to_json(rows, indented=indented) == queries.to_json(
            queries.plain(rows), indented=indented
        )


def test_every_change_a_service_makes_is_logged_in_its_transaction(
    ledger: Ledger, two_lists: dict[str, int]
) -> None:
    officer = Author("officer", "monthly close")
    game(ledger, two_lists["Bob"], two_lists["Cid"], "0-1", "2026-11-05")
    with ledger.transaction() as session:
        closing.close_period(session, Pool.STANDARD, Period(2026, 11), NOW, officer)
    with ledger.reading() as session:
        newest = session.scalars(select(LogEntry).order_by(LogEntry.id.desc())).first()
    assert newest is not None
    assert (newest.action, newest.operator, newest.reason, newest.period) == (
        "close",
        "officer",
        "monthly close",
        Period(2026, 11),
    )
    assert "games rated 1" in newest.summary


def test_a_refused_change_logs_nothing(ledger: Ledger, two_lists: dict[str, int]) -> None:
    with ledger.reading() as session:
        before = session.scalars(select(LogEntry.id)).all()
    with pytest.raises(Exception, match="already closed"), ledger.transaction() as session:
        closing.close_period(session, Pool.STANDARD, Period(2026, 10), NOW)
    with ledger.reading() as session:
        assert session.scalars(select(LogEntry.id)).all() == before


@pytest.mark.parametrize(
    ("result", "white", "black"),
    [
        (GameResult.WHITE_WINS, 100, 0),
        (GameResult.DRAW, 50, 50),
        (GameResult.BLACK_WINS, 0, 100),
        (GameResult.WHITE_WINS_BY_FORFEIT, 100, 0),
        (GameResult.BLACK_WINS_BY_FORFEIT, 0, 100),
        (GameResult.DOUBLE_FORFEIT, 0, 0),
    ],
)
def test_a_results_score_from_either_side(result: GameResult, white: int, black: int) -> None:
    assert (result.score(white=True), result.score(white=False)) == (white, black)


@pytest.mark.parametrize(
    ("summary", "expected"),
    [
        ("kind players; file name players.csv; rows 3", {"rows": 3}),
        (
            "kept id 2; kept name Berg, Bo; dropped id 3; dropped name Berg, B; games moved 4",
            {"kept_id": 2, "dropped_id": 3, "games_moved": 4},
        ),
        (
            "versions 2026-10: 2, 2026-11: 1; games rated 3; players rated 2",
            {"versions": {"2026-10": 2, "2026-11": 1}, "games_rated": 3, "players_rated": 2},
        ),
        (
            "game id 5; old result 1-0; new result 0-1; rerated (versions 2026-10: 2; "
            "games rated 3; players rated 2)",
            {
                "game_id": 5,
                "rerated": {"versions": {"2026-10": 2}, "games_rated": 3, "players_rated": 2},
            },
        ),
        (
            "file name list.zip; rated standard: 10, rapid: 3; replaced yes",
            {"rated": {"standard": 10, "rapid": 3}},
        ),
        ("file name 2026.csv; event rapid 2026; games rated 2", {"games_rated": 2}),
        ("", {}),
    ],
    ids=["import", "merge", "rerate", "correction", "fide-list", "names-with-numbers", "empty"],
)
def test_the_logs_counts_are_fields(summary: str, expected: dict[str, object]) -> None:
    assert counts(summary) == expected


def _standard_json(value: object) -> object:
    """What the standard library's encoder was given for the values plain data keeps."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=dt.UTC).isoformat()
    if isinstance(value, dt.date):
        return str(value)
    raise TypeError(type(value).__name__)


def test_json_of_a_result_is_the_standard_librarys_json_of_its_plain_data() -> None:
    """`to_json` writes dataclasses, periods, named tuples, hundredths, dates, times and
    numbered keys itself, as `plain` makes them and as `json.dumps` wrote that plain data
    (indented: byte for byte; on one line, `json.dumps` put a space after `,` and `:`)."""
    result = [
        queries.Version(
            period=Period(2026, 9),
            number=2,
            published_at=dt.datetime(2026, 10, 1, 8),
            stamp=7,
            current=True,
            withdrawn=False,
        ),
        Places(1, 2, 3, 4, None, -5),
        Decimal("0.75"),
        dt.date(2026, 10, 3),
        {2200: 3, 2250: 0, "Ærø": "Škoda"},
        Pool.RAPID,
        (Period(2026, 1), None),
        [],
        {},
    ]
    standard = json.dumps(
        queries.plain(result), ensure_ascii=False, indent=2, default=_standard_json
    )
    assert queries.to_json(result) == standard
    assert json.loads(queries.to_json(result, indented=False)) == json.loads(standard)
    assert json.loads(standard)[:2] == [
        {
            "period": "2026-09",
            "number": 2,
            "published_at": "2026-10-01T08:00:00+00:00",
            "stamp": 7,
            "current": True,
            "withdrawn": False,
        },
        [1, 2, 3, 4, None, -5],
    ]


@pytest.mark.parametrize("count", [0, 1, 1999, 2000, 2001, 4003])
def test_a_list_streamed_as_json_is_the_json_of_the_whole(count: int) -> None:
    """`json_lines` writes a whole list in batches of 2,000 as `to_json` writes it at once."""
    rows = [{"rank": n, "name": f"Ærø {n}", "movement": None, "k": [40, n]} for n in range(count)]
    assert "".join(json_lines(rows)) == queries.to_json(rows)


def test_times_in_json_are_iso_8601_with_the_zone() -> None:
    moment = dt.datetime(2026, 11, 3, 10, 15)
    assert json.loads(queries.to_json({"at": moment})) == {"at": "2026-11-03T10:15:00+00:00"}
