"""Corrections to closed periods: correct-game, delete-game, add-game --late and rerate
re-rate every later list and publish new versions; earlier versions stay readable exactly as
they were published, `diff` compares two, and `log` records each change. The ratings after a
correction equal those of a ledger built from scratch with the corrected games."""

from __future__ import annotations

import getpass
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from ledger.cli import app
from ledger.core.domain import GameResult, Period, Pool, parse_date
from ledger.core.errors import Conflict, NotFound
from ledger.core.records import NewGame, new_game
from ledger.queries import ListRequest, list_diff, published_list
from ledger.queries.filters import ListFilter
from ledger.queries.lists.rows import RatingList
from ledger.queries.lists.versions import versions
from ledger.services import corrections, merges, reopening
from ledger.services.games import add_games
from ledger.storage.database import Ledger, open_ledger
from ledger.storage.models import Game, PlayerRating, RatingPeriod

import builders
from builders import NOW, close, fingerprint, player, run
from conftest import PostgreSQLServer, fresh_database

PERIODS = ("2026-08", "2026-09", "2026-10")


@dataclass(frozen=True)
class _Game:
    white: int
    black: int
    result: str
    date: str
    event: str | None = None

    def record(self) -> NewGame:
        return new_game(
            date=parse_date(self.date),
            white=self.white,
            black=self.black,
            result=GameResult.parse(self.result),
            event=self.event,
            round=None,
            today=NOW.date(),
        )


def _players(ledger: Ledger) -> list[int]:
    """Rated players of every K, a junior, and unrated players who earn a first rating."""
    ids = [
        player(ledger, f"Rated, Player {i}", rating=1500 + 37 * i, games=10 + 3 * i)
        for i in range(14)
    ]
    ids.append(player(ledger, "Young, Junior", rating=1720, games=12, birth_year=2012))
    ids.append(player(ledger, "Strong, Sam", rating=2390, games=200))
    ids += [player(ledger, f"Unrated, Newcomer {i}") for i in range(4)]
    return ids


def _games(ids: list[int]) -> list[_Game]:
    """Three months of games between random pairs (seeded); newcomers play five a month."""
    draw = random.Random(20261129)
    games = []
    for month in (8, 9, 10):
        for day in range(1, 21):
            white, black = draw.sample(ids, 2)
            result = draw.choice(["1-0", "0-1", "1/2-1/2"])
            games.append(_Game(white, black, result, f"2026-{month:02d}-{day:02d}"))
    return games


def _record(ledger: Ledger, games: list[_Game]) -> None:
    with ledger.transaction() as session:
        add_games(session, Pool.STANDARD, [game.record() for game in games])


def _build(ledger: Ledger, games: list[_Game], joins_after: str | None = None) -> list[int]:
    """Record and close the three months; a player with a starting rating joins after the
    close of `joins_after`. A month without games is closed along with the next."""
    ids = _players(ledger)
    for period in PERIODS:
        played = [game for game in games if game.date.startswith(period)]
        if played:
            _record(ledger, played)
            close(ledger, period)
        if period == joins_after:
            player(ledger, "Later, Lena", rating=2100, games=50)
    return ids


def _calendar(ledger: Ledger) -> list[tuple[object, ...]]:
    """Which close published each period's list."""
    with ledger.reading() as session:
        rows = session.execute(select(RatingPeriod.period, RatingPeriod.closed_by))
        return sorted(tuple(row) for row in rows)


def _lists(
    ledger: Ledger,
    number: int | None = None,
    top: int | None = None,
    only: ListFilter | None = None,
) -> dict[str, RatingList]:
    """Every published list, as `ledger list` reads it (version `number`, else current)."""
    with ledger.reading() as session:
        return {
            period: replace(
                published_list(
                    session,
                    ListRequest(
                        Pool.STANDARD,
                        Period.parse(period),
                        version=number,
                        top=top,
                        only=only or ListFilter(),
                    ),
                ),
                version=None,
            )
            for period in PERIODS
        }


def _standings(ledger: Ledger) -> list[tuple[object, ...]]:
    with ledger.reading() as session:
        return sorted(tuple(row) for row in session.execute(select(PlayerRating.__table__)))


