"""Closing a period, on SQLite and PostgreSQL: the list, the order of periods, atomicity."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import Executable, event, func, select, text
from sqlalchemy.orm import Session

from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict, LedgerError, NotFound
from ledger.services.closing import writes
from ledger.services.closing.publication import Publication
from ledger.storage import staging
from ledger.storage.database import Ledger, open_ledger
from ledger.storage.models import Game, GameRating, ListEntry, PlayerRating, RatingPeriod

from builders import close, game, ledger_state, listing, player


def test_a_decisive_game_moves_both_ratings_by_k_times_the_difference(ledger: Ledger) -> None:
    # D = 100 -> PD 0.64 / 0.36 (table 8.1.2); K 20 each: +20 x 0.36 = 7.2 -> +7, -7.2 -> -7.
    a = player(ledger, "Alpha, Ann", rating=2000, games=40)
    b = player(ledger, "Beta, Bo", rating=1900, games=40)
    game(ledger, a, b, "1-0", "2026-10-05")
    summary = close(ledger, "2026-10")
    rows = listing(ledger)
    assert (rows[a].rating, rows[a].change, rows[a].games, rows[a].k_applied) == (2007, 7, 1, 20)
    assert (rows[b].rating, rows[b].change, rows[b].k) == (1893, -7, 20)
    assert (summary.games_rated, summary.players_rated) == (1, 2)


def test_the_unrounded_k_times_sum_is_stored(ledger: Ledger) -> None:
    a = player(ledger, "A", rating=2000, games=40)
    b = player(ledger, "B", rating=1900, games=40)
    game(ledger, a, b, "1/2-1/2", "2026-10-05")
    close(ledger, "2026-10")
    with ledger.reading() as session:
        stored = dict(session.execute(select(ListEntry.player_id, ListEntry.k_times_sum)).all())
        expected = session.execute(
            select(GameRating.white_expected, GameRating.black_expected)
        ).one()
    # A: 0.5 - 0.64 = -0.14, x 20 = -2.80; B: +2.80 (hundredths).
    assert stored == {a: -280, b: 280}
    assert tuple(expected) == (64, 36)


def test_closing_a_period_twice_is_refused(ledger: Ledger) -> None:
    a, b = player(ledger, "A", rating=2000), player(ledger, "B", rating=2000)
    game(ledger, a, b, "1-0", "2026-10-05")
    close(ledger, "2026-10")
    with pytest.raises(Conflict, match="period 2026-10 is already closed"):
        close(ledger, "2026-10")
    with pytest.raises(Conflict, match="period 2026-09 is before the pool's first list"):
        close(ledger, "2026-09")


def test_an_earlier_open_period_with_games_must_be_closed_first(ledger: Ledger) -> None:
    a, b = player(ledger, "A", rating=2000), player(ledger, "B", rating=2000)
    game(ledger, a, b, "1-0", "2026-08-05")
    game(ledger, a, b, "0-1", "2026-10-05")
    with pytest.raises(Conflict, match=r"period 2026-08 holds games and is still open"):
        close(ledger, "2026-10")
    close(ledger, "2026-08")
    summary = close(ledger, "2026-10")
    assert [str(p) for p in summary.periods] == ["2026-09", "2026-10"]
    assert listing(ledger, "2026-09")[a].rating == listing(ledger, "2026-08")[a].rating
    assert listing(ledger, "2026-09")[a].change == 0


def test_empty_periods_close_with_unchanged_lists(ledger: Ledger) -> None:
    a, b = player(ledger, "A", rating=2100), player(ledger, "B", rating=2000)
    game(ledger, a, b, "1-0", "2026-07-05")
    close(ledger, "2026-07")
    close(ledger, "2026-09")
    before, after = listing(ledger, "2026-07"), listing(ledger, "2026-09")
    assert {i: r.rating for i, r in after.items()} == {i: r.rating for i, r in before.items()}
    assert all(row.games == 0 and row.k_applied is None for row in after.values())


def test_a_game_in_a_closed_period_is_refused(ledger: Ledger) -> None:
    a, b = player(ledger, "A", rating=2000), player(ledger, "B", rating=2000)
    game(ledger, a, b, "1-0", "2026-10-05")
    close(ledger, "2026-10")
    with pytest.raises(LedgerError, match="date: period 2026-10 is closed"):
        game(ledger, a, b, "1-0", "2026-10-20")
    with pytest.raises(LedgerError, match="date: standard period 2026-09 is before the pool's"):
        game(ledger, a, b, "1-0", "2026-09-20")


def test_a_game_cannot_move_a_closed_event_into_a_later_period(ledger: Ledger) -> None:
    a, b = player(ledger, "A", rating=2000), player(ledger, "B", rating=2000)
    game(ledger, a, b, "1-0", "2026-10-30", event="Open")
    close(ledger, "2026-10")
    with pytest.raises(LedgerError, match="'Open' was rated in period 2026-10, which is closed"):
        game(ledger, b, a, "1-0", "2026-11-01", event="Open")


def test_an_event_is_rated_in_the_period_of_its_end_date(ledger: Ledger) -> None:
    a, b = player(ledger, "A", rating=2000), player(ledger, "B", rating=2000)
    game(ledger, a, b, "1-0", "2026-09-29", event="Autumn Open")
    game(ledger, b, a, "1/2-1/2", "2026-10-02", event="Autumn Open")
    summary = close(ledger, "2026-10")
    assert [str(p) for p in summary.periods] == ["2026-10"]
    assert listing(ledger)[a].games == 2


def test_a_close_that_fails_half_way_changes_nothing(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = player(ledger, "A", rating=2000), player(ledger, "B", rating=1900)
    game(ledger, a, b, "1-0", "2026-10-05")

    written = writes.published

    def fail(session: Session, pool: Pool, period: Period) -> Iterator[Executable]:
        yield from written(session, pool, period)[:2]
        raise RuntimeError("disk full")

    monkeypatch.setattr(writes, "published", fail)
    with pytest.raises(RuntimeError, match="disk full"):
        close(ledger, "2026-10")
    with ledger.reading() as session:
        assert session.scalar(select(func.count()).select_from(ListEntry)) == 0
        assert session.scalar(select(func.count()).select_from(GameRating)) == 0
        assert (
            session.scalar(
                select(func.count())
                .select_from(RatingPeriod)
                .where(RatingPeriod.closed_at.is_not(None))
            )
            == 0
        )
        assert (
            session.scalar(select(PlayerRating.rating).where(PlayerRating.player_id == a)) == 2000
        )
    monkeypatch.undo()
    assert close(ledger, "2026-10").games_rated == 1


def test_two_closes_at_once_exactly_one_succeeds(database_url: str) -> None:
    setup = open_ledger(database_url)
    a, b = player(setup, "A", rating=2000), player(setup, "B", rating=1900)
    for day in range(1, 29):
        game(setup, a, b, "1/2-1/2", f"2026-10-{day:02d}")
    setup.dispose()
    outcomes: list[str] = []
    start = threading.Barrier(2)

    def close_in_own_connection() -> None:
        ledger = open_ledger(database_url)
        try:
            start.wait()
            close(ledger, "2026-10")
            outcomes.append("closed")
        except Conflict as refused:
            outcomes.append(str(refused))
        finally:
            ledger.dispose()

    threads = [threading.Thread(target=close_in_own_connection) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["closed", "period 2026-10 is already closed."]


def test_a_rating_below_the_floor_is_not_published(ledger: Ledger) -> None:
    # 1405 loses to 1405: PD 0.50, K 40 (fewer than 30 games): -20 -> 1385 < 1400 (7.1.4).
    low = player(ledger, "Low", rating=1405, games=3)
    other = player(ledger, "Other", rating=1405, games=3)
    game(ledger, other, low, "1-0", "2026-10-05")
    summary = close(ledger, "2026-10")
    assert low not in listing(ledger)
    assert summary.unrated_by_floor == 1
    with ledger.reading() as session:
        entry = session.get(ListEntry, ("standard", low, Period(2026, 10)))
        assert entry is not None
        assert (entry.rating, entry.listed, entry.k_next) == (1385, False, None)


def test_an_unrated_player_is_rated_after_five_games_against_rated_opponents(
    ledger: Ledger,
) -> None:
    # Five draws against 2000s: Ra = (5 x 2000 + 3600) / 7 = 1942.86; p = 3.5 / 7 = 0.50,
    # dp 0 -> Ru = 1943 (8.2). The rated opponents' games are not rated (FIDE 5).
    new = player(ledger, "Newcomer")
    opponents = [player(ledger, f"Rated {i}", rating=2000) for i in range(5)]
    for day, opponent in enumerate(opponents, start=1):
        game(ledger, new, opponent, "1/2-1/2", f"2026-10-{day:02d}", event="Club")
    summary = close(ledger, "2026-10")
    rows = listing(ledger)
    assert (rows[new].rating, rows[new].change, rows[new].games, rows[new].k) == (
        1943,
        None,
        5,
        40,
    )
    assert all(rows[o].games == 0 and rows[o].rating == 2000 for o in opponents)
    assert (summary.newly_rated, summary.games_rated, summary.games_unrated) == (1, 0, 5)


def test_first_rating_pools_games_over_periods(ledger: Ledger) -> None:
    new = player(ledger, "Newcomer")
    opponents = [player(ledger, f"Rated {i}", rating=1800) for i in range(5)]
    for day, opponent in enumerate(opponents[:3], start=1):
        game(ledger, opponent, new, "0-1", f"2026-09-{day:02d}")
    close(ledger, "2026-09")
    assert new not in listing(ledger)
    for day, opponent in enumerate(opponents[3:], start=1):
        game(ledger, opponent, new, "0-1", f"2026-10-{day:02d}")
    close(ledger, "2026-10")
    # n = 5 wins against 1800: Ra = 1800, p = 6 / 7 = 0.857 -> 0.86, dp 309 -> 2109.
    assert listing(ledger)[new].rating == 2109
    assert listing(ledger)[new].games == 2


def test_starting_ratings_join_the_next_list_unchanged(ledger: Ledger) -> None:
    a, b = player(ledger, "A", rating=2000), player(ledger, "B", rating=1900)
    idle = player(ledger, "Idle", rating=2222, games=12, sex="F")
    game(ledger, a, b, "1-0", "2026-10-05")
    close(ledger, "2026-10")
    row = listing(ledger)[idle]
    assert (row.rating, row.change, row.games, row.k, row.k_applied, row.flag) == (
        2222,
        0,
        0,
        40,
        None,
        "w",
    )


def test_a_list_reads_the_same_when_it_is_no_longer_the_newest(ledger: Ledger) -> None:
    players = [player(ledger, f"P{i}", rating=1800 + 37 * i, games=10 * i) for i in range(8)]
    for i, white in enumerate(players):
        game(ledger, white, players[(i + 3) % 8], ("1-0", "0-1", "1/2-1/2")[i % 3], "2026-10-05")
    close(ledger, "2026-10")
    newest = listing(ledger, "2026-10")
    late = player(ledger, "Late", rating=2050)
    game(ledger, players[0], late, "1-0", "2026-11-03")
    close(ledger, "2026-11")
    assert listing(ledger, "2026-10") == newest
    assert late not in newest
    assert late in listing(ledger, "2026-11")


def test_inactive_after_twelve_periods_without_a_rated_game(ledger: Ledger) -> None:
    a, b, c = (player(ledger, n, rating=2000) for n in ("A", "B", "C"))
    game(ledger, a, b, "1-0", "2026-01-05")
    close(ledger, "2026-01")
    game(ledger, b, c, "1-0", "2027-01-05")
    close(ledger, "2027-01")
    assert listing(ledger, "2026-12")[a].flag == ""
    assert listing(ledger, "2027-01")[a].flag == "i"
    assert listing(ledger, "2027-01")[b].flag == ""


def test_pools_are_rated_separately(ledger: Ledger) -> None:
    a = player(ledger, "A", rating=2000)
    b = player(ledger, "B", rating=2000)
    game(ledger, a, b, "1-0", "2026-10-05", pool=Pool.RAPID)
    with pytest.raises(NotFound, match="no rapid list has been published yet"):
        listing(ledger, pool=Pool.RAPID)
    close(ledger, "2026-10", pool=Pool.STANDARD)
    assert listing(ledger)[a].games == 0


def test_ranks_are_shared_by_equal_ratings(ledger: Ledger) -> None:
    for name, rating in (("Cee", 2100), ("Bee", 2100), ("Aye", 2200), ("Dee", 2000)):
        player(ledger, name, rating=rating)
    close(ledger, "2026-10")
    ranked = [(row.name, row.rank) for row in listing(ledger).values()]
    assert sorted(ranked, key=lambda pair: pair[1]) == [
        ("Aye", 1),
        ("Bee", 2),
        ("Cee", 2),
        ("Dee", 4),
    ]


def test_unknown_periods_have_no_list(ledger: Ledger) -> None:
    with pytest.raises(NotFound, match="no standard list has been published yet"):
        listing(ledger)
    player(ledger, "A", rating=2000)
    close(ledger, "2026-10")
    with pytest.raises(NotFound, match="no standard list was published for period 2026-11"):
        listing(ledger, "2026-11")
    with pytest.raises(NotFound, match="for period 2026-09; the newest is 2026-10"):
        listing(ledger, "2026-09")


def test_events_belong_to_one_pool(ledger: Ledger) -> None:
    a, b = player(ledger, "A", rating=2000), player(ledger, "B", rating=1900)
    game(ledger, a, b, "1-0", "2026-10-30", event="Oslo Open")
    close(ledger, "2026-10")
    game(ledger, b, a, "1-0", "2026-11-02", event="Oslo Open", pool=Pool.RAPID)
    game(ledger, b, a, "1/2-1/2", "2026-11-03")
    summary = close(ledger, "2026-11")
    assert (summary.games_rated, listing(ledger, "2026-10")[a].games) == (1, 1)


def test_a_period_that_has_not_ended_cannot_be_closed(ledger: Ledger) -> None:
    with pytest.raises(Conflict, match="period 2030-01 has not ended yet"):
        close(ledger, "2030-01")


def test_a_game_recorded_during_a_close_is_rated_or_refused(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The close holds the pool's lock; a game for the period waits, then is refused."""
    setup = open_ledger(database_url)
    a, b = player(setup, "A", rating=2000), player(setup, "B", rating=1900)
    game(setup, a, b, "1-0", "2026-10-05")
    setup.dispose()
    closing_started = threading.Event()
    slow_publication = Publication.publish

    def write_slowly(self: Publication, session: object) -> None:
        closing_started.set()
        threading.Event().wait(1.0)
        slow_publication(self, session)  # type: ignore[arg-type]

    monkeypatch.setattr(Publication, "publish", write_slowly)
    outcome: list[str] = []

    def record_late_game() -> None:
        closing_started.wait(10)
        late = open_ledger(database_url)
        try:
            game(late, b, a, "1-0", "2026-10-20")
            outcome.append("recorded")
        except LedgerError as refused:
            outcome.append(str(refused))
        finally:
            late.dispose()

    writer = threading.Thread(target=record_late_game)
    writer.start()
    closer = open_ledger(database_url)
    close(closer, "2026-10")
    writer.join()
    with closer.reading() as session:
        games = session.scalar(select(func.count()).select_from(Game))
        rated = session.scalar(select(func.count()).select_from(GameRating))
    closer.dispose()
    assert outcome == [
        "date: period 2026-10 is closed; a game dated 2026-10-20 cannot be added to it (a late "
        "game is added with `ledger add-game --late`, which re-rates)."
    ]
    assert games == rated == 1


