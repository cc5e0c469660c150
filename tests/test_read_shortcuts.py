"""The shortcuts the web site's speed rests on give exactly what the full reads give: the
latest events alone, a federation's rank counted on its ratings index alone, the rating
on a day read from the history without the rest of the card, the newest list's size
counted on the ratings, and any page of a list found and ranked on its counts by rating."""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass, replace

import pytest
from sqlalchemy import select

from ledger.core.access import Role
from ledger.core.domain import GameResult, Period, Pool
from ledger.core.errors import NotFound
from ledger.core.records import new_game
from ledger.queries import (
    EventFilter,
    KeptCounts,
    ListFilter,
    ListRequest,
    RatingList,
    event_listing,
    list_size,
    player_card,
    published_list,
    rating_on,
)
from ledger.queries.lists.counts import RatingCounts
from ledger.queries.lists.published import PublishedList
from ledger.queries.log import last_change, last_list_change
from ledger.services import activity
from ledger.services.accounts import add_account
from ledger.services.activity import OS_USER
from ledger.services.corrections import correct_game
from ledger.services.demo import build_demo
from ledger.services.edits import PlayerEdit, edit_player
from ledger.services.games import add_game
from ledger.services.reopening import reopen_period
from ledger.storage.database import Ledger, open_ledger
from ledger.storage.models import Game

from builders import NOW, close, game, player


def test_the_latest_events_are_the_first_of_the_whole_listing(ledger: Ledger) -> None:
    ids = [player(ledger, f"Player {n}", rating=2000 + 10 * n) for n in range(4)]
    for day, event in enumerate(("Zonal", "Open", "Cup", "Masters", "Blitz-free Rapid"), 1):
        game(ledger, ids[day % 4], ids[(day + 1) % 4], "1-0", f"2029-03-{day:02d}", event=event)
    game(ledger, ids[0], ids[2], "1/2-1/2", "2029-03-05", event="Arena")
    close(ledger, "2029-03")
    with ledger.reading() as session:
        every = event_listing(session, Pool.STANDARD, EventFilter())
        for latest in (1, 2, 5, 9):
            shown = event_listing(session, Pool.STANDARD, EventFilter(latest=latest))
            assert shown == every[:latest]
    assert [row.name for row in every[:2]] == ["Arena", "Blitz-free Rapid"]


def test_a_federation_rank_leaves_out_the_players_no_list_has_carried_yet(
    ledger: Ledger,
) -> None:
    ranked = player(ledger, "Ranked", rating=2100, federation="NOR")
    player(ledger, "Above", rating=2300, federation="NOR")
    player(ledger, "Abroad", rating=2500, federation="SWE")
    close(ledger, "2029-03")

    def ranks() -> tuple[int | None, int | None]:
        with ledger.reading() as session:
            (standing,) = player_card(session, ranked).pools
        return standing.world_rank, standing.federation_rank

    assert ranks() == (3, 2)
    player(ledger, "Newcomer", rating=2400, federation="NOR")  # on the next list, not this
    assert ranks() == (3, 2)


def test_the_rating_on_a_day_is_the_one_the_cards_history_shows(ledger: Ledger) -> None:
    ids = [player(ledger, f"Player {n}", rating=1900 + 50 * n) for n in range(3)]
    close(ledger, "2029-03")
    game(ledger, ids[0], ids[1], "1-0", "2029-04-10")
    close(ledger, "2029-04")
    newcomer = player(ledger, "Newcomer")
    with ledger.reading() as session:
        (standing,) = player_card(session, ids[0]).pools
        history = {row.period.list_name: row.rating for row in standing.history}
        for day in (dt.date(2029, 4, 1), dt.date(2029, 4, 30), dt.date(2029, 5, 1)):
            shown = rating_on(session, ids[0], Pool.STANDARD, day)
            assert shown.rating == history[shown.list_name]
        assert rating_on(session, ids[0], Pool.STANDARD, dt.date(2029, 4, 30)).rating == 1900
        assert rating_on(session, ids[0], Pool.STANDARD, dt.date(2029, 5, 1)).rating != 1900
        assert rating_on(session, newcomer, Pool.STANDARD, dt.date(2029, 5, 1)).rating is None
        with pytest.raises(NotFound, match="no player with ID 999"):
            rating_on(session, 999, Pool.STANDARD, dt.date(2029, 5, 1))


FILTERS = {
    "everyone": ListFilter(),
    "federation": ListFilter(federation="nor"),
    "women": ListFilter(women=True),
    "juniors": ListFilter(juniors=True),
    "girls": ListFilter(girls=True),
    "active": ListFilter(active=True),
    "title": ListFilter(title="gm"),
    "band": ListFilter(min_rating=1800, max_rating=2200),
    "several": ListFilter(federation="NOR", women=True, min_rating=1500),
}