@pytest.fixture
def scratch(
    database_url: str,
    tmp_path: Path,
    postgresql_server: PostgreSQLServer | None,
    sqlite_template: Path,
) -> Iterator[Ledger]:
    """A second ledger on the same backend, built from scratch for comparison."""
    backend = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    for url in fresh_database(backend, tmp_path, postgresql_server, sqlite_template):
        opened = open_ledger(url)
        yield opened
        opened.dispose()


def _game_id(ledger: Ledger, game: _Game) -> int:
    with ledger.reading() as session:
        found = session.scalar(
            select(Game.id).where(
                Game.white_id == game.white,
                Game.black_id == game.black,
                Game.date == parse_date(game.date),
            )
        )
    assert found is not None
    return found


def _rated_game_in_august(games: list[_Game]) -> _Game:
    return next(g for g in games if g.date.startswith("2026-08") and g.result != "0-1")


def test_a_result_corrected_two_lists_back_equals_a_ledger_built_with_it(
    ledger: Ledger, scratch: Ledger
) -> None:
    games = _games(list(range(1, 21)))
    _build(ledger, games)
    wrong = _rated_game_in_august(games)
    original = _lists(ledger)
    below = ListFilter(max_rating=1750)
    original_top = _lists(ledger, top=3), _lists(ledger, top=4, only=below)
    with ledger.transaction() as session:
        corrected = corrections.correct_game(
            session, _game_id(ledger, wrong), GameResult.BLACK_WINS, NOW
        )
    assert corrected.old_result is GameResult.parse(wrong.result)
    assert corrected.rerated is not None
    assert corrected.rerated.versions == {Period.parse(p): 2 for p in PERIODS}

    right = [replace(g, result="0-1") if g == wrong else g for g in games]
    _build(scratch, right)
    assert _lists(ledger) == _lists(scratch)
    assert _standings(ledger) == _standings(scratch)
    assert _lists(ledger, 1) == original  # the originals read exactly as they were published
    assert (_lists(ledger, 1, top=3), _lists(ledger, 1, top=4, only=below)) == original_top
    assert _lists(ledger) != original


def test_a_rerate_keeps_when_starting_ratings_joined_and_which_periods_closed_together(
    ledger: Ledger, scratch: Ledger
) -> None:
    """September has no games (its list went out with October's close), and a starting
    rating recorded after August's close joined the list of September."""
    games = [g for g in _games(list(range(1, 21))) if not g.date.startswith("2026-09")]
    _build(ledger, games, joins_after="2026-08")
    wrong = _rated_game_in_august(games)
    before = _calendar(ledger)
    with ledger.transaction() as session:
        corrections.correct_game(session, _game_id(ledger, wrong), GameResult.BLACK_WINS, NOW)
    _build(scratch, [replace(g, result="0-1") if g == wrong else g for g in games], "2026-08")
    lena = 21
    lists = _lists(ledger)
    assert lena not in {row.id for row in lists["2026-08"].rows}
    assert lena in {row.id for row in lists["2026-09"].rows}
    assert lists == _lists(scratch)
    assert _standings(ledger) == _standings(scratch)
    assert _calendar(ledger) == before == _calendar(scratch)
    assert (Period(2026, 9), Period(2026, 10)) in before


def test_a_deleted_game_and_a_late_game_equal_a_ledger_built_with_them(
    ledger: Ledger, scratch: Ledger
) -> None:
    games = _games(list(range(1, 21)))
    _build(ledger, games)
    deleted = games[25]  # September
    late = _Game(games[3].white, games[3].black, "1-0", "2026-08-28")
    with ledger.transaction() as session:
        gone = corrections.delete_game(session, _game_id(ledger, deleted), NOW)
    with ledger.transaction() as session:
        added = corrections.add_late_game(session, Pool.STANDARD, late.record(), NOW)
    assert gone.new_result is None
    assert gone.rerated is not None
    assert list(gone.rerated.versions) == [Period(2026, 9), Period(2026, 10)]
    assert added.rerated.versions == {
        Period(2026, 8): 2,
        Period(2026, 9): 3,
        Period(2026, 10): 3,
    }

    _build(scratch, [g for g in games if g != deleted] + [late])
    assert _lists(ledger) == _lists(scratch)
    assert _standings(ledger) == _standings(scratch)