def test_postgresql_reads_see_one_snapshot(postgresql_url: str) -> None:
    """A list read during a close is wholly before or after it (SQLite's WAL reads are)."""
    ledger = open_ledger(postgresql_url)
    try:
        with ledger.reading() as session:
            isolation = session.execute(text("SHOW transaction_isolation")).scalar()
    finally:
        ledger.dispose()
    assert isolation == "repeatable read"


def test_a_close_costs_the_same_statements_for_few_games_and_many(ledger: Ledger) -> None:
    """Set-wise: the number of statements a close sends does not grow with its games."""
    players = [player(ledger, f"P{number:02d}", rating=1800 + 10 * number) for number in range(40)]
    for number, white in enumerate(players):
        game(ledger, white, players[number - 1], "1-0", "2026-08-10")
    close(ledger, "2026-08")
    for day, (white, black) in enumerate(zip(players[:3], players[3:6], strict=True), start=1):
        game(ledger, white, black, "1/2-1/2", f"2026-09-{day:02d}")
    for day in range(1, 29):
        for white, black in zip(players[::2], players[1::2], strict=True):
            game(ledger, white, black, "0-1", f"2026-10-{day:02d}")
    few, many = statements_of(ledger, "2026-09"), statements_of(ledger, "2026-10")
    assert listing(ledger, "2026-10")[players[1]].games == 28
    assert few == many


