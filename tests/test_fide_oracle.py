"""Tests of the independent FIDE oracle itself, on examples worked out by hand.

Every expected number below was computed by hand from fide-rules.md and the two tables; the
arithmetic is shown next to each assertion.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

try:
    import fide_oracle as oracle
except ModuleNotFoundError:  # pragma: no cover - depends on how pytest sets sys.path
    from tests import fide_oracle as oracle  # type: ignore[no-redef]


def player(
    pid: int,
    rating: int | None,
    *,
    games: int = 100,
    birth_year: int | None = 1980,
    sex: str | None = "M",
    ever_2400: bool = False,
    peak: int | None = None,
) -> dict[str, Any]:
    return {
        "id": pid,
        "name": f"Player {pid}",
        "sex": sex,
        "birth_year": birth_year,
        "rating": rating,
        "games": games,
        "ever_2400": ever_2400,
        "peak": peak,
    }


def game(
    period: str, white: int, black: int, result: str, event: str | None = None
) -> dict[str, Any]:
    return {"period": period, "event": event, "white": white, "black": black, "result": result}


def months(first_year: int, first_month: int, count: int) -> list[str]:
    out: list[str] = []
    year, month = first_year, first_month
    for _ in range(count):
        out.append(f"{year:04d}-{month:02d}")
        month += 1
        if month == 13:
            year, month = year + 1, 1
    return out


# --- tables and helpers --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("d", "pd"),
    [
        (0, "0.50"),
        (3, "0.50"),
        (-3, "0.50"),
        (4, "0.51"),
        (-4, "0.49"),
        (10, "0.51"),
        (11, "0.52"),
        (400, "0.92"),
        (411, "0.92"),
        (412, "0.93"),
        (735, "0.99"),
        (736, "1.00"),
        (-736, "0.00"),
        (2000, "1.00"),
    ],
)
def test_pd_band_edges(d: int, pd: str) -> None:
    assert oracle.pd_for_difference(d) == Fraction(pd)


def test_tables_embedded_completely() -> None:
    assert len(oracle.PD_ROWS) == 51
    assert len(oracle.DP_ROWS) == 101
    assert oracle.dp_for_percentage(Fraction("0.64")) == 102
    assert oracle.dp_for_percentage(Fraction("0.19")) == -251
    assert oracle.dp_for_percentage(Fraction(1)) == 800


def test_round_half_away_from_zero() -> None:
    assert oracle.round_half_away_from_zero(Fraction(5, 2)) == 3
    assert oracle.round_half_away_from_zero(Fraction(-5, 2)) == -3
    assert oracle.round_half_away_from_zero(Fraction(-249, 100)) == -2
    assert oracle.round_half_away_from_zero(Fraction(249, 100)) == 2
    assert oracle.round_half_away_from_zero(Fraction(0)) == 0


def test_rule_of_400_expected_scores() -> None:
    # 2813 vs 2400 from 2025-10: the 2813 side uses D=413 (band 412-432 -> 0.93),
    # the 2400 side is capped at D=-400 (band 392-411 -> pd_low 0.08).
    assert oracle.expected_score(2813, 2400, "2025-10") == Fraction("0.93")
    assert oracle.expected_score(2400, 2813, "2025-10") == Fraction("0.08")
    # up to 2025-09 both sides are capped: D=400 -> 0.92 / 0.08
    assert oracle.expected_score(2813, 2400, "2025-09") == Fraction("0.92")
    assert oracle.expected_score(2400, 2813, "2025-09") == Fraction("0.08")
    # the 2650 edge: 2650-2200=450 (band 433-456 -> 0.94); 2649 is capped at 400 -> 0.92
    assert oracle.expected_score(2650, 2200, "2025-10") == Fraction("0.94")
    assert oracle.expected_score(2649, 2200, "2025-10") == Fraction("0.92")
    # rapid/blitz keep the plain cap
    assert oracle.expected_score(2813, 2400, "2025-10", "rapid") == Fraction("0.92")
    assert oracle.expected_score(2813, 2400, "2025-10", "blitz") == Fraction("0.92")


# --- simulate -----------------------------------------------------------------------------


def test_rule_of_400_in_simulate() -> None:
    # Both players K=10 (ever 2400). Ten draws.
    players = [player(1, 2813, ever_2400=True), player(2, 2400, ever_2400=True)]
    for period, expected_a in (("2025-10", 2770), ("2025-09", 2771)):
        games = [game(period, 1, 2, "1/2-1/2") for _ in range(10)]
        row = oracle.simulate(players, games, [period])[period]
        # 2025-10: A: 10 x (0.5 - 0.93) = -4.30, x K10 = -43.0 -> 2813 - 43 = 2770
        # 2025-09: A: 10 x (0.5 - 0.92) = -4.20, x K10 = -42.0 -> 2771
        assert row[1]["rating"] == expected_a
        assert row[1]["change"] == expected_a - 2813
        # B in both: 10 x (0.5 - 0.08) = 4.20, x K10 = 42 -> 2442
        assert row[2]["rating"] == 2442
        assert row[2]["change"] == 42
        assert row[1]["games"] == row[2]["games"] == 10
        assert row[1]["k_applied"] == row[2]["k_applied"] == 10
        assert row[1]["k"] == row[2]["k"] == 10


def test_k_cap() -> None:
    # X: 5 games completed, born 1990 (not junior), under 2400 -> K=40.  Y: 100 games -> K=20.
    # X2/Y2 the same but 17 games.
    players = [
        player(1, 1800, games=5, birth_year=1990),
        player(2, 1800),
        player(3, 1800, games=5, birth_year=1990),
        player(4, 1800),
    ]
    p = "2026-01"
    games = (
        [game(p, 1, 2, "1-0") for _ in range(9)]
        + [game(p, 1, 2, "0-1")]
        + [game(p, 1, 2, "1/2-1/2") for _ in range(8)]
        + [game(p, 3, 4, "1-0") for _ in range(9)]
        + [game(p, 3, 4, "1/2-1/2") for _ in range(8)]
    )
    rows = oracle.simulate(players, games, [p])[p]
    # 18 games, D=0 so PD 0.50: sum = 9 x 0.5 - 0.5 + 8 x 0 = 4.0
    # K cap: min(40, floor(700/18) = 38) = 38 -> 38 x 4.0 = 152 -> 1952
    assert rows[1] == {
        "rating": 1952,
        "change": 152,
        "games": 18,
        "k_applied": 38,
        "k": 40,  # 5 + 18 = 23 games < 30
        "flag": "",
    }
    # Y: K 20 <= 38, not capped: 20 x -4.0 = -80 -> 1720
    assert rows[2]["rating"] == 1720
    assert rows[2]["k_applied"] == 20
    # 17 games: floor(700/17) = 41 >= 40, no cap: 9 x 0.5 = 4.5, x 40 = 180 -> 1980
    assert rows[3]["rating"] == 1980
    assert rows[3]["k_applied"] == 40
    assert rows[3]["k"] == 40  # 5 + 17 = 22 games < 30
    # Y2: -4.5 x 20 = -90 -> 1710
    assert rows[4]["rating"] == 1710


def test_half_rounds_away_from_zero() -> None:
    # P 2500 (>= 2400 -> K 10) beats Q 2310 who once reached 2400 (K 10).
    # D = 190 -> band 189-197 -> 0.75 / 0.25.
    players = [player(1, 2500), player(2, 2310, ever_2400=True)]
    p = "2026-01"
    rows = oracle.simulate(players, [game(p, 1, 2, "1-0")], [p])[p]
    # P: 10 x (1 - 0.75) = +2.5 -> +3 -> 2503
    assert rows[1]["rating"] == 2503
    assert rows[1]["change"] == 3
    # Q: 10 x (0 - 0.25) = -2.5 -> -3 -> 2307; the 2400 flag stays, K 10
    assert rows[2]["rating"] == 2307
    assert rows[2]["change"] == -3
    assert rows[2]["k"] == 10


def test_floor_and_new_initial_rating_ignores_old_games() -> None:
    # All K 20 (100 games, born 1980).
    players = [player(1, 1410), player(2, 1410), player(3, 1410), player(4, 1410)]
    periods = ["2026-01", "2026-02", "2026-03"]
    games = [
        # 2026-01: F1 (1) loses once to G (2): D=0, -0.5 x 20 = -10 -> 1400 exactly: stays.
        game("2026-01", 1, 2, "0-1"),
        # F2 (3) vs H (4): draw + 2 losses: 0 - 0.5 - 0.5 = -1.0, x 20 = -20 -> 1390 < 1400.
        game("2026-01", 3, 4, "1/2-1/2", "Old"),
        game("2026-01", 3, 4, "0-1", "Old"),
        game("2026-01", 3, 4, "0-1", "Old"),
        # 2026-02: unrated F2 scores 3/4 against H (1430 at the start of 2026-02).
        game("2026-02", 3, 4, "1-0", "Back"),
        game("2026-02", 4, 3, "0-1", "Back"),
        game("2026-02", 3, 4, "1/2-1/2", "Back"),
        game("2026-02", 4, 3, "1/2-1/2", "Back"),
        # 2026-03: one more win against H (still 1430: games vs unrated are not rated for H).
        game("2026-03", 3, 4, "1-0"),
    ]
    lists = oracle.simulate(players, games, periods)
    jan = lists["2026-01"]
    assert jan[1]["rating"] == 1400
    assert jan[1]["change"] == -10
    assert jan[2]["rating"] == 1420  # +0.5 x 20 = +10
    assert 3 not in jan  # 1390: unrated from this list on
    assert jan[4]["rating"] == 1430  # 0 + 0.5 + 0.5 = 1.0, x 20 = +20
    # 2026-02: only the 4 games after the loss count (n < 5) -> no rating yet.  (Had the
    # 2026-01 games counted: first event scores 0.5 so is kept, n = 7 -> 1506 published.)
    feb = lists["2026-02"]
    assert 3 not in feb
    assert feb[4] == {
        "rating": 1430,
        "change": 0,
        "games": 0,
        "k_applied": None,
        "k": 20,
        "flag": "",
    }
    # 2026-03: pool = 4 "Back" games + 1 game: n = 5, points 3 + 1 = 4.
    # Ra = (5 x 1430 + 3600) / 7 = 10750 / 7 = 1535.714...
    # p = (4 + 1) / 7 = 0.714... -> 0.71 -> dp 158; Ru = 1693.714 -> 1694
    mar = lists["2026-03"]
    assert mar[3] == {
        "rating": 1694,
        "change": None,
        "games": 1,
        "k_applied": None,
        "k": 40,  # 5 games completed < 30
        "flag": "",
    }


def test_initial_rating_drops_zero_first_event() -> None:
    # Rated opponents, all K 20: 1800, 1900, 2000, 1700, 1600.  U (6) is unrated.
    players = [
        player(1, 1800),
        player(2, 1900),
        player(3, 2000),
        player(4, 1700),
        player(5, 1600),
        player(6, None, games=0, birth_year=None),
    ]
    periods = ["2026-01", "2026-02", "2026-03"]
    games = [
        # first event "Alpha" (2026-01): two losses, 0 points -> disregarded
        game("2026-01", 6, 5, "0-1", "Alpha"),
        game("2026-01", 4, 6, "1-0", "Alpha"),
        # "Beta" (2026-02): 1 + 0.5 + 0 + 1 + 1 = 3.5
        game("2026-02", 6, 1, "1-0", "Beta"),
        game("2026-02", 2, 6, "1/2-1/2", "Beta"),
        game("2026-02", 6, 3, "0-1", "Beta"),
        game("2026-02", 4, 6, "0-1", "Beta"),
        game("2026-02", 6, 5, "1-0", "Beta"),
    ]
    lists = oracle.simulate(players, games, periods)
    assert 6 not in lists["2026-01"]
    # opponents' games vs an unrated player are not rated for them
    assert lists["2026-01"][5] == {
        "rating": 1600,
        "change": 0,
        "games": 0,
        "k_applied": None,
        "k": 20,
        "flag": "",
    }
    # 2026-02: n = 5, opponents 1800+1900+2000+1700+1600 = 9000
    # Ra = (9000 + 3600) / 7 = 1800; p = (3.5 + 1) / 7 = 0.6428... -> 0.64 -> dp 102
    # Ru = 1902.  (Keeping "Alpha": n = 7, Ra = 15900 / 9 = 1766.67, p = 0.50 -> 1767.)
    assert lists["2026-02"][6] == {
        "rating": 1902,
        "change": None,
        "games": 5,
        "k_applied": None,
        "k": 40,
        "flag": "",
    }
    assert lists["2026-03"][6]["rating"] == 1902
    assert lists["2026-03"][6]["change"] == 0
    assert lists["2026-03"][6]["games"] == 0


def test_initial_rating_first_event_order_within_period_and_low_result() -> None:
    players = [
        player(1, 1800),
        player(2, 1900),
        player(3, 2000),
        player(4, 1700),
        player(5, 1600),
        player(6, None, games=0),
        player(7, 1500),
        player(8, None, games=0),
    ]
    p = "2026-01"
    games = [
        # U (6): a game without event (key "") comes before "Alpha" in the same period.
        game(p, 6, 1, "0-1"),
        game(p, 6, 1, "1-0", "Alpha"),
        game(p, 2, 6, "1/2-1/2", "Alpha"),
        game(p, 6, 3, "0-1", "Alpha"),
        game(p, 4, 6, "0-1", "Alpha"),
        game(p, 6, 5, "1-0", "Alpha"),
        # V (8): event "A" 2026-01: draw vs 1500 (0.5, kept); event "B" 2026-02: 5 losses.
        game(p, 8, 7, "1/2-1/2", "A"),
        *[game("2026-02", 7, 8, "1-0", "B") for _ in range(5)],
    ]
    lists = oracle.simulate(players, games, ["2026-01", "2026-02"])
    # "" event scores 0 -> dropped; "Alpha" as in the previous test -> 1902.
    # (If "Alpha" came first: n = 6, Ra = 14400 / 8 = 1800, p = 4.5 / 8 = 0.5625 -> 0.56,
    # dp 43 -> 1843.)  games = all 6 played games vs rated opponents this period.
    row = lists[p][6]
    assert row["rating"] == 1902
    assert row["games"] == 6
    assert row["k"] == 40
    # V: n = 6, Ra = (6 x 1500 + 3600) / 8 = 1575; p = 1.5 / 8 = 0.1875 -> 0.19 -> dp -251
    # Ru = 1324 < 1400 -> not published.
    assert 8 not in lists["2026-01"]
    assert 8 not in lists["2026-02"]
    assert lists["2026-02"][7]["rating"] == 1500


def test_junior_and_2300_precedence() -> None:
    players = [
        player(1, 2250, birth_year=2010, peak=2310),  # junior age, but reached 2300 -> 20
        player(2, 2250, birth_year=2010),  # junior, peak 2250 -> 40
        player(3, 2250, birth_year=2010, peak=2310, games=10),  # < 30 games -> 40
        player(4, 2250, birth_year=2010, games=10, ever_2400=True),  # 2400 flag first -> 10
        player(5, 2000, birth_year=2007),  # 2025 - 2007 = 18 junior; 2026: 19 -> 20
        player(6, 2000),  # K 20
        player(7, 2290, birth_year=2010),  # junior under 2300 -> 40
        player(8, 2290),  # K 20
    ]
    p = "2025-12"
    games = [game(p, 5, 6, "1-0"), game(p, 7, 8, "1-0")]
    rows = oracle.simulate(players, games, [p])[p]
    # "k" is for 2026-01 (birth 2010: age 16, still junior by year)
    assert rows[1]["k"] == 20
    assert rows[2]["k"] == 40
    assert rows[3]["k"] == 40
    assert rows[4]["k"] == 10
    # J5 in 2025-12 has K 40: D=0, +0.5 x 40 = +20 -> 2020; next year 2026 - 2007 = 19 -> 20
    assert rows[5]["rating"] == 2020
    assert rows[5]["k_applied"] == 40
    assert rows[5]["k"] == 20
    assert rows[6]["rating"] == 1990  # -0.5 x 20 = -10
    # J7: +0.5 x 40 = +20 -> 2310, peak reaches 2300 -> no longer junior; 101 games -> 20
    assert rows[7]["rating"] == 2310
    assert rows[7]["k_applied"] == 40
    assert rows[7]["k"] == 20
    assert rows[8]["rating"] == 2280


def test_inactivity_flags() -> None:
    players = [player(1, 2000, sex="F"), player(2, 2000, sex="M")]
    periods = months(2025, 1, 14)  # 2025-01 .. 2026-02
    games = [game("2026-02", 1, 2, "1/2-1/2")]
    lists = oracle.simulate(players, games, periods)
    # the starting rating counts as activity in 2025-01: active through 2025-12
    for period in periods[:12]:
        assert lists[period][1]["flag"] == "w"
        assert lists[period][2]["flag"] == ""
    assert lists["2026-01"][1]["flag"] == "wi"
    assert lists["2026-01"][2]["flag"] == "i"
    assert lists["2026-01"][1]["rating"] == 2000  # inactivity never changes a rating
    # one rated game makes them active again (a draw at D=0: change 0)
    assert lists["2026-02"][1] == {
        "rating": 2000,
        "change": 0,
        "games": 1,
        "k_applied": 20,
        "k": 20,
        "flag": "w",
    }
    assert lists["2026-02"][2]["flag"] == ""


def test_rapid_gap_rule_forfeits_and_unrated_opponents() -> None:
    players = [
        player(1, 2700, ever_2400=True),
        player(2, 2100),
        player(3, 2600, ever_2400=True),
        player(4, 2000),
        player(5, None, games=0),
    ]
    periods = ["2024-11", "2024-12"]
    games = [
        # 2024-11: rated (gap rule not yet in force). D=600 capped at 400: 0.92 / 0.08.
        game("2024-11", 1, 2, "1-0"),
        # 2024-12: 2701 vs 2098: 603 apart, 2701 > 2600 -> not rated at all.
        game("2024-12", 1, 2, "1-0"),
        # 2600 vs 2000: 600 apart but 2600 is not above 2600 -> rated.
        game("2024-12", 3, 4, "1-0"),
        # forfeits never count; a game vs an unrated player is not rated for the rated one.
        game("2024-12", 1, 3, "+/-"),
        game("2024-12", 5, 1, "0-1"),
    ]
    lists = oracle.simulate(players, games, periods, pool="rapid")
    nov = lists["2024-11"]
    assert nov[1]["rating"] == 2701  # +0.08 x 10 = 0.8 -> +1
    assert nov[2]["rating"] == 2098  # -0.08 x 20 = -1.6 -> -2
    dec = lists["2024-12"]
    assert dec[1] == {
        "rating": 2701,
        "change": 0,
        "games": 0,
        "k_applied": None,
        "k": 10,
        "flag": "",
    }
    assert dec[2]["games"] == 0
    assert dec[3]["rating"] == 2601  # +0.08 x 10 = 0.8 -> +1
    assert dec[3]["games"] == 1
    assert dec[4]["rating"] == 1998  # -0.08 x 20 = -1.6 -> -2
    assert 5 not in dec


def test_bad_pool_rejected() -> None:
    with pytest.raises(ValueError, match="pool"):
        oracle.simulate([], [], ["2026-01"], pool="bullet")