def test_a_diff_shows_each_versions_rows_as_its_list_shows_them(ledger: Ledger) -> None:
    """A late October game re-rates November's list too: there a player without a November
    game shows no change and no games in either version, as the lists do, and the diff's
    rows are the rows whose figures the two versions show differently."""
    ids = [player(ledger, f"Player {n}", rating=1800 - 50 * n) for n in range(5)]
    for white, black, result, day in [(0, 1, "1-0", 3), (4, 3, "0-1", 4), (2, 4, "1-0", 5)]:
        builders.game(ledger, ids[white], ids[black], result, f"2026-10-{day:02d}")
    close(ledger, "2026-10")
    builders.game(ledger, ids[0], ids[2], "1-0", "2026-11-03")
    close(ledger, "2026-11")
    late = new_game(
        date=parse_date("2026-10-20"),
        white=ids[0],
        black=ids[4],
        result=GameResult.WHITE_WINS,
        today=NOW.date(),
    )
    with ledger.transaction() as session:
        corrections.add_late_game(session, Pool.STANDARD, late, NOW)
    for period in (Period(2026, 10), Period(2026, 11)):
        with ledger.reading() as session:
            diff = list_diff(session, Pool.STANDARD, period)
            shown = [
                {
                    row.id: (row.rating, row.change, row.games)
                    for row in published_list(
                        session, ListRequest(Pool.STANDARD, period, version=number)
                    ).rows
                }
                for number in (1, 2)
            ]
        differing = [
            (pid, *shown[0][pid], *shown[1][pid])
            for pid in sorted(shown[1])
            if shown[0][pid] != shown[1][pid]
        ]
        assert [
            (
                row.id,
                row.old_rating,
                row.old_change,
                row.old_games,
                row.new_rating,
                row.new_change,
                row.new_games,
            )
            for row in sorted(diff.changed, key=lambda row: row.id)
        ] == differing
        assert {row.id for row in diff.changed} == {ids[0], ids[4]}
    assert shown[1][ids[4]][1:] == (0, 0)


def test_every_version_reads_as_it_was_published(ledger: Ledger) -> None:
    """Three corrections in different periods: each period's lists get versions at
    different paces, and each version reads as it was when published."""
    games = _games(list(range(1, 21)))
    _build(ledger, games)
    published = {(period, 1): rows for period, rows in _lists(ledger).items()}
    for game in (games[2], games[45], games[30]):  # August, October, September
        flipped = GameResult.parse("0-1" if game.result == "1-0" else "1-0")
        with ledger.transaction() as session:
            rerated = corrections.correct_game(session, _game_id(ledger, game), flipped, NOW)
        assert rerated.rerated is not None
        lists = _lists(ledger)
        for period, number in rerated.rerated.versions.items():
            published[(str(period), number)] = lists[str(period)]
    assert sorted(published) == [
        ("2026-08", 1), ("2026-08", 2),
        ("2026-09", 1), ("2026-09", 2), ("2026-09", 3),
        ("2026-10", 1), ("2026-10", 2), ("2026-10", 3), ("2026-10", 4),
    ]  # fmt: skip
    for (period, number), rows in published.items():
        with ledger.reading() as session:
            shown = published_list(
                session, ListRequest(Pool.STANDARD, Period.parse(period), version=number)
            )
        assert replace(shown, version=None) == rows, (period, number)
    assert published[("2026-10", 1)] != published[("2026-10", 4)]


