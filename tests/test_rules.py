"""The FIDE rating rules (ledger.core.rules, ledger.core.tables), article by article.

Every expected number is worked out from the regulation text (fide-rules.md) and the two
official tables, as copied verbatim from FIDE's CSV files into the independent oracle
(tests/fide_oracle.py): the tests never read /work/shared, and never take an expected value
from ledger.core.tables.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.domain import Period, Pool
from ledger.core.rules import (
    InitialRatingGame,
    RatedGame,
    RatingState,
    capped_k,
    development_coefficient,
    expected_score,
    expected_scores,
    initial_rating,
    is_junior,
    is_rateable_pairing,
    list_flag,
    rate_period,
    rating_difference,
    round_half_away_from_zero,
)
from ledger.core.tables import EXPECTED_SCORE_BANDS, RATING_DIFFERENCE_BY_SCORE

from fide_oracle import TABLE_8_1_1_CSV, TABLE_8_1_2_CSV

# -- the official tables, from the oracle's verbatim copy of the CSV files -------------------


def hundredths(text: str) -> int:
    """'0.57' -> 57, exactly."""
    return int(Decimal(text) * 100)


PD_ROWS = [
    (int(row["d_lower"]), int(row["d_upper"]) if row["d_upper"] else None, row)
    for row in csv.DictReader(io.StringIO(TABLE_8_1_2_CSV))
]
DP_ROWS = [
    (hundredths(row["p"]), int(row["dp"])) for row in csv.DictReader(io.StringIO(TABLE_8_1_1_CSV))
]

# -- tiny builders ----------------------------------------------------------------------------


def P(text: str) -> Period:  # noqa: N802 - a one-letter builder, like beancount's A()
    """A period, written as FIDE writes it: P("2025-10")."""
    return Period.parse(text)


PERIOD = P("2026-10")
"""The period of the first ratings: its floor is 1400 (7.1.4)."""


def player(
    rating: int,
    *,
    games: int = 100,
    ever_2400: bool = False,
    peak: int | None = None,
    born: int | None = 1980,
) -> RatingState:
    """A player's state on the previous list; by default an established adult, K 20."""
    return RatingState(rating, games, ever_2400, rating if peak is None else peak, born)


def win(pd: int) -> RatedGame:
    return RatedGame(score=100, expected=pd)


def draw(pd: int) -> RatedGame:
    return RatedGame(score=50, expected=pd)


def loss(pd: int) -> RatedGame:
    return RatedGame(score=0, expected=pd)


FIRST_EVENT = (dt.date(2026, 1, 11), 1)  # (end date, order recorded)
SECOND_EVENT = (dt.date(2026, 2, 8), 2)
SCORES = {"1": 100, "½": 50, "0": 0}


def vs(opponent: int, result: str, event: tuple[dt.date, int] = FIRST_EVENT) -> InitialRatingGame:
    """An unrated player's game against a rated opponent: vs(1700, "½")."""
    return InitialRatingGame(event=event, opponent_rating=opponent, score=SCORES[result])


# -- table 8.1.2 and 8.1.1 as data ------------------------------------------------------------


def test_table_8_1_2_matches_the_official_csv() -> None:
    official = tuple((low, high, hundredths(row["pd_high"])) for low, high, row in PD_ROWS)
    assert official == EXPECTED_SCORE_BANDS


def test_table_8_1_2_lower_side_is_one_minus_higher_side() -> None:
    for _, _, row in PD_ROWS:
        assert hundredths(row["pd_low"]) == 100 - hundredths(row["pd_high"])


def test_table_8_1_1_matches_the_official_csv() -> None:
    assert dict(DP_ROWS) == RATING_DIFFERENCE_BY_SCORE
    assert sorted(RATING_DIFFERENCE_BY_SCORE) == list(range(101))


# -- 8.1.2 expected score: every band edge, both sides ----------------------------------------