@pytest.mark.parametrize("only", list(FILTERS.values()), ids=list(FILTERS))
def test_the_newest_lists_size_counted_on_the_ratings_is_its_number_of_rows(
    database_url: str, only: ListFilter
) -> None:
    build_demo(database_url, Pool.STANDARD, replace=False, now=dt.datetime(2026, 3, 1, 12))
    ledger = open_ledger(database_url)
    try:
        with ledger.reading() as session:
            request = ListRequest(Pool.STANDARD, only=only)
            rows = published_list(session, request).rows
            assert list_size(session, request) == len(rows)
    finally:
        ledger.dispose()


@pytest.fixture
def three_lists(ledger: Ledger) -> Ledger:
    """60 players in tied fours over three federations, and the lists of 2029-03 to
    2029-05: a few players change in each, some to a rating others hold, one is new."""
    ids = [
        player(
            ledger,
            f"Player {59 - n:02d}",
            rating=2000 + n // 4 * 10,
            sex="MF"[n % 2],
            federation=("NOR", "GER", "IND")[n % 3],
            birth_year=1990 + n % 25,
        )
        for n in range(60)
    ]
    close(ledger, "2029-03")
    for day, (white, black) in enumerate([(0, 59), (7, 30), (12, 13), (44, 45)], start=1):
        game(ledger, ids[white], ids[black], "1-0", f"2029-04-{day:02d}")
    close(ledger, "2029-04")
    ids.append(player(ledger, "Newcomer", rating=2100, federation="NOR", sex="F"))
    for day, (white, black) in enumerate([(3, 50), (30, 31), (58, 2), (20, 21)], start=1):
        game(ledger, ids[white], ids[black], "0-1", f"2029-05-{day:02d}")
    close(ledger, "2029-05")
    return ledger


PAGED = {
    "everyone": ListFilter(),
    "NOR": ListFilter(federation="NOR"),
    "women": ListFilter(women=True),
    "juniors and a band": ListFilter(juniors=True, min_rating=2030, max_rating=2120),
}


TRANSFERRED = {
    "NOR": ListFilter(federation="NOR"),
    "GER": ListFilter(federation="GER"),
    "NOR juniors": ListFilter(federation="NOR", juniors=True),
}


@pytest.mark.parametrize("period", [None, "2029-04", "2029-03"])
@pytest.mark.parametrize("only", list(PAGED.values()), ids=list(PAGED))
def test_pages_found_on_kept_counts_are_the_slices_of_the_whole_list(
    three_lists: Ledger, only: ListFilter, period: str | None
) -> None:
    asked = ListRequest(Pool.STANDARD, Period.parse(period) if period else None, only=only)
    assert_pages_are_slices(three_lists, asked)


@pytest.mark.parametrize("only", list(TRANSFERRED.values()), ids=list(TRANSFERRED))
def test_the_list_before_the_newest_counts_a_transfer_where_it_showed_the_player(
    three_lists: Ledger, only: ListFilter
) -> None:
    """A player the newest close transferred from NOR to GER is counted in NOR on the list
    before it and in GER on the newest: the list before is counted from the newest's."""
    with three_lists.transaction() as session:
        edit_player(session, 1, PlayerEdit(federation="GER"), NOW)
    game(three_lists, 2, 60, "1-0", "2029-06-02")
    close(three_lists, "2029-06")
    for period in (Period(2029, 5), Period(2029, 6)):
        with three_lists.reading() as session:
            shown = published_list(session, ListRequest(Pool.STANDARD, period)).rows
            assert next(row for row in shown if row.id == 1).federation == (
                "NOR" if period == Period(2029, 5) else "GER"
            )
        assert_pages_are_slices(three_lists, ListRequest(Pool.STANDARD, period, only=only))


def assert_pages_are_slices(ledger: Ledger, asked: ListRequest) -> None:
    """Every page of the list asked for, found on kept counts and without, is the slice of
    the whole list, whose size the counts give."""
    kept = KeptCounts()
    with ledger.reading() as session:
        whole = published_list(session, asked).rows
        assert whole
        assert list_size(session, asked, kept) == len(whole)
        for top in (1, 3, 7):
            for skip in range(0, len(whole) + 1, top):
                paged = replace(asked, top=top, skip=skip)
                assert published_list(session, paged, kept).rows == whole[skip : skip + top]
                assert published_list(session, paged).rows == whole[skip : skip + top]


