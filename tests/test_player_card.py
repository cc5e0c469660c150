"""`ledger player`: the card, its history and chart, ranks, K, peak and the live rating."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import update

from ledger.core.errors import InvalidInput, NotFound
from ledger.queries import ListFilter, ListRequest, published_list
from ledger.queries.cards import PlayerCard, player_card
from ledger.queries.lists.counts import KeptCounts
from ledger.render import rating_chart
from ledger.storage.database import Ledger
from ledger.storage.models import PlayerRating

from builders import close, game, player, run


def card(ledger: Ledger, player_id: int) -> PlayerCard:
    with ledger.reading() as session:
        return player_card(session, player_id)


def test_the_card_of_a_player_over_three_lists(ledger: Ledger) -> None:
    hero = player(ledger, "Hero, Hana", rating=2000, games=40, federation="NOR", sex="F")
    rival = player(ledger, "Rival, Rob", rating=2000, games=40, federation="NOR")
    other = player(ledger, "Other, Oz", rating=2100, games=40, federation="ENG")
    game(ledger, hero, rival, "1-0", "2026-08-05")
    close(ledger, "2026-08")
    close(ledger, "2026-09")
    game(ledger, hero, rival, "1-0", "2026-10-05")
    close(ledger, "2026-10")
    game(ledger, rival, hero, "1-0", "2026-11-05")
    (standard,) = card(ledger, hero).pools
    assert [(r.period.month, r.rating, r.change, r.games, r.k) for r in standard.history] == [
        (8, 2010, 10, 1, 20),
        (9, 2010, 0, 0, None),
        (10, 2019, 9, 1, 20),
    ]
    # October: 2010 beats 1990 (D 20, PD 0.53): 20 x 0.47 = 9.4 -> +9.
    assert (standard.rating, standard.world_rank, standard.federation_rank) == (2019, 2, 1)
    assert (standard.peak, str(standard.peak_period), standard.flag) == (2019, "2026-10", "w")
    assert standard.k_reason == "K 20: 30 or more rated games, never 2400"
    # Live: 2019 loses to 1981 (D 38, PD 0.55): 20 x -0.55 = -11.
    assert standard.live is not None
    assert (standard.live.rating, standard.live.change, standard.live.games) == (2008, -11, 1)
    assert other != hero


def test_the_ranks_leave_out_a_starting_rating_until_a_list_carries_it(ledger: Ledger) -> None:
    hero = player(ledger, "Hero, Hana", rating=2000, federation="NOR")
    player(ledger, "Other, Oz", rating=2100, federation="ENG")
    close(ledger, "2026-08")
    newcomer = player(ledger, "Newcomer, Nils", rating=2200, federation="NOR")
    (standing,) = card(ledger, hero).pools
    assert (standing.world_rank, standing.federation_rank) == (2, 1)
    close(ledger, "2026-09")
    (standing,) = card(ledger, hero).pools
    assert (standing.world_rank, standing.federation_rank) == (3, 2)
    assert card(ledger, newcomer).pools[0].world_rank == 1


def test_a_federation_the_ledger_holds_ranks_its_players_whatever_its_code(
    ledger: Ledger,
) -> None:
    """A federation a FIDE list file gave that is not among FIDE's codes the ledger knows
    (a federation FIDE admits later) still ranks its players, with kept counts too, and a
    reader filters on it: what is not three letters is refused."""
    hero = player(ledger, "Hero, Hana", rating=2000, federation="NOR")
    player(ledger, "Other, Oz", rating=2100, federation="NOR")
    close(ledger, "2026-08")
    with ledger.transaction() as session:
        session.execute(update(PlayerRating).values(federation="XNF"))
    with ledger.reading() as session:
        kept = player_card(session, hero, kept=KeptCounts()).pools[0]
        read = player_card(session, hero).pools[0]
        filtered = published_list(session, ListRequest(only=ListFilter(federation="xnf")))
        with pytest.raises(InvalidInput, match="'XNFF' is not a FIDE federation code"):
            ListRequest(only=ListFilter(federation="XNFF"))
    assert (kept.world_rank, kept.federation_rank) == (read.world_rank, read.federation_rank)
    assert (read.world_rank, read.federation_rank) == (2, 2)
    assert [row.name for row in filtered.rows] == ["Other, Oz", "Hero, Hana"]


def test_the_card_on_the_command_line(database_url: str) -> None:
    run(
        "add-player",
        "--name",
        "Hero, Hana",
        "--rating",
        "2000",
        "--games",
        "40",
        "--federation",
        "NOR",
        "--peak",
        "2150",
        db=database_url,
    )
    run("add-player", "--name", "Rival, Rob", "--rating", "1900", "--games", "40", db=database_url)
    run(
        "add-game",
        "--white",
        "1",
        "--black",
        "2",
        "--result",
        "1-0",
        "--date",
        "2026-09-05",
        db=database_url,
    )
    run("close-period", "2026-09", db=database_url)
    run(
        "add-game",
        "--white",
        "2",
        "--black",
        "1",
        "--result",
        "1-0",
        "--date",
        "2026-10-05",
        db=database_url,
    )
    run("close-period", "2026-10", db=database_url)
    run(
        "add-game",
        "--white",
        "1",
        "--black",
        "2",
        "--result",
        "1-0",
        "--date",
        "2026-11-02",
        db=database_url,
    )
    shown = run("player", "1", db=database_url)
    assert shown.exit_code == 0, shown.stderr
    assert "Hero, Hana (ID 1): NOR" in shown.stdout
    assert "Live (unofficial)" in shown.stdout
    assert "2150 (before the ledger)" in shown.stdout
    assert "•" in shown.stdout
    assert max(len(line) for line in shown.stdout.splitlines()) <= 80
    data = json.loads(run("player", "1", "--format", "json", db=database_url).stdout)
    assert [row["rating"] for row in data["pools"][0]["history"]] == [2007, 1994]
    rows = run("player", "1", "--format", "csv", db=database_url).stdout.splitlines()
    assert rows == [
        "pool,period,list_name,rating,change,games,k",
        "standard,2026-09,Oct 2026,2007,7,1,20",
        "standard,2026-10,Nov 2026,1994,-13,1,20",
    ]
    refused = run("player", "99", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: no player has the ledger or FIDE ID 99.\n",
    )


def test_an_unknown_player_has_no_card(ledger: Ledger) -> None:
    with pytest.raises(NotFound, match="no player with ID 5"):
        card(ledger, 5)


def test_the_chart_puts_each_list_at_its_height() -> None:
    chart = rating_chart([2000, 2100, None, 2050]).splitlines()
    assert chart[0] == " 2100 │ •  "
    assert chart[-1] == " 2000 │•   "
    assert rating_chart([None]) == ""


def test_a_starting_rating_not_yet_on_a_list(ledger: Ledger) -> None:
    a, b = player(ledger, "A", rating=2000), player(ledger, "B", rating=2000)
    game(ledger, a, b, "1-0", "2026-09-05")
    close(ledger, "2026-09")
    newcomer = player(ledger, "Newcomer", rating=1900, games=50)
    (standing,) = card(ledger, newcomer).pools
    assert (standing.rating, standing.list_period, standing.world_rank, standing.flag) == (
        1900,
        None,
        None,
        "",
    )
    assert standing.k_reason == "K 20: 30 or more rated games, never 2400"