def statements_of(ledger: Ledger, period: str) -> int:
    """The number of statements closing `period` sends (an executemany counts once)."""
    return len(sent_by_close(ledger, period))


def sent_by_close(ledger: Ledger, period: str) -> list[str]:
    """The statements closing `period` sends to the database."""
    sent: list[str] = []

    def count(*arguments: object) -> None:
        sent.append(str(arguments[2]))

    event.listen(ledger.engine, "before_cursor_execute", count)
    try:
        close(ledger, period)
    finally:
        event.remove(ledger.engine, "before_cursor_execute", count)
    return sent


def test_a_close_that_changes_a_tenth_of_the_standings_or_more_analyses_them(
    ledger: Ledger,
) -> None:
    """The first list analyses the standings for the planner; a month that changes two
    standings of forty keeps their statistics (re-reading them costs about a second at a
    million players), while the tables that grow with history are sampled every time. No
    close analyses the players, which it never writes."""
    players = [player(ledger, f"P{number:02d}", rating=1800 + 10 * number) for number in range(40)]
    for number, white in enumerate(players):
        game(ledger, white, players[number - 1], "1-0", "2026-08-10")
    first = sent_by_close(ledger, "2026-08")
    game(ledger, players[0], players[1], "1/2-1/2", "2026-09-03")
    later = sent_by_close(ledger, "2026-09")
    assert {"ANALYZE player_ratings", "ANALYZE list_entries"} <= set(first)
    assert "ANALYZE list_entries" in later
    assert "ANALYZE player_ratings" not in later
    assert "ANALYZE players" not in first + later