def _band_edge_cases() -> dict[str, tuple[int, int]]:
    cases: dict[str, tuple[int, int]] = {}
    for low, high, row in PD_ROWS:
        pd_high, pd_low = hundredths(row["pd_high"]), hundredths(row["pd_low"])
        edges = [("lower", low), ("upper", high)] if high is not None else [("lower", low)]
        for edge_name, edge in edges:
            band = f"{low}-{high}" if high is not None else f"{low}+"
            cases[f"8.1.2 |D|={edge} {edge_name} edge of {band}, higher-rated"] = (edge, pd_high)
            if edge != 0:
                cases[f"8.1.2 |D|={edge} {edge_name} edge of {band}, lower-rated"] = (-edge, pd_low)
    return cases


BAND_EDGES = _band_edge_cases()


@pytest.mark.parametrize(("difference", "pd"), list(BAND_EDGES.values()), ids=list(BAND_EDGES))
def test_expected_score_at_every_band_edge(difference: int, pd: int) -> None:
    assert expected_score(difference) == pd


EXPECTED_SCORE_CASES = {
    "8.1.2 D=0 gives 0.50": (0, 50),
    "8.1.2 D=+1 gives 0.50": (1, 50),
    "8.1.2 D=-1 gives 0.50": (-1, 50),
    "8.1.2 D=+2 gives 0.50": (2, 50),
    "8.1.2 D=-2 gives 0.50": (-2, 50),
    "8.1.2 D=+3 gives 0.50": (3, 50),
    "8.1.2 D=-3 gives 0.50": (-3, 50),
    "8.1.2 D=+4 leaves the 0-3 band": (4, 51),
    "8.1.2 D=-4 leaves the 0-3 band": (-4, 49),
    "8.1.2 D=+735 still 0.99": (735, 99),
    "8.1.2 D=-735 still 0.01": (-735, 1),
    "8.1.2 D=+736 gives 1.00": (736, 100),
    "8.1.2 D=-736 gives 0.00": (-736, 0),
    "8.1.2 D=+1000 beyond the table gives 1.00": (1000, 100),
    "8.1.2 D=-1000 beyond the table gives 0.00": (-1000, 0),
    "8.1.2 D=+3000 far beyond the table gives 1.00": (3000, 100),
}


@pytest.mark.parametrize(
    ("difference", "pd"), list(EXPECTED_SCORE_CASES.values()), ids=list(EXPECTED_SCORE_CASES)
)
def test_expected_score(difference: int, pd: int) -> None:
    assert expected_score(difference) == pd


@given(st.integers(min_value=-5000, max_value=5000))
def test_expected_scores_of_the_two_sides_sum_to_one(difference: int) -> None:
    assert expected_score(difference) + expected_score(-difference) == 100


@given(st.integers(min_value=-5000, max_value=5000), st.integers(min_value=0, max_value=1000))
def test_expected_score_is_monotonic_in_the_difference(difference: int, step: int) -> None:
    assert expected_score(difference) <= expected_score(difference + step)


@given(st.integers(min_value=-5000, max_value=5000))
def test_expected_score_is_a_value_of_the_official_table(difference: int) -> None:
    pd_values = {hundredths(row["pd_high"]) for _, _, row in PD_ROWS}
    pd_values |= {hundredths(row["pd_low"]) for _, _, row in PD_ROWS}
    assert expected_score(difference) in pd_values


# -- 8.3.1 the rule of 400 --------------------------------------------------------------------

STANDARD, RAPID, BLITZ = Pool.STANDARD, Pool.RAPID, Pool.BLITZ

RULE_OF_400 = {
    "8.3.1 standard to 2025-09: 2813 vs 2400 capped at 400": (STANDARD, "2025-09", 2813, 2400, 400),
    "8.3.1 standard to 2025-09: 2400 vs 2813 capped, -400": (STANDARD, "2025-09", 2400, 2813, -400),
    "8.3.1 standard to 2025-09: 2650 not exempt yet": (STANDARD, "2025-09", 2650, 2200, 400),
    "8.3.1 standard from 2025-10: 2813 uses the actual 413": (STANDARD, "2025-10", 2813, 2400, 413),
    "8.3.1 standard from 2025-10: 2400 still capped, -400": (STANDARD, "2025-10", 2400, 2813, -400),
    "8.3.1 standard from 2025-10: 2650 exactly is exempt": (STANDARD, "2025-10", 2650, 2200, 450),
    "8.3.1 standard from 2025-10: 2649 is capped": (STANDARD, "2025-10", 2649, 2200, 400),
    "8.3.1 standard from 2025-10: exempt side below, -450": (STANDARD, "2026-03", 2650, 3100, -450),
    "8.3.1 rapid is never exempt: 2813 vs 2400 capped": (RAPID, "2025-10", 2813, 2400, 400),
    "8.3.1 blitz is never exempt: 2813 vs 2400 capped": (BLITZ, "2026-06", 2813, 2400, 400),
    "8.3.1 D=400 exactly is unchanged": (STANDARD, "2024-01", 2400, 2000, 400),
    "8.3.1 D=401 counts as 400": (STANDARD, "2024-01", 2401, 2000, 400),
    "8.3.1 D=-401 counts as -400": (STANDARD, "2024-01", 2000, 2401, -400),
    "8.3.1 a difference within 400 is unchanged": (STANDARD, "2024-01", 2300, 2513, -213),
    "8.3.1 equal ratings give D=0": (RAPID, "2026-01", 1900, 1900, 0),
}