def test_diff_counts_match_the_two_lists(ledger: Ledger) -> None:
    games = _games(list(range(1, 21)))
    _build(ledger, games)
    before = _lists(ledger)
    with ledger.transaction() as session:
        corrections.correct_game(session, _game_id(ledger, games[0]), GameResult.parse("0-1"), NOW)
    after = _lists(ledger)
    for period in PERIODS:
        with ledger.reading() as session:
            diff = list_diff(session, Pool.STANDARD, Period.parse(period))
        old = {row.id: row for row in before[period].rows}
        new = {row.id: row for row in after[period].rows}
        changed = {
            pid
            for pid in old.keys() & new.keys()
            if (old[pid].rating, old[pid].change, old[pid].games)
            != (new[pid].rating, new[pid].change, new[pid].games)
        }
        assert diff.new_players == sorted(new.keys() - old.keys())
        assert diff.removed_players == sorted(old.keys() - new.keys())
        assert {row.id for row in diff.changed} == changed
        assert diff.unchanged == len(new) - len(changed) - len(diff.new_players)
        for row in diff.changed:
            assert (row.old_rating, row.new_rating) == (old[row.id].rating, new[row.id].rating)
            assert (row.old_change, row.new_change) == (old[row.id].change, new[row.id].change)
    assert any(diff.changed for _ in [0])


def test_a_rerate_that_changes_nothing_publishes_nothing(ledger: Ledger, database_url: str) -> None:
    """It published a new version of every list, identical to the one before."""
    _build(ledger, _games(list(range(1, 21))))
    state = fingerprint(database_url)
    with ledger.transaction() as session:
        rerated = corrections.rerate(session, Pool.STANDARD, Period(2026, 9), NOW)
    assert (rerated.versions, rerated.games_rated > 0) == ({}, True)
    assert fingerprint(database_url) == state
    shown = run("rerate", "--from", "2026-09", "--reason", "audit", db=database_url)
    assert (shown.exit_code, shown.stderr) == (0, "")
    assert shown.stdout.endswith(
        "every list came out as it was published, so nothing was published.\n"
    )
    assert fingerprint(database_url) == state


def test_a_rerate_that_changes_a_list_publishes_every_next_version(ledger: Ledger) -> None:
    """A game changed behind the ledger's back (as a rule's fix would change a figure): the
    re-rate publishes the lists from the period it names, the unchanged later ones too."""
    games = _games(list(range(1, 21)))
    _build(ledger, games)
    _changed_behind_the_ledgers_back(ledger, _rated_game_in_august(games))
    with ledger.transaction() as session:
        rerated = corrections.rerate(session, Pool.STANDARD, Period(2026, 8), NOW)
    assert rerated.versions == {Period(2026, 8): 2, Period(2026, 9): 2, Period(2026, 10): 2}
    with ledger.reading() as session:
        diff = list_diff(session, Pool.STANDARD, Period(2026, 8))
    assert diff.changed


@pytest.mark.parametrize(
    ("versions", "line"),
    [
        (
            (),
            "the standard list of 2026-10 has only its original version; a re-rate publishes "
            "the next.",
        ),
        (
            ("--to-version", "1"),
            "version 1 of the standard list of 2026-10 is its original; no version comes "
            "before it.",
        ),
    ],
    ids=["one-version", "the-original"],
)
def test_diff_of_an_original_list_says_there_is_none_before_it(
    ledger: Ledger, database_url: str, versions: tuple[str, ...], line: str
) -> None:
    """It said "there is no version 0"."""
    player(ledger, "A", rating=2000)
    close(ledger, "2026-10")
    refused = run("diff", "--period", "2026-10", *versions, db=database_url)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (1, "", f"error: {line}\n")


def test_a_correction_may_leave_a_pools_first_list_with_nothing(ledger: Ledger) -> None:
    """A first close with nothing to publish is refused; a re-rate that deletes the only
    game of a first list of unrated players publishes it again, empty."""
    first = _Game(player(ledger, "A"), player(ledger, "B"), "1-0", "2026-10-03")
    _record(ledger, [first])
    close(ledger, "2026-10")
    with ledger.transaction() as session:
        deleted = corrections.delete_game(session, _game_id(ledger, first), NOW)
    assert deleted.rerated is not None
    assert deleted.rerated.versions == {Period(2026, 10): 2}


def _changed_behind_the_ledgers_back(ledger: Ledger, game: _Game) -> None:
    """Another result for a game of a closed period, written without a re-rate."""
    with ledger.transaction() as session:
        changed = session.get(Game, _game_id(ledger, game))
        assert changed is not None
        changed.result = GameResult.parse("0-1" if game.result == "1-0" else "1-0")


