"""The shortcuts the web site's speed rests on give exactly what the full reads give: the
latest events alone, a federation's rank counted on its ratings index alone, the rating
on a day read from the history without the rest of the card, and the newest list's size
counted on the ratings."""

from __future__ import annotations

import datetime as dt

import pytest

from ledger.core.domain import Pool
from ledger.core.errors import NotFound
from ledger.queries import (
    EventFilter,
    ListFilter,
    ListRequest,
    event_listing,
    list_size,
    player_card,
    published_list,
    rating_on,
)
from ledger.services.demo import build_demo
from ledger.storage.database import Ledger, open_ledger

from builders import close, game, player


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