@pytest.mark.parametrize(
    ("pool", "period", "own", "opponent", "difference"),
    list(RULE_OF_400.values()),
    ids=list(RULE_OF_400),
)
def test_rating_difference(
    pool: Pool, period: str, own: int, opponent: int, difference: int
) -> None:
    assert rating_difference(own, opponent, pool, P(period)) == difference


EXPECTED_SCORES = {
    "8.3.1 from 2025-10: 2813 gets 0.93, 2400 0.08": (STANDARD, "2025-10", 2813, 2400, (93, 8)),
    "8.3.1 from 2025-10: colours reversed": (STANDARD, "2025-10", 2400, 2813, (8, 93)),
    "8.3.1 to 2025-09: 2813 vs 2400 both capped": (STANDARD, "2025-09", 2813, 2400, (92, 8)),
    "8.3.1 rapid: 2813 vs 2400 both capped": (RAPID, "2025-10", 2813, 2400, (92, 8)),
    "8.1.2 D=190 gives 0.75 / 0.25": (STANDARD, "2026-10", 2100, 1910, (75, 25)),
    "8.1.2 equal ratings give 0.50 / 0.50": (BLITZ, "2026-10", 2000, 2000, (50, 50)),
    "rapid from 2024-12: 600 apart, above 2600: not rated": (RAPID, "2024-12", 2601, 2001, None),
}


@pytest.mark.parametrize(
    ("pool", "period", "white", "black", "pds"),
    list(EXPECTED_SCORES.values()),
    ids=list(EXPECTED_SCORES),
)
def test_expected_scores(
    pool: Pool, period: str, white: int, black: int, pds: tuple[int, int] | None
) -> None:
    assert expected_scores(pool, P(period), white, black) == pds


RATEABLE = {
    "rapid from 2024-12: gap 600, top 2601: not rated": (RAPID, "2024-12", 2601, 2001, False),
    "blitz from 2024-12: gap 600, top 2601: not rated": (BLITZ, "2024-12", 2601, 2001, False),
    "rapid from 2024-12: top player has black: not rated": (RAPID, "2026-05", 2001, 2601, False),
    "rapid from 2024-12: gap 900, top 2850: not rated": (RAPID, "2026-05", 2850, 1950, False),
    "rapid from 2024-12: gap 599, top 2602: rated": (RAPID, "2024-12", 2602, 2003, True),
    "blitz from 2024-12: gap 600, top exactly 2600: rated": (BLITZ, "2024-12", 2600, 2000, True),
    "rapid to 2024-11: gap 700, top 2700: rated": (RAPID, "2024-11", 2700, 2000, True),
    "blitz to 2024-11: gap 700, top 2700: rated": (BLITZ, "2024-11", 2000, 2700, True),
    "standard is always rated: gap 800, top 2800": (STANDARD, "2026-05", 2800, 2000, True),
}


@pytest.mark.parametrize(
    ("pool", "period", "white", "black", "rated"), list(RATEABLE.values()), ids=list(RATEABLE)
)
def test_is_rateable_pairing(pool: Pool, period: str, white: int, black: int, rated: bool) -> None:
    assert is_rateable_pairing(pool, P(period), white, black) is rated


periods = st.builds(Period, st.integers(2020, 2030), st.integers(1, 12))
ratings = st.integers(min_value=1000, max_value=2900)