def test_refused_corrections_write_nothing(ledger: Ledger, database_url: str) -> None:
    games = _games(list(range(1, 21)))
    ids = _build(ledger, games)
    state = fingerprint(database_url)
    game_id = _game_id(ledger, games[0])
    refusals = [
        (lambda s: corrections.rerate(s, Pool.STANDARD, Period(2026, 11), NOW), Conflict),
        (lambda s: corrections.rerate(s, Pool.STANDARD, Period(2026, 7), NOW), Conflict),
        (lambda s: corrections.rerate(s, Pool.RAPID, Period(2026, 9), NOW), Conflict),
        (lambda s: corrections.correct_game(s, 99_999, GameResult.DRAW, NOW), NotFound),
        (lambda s: corrections.delete_game(s, 99_999, NOW), NotFound),
        (
            lambda s: corrections.correct_game(s, game_id, GameResult.parse(games[0].result), NOW),
            Conflict,
        ),
        (
            lambda s: corrections.add_late_game(
                s, Pool.STANDARD, _Game(ids[0], ids[1], "1-0", "2026-11-02").record(), NOW
            ),
            Conflict,
        ),
    ]
    for attempt, error in refusals:
        with pytest.raises(error), ledger.transaction() as session:
            attempt(session)
    assert fingerprint(database_url) == state


def test_an_open_periods_game_is_corrected_without_a_rerate(ledger: Ledger) -> None:
    games = _games(list(range(1, 21)))
    _build(ledger, games)
    november = _Game(games[0].white, games[0].black, "1-0", "2026-11-03")
    _record(ledger, [november])
    before = _lists(ledger)
    with ledger.transaction() as session:
        corrected = corrections.correct_game(
            session, _game_id(ledger, november), GameResult.DRAW, NOW
        )
    assert corrected.rerated is None
    assert _lists(ledger) == before
    october = next(game for game in games if game.date.startswith("2026-10"))
    _changed_behind_the_ledgers_back(ledger, october)
    with ledger.transaction() as session:  # November stays open through a re-rate
        rerated = corrections.rerate(session, Pool.STANDARD, Period(2026, 10), NOW)
    assert list(rerated.versions) == [Period(2026, 10)]
    with ledger.reading() as session:
        assert session.scalar(select(Game.result).where(Game.date == parse_date("2026-11-03")))