@pytest.mark.parametrize("pool", [Pool.STANDARD, Pool.RAPID])
def test_sqlite_rates_the_same_from_the_period_players_ratings_or_the_whole_pools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pool: Pool
) -> None:
    """The ratings SQLite stages for the figures are those of the period's players, or all
    the pool's where it holds few standings: both give the same figures and lists, with a
    player who lost their rating to the floor (7.1.4) and one earning a first (8.2)."""
    states, staged = [], []
    for copied_per_side in (0, 1000):
        monkeypatch.setattr(staging, "STANDINGS_COPIED_PER_SIDE", copied_per_side)
        url = f"sqlite:///{tmp_path / f'copied-{copied_per_side}.db'}"
        ledger = open_ledger(url)
        event.listen(ledger.engine, "before_cursor_execute", _staged_ratings(staged))
        try:
            floored, newly_rated = _floor_and_first_rating(ledger, pool)
            first_list = listing(ledger, "2026-08", pool)
        finally:
            ledger.dispose()
        assert floored not in first_list
        assert first_list[newly_rated].rating == 1800
        states.append(ledger_state(url))
    assert states[0] == states[1]
    in_period, whole_pool = staged[:2], staged[2:]
    assert all(" IN " in statement for statement in in_period)
    assert not any(" IN " in statement for statement in whole_pool)
    assert len(in_period) == len(whole_pool) == 2