@st.composite
def capped_games(draw_: st.DrawFn) -> tuple[Pool, Period, int, int]:
    """A game seen by a player whom the rule of 400 caps, more than 400 from the opponent."""
    pool = draw_(st.sampled_from(Pool))
    period = draw_(periods)
    exemption_possible = pool is STANDARD and period >= P("2025-10")
    own = draw_(st.integers(1000, 2649 if exemption_possible else 2900))
    gap = draw_(st.integers(401, 2000))
    opponent = own + gap if draw_(st.booleans()) else own - gap
    return pool, period, own, opponent


@given(capped_games())
def test_beyond_400_is_400_for_capped_players(game: tuple[Pool, Period, int, int]) -> None:
    pool, period, own, opponent = game
    at_400 = expected_score(400 if own > opponent else -400)
    assert expected_score(rating_difference(own, opponent, pool, period)) == at_400


@given(st.sampled_from([RAPID, BLITZ]), periods, ratings, ratings)
def test_rapid_and_blitz_expected_scores_sum_to_one(
    pool: Pool, period: Period, white: int, black: int
) -> None:
    pds = expected_scores(pool, period, white, black)
    assert pds is None or sum(pds) == 100


@given(st.sampled_from(Pool), periods, ratings, ratings)
def test_a_games_expected_scores_are_each_sides_pd_by_its_own_difference(
    pool: Pool, period: Period, white: int, black: int
) -> None:
    pds = expected_scores(pool, period, white, black)
    if is_rateable_pairing(pool, period, white, black):
        white_d = rating_difference(white, black, pool, period)
        black_d = rating_difference(black, white, pool, period)
        assert pds == (expected_score(white_d), expected_score(black_d))
    else:
        assert pds is None


@given(periods, st.integers(1000, 2649), st.integers(1000, 2649))
def test_standard_expected_scores_below_2650_sum_to_one(
    period: Period, white: int, black: int
) -> None:
    pds = expected_scores(STANDARD, period, white, black)
    assert pds is not None
    assert sum(pds) == 100


# -- 8.3.3 K and its precedence ---------------------------------------------------------------

K_LINES = {  # K for the period 2026-10, decided from the state on the previous list
    "8.3.3 ever 2400 beats junior: K 10": (player(2410, games=5, ever_2400=True, born=2010), 10),
    "8.3.3 ever 2400 stays after a drop: K 10": (player(2350, ever_2400=True, peak=2405), 10),
    "8.3.3 junior aged 18, never 2300, 200 games: K 40": (
        player(2250, games=200, peak=2299, born=2008),
        40,
    ),
    "8.3.3 aged 19 is no junior: K 20": (player(2250, games=200, peak=2299, born=2007), 20),
    "8.3.3 junior whose peak reached 2300: K 20": (
        player(2250, games=200, peak=2300, born=2010),
        20,
    ),
    "8.3.3 junior peak 2300, under 30 games: K 40": (
        player(2250, games=10, peak=2300, born=2010),
        40,
    ),
    "8.3.3 adult with 29 games completed: K 40": (player(1800, games=29), 40),
    "8.3.3 adult with 30 games completed: K 20": (player(1800, games=30), 20),
    "8.3.3 adult with no games completed: K 40": (player(1800, games=0), 40),
    "8.3.3 unknown birth year is not junior: K 20": (player(1800, born=None), 20),
}


@pytest.mark.parametrize(("state", "k"), list(K_LINES.values()), ids=list(K_LINES))
def test_development_coefficient(state: RatingState, k: int) -> None:
    assert development_coefficient(state, P("2026-10")) == k


def test_k_is_decided_by_the_period_year() -> None:
    born_2008 = player(1800, born=2008)  # 18 in 2026, 19 in 2027
    assert development_coefficient(born_2008, P("2026-12")) == 40
    assert development_coefficient(born_2008, P("2027-01")) == 20


JUNIOR = {
    "8.3.3 junior: 18 in the period year": (2008, "2026-12", True),
    "8.3.3 not junior: 19 in the period year": (2007, "2026-01", False),
    "8.3.3 junior: a child of 10": (2016, "2026-06", True),
    "8.3.3 not junior: birth year unknown": (None, "2026-06", False),
}


