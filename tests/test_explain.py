"""`ledger explain`: FIDE's individual calculation, read from what the close stored."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from ledger.core.domain import Period, Pool
from ledger.core.errors import NotFound
from ledger.queries.explanations import explain
from ledger.storage.database import Ledger

from builders import close, game, listing, player, run


def explained(ledger: Ledger, player_id: int, period: str | None = None):  # type: ignore[no-untyped-def]
    with ledger.reading() as session:
        return explain(session, Pool.STANDARD, player_id, Period.parse(period) if period else None)


def test_one_game_explained_to_the_point(ledger: Ledger) -> None:
    a = player(ledger, "Alpha, Ann", rating=2000, games=40)
    b = player(ledger, "Beta, Bo", rating=1900, games=40)
    game(ledger, a, b, "1-0", "2026-10-05", event="Club Cup")
    close(ledger, "2026-10")
    result = explained(ledger, a)
    (only,) = result.games
    assert (only.opponent, only.opponent_rating, only.d, only.d_capped) == (b, 1900, 100, 100)
    assert (only.pd, only.score, only.delta) == (Decimal("0.64"), Decimal(1), Decimal("0.36"))
    assert (result.k, result.sum, result.k_times_sum) == (20, Decimal("0.36"), Decimal("7.2"))
    assert (result.rating_before, result.change, result.rating_after) == (2000, 7, 2007)
    assert result.k_reason == "K 20: 30 or more rated games, never 2400"
    assert [(e.event, e.games, e.sum, e.k_times_sum) for e in result.events] == [
        ("Club Cup", 1, Decimal("0.36"), Decimal("7.20"))
    ]


def test_the_rule_of_400_from_each_side(ledger: Ledger) -> None:
    # 8.3.1 from 2025-10: the 2813 player uses D = 413 (PD 0.93), the 2400 player D = -400.
    top = player(ledger, "Top", rating=2813, ever_2400=True)
    low = player(ledger, "Low", rating=2400, ever_2400=True)
    game(ledger, top, low, "1/2-1/2", "2025-10-05")
    close(ledger, "2025-10")
    (high_side,) = explained(ledger, top).games
    (low_side,) = explained(ledger, low).games
    assert (high_side.d, high_side.d_capped, high_side.pd) == (413, 413, Decimal("0.93"))
    assert (low_side.d, low_side.d_capped, low_side.pd) == (-413, -400, Decimal("0.08"))


def test_the_700_cap_is_given_as_the_reason(ledger: Ledger) -> None:
    busy = player(ledger, "Busy", rating=1800, games=5)
    rivals = [player(ledger, f"Rival {i}", rating=1800) for i in range(18)]
    for day, rival in enumerate(rivals, start=1):
        game(ledger, busy, rival, "1-0", f"2026-10-{day:02d}")
    close(ledger, "2026-10")
    result = explained(ledger, busy)
    # 18 wins at PD 0.50: ΣΔR 9.00; K 40 capped to 38 (700 / 18); 38 x 9 = 342.
    assert result.k_reason == "K 38: 40 capped by 700 / 18 games"
    assert (result.k_times_sum, result.change) == (Decimal("342"), 342)
    assert listing(ledger)[busy].rating == result.rating_after == 2142


def test_a_junior_and_the_unrated_games(ledger: Ledger) -> None:
    junior = player(ledger, "Junior", rating=1700, games=50, birth_year=2010)
    rated = player(ledger, "Rated", rating=1700)
    newcomer = player(ledger, "Newcomer")
    game(ledger, junior, rated, "0-1", "2026-10-03")
    game(ledger, junior, rated, "+/-", "2026-10-04")
    game(ledger, newcomer, junior, "1-0", "2026-10-05")
    close(ledger, "2026-10")
    result = explained(ledger, junior)
    assert result.k_reason == "K 40: junior (born 2010) under 2300"
    assert (result.change, result.rating_after) == (-20, 1680)
    assert [(g.result, g.not_rated_because) for g in result.unrated_games] == [
        ("+/-", "forfeit: stored, never rated"),
        ("1-0", "opponent unrated"),
    ]
    (newcomers_game,) = explained(ledger, newcomer).unrated_games
    assert newcomers_game.not_rated_because == "unrated player: counts toward a first rating"


def test_a_first_rating_is_noted(ledger: Ledger) -> None:
    new = player(ledger, "Newcomer")
    for day in range(1, 6):
        game(ledger, new, player(ledger, f"R{day}", rating=2000), "1/2-1/2", f"2026-10-{day:02d}")
    close(ledger, "2026-10")
    result = explained(ledger, new)
    assert (result.rating_before, result.change, result.rating_after) == (None, None, 1943)
    assert result.note == "first rating 1943, from the games pooled under FIDE 8.2"
    assert len(result.unrated_games) == 5


def test_the_default_period_is_the_newest_the_player_played_in(ledger: Ledger) -> None:
    a, b, c = (player(ledger, n, rating=2000) for n in "ABC")
    game(ledger, a, b, "1-0", "2026-09-05")
    close(ledger, "2026-09")
    game(ledger, b, c, "1-0", "2026-10-05")
    close(ledger, "2026-10")
    assert str(explained(ledger, a).period) == "2026-09"
    assert str(explained(ledger, b).period) == "2026-10"
    assert explained(ledger, b, "2026-09").change == -10


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param((999,), "no player with ID 999.", id="unknown player"),
        pytest.param((1, "2026-11"), "standard period 2026-11 is not closed", id="open period"),
        pytest.param((2,), "player 2 has no games in a closed standard period.", id="no games"),
    ],
)
def test_refusals(ledger: Ledger, args: tuple[object, ...], message: str) -> None:
    a, b = player(ledger, "A", rating=2000), player(ledger, "Idle", rating=2000)
    c = player(ledger, "C", rating=2000)
    game(ledger, a, c, "1-0", "2026-10-05")
    close(ledger, "2026-10")
    assert b == 2
    with pytest.raises(NotFound, match=message):
        explained(ledger, *args)  # type: ignore[arg-type]


def test_explain_json_and_csv(database_url: str) -> None:
    for name, rating in (("Alpha, Ann", "2000"), ("Beta, Bo", "1900")):
        run("add-player", "--name", name, "--rating", rating, "--games", "40", db=database_url)
    run(
        "add-game",
        "--white",
        "1",
        "--black",
        "2",
        "--result",
        "1-0",
        "--date",
        "2026-10-05",
        "--round",
        "1",
        db=database_url,
    )
    run("close-period", "2026-10", db=database_url)
    shown = run("explain", "1", "--format", "json", db=database_url)
    data = json.loads(shown.stdout)
    assert {
        key: data[key]
        for key in (
            "k",
            "k_reason",
            "sum",
            "k_times_sum",
            "change",
            "rating_before",
            "rating_after",
        )
    } == {
        "k": 20,
        "k_reason": "K 20: 30 or more rated games, never 2400",
        "sum": 0.36,
        "k_times_sum": 7.2,
        "change": 7,
        "rating_before": 2000,
        "rating_after": 2007,
    }
    (only,) = data["games"]
    assert {
        key: only[key]
        for key in ("opponent", "opponent_rating", "d", "d_capped", "pd", "score", "delta")
    } == {
        "opponent": 2,
        "opponent_rating": 1900,
        "d": 100,
        "d_capped": 100,
        "pd": 0.64,
        "score": 1.0,
        "delta": 0.36,
    }
    rows = run("explain", "2", "--format", "csv", db=database_url).stdout.splitlines()
    assert rows[0].startswith("game_id,date,event,round,colour,rating,opponent")
    assert rows[1].endswith(",1-0,0,-100,-100,0.36,-0.36,")
    table = run("explain", "1", db=database_url)
    assert "Period: K × ΣΔR = 20 × +0.36 = +7.20, rounded +7; new rating 2007" in table.stdout
    refused = run("explain", "7", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: no player has the ledger or FIDE ID 7.\n",
    )


def test_a_period_without_a_list_or_without_games_is_refused(ledger: Ledger) -> None:
    a, b = player(ledger, "A", rating=2000), player(ledger, "B", rating=2000)
    game(ledger, a, b, "1-0", "2026-09-05")
    close(ledger, "2026-09")
    close(ledger, "2026-10")
    with pytest.raises(NotFound, match="no standard list was published for period 2026-08"):
        explained(ledger, a, "2026-08")
    with pytest.raises(NotFound, match=r"player 1 had no games in standard period 2026-10\."):
        explained(ledger, a, "2026-10")
