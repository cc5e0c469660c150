"""The shortcuts the web site's speed rests on give exactly what the full reads give: the
latest events alone, a federation's rank counted on its ratings index alone, and the rating
on a day read from the history without the rest of the card."""

from __future__ import annotations

import datetime as dt

import pytest

from ledger.core.domain import Pool
from ledger.core.errors import NotFound
from ledger.queries import EventFilter, event_listing, player_card, rating_on
from ledger.storage.database import Ledger

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