@pytest.mark.parametrize(("born", "period", "junior"), list(JUNIOR.values()), ids=list(JUNIOR))
def test_is_junior(born: int | None, period: str, junior: bool) -> None:
    assert is_junior(born, P(period)) is junior


K_CAP = {
    "8.3.3 cap: K 40, 17 games, 680 <= 700, stays 40": (40, 17, 40),
    "8.3.3 cap: K 40, 18 games, 720 > 700, becomes 38": (40, 18, 38),
    "8.3.3 cap: K 40, 19 games becomes 36": (40, 19, 36),
    "8.3.3 cap: K 20, 35 games, 700, stays 20": (20, 35, 20),
    "8.3.3 cap: K 20, 36 games becomes 19": (20, 36, 19),
    "8.3.3 cap: K 10, 70 games, 700, stays 10": (10, 70, 10),
    "8.3.3 cap: K 10, 71 games becomes 9": (10, 71, 9),
    "8.3.3 cap: K 40, no games, K unchanged": (40, 0, 40),
    "8.3.3 cap: K 20, no games, K unchanged": (20, 0, 20),
    "8.3.3 cap: K 10, no games, K unchanged": (10, 0, 10),
    "8.3.3 cap: K 10, one game, K unchanged": (10, 1, 10),
}


@pytest.mark.parametrize(("k", "games", "capped"), list(K_CAP.values()), ids=list(K_CAP))
def test_capped_k(k: int, games: int, capped: int) -> None:
    assert capped_k(k, games, PERIOD) == capped


@given(st.sampled_from([10, 20, 40]) | st.integers(1, 100), st.integers(1, 1000))
def test_capped_k_never_exceeds_700_over_n(k: int, games: int) -> None:
    capped = capped_k(k, games, PERIOD)
    assert capped <= k
    assert capped * games <= 700
    # and it is the largest such K: one more would exceed K or break the cap
    assert capped == k or (capped + 1) * games > 700


# -- 8.3.4 rounding ---------------------------------------------------------------------------

ROUNDING = {
    "8.3.4 +2.5 rounds away from zero to +3": (250, 3),
    "8.3.4 -2.5 rounds away from zero to -3": (-250, -3),
    "8.3.4 -2.49 rounds to -2": (-249, -2),
    "8.3.4 +2.49 rounds to +2": (249, 2),
    "8.3.4 +0.5 rounds to +1": (50, 1),
    "8.3.4 -0.5 rounds to -1": (-50, -1),
    "8.3.4 +0.49 rounds to 0": (49, 0),
    "8.3.4 -0.49 rounds to 0": (-49, 0),
    "8.3.4 0 stays 0": (0, 0),
    "8.3.4 +1.5 rounds to +2": (150, 2),
    "8.3.4 +12.51 rounds to +13": (1251, 13),
    "8.3.4 -7.00 stays -7": (-700, -7),
}


@pytest.mark.parametrize(("value", "whole"), list(ROUNDING.values()), ids=list(ROUNDING))
def test_round_half_away_from_zero(value: int, whole: int) -> None:
    assert round_half_away_from_zero(value) == whole