def test_corrections_on_the_command_line_with_diff_versions_and_log(
    ledger: Ledger, database_url: str
) -> None:
    games = _games(list(range(1, 21)))
    _build(ledger, games)
    game_id = _game_id(ledger, _rated_game_in_august(games))
    corrected = run(
        "correct-game", str(game_id), "--result", "0-1", "--reason", "arbiter's report",
        "--operator", "officer", db=database_url,
    )  # fmt: skip
    assert corrected.exit_code == 0, corrected.output
    assert "2026-08 (version 2), 2026-09 (version 2), 2026-10 (version 2)" in corrected.output
    diff = run("diff", "--period", "2026-08", "--from-version", "1", db=database_url)
    assert diff.exit_code == 0, diff.output
    assert "version 1 (original)" in diff.output
    assert "version 2 (revised, current)" in diff.output
    assert " changed, " in diff.output
    assert "->" in diff.output
    original = run("list", "--period", "2026-08", "--version", "1", db=database_url)
    assert "rating list Sep 2026 (2026-08), version 1 (original)" in original.output
    log = run("log", "--format", "csv", db=database_url)
    lines = log.output.splitlines()
    assert lines[0] == "id,at,operator,action,pool,period,reason,summary,address"
    assert ",officer,correct-game,standard,2026-08,arbiter's report," in lines[1]
    late = run(
        "add-game", "--white", "1", "--black", "2", "--result", "1-0", "--date", "2026-09-29",
        "--late", "--reason", "mailed late", db=database_url,
    )  # fmt: skip
    assert late.exit_code == 0, late.output
    assert "2026-09 (version 3), 2026-10 (version 3)" in late.output
    rerate = run("rerate", "--from", "2026-10", "--reason", "audit", db=database_url)
    assert "so nothing was published" in rerate.output
    logged = json.loads(run("log", "--format", "json", db=database_url).output)
    assert [entry["action"] for entry in logged] == [
        "late-game",
        "correct-game",
        *["close"] * 3,  # the services log the closes that built the ledger, too
    ]
    changes = run("log", db=database_url).stdout.splitlines()
    assert len(changes) == 5  # one line a change where the table does not fit 80 columns
    assert "  officer  correct-game 2026-08: " in changes[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["correct-game", "1", "--result", "1-0"], "missing --reason"),
        (["correct-game", "1", "--result", "2-0", "--reason", "x"], "result:"),
        (["correct-game", "0", "--result", "1-0", "--reason", "x"], "game:"),
        (["delete-game", "424242", "--reason", "x"], "no game with ID 424242"),
        (["rerate", "--from", "2026-13", "--reason", "x"], "from:"),
        (["rerate", "--from", "2026-10", "--reason", " "], "reason:"),
        (["rerate", "--from", "2026-10", "--reason", "x"], "has no published list"),
        (["diff", "--period", "2026-10"], "no standard list was published for period 2026-10"),
        (["list", "--version", "0"], "version:"),
        (
            ["add-game", "--white", "1", "--black", "2", "--result", "1-0",
             "--date", "2026-09-01", "--late"],
            "--late and --reason go together",
        ),
    ],
)  # fmt: skip
def test_bad_correction_commands_give_one_line(
    database_url: str, args: list[str], message: str
) -> None:
    result = run(*args, db=database_url)
    assert result.exit_code != 0
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_the_log_records_imports_merges_games_closes_and_reopens(
    database_url: str, tmp_path: Path
) -> None:
    roster = tmp_path / "players.csv"
    roster.write_text(
        "id,name,federation,sex,title,birth_year,rating,games,ever_2400\n"
        '1,"Abel, Ann",NOR,F,,1990,1800,30,\n'
        '2,"Berg, Bo",NOR,M,,1991,1900,30,\n'
        '3,"Berg, Bo",,M,,1991,,,\n',
        encoding="utf-8",
    )
    imported = CliRunner().invoke(
        app, ["import-players", str(roster), "--db", database_url], env={"LEDGER_OPERATOR": "bob"}
    )
    assert imported.exit_code == 0, imported.output
    steps = [
        ["merge-players", "2", "3", "--reason", "one person"],
        ["add-game", "--white", "1", "--black", "2", "--result", "1-0", "--date", "2026-10-05"],
        ["close-period", "2026-10", "--operator", "alice"],
        ["reopen-period", "2026-10", "--reason", "wrong result", "--operator", "alice"],
    ]
    for step in steps:
        done = run(*step, db=database_url)
        assert done.exit_code == 0, done.output
    logged = json.loads(run("log", "--format", "json", db=database_url).stdout)
    assert [(e["action"], e["operator"], e["reason"]) for e in logged] == [
        ("reopen", "alice", "wrong result"),
        ("close", "alice", None),
        ("add-game", getpass.getuser(), None),
        ("merge", getpass.getuser(), "one person"),
        ("import-players", "bob", None),
    ]
    assert logged[1]["period"] == "2026-10"
    assert "games rated 1" in logged[1]["summary"]
    assert logged[2]["summary"] == "game 1"
    assert "kept id 2; kept name Berg, Bo; dropped id 3" in logged[3]["summary"]
    assert logged[4]["summary"] == "kind players; file name players.csv; rows 3; duplicates 1"
    assert logged[4]["counts"] == {"rows": 3, "duplicates": 1}
    assert logged[1]["counts"]["games_rated"] == 1
    assert {"kept_id": 2, "dropped_id": 3}.items() <= logged[3]["counts"].items()
    for entry in logged:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00", entry["at"])
    newest = run("log", "--limit", "1", "--action", "close", "--format", "csv", db=database_url)
    assert newest.stdout.splitlines()[1].split(",")[2:5] == ["alice", "close", "standard"]