def _staged_ratings(staged: list[str]) -> Callable[..., None]:
    def note(_connection: object, _cursor: object, statement: str, *_: object) -> None:
        if statement.startswith("INSERT INTO staged_period_ratings"):
            staged.append(statement)

    return note


def _floor_and_first_rating(ledger: Ledger, pool: Pool) -> tuple[int, int]:
    """Two months of a pool: C falls below the floor in the first and plays on unrated in
    the second; D, unrated, earns a first rating in the first. Returns C and D."""
    a = player(ledger, "A", rating=2000, pool=pool)
    b = player(ledger, "B", rating=1500, pool=pool)
    c = player(ledger, "C", rating=1405, pool=pool)
    d = player(ledger, "D", pool=pool)
    for number in range(4):
        player(ledger, f"Listed {number}", rating=1800 + number, pool=pool)
    game(ledger, a, b, "1-0", "2026-08-02", pool=pool)
    for day in range(3, 9):
        game(ledger, a, c, "1-0", f"2026-08-{day:02d}", pool=pool)
    for day, opponent in zip(range(10, 15), (a, b, a, b, a), strict=True):
        game(ledger, d, opponent, "1/2-1/2", f"2026-08-{day:02d}", pool=pool)
    close(ledger, "2026-08", pool)
    game(ledger, c, b, "1-0", "2026-09-04", pool=pool)
    game(ledger, a, d, "0-1", "2026-09-05", pool=pool)
    close(ledger, "2026-09", pool)
    return c, d