def _decimal_round(value: int) -> int:
    """An independent 8.3.4 rounding: Decimal's ROUND_HALF_UP rounds halves away from zero."""
    return int((Decimal(value) / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


@given(st.integers(min_value=-100_000, max_value=100_000))
def test_rounding_is_odd_and_close(value: int) -> None:
    whole = round_half_away_from_zero(value)
    assert round_half_away_from_zero(-value) == -whole
    assert abs(whole * 100 - value) <= 50
    assert whole == _decimal_round(value)


# -- 8.3.2 - 8.3.4 the rating change of a period ----------------------------------------------

K10 = player(2500, ever_2400=True)
K20 = player(2000)
K40 = player(1800, games=0)

EXACT_TIES = {
    "8.3.4 K 10, a win at 0.75: 10 x 0.25 = 2.5 -> +3": (K10, [win(75)], 250, 3),
    "8.3.4 K 10, a loss at 0.25: 10 x -0.25 = -2.5 -> -3": (K10, [loss(25)], -250, -3),
    "8.3.4 K 10, wins at 0.90, 0.85: 10 x 0.25 -> +3": (K10, [win(90), win(85)], 250, 3),
    "8.3.4 K 10, a draw at 0.45: 10 x 0.05 = 0.5 -> +1": (K10, [draw(45)], 50, 1),
    "8.3.4 K 10, a draw at 0.55: 10 x -0.05 = -0.5 -> -1": (K10, [draw(55)], -50, -1),
    "8.3.4 K 10, a loss at 0.24: 10 x -0.24 = -2.4 -> -2": (K10, [loss(24)], -240, -2),
    "8.3.4 K 20, 3 wins at 0.95: 20 x 0.15 = 3.0": (K20, [win(95)] * 3, 300, 3),
    "8.3.4 K 40 capped 38 by 18 games: 38 x 0.25 = 9.5 -> +10": (
        K40,
        [win(75)] + [draw(50)] * 17,
        950,
        10,
    ),
}


@pytest.mark.parametrize(
    ("state", "games", "k_times_sum", "change"), list(EXACT_TIES.values()), ids=list(EXACT_TIES)
)
def test_rate_period_rounds_exact_ties(
    state: RatingState, games: list[RatedGame], k_times_sum: int, change: int
) -> None:
    outcome = rate_period(state, P("2026-10"), games)
    assert outcome.k_times_sum == k_times_sum
    assert outcome.change == change
    assert outcome.state.rating == state.rating + change


def test_why_the_ledger_does_not_use_floats() -> None:
    """Binary floats and Python's round() get 8.3.4's exact ties wrong; the ledger does not."""
    # 10 x (0.1 + 0.15) is 2.5, but round() is banker's rounding: 2, where 8.3.4 says 3.
    assert round(10 * (0.1 + 0.15), 0) == 2.0
    assert round(2.5) == 2
    assert rate_period(K10, P("2026-10"), [win(90), win(85)]).change == 3
    # A draw at PD 0.45 with K 10: 10 x (0.5 - 0.45) is 0.4999999999999999 in floats, so even
    # rounding half away from zero on floats gives 0 where 8.3.4 says +1.
    float_product = 10 * (0.5 - 0.45)
    assert float_product < 0.5
    assert int(float_product + 0.5) == 0
    assert rate_period(K10, P("2026-10"), [draw(45)]).change == 1
    # 20 x 0.15 is 3.0000000000000027 in floats; the ledger keeps exactly 300 hundredths.
    assert 20 * (3 * (1 - 0.95)) != 3.0
    assert rate_period(K20, P("2026-10"), [win(95)] * 3).k_times_sum == 300


def test_rate_period_sums_deltas_and_keeps_the_unrounded_product() -> None:
    # K 20: win at 0.64 (+0.36), draw at 0.50 (0), loss at 0.36 (-0.36), loss at 0.71 (-0.71)
    outcome = rate_period(K20, P("2026-10"), [win(64), draw(50), loss(36), loss(71)])
    assert outcome.games == 4
    assert outcome.k_applied == 20
    assert outcome.delta_sum == -71
    assert outcome.k_times_sum == -1420
    assert outcome.change == -14
    assert outcome.state.rating == 1986


def test_rate_period_applies_the_capped_k_to_all_games() -> None:
    # K 40, 19 games: K 36; a win at 0.50 and 18 draws at 0.50: 36 x 0.50 = 18
    outcome = rate_period(K40, P("2026-10"), [win(50)] + [draw(50)] * 18)
    assert outcome.k_applied == 36
    assert outcome.delta_sum == 50
    assert outcome.change == 18


def test_rate_period_without_games_changes_nothing_but_keeps_k() -> None:
    outcome = rate_period(K40, P("2026-10"), [])
    assert (outcome.games, outcome.k_applied, outcome.delta_sum, outcome.change) == (0, 40, 0, 0)
    assert outcome.state == K40


def test_rate_period_new_state() -> None:
    # K 20, a win at 0.50: +10, from 2390 to 2400
    outcome = rate_period(player(2390, games=100, born=1990), P("2026-10"), [win(50)])
    assert outcome.state == RatingState(
        rating=2400, games_completed=101, ever_2400=True, peak=2400, birth_year=1990
    )


def test_rate_period_below_2400_does_not_set_the_flag() -> None:
    outcome = rate_period(player(2380), P("2026-10"), [win(50)])  # K 20: +10
    assert outcome.state.rating == 2390
    assert outcome.state.ever_2400 is False
    assert outcome.state.peak == 2390


def test_rate_period_ever_2400_is_sticky_and_peak_is_a_maximum() -> None:
    state = player(2410, ever_2400=True, peak=2450)
    outcome = rate_period(state, P("2026-10"), [loss(50)] * 3)  # K 10 x -1.50 = -15
    assert outcome.state.rating == 2395
    assert outcome.state.ever_2400 is True
    assert outcome.state.peak == 2450


FLOOR = {
    "7.1.4 1405 loses 10 to 1395: below the floor, not listed": (1405, False),
    "7.1.4 1410 loses 10 to 1400: exactly the floor, listed": (1410, True),
    "7.1.4 2000 loses 10 to 1990: listed": (2000, True),
}


@pytest.mark.parametrize(("rating", "listed"), list(FLOOR.values()), ids=list(FLOOR))
def test_rating_floor(rating: int, listed: bool) -> None:
    outcome = rate_period(player(rating), P("2026-10"), [loss(50)])  # K 20 x -0.50 = -10
    assert outcome.state.rating == rating - 10
    assert outcome.listed is listed


rating_states = st.builds(
    RatingState,
    rating=st.integers(1400, 2900),
    games_completed=st.integers(0, 300),
    ever_2400=st.booleans(),
    peak=st.integers(1400, 2900),
    birth_year=st.none() | st.integers(1940, 2020),
)
rated_games = st.builds(
    RatedGame, score=st.sampled_from([0, 50, 100]), expected=st.integers(0, 100)
)


@given(rating_states, periods, st.lists(rated_games, max_size=80))
def test_rate_period_change_is_k_times_the_sum_rounded_once(
    state: RatingState, period: Period, games: list[RatedGame]
) -> None:
    outcome = rate_period(state, period, games)
    delta_sum = sum(game.score - game.expected for game in games)
    assert outcome.k_applied == capped_k(development_coefficient(state, period), len(games), period)
    assert outcome.delta_sum == delta_sum
    assert outcome.k_times_sum == outcome.k_applied * delta_sum
    assert outcome.change == round_half_away_from_zero(outcome.k_applied * delta_sum)
    assert outcome.change == _decimal_round(outcome.k_applied * delta_sum)
    assert outcome.state.rating == state.rating + outcome.change
    assert outcome.state.games_completed == state.games_completed + len(games)


# -- 7.1.4, 8.2 initial rating ----------------------------------------------------------------

INITIAL = {
    "8.2 four games are not enough": (
        [vs(1700, "1"), vs(1700, "1"), vs(1700, "0"), vs(1700, "½")],
        None,
    ),
    "8.2 no games at all": ([], None),
    # Ra = (9000 + 3600) / 7 = 1800; p = 4 / 7 = 0.571 -> 0.57, dp 50; Ru = 1850
    "8.2 worked example: five games, 3 points": (
        [vs(1600, "1"), vs(1700, "1"), vs(1800, "1"), vs(1900, "0"), vs(2000, "0")],
        (1850, 5),
    ),
    # Ra = (10200 + 3600) / 8 = 1725; p = 5 / 8 = 0.625 -> 0.63 half up (not 0.62), dp 95
    "8.2 p rounded half up to hundredths: 0.625 -> 0.63": (
        [vs(1700, "1")] * 4 + [vs(1700, "0")] * 2,
        (1820, 6),
    ),
    # Ra = (10204 + 3600) / 8 = 1725.5; Ru = 1725.5 + 95 = 1820.5 -> 1821 half up
    "8.2 Ru rounded half up: 1820.5 -> 1821": (
        [vs(1700, "1")] * 4 + [vs(1700, "0"), vs(1704, "0")],
        (1821, 6),
    ),
    # Ra = (11000 + 3600) / 7 = 2085.7; p = 6 / 7 -> 0.86, dp 309; Ru 2394.7 capped at 2200
    "8.2 Ru capped at 2200": ([vs(2200, "1")] * 5, (2200, 5)),
    # Ra = (7306 + 3600) / 7 = 1558; p = 2 / 7 -> 0.29, dp -158; Ru = 1400 exactly
    "7.1.4 Ru exactly 1400 is published": (
        [vs(1460, "1"), vs(1460, "0"), vs(1460, "0"), vs(1460, "0"), vs(1466, "0")],
        (1400, 5),
    ),
    # Ra = (7299 + 3600) / 7 = 1557; Ru = 1399
    "7.1.4 Ru 1399 is below the floor: none": (
        [vs(1460, "1"), vs(1460, "0"), vs(1460, "0"), vs(1460, "0"), vs(1459, "0")],
        None,
    ),
    # Ra = (7000 + 3600) / 7 = 1514.3; p = 1.5 / 7 -> 0.21, dp -230; Ru 1284
    "7.1.4 a low result gives no rating": (
        [vs(1400, "½"), vs(1400, "0"), vs(1400, "0"), vs(1400, "0"), vs(1400, "0")],
        None,
    ),
}


@pytest.mark.parametrize(("games", "rating"), list(INITIAL.values()), ids=list(INITIAL))
def test_initial_rating(games: list[InitialRatingGame], rating: tuple[int, int] | None) -> None:
    assert initial_rating(games, PERIOD) == rating


FIVE_IN_SECOND_EVENT = [
    vs(1600, "1", SECOND_EVENT),
    vs(1700, "1", SECOND_EVENT),
    vs(1800, "1", SECOND_EVENT),
    vs(1900, "0", SECOND_EVENT),
    vs(2000, "0", SECOND_EVENT),
]  # on its own: (1850, 5), the worked example
SCORELESS_FIRST_EVENT = [vs(1500, "0"), vs(1500, "0")]


def test_a_scoreless_first_event_is_disregarded() -> None:
    assert initial_rating(SCORELESS_FIRST_EVENT + FIVE_IN_SECOND_EVENT, PERIOD) == (1850, 5)


def test_the_first_event_is_found_by_event_order_not_input_order() -> None:
    assert initial_rating(FIVE_IN_SECOND_EVENT + SCORELESS_FIRST_EVENT, PERIOD) == (1850, 5)


def test_disregarding_a_scoreless_first_event_can_leave_too_few_games() -> None:
    assert initial_rating(SCORELESS_FIRST_EVENT + FIVE_IN_SECOND_EVENT[:4], PERIOD) is None


def test_a_first_event_with_some_points_is_kept() -> None:
    # Ra = (3000 + 9000 + 3600) / 9 = 1733.3; p = 4.5 / 9 = 0.50, dp 0; Ru 1733
    games = [vs(1500, "½"), vs(1500, "0"), *FIVE_IN_SECOND_EVENT]
    assert initial_rating(games, PERIOD) == (1733, 7)


def test_a_scoreless_later_event_is_kept() -> None:
    # Ra = (9000 + 3000 + 3600) / 9 = 1733.3; p = 4 / 9 = 0.444 -> 0.44, dp -43; Ru 1690
    first = [vs(1600, "1"), vs(1700, "1"), vs(1800, "1"), vs(1900, "0"), vs(2000, "0")]
    later = [vs(1500, "0", SECOND_EVENT), vs(1500, "0", SECOND_EVENT)]
    assert initial_rating(first + later, PERIOD) == (1690, 7)


# -- 7.2.2 the list flag ----------------------------------------------------------------------

FLAGS = {  # the list of 2026-10
    "7.2.2 rated game this period: active": (False, "2026-10", ""),
    "7.2.2 last rated game 11 periods ago: active": (False, "2025-11", ""),
    "7.2.2 last rated game 12 periods ago: inactive": (False, "2025-10", "i"),
    "7.2.2 never a rated game: inactive": (False, None, "i"),
    "7.2.2 woman, active: w": (True, "2025-11", "w"),
    "7.2.2 woman, inactive: wi": (True, "2025-10", "wi"),
    "7.2.2 woman, never a rated game: wi": (True, None, "wi"),
}


@pytest.mark.parametrize(("woman", "last_active", "flag"), list(FLAGS.values()), ids=list(FLAGS))
def test_list_flag(woman: bool, last_active: str | None, flag: str) -> None:
    last = None if last_active is None else P(last_active)
    assert list_flag(woman=woman, last_active=last, period=P("2026-10")) == flag