def test_a_player_only_on_earlier_versions_is_not_merged_into_a_listed_one(
    ledger: Ledger, database_url: str
) -> None:
    """The newcomer's first rating was published, then their games were deleted: the
    original list still shows them, so merging them would change it."""
    rated = player(ledger, "Rated, Rita", rating=1800)
    newcomer = player(ledger, "New, Nils")
    _record(ledger, [_Game(newcomer, rated, "1/2-1/2", f"2026-08-0{day}") for day in range(1, 6)])
    close(ledger, "2026-08")
    with ledger.reading() as session:
        original = published_list(session, ListRequest(Pool.STANDARD, Period(2026, 8)))
    assert newcomer in {row.id for row in original.rows}
    with ledger.reading() as session:
        played = session.scalars(select(Game.id).order_by(Game.id)).all()
    for game_id in played:
        with ledger.transaction() as session:
            corrections.delete_game(session, game_id, NOW)
    other = player(ledger, "Other, Olga", rating=1900)
    state = fingerprint(database_url)
    refused = pytest.raises(Conflict, match="merging them would change those lists")
    with refused, ledger.transaction() as session:
        merges.merge_players(session, other, newcomer, NOW)
    assert fingerprint(database_url) == state


def test_versions_stay_readable_through_reopens_and_read_as_published(ledger: Ledger) -> None:
    """A re-rate keeps September's original; reopening September, then August, withdraws
    their lists (kept as versions, readable meanwhile); August is corrected and both close
    again. Every version ever published still reads as it was."""
    games = _games(list(range(1, 21)))
    _build(ledger, games)
    published = {(period, 1): rows for period, rows in _lists(ledger).items()}
    september = next(game for game in games if game.date.startswith("2026-09"))
    _changed_behind_the_ledgers_back(ledger, september)
    with ledger.transaction() as session:
        corrections.rerate(session, Pool.STANDARD, Period(2026, 9), NOW)
    for period in ("2026-09", "2026-10"):
        published[(period, 2)] = _lists(ledger)[period]
    for period in ("2026-10", "2026-09", "2026-08"):
        with ledger.transaction() as session:
            reopening.reopen_period(session, Pool.STANDARD, Period.parse(period))
    withdrawn = run("list", "--period", "2026-09", "--version", "2", db=_url(ledger))
    assert "rating list Oct 2026 (2026-09), version 2 (revised, withdrawn)" in withdrawn.output
    current = run("list", "--period", "2026-09", db=_url(ledger))
    assert current.exit_code == 1
    wrong = _rated_game_in_august(games)
    with ledger.transaction() as session:
        corrections.correct_game(session, _game_id(ledger, wrong), GameResult.BLACK_WINS, NOW)
    for period in PERIODS:
        close(ledger, period)
    lists = _lists(ledger)
    assert {period: rows.period for period, rows in lists.items()}  # all three closed again
    for (period, number), rows in published.items():
        with ledger.reading() as session:
            shown = published_list(
                session, ListRequest(Pool.STANDARD, Period.parse(period), version=number)
            )
        assert replace(shown, version=None) == rows, (period, number)
    with ledger.reading() as session:
        numbers = [v.number for v in versions(session, Pool.STANDARD, Period(2026, 9))]
    assert numbers == [1, 2, 3]


def _url(ledger: Ledger) -> str:
    return ledger.engine.url.render_as_string(hide_password=False)


def test_a_list_imported_from_fide_is_never_re_rated(ledger: Ledger, database_url: str) -> None:
    fide_list = Path(__file__).parent / "data" / "fide" / "players_list_foa.txt"
    imported = run("import-fide-list", str(fide_list), "--period", "2026-08", db=database_url)
    assert imported.exit_code == 0, imported.stderr
    september = _Game(1503014, 2016192, "1-0", "2026-09-02")
    _record(ledger, [september])
    close(ledger, "2026-09")
    state = fingerprint(database_url)
    refused = pytest.raises(Conflict, match="list of 2026-08 was imported from a FIDE list")
    with refused, ledger.transaction() as session:
        corrections.rerate(session, Pool.STANDARD, Period(2026, 8), NOW)
    assert fingerprint(database_url) == state
    _changed_behind_the_ledgers_back(ledger, september)
    with ledger.transaction() as session:
        rerated = corrections.rerate(session, Pool.STANDARD, Period(2026, 9), NOW)
    assert rerated.versions == {Period(2026, 9): 2}