def test_the_counts_kept_follow_the_ledger_as_it_changes(three_lists: Ledger) -> None:
    kept = KeptCounts()
    asked = ListRequest(Pool.STANDARD, top=5, skip=5)
    with three_lists.reading() as session:
        before = published_list(session, asked, kept).rows
    game(three_lists, 1, 60, "1-0", "2029-06-02")
    close(three_lists, "2029-06")
    with three_lists.reading() as session:
        after = published_list(session, asked, kept).rows
        assert after == published_list(session, asked).rows
        assert after != before


def test_what_is_kept_follows_a_correction_and_a_reopen(three_lists: Ledger) -> None:
    """Kept across requests, the newest list, its version and its counts follow a
    correction that publishes a revised version and a reopen that withdraws it."""
    kept = KeptCounts()
    asked = ListRequest(Pool.STANDARD, top=6, skip=4)

    def page() -> RatingList:
        with three_lists.reading() as session:
            shown = published_list(session, asked, kept)
            assert shown == published_list(session, asked)
            assert list_size(session, asked, kept) == list_size(session, asked)
            return shown

    original = page()
    with three_lists.transaction() as session:
        played = session.scalars(select(Game.id).where(Game.period == Period(2029, 5))).first()
        assert played is not None
        correct_game(session, played, GameResult.DRAW, NOW)
    revised = page()
    assert (original.version, revised.version and revised.version.number) == (None, 2)
    with three_lists.transaction() as session:
        reopen_period(session, Pool.STANDARD, Period(2029, 5))
    assert page().period == Period(2029, 4)


@pytest.fixture
def live_games(three_lists: Ledger) -> Ledger:
    """The three lists, and games since the newest: players who move past others or drop
    to a rating others hold, and a starting rating no list has carried yet."""
    for day, (white, black) in enumerate([(1, 40), (25, 26), (59, 2), (33, 8), (14, 15)], start=1):
        game(three_lists, white, black, "1-0", f"2029-06-{day:02d}")
    player(three_lists, "Starter", rating=2050, federation="GER", sex="F", birth_year=2015)
    return three_lists


@pytest.mark.parametrize("only", list(PAGED.values()), ids=list(PAGED))
def test_live_pages_found_on_kept_counts_are_the_slices_of_the_whole_live_list(
    live_games: Ledger, only: ListFilter
) -> None:
    """However deep, a page of the live list found on its counts (not by reading every row
    above it) is the slice of the whole live list, with the same ranks and movement."""
    kept = KeptCounts()
    with live_games.reading() as session:
        asked = ListRequest(Pool.STANDARD, only=only, live=True)
        whole = published_list(session, asked).rows
        assert list_size(session, asked, kept) == list_size(session, asked) == len(whole)
        for top in (1, 3, 7):
            for skip in range(0, len(whole) + 1, top):
                paged = replace(asked, top=top, skip=skip)
                assert published_list(session, paged, kept).rows == whole[skip : skip + top]


def test_games_in_an_open_period_leave_what_is_kept_of_the_lists(
    three_lists: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What is counted of the published lists is kept while games are recorded in the open
    period (the live list follows them); an edit of a player that a list shows, and a
    close, count them again."""
    counted: list[ListFilter] = []
    read = PublishedList._counts

    def counting(self: PublishedList, only: ListFilter) -> RatingCounts:
        counted.append(only)
        return read(self, only)

    monkeypatch.setattr(PublishedList, "_counts", counting)
    kept = KeptCounts()
    women = ListRequest(Pool.STANDARD, only=ListFilter(women=True), top=5, skip=5)
    live = ListRequest(Pool.STANDARD, live=True, top=60, skip=1)

    def pages() -> tuple[tuple[RatingList, RatingList, int], int]:
        with three_lists.reading() as session:
            expected = published_list(session, women), published_list(session, live)
            size = list_size(session, women)
            counted.clear()
            shown = published_list(session, women, kept), published_list(session, live, kept)
            assert (*shown, list_size(session, women, kept)) == (*expected, size)
            return (*shown, size), len(counted)

    first, counts_read = pages()
    assert counts_read > 0
    logged_game(three_lists, 11, 3, "2029-06-02")
    after_a_game, counts_read = pages()
    assert counts_read == 0
    assert after_a_game[0] == first[0]
    assert after_a_game[1] != first[1]
    woman = next(row.id for row in first[0].rows)
    with three_lists.transaction() as session:
        edit_player(session, woman, PlayerEdit(sex="M"), NOW)
    after_an_edit, counts_read = pages()
    assert counts_read > 0
    assert after_an_edit[2] == first[2] - 1
    close(three_lists, "2029-06")
    after_a_close, counts_read = pages()
    assert counts_read > 0
    assert after_a_close[0].period == Period(2029, 6)


@pytest.mark.parametrize(
    ("only", "shared"),
    [(ListFilter(women=True), True), (ListFilter(women=True, active=True), False)],
    ids=["women", "active women"],
)
def test_the_live_list_takes_the_newest_lists_counts_where_its_filter_allows(
    live_games: Ledger, monkeypatch: pytest.MonkeyPatch, only: ListFilter, shared: bool
) -> None:
    """A filter that does not read the list's period passes the same rows of the newest
    list for the live list as for the newest list's own pages: they are counted once, by
    the newest list (the live page first, for its movement and its own counts, then the
    newest list's page finds them kept). A filter that reads it has the newest list's rows
    counted in the live period apart."""
    newest, live_period = Period(2029, 5), Period(2029, 6)
    counted: list[tuple[Period, ListFilter]] = []
    read = PublishedList._counts

    def counting(self: PublishedList, counted_only: ListFilter) -> RatingCounts:
        if self.kept is not None and (self.period, counted_only) == (newest, only):
            counted.append((self.period, counted_only))
        return read(self, counted_only)

    monkeypatch.setattr(PublishedList, "_counts", counting)
    kept = KeptCounts()
    apart = ("newest counted in", Pool.STANDARD, live_period, only)
    with live_games.reading() as session:
        request = ListRequest(Pool.STANDARD, only=only, live=True, top=3, skip=2)
        assert published_list(session, request, kept) == published_list(session, request)
        assert counted == [(newest, only)]
        assert (kept.peek(session, apart, published=True) is None) == shared
        request = ListRequest(Pool.STANDARD, only=only, top=3, skip=2)
        assert published_list(session, request, kept) == published_list(session, request)
    assert counted == [(newest, only)]


def test_the_log_marks_the_changes_that_leave_the_published_lists(three_lists: Ledger) -> None:
    def changes() -> tuple[int, int]:
        with three_lists.reading() as session:
            return last_change(session), last_list_change(session)

    closed = changes()
    assert closed[0] == closed[1] > 0
    logged_game(three_lists, 11, 3, "2029-06-02")
    with three_lists.transaction() as session:
        add_account(session, "o@example.org", "O", Role.OFFICER, OS_USER, NOW, "a long passphrase")
    after_open_work = changes()
    assert after_open_work[0] == closed[0] + 2
    assert after_open_work[1] == closed[1]
    with three_lists.transaction() as session:
        edit_player(session, 3, PlayerEdit(name="Renamed, Player"), NOW)
    edited = changes()
    assert edited[0] == edited[1] == after_open_work[0] + 1


def logged_game(ledger: Ledger, white: int, black: int, date: str) -> None:
    """A game won by white, recorded and logged as `ledger add-game` records it."""
    played = new_game(
        date=dt.date.fromisoformat(date),
        white=white,
        black=black,
        result=GameResult.WHITE_WINS,
        today=NOW.date(),
    )
    with ledger.transaction() as session:
        add_game(session, Pool.STANDARD, played, NOW)


def test_rating_counts_find_the_rating_at_a_position() -> None:
    counts = RatingCounts.of([(2000, 2), (2100, 1), (1900, 3), (2000, 1), (1800, -1), (1800, 1)])
    found = (list(counts.ratings), list(counts.above), list(counts.tied))
    assert found == ([2100, 2000, 1900], [0, 1, 4], [1, 3, 3])
    assert [counts.rating_at(index) for index in range(-1, 8)] == [
        None,
        2100,
        2000,
        2000,
        2000,
        1900,
        1900,
        1900,
        None,
    ]
    assert [counts.players_above(rating) for rating in (2200, 2100, 2050, 2000, 1900, 1000)] == [
        0,
        0,
        1,
        1,
        4,
        7,
    ]
    assert (counts.players_at(2000), counts.players_at(2050), counts.size) == (3, 0, 7)


@dataclass(frozen=True, slots=True)
class _Noted:
    """A change's outcome, as a service logs it."""

    note: str


def test_log_entries_are_numbered_in_the_order_their_changes_commit(postgresql_url: str) -> None:
    """On PostgreSQL, a change logged while another's entry waits for its commit waits for
    that commit, and is numbered after it: a reader that has seen an entry has seen every
    change logged before it (what the site keeps by the newest entry rests on it)."""
    ledger = open_ledger(postgresql_url)
    numbered: list[int] = []

    def log(note: str) -> None:
        with ledger.transaction() as session:
            activity.record(session, "note", _Noted(note), OS_USER, NOW)
            numbered.append(last_change(session))

    later = threading.Thread(target=log, args=("second",))
    try:
        with ledger.transaction() as session:
            activity.record(session, "note", _Noted("first"), OS_USER, NOW)
            first = last_change(session)
            later.start()
            later.join(timeout=1)
            assert later.is_alive()
        later.join(timeout=30)
        assert not later.is_alive()
        assert numbered == [first + 1]
    finally:
        ledger.dispose()
