"""The rating calculator and the reading aids of FIDE section 8 (ledger.core.calculator).

Every expected number is worked by hand from the regulation text (fide-rules.md) and the
official tables; the arithmetic is in the comments. Scores and expected scores are
hundredths: 387 is 3.87 points.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.calculator import (
    CURRENT_RULES,
    AverageOpponent,
    GameRow,
    calculate_average,
    calculate_games,
    k_for,
    linear_performance,
    logistic_expected_score,
    parse_opponents,
    parse_score,
    performance_rating,
    rating_state,
    tournament_category,
)
from ledger.core.domain import Period, Pool
from ledger.core.errors import InvalidInput
from ledger.core.rules import expected_score, round_half_away_from_zero

from builders import run

# -- tiny builders ----------------------------------------------------------------------------


def win(opponent: int) -> tuple[int, int]:
    return (opponent, 100)


def draw(opponent: int) -> tuple[int, int]:
    return (opponent, 50)


def loss(opponent: int) -> tuple[int, int]:
    return (opponent, 0)


def P(text: str) -> Period:  # noqa: N802 - a one-letter builder, like beancount's A()
    """A period, written as FIDE writes it: P("2025-10")."""
    return Period.parse(text)


ratings = st.integers(min_value=1000, max_value=3000)
scores = st.sampled_from([0, 50, 100])
ks = st.sampled_from([10, 15, 20, 30, 40])

# -- the FIDE calculator's worked example (acceptance) ----------------------------------------


def test_fide_worked_example_rating_1800_against_average_1850_scoring_5_of_9_at_k_20() -> None:
    calculation = calculate_average(1800, 20, 1850, 500, 9)
    # D = 1800 - 1850 = -50: band 47-53 gives the higher side 0.57, so PD = 0.43.
    assert calculation.average == AverageOpponent(1850, -50, -50, 43)
    assert calculation.total_expected == 387  # 9 x 0.43 = 3.87
    assert calculation.delta_sum == 113  # 5 - 3.87 = 1.13
    assert calculation.k_times_sum == 2260  # 20 x 1.13 = 22.60
    assert calculation.change == 23
    assert calculation.new_rating == 1823
    assert calculation.estimate is True
    assert calculation.rows == ()


# -- per game, as FIDE rates (8.3.1 - 8.3.4) --------------------------------------------------


def test_each_game_shows_d_the_rule_of_400_pd_and_delta() -> None:
    calculation = calculate_games(2000, 20, [win(2100), draw(1950), loss(1500)])
    assert calculation.rows == (
        GameRow(2100, -100, -100, 36, 100, 64),  # |D| 100: band 99-106, 0.64; lower side 0.36
        GameRow(1950, 50, 50, 57, 50, -7),  # |D| 50: band 47-53, 0.57
        GameRow(1500, 500, 400, 92, 0, -92),  # D 500 counts as 400: band 392-411, 0.92
    )
    assert calculation.total_expected == 185  # 0.36 + 0.57 + 0.92
    assert calculation.total_score == 150
    assert calculation.delta_sum == -35  # 0.64 - 0.07 - 0.92
    assert calculation.k_times_sum == -700  # 20 x -0.35 = -7.00
    assert (calculation.change, calculation.new_rating) == (-7, 1993)
    assert calculation.estimate is False
    assert calculation.average is None
    assert calculation.performance == 1850  # Rc 5550 / 3 = 1850, p 0.50 -> dp 0
    assert calculation.linear_performance == 1850  # one win, one loss: 5550 / 3


@pytest.mark.parametrize(
    ("rating", "k", "games", "pool", "period", "k_applied", "k_times_sum", "change"),
    [
        pytest.param(
            2700, 10, [loss(2200)], Pool.STANDARD, P("2025-10"), 10, -960, -10,
            # D 500 uncapped: band 485-517, PD 0.96; 10 x -0.96 = -9.60 -> -10
            id="8.3.1 from 2025-10 a standard player rated 2650+ uses the actual difference",
        ),
        pytest.param(
            2700, 10, [loss(2200)], Pool.STANDARD, P("2025-09"), 10, -920, -9,
            # D 500 counts as 400: PD 0.92; 10 x -0.92 = -9.20 -> -9
            id="8.3.1 up to 2025-09 the rule of 400 applies to everyone",
        ),
        pytest.param(
            2700, 10, [loss(2200)], Pool.RAPID, P("2025-10"), 10, -920, -9,
            id="8.3.1 rapid keeps the plain rule of 400, no 2650 exception",
        ),
        pytest.param(
            2649, 10, [loss(2149)], Pool.STANDARD, P("2025-10"), 10, -920, -9,
            id="8.3.1 a player rated 2649 is still capped at 400",
        ),
        pytest.param(
            2813, 10, [loss(2400)], Pool.STANDARD, P("2025-10"), 10, -930, -9,
            # D 413: band 412-432, PD 0.93; 10 x -0.93 = -9.30 -> -9
            id="8.3.1 the 2813 v 2400 example: D 413, PD 0.93",
        ),
        pytest.param(
            2000, 40, [win(2000)] * 20, Pool.STANDARD, None, 35, 35000, 350,
            # 20 x 40 = 800 > 700: K = 700 // 20 = 35; 35 x 20 x 0.50 = 350
            id="8.3.3 700 cap: 20 games at K 40 are rated with K 35",
        ),
        pytest.param(
            2000, 40, [win(2000)] * 17, Pool.STANDARD, None, 40, 34000, 340,
            # 17 x 40 = 680 <= 700: K stays 40; 40 x 17 x 0.50 = 340
            id="8.3.3 700 cap: 17 games at K 40 keep K 40",
        ),
        pytest.param(
            2000, 10, [draw(2035)], Pool.STANDARD, None, 10, 50, 1,
            # |D| 35: band 33-39, 0.55; lower side 0.45; 10 x (0.50 - 0.45) = +0.50 -> +1
            id="8.3.4 +0.5 rounds away from zero to +1",
        ),
        pytest.param(
            2000, 10, [draw(1965)], Pool.STANDARD, None, 10, -50, -1,
            # PD 0.55; 10 x (0.50 - 0.55) = -0.50 -> -1
            id="8.3.4 -0.5 rounds away from zero to -1",
        ),
        pytest.param(
            2000, 7, [draw(1950)], Pool.STANDARD, None, 7, -49, 0,
            # PD 0.57; 7 x -0.07 = -0.49 -> 0
            id="8.3.4 -0.49 rounds to 0",
        ),
        pytest.param(
            2000, 7, [draw(2050)], Pool.STANDARD, None, 7, 49, 0,
            # PD 0.43; 7 x +0.07 = +0.49 -> 0
            id="8.3.4 +0.49 rounds to 0",
        ),
    ],
)  # fmt: skip
def test_per_game_calculation(
    rating: int,
    k: int,
    games: list[tuple[int, int]],
    pool: Pool,
    period: Period | None,
    k_applied: int,
    k_times_sum: int,
    change: int,
) -> None:
    calculation = calculate_games(rating, k, games, pool, period)
    assert calculation.k_given == k
    assert calculation.k_applied == k_applied
    assert calculation.k_times_sum == k_times_sum
    assert calculation.change == change
    assert calculation.new_rating == rating + change
    assert calculation.games == len(games)


def test_default_rules_are_those_from_2025_10() -> None:
    assert P("2025-10") == CURRENT_RULES
    assert calculate_games(2700, 10, [loss(2200)]) == calculate_games(
        2700, 10, [loss(2200)], Pool.STANDARD, P("2025-10")
    )


def test_estimate_applies_the_rule_of_400_to_the_average() -> None:
    calculation = calculate_average(2000, 20, 1500, 900, 9)
    # D 500 counts as 400: PD 0.92; 9 x 0.92 = 8.28; 20 x (9 - 8.28) = 14.40 -> +14
    assert calculation.average == AverageOpponent(1500, 500, 400, 92)
    assert (calculation.total_expected, calculation.change) == (828, 14)


def test_estimate_caps_k_by_700_over_its_games() -> None:
    # 701 games: K = 700 // 701 = 0, so nothing changes and any score keeps the rating.
    calculation = calculate_average(2000, 10, 2000, 35050, 701)
    assert (calculation.k_applied, calculation.change, calculation.break_even_score) == (0, 0, 0)


@given(
    rating=ratings,
    k=ks,
    opponent=ratings,
    games=st.lists(scores, min_size=1, max_size=30),
)
def test_estimate_equals_per_game_against_equal_opponents(
    rating: int, k: int, opponent: int, games: list[int]
) -> None:
    per_game = calculate_games(rating, k, [(opponent, score) for score in games])
    estimate = calculate_average(rating, k, opponent, sum(games), len(games))
    assert estimate.total_expected == per_game.total_expected
    assert estimate.change == per_game.change
    assert estimate.break_even_score == per_game.break_even_score
    assert estimate.performance == per_game.performance
    assert estimate.linear_performance == per_game.linear_performance


@given(
    rating=st.integers(min_value=1000, max_value=2649),
    k=ks,
    games=st.lists(st.tuples(ratings, scores), min_size=1, max_size=40),
)
def test_the_change_is_capped_k_times_the_sum_of_deltas_rounded_once(
    rating: int, k: int, games: list[tuple[int, int]]
) -> None:
    calculation = calculate_games(rating, k, games)
    assert calculation.k_applied <= k
    assert calculation.k_applied * len(games) <= 700
    # Below 2650 every D is held within -400..400 (8.3.1), then looked up in table 8.1.2.
    deltas = [
        score - expected_score(max(-400, min(400, rating - opponent))) for opponent, score in games
    ]
    assert [row.delta for row in calculation.rows] == deltas
    assert calculation.delta_sum == sum(deltas)
    assert calculation.change == round_half_away_from_zero(calculation.k_applied * sum(deltas))


# -- the score needed not to lose rating ------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "k", "games", "break_even"),
    [
        pytest.param(
            2000, 20, [win(2100), draw(1950), loss(1500)], 200,
            # expected 1.85: 1.5 gives 20 x -0.35 = -7; 2 gives 20 x 0.15 = +3
            id="three games: 2 points",
        ),
        pytest.param(
            1800, 20, [loss(1850)] * 9, 400,
            # expected 3.87: 3.5 gives 20 x -0.37 = -7.4 -> -7; 4 gives +2.6 -> +3
            id="FIDE example: 4 of 9",
        ),
        pytest.param(
            2000, 10, [loss(1965)], 100,
            # PD 0.55: a draw gives 10 x -0.05 = -0.50 -> -1 (8.3.4), so a win is needed
            id="8.3.4 a change of -0.5 loses a point",
        ),
        pytest.param(
            2000, 7, [loss(1950)], 50,
            # PD 0.57: a draw gives 7 x -0.07 = -0.49 -> 0
            id="8.3.4 a change of -0.49 loses nothing",
        ),
        pytest.param(
            1000, 5, [loss(3000)], 0,
            # D -2000 counts as -400: PD 0.08; a loss gives 5 x -0.08 = -0.40 -> 0
            id="a loss that rounds to 0 needs no points",
        ),
    ],
)  # fmt: skip
def test_break_even_score(
    rating: int, k: int, games: list[tuple[int, int]], break_even: int
) -> None:
    assert calculate_games(rating, k, games).break_even_score == break_even


@given(rating=ratings, k=ks, games=st.lists(st.tuples(ratings, scores), min_size=1, max_size=40))
def test_rating_is_kept_exactly_from_the_break_even_score(
    rating: int, k: int, games: list[tuple[int, int]]
) -> None:
    calculation = calculate_games(rating, k, games)
    assert (calculation.change >= 0) == (calculation.total_score >= calculation.break_even_score)


@given(
    rating=st.integers(min_value=0, max_value=3500),
    k=st.integers(min_value=1, max_value=60),
    opponent=st.integers(min_value=0, max_value=3500),
    games=st.integers(min_value=1, max_value=800),
)
def test_break_even_is_the_smallest_half_point_score_not_losing(
    rating: int, k: int, opponent: int, games: int
) -> None:
    calculation = calculate_average(rating, k, opponent, 0, games)
    smallest = next(
        score
        for score in range(0, 100 * games + 1, 50)
        if round_half_away_from_zero(calculation.k_applied * (score - calculation.total_expected))
        >= 0
    )
    assert calculation.break_even_score == smallest


# -- performance ratings (section 8, table 8.1.1) ---------------------------------------------


@pytest.mark.parametrize(
    ("opponents", "points", "performance"),
    [
        pytest.param([2000] * 5, 300, 2072, id="8.1.1 3/5 against 2000s: p 0.60 -> dp 72"),
        pytest.param([2000] * 5, 500, 2800, id="8.1.1 100% gives +800"),
        pytest.param([2000] * 5, 0, 1200, id="8.1.1 0% gives -800"),
        pytest.param([2000] * 2, 100, 2000, id="8.1.1 p 0.50 -> dp 0"),
        pytest.param([2000] * 8, 500, 2095, id="p 5/8 = 0.625 rounds half up to 0.63 -> dp 95"),
        pytest.param([2000] * 3, 200, 2125, id="p 2/3 = 0.6667 rounds to 0.67 -> dp 125"),
        pytest.param([2000, 2001], 100, 2001, id="Rc 2000.5 rounds half up to 2001"),
        pytest.param([2000] * 200, 19950, 2677, id="p 0.9975 is not 100%: held at 0.99"),
        pytest.param([2000] * 200, 50, 1323, id="p 0.0025 is not 0%: held at 0.01"),
    ],
)
def test_performance_rating(opponents: list[int], points: int, performance: int) -> None:
    assert performance_rating(opponents, points) == performance


@pytest.mark.parametrize(
    ("opponents", "points"),
    [
        pytest.param([], 0, id="no games"),
        pytest.param([2000] * 5, -50, id="negative points"),
        pytest.param([2000] * 5, 550, id="more points than games"),
    ],
)
def test_performance_rating_refuses_impossible_scores(opponents: list[int], points: int) -> None:
    with pytest.raises(ValueError, match="game"):
        performance_rating(opponents, points)


@given(opponents=st.lists(ratings, min_size=1, max_size=20), data=st.data())
def test_performance_rating_grows_with_the_score(opponents: list[int], data: st.DataObject) -> None:
    points = data.draw(st.integers(min_value=0, max_value=100 * len(opponents) - 1))
    assert performance_rating(opponents, points) <= performance_rating(opponents, points + 1)


@pytest.mark.parametrize(
    ("opponents", "wins", "losses", "performance"),
    [
        pytest.param([2000, 2100, 1900], 2, 0, 2267, id="rule of 400: (6000 + 800) / 3 = 2266.67"),
        pytest.param([2000] * 5, 2, 1, 2080, id="rule of 400: draws count nothing"),
        pytest.param([2000, 2001], 1, 1, 2001, id="rule of 400: 2000.5 rounds half up"),
        pytest.param([1500], 0, 1, 1100, id="rule of 400: a single loss is 400 below"),
    ],
)
def test_linear_performance(opponents: list[int], wins: int, losses: int, performance: int) -> None:
    assert linear_performance(opponents, wins, losses) == performance


@pytest.mark.parametrize(
    ("opponents", "wins", "losses"),
    [
        pytest.param([], 0, 0, id="no games"),
        pytest.param([2000], -1, 0, id="negative wins"),
        pytest.param([2000], 0, -1, id="negative losses"),
        pytest.param([2000], 1, 1, id="more results than games"),
    ],
)
def test_linear_performance_refuses_impossible_results(
    opponents: list[int], wins: int, losses: int
) -> None:
    with pytest.raises(ValueError, match="game"):
        linear_performance(opponents, wins, losses)


# -- tournament category (section 8) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("average", "category"),
    [
        pytest.param(2250, None, id="2250 is below category 1"),
        pytest.param(2251, 1, id="category 1 starts at 2251"),
        pytest.param(2275, 1, id="category 1 ends at 2275"),
        pytest.param(2276, 2, id="category 2 starts at 2276"),
        pytest.param(2801, 23, id="category 23 starts at 2801"),
        pytest.param(2825, 23, id="category 23 ends at 2825"),
        pytest.param(2826, 24, id="the scale goes on above 23"),
    ],
)
def test_tournament_category(average: int, category: int | None) -> None:
    assert tournament_category(average) == category


@given(st.integers(min_value=2251, max_value=3500))
def test_each_category_spans_25_points(average: int) -> None:
    category = tournament_category(average)
    assert category is not None
    assert 2251 + 25 * (category - 1) <= average <= 2275 + 25 * (category - 1)


# -- the logistic formula, for comparison only ------------------------------------------------


@pytest.mark.parametrize(
    ("difference", "logistic", "table"),
    [
        pytest.param(0, "0.5000", 50, id="D 0: formula 0.5000, table 0.50"),
        pytest.param(400, "0.9091", 92, id="D 400: formula 1 / 1.1 = 0.9091, table 0.92"),
        pytest.param(-400, "0.0909", 8, id="D -400: formula 0.0909, table 0.08"),
        pytest.param(-3500, "0.0000", 0, id="D -3500: formula 0.0000, table 0.00"),
    ],
)
def test_logistic_beside_the_table(difference: int, logistic: str, table: int) -> None:
    assert logistic_expected_score(difference) == Decimal(logistic)
    assert str(logistic_expected_score(difference)) == logistic
    assert expected_score(difference) == table


@given(st.integers(min_value=-3500, max_value=3500))
def test_logistic_scores_of_both_sides_sum_to_1(difference: int) -> None:
    total = logistic_expected_score(difference) + logistic_expected_score(-difference)
    assert total == 1


@given(st.integers(min_value=-3500, max_value=3499))
def test_logistic_score_grows_with_the_difference(difference: int) -> None:
    assert logistic_expected_score(difference) <= logistic_expected_score(difference + 1)


# -- K from what the user knows (8.3.3) -------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "birth_year", "games", "ever_2400", "period", "k"),
    [
        pytest.param(2300, 1990, 100, True, None, 10, id="8.3.3 ever reached 2400 -> K 10"),
        pytest.param(2400, 1990, 100, False, None, 10, id="8.3.3 rated 2400 has reached 2400"),
        pytest.param(2100, 2010, 100, False, None, 40, id="8.3.3 junior under 2300 -> K 40"),
        pytest.param(2300, 2010, 100, False, None, 20, id="8.3.3 a junior at 2300 -> K 20"),
        pytest.param(2000, 2007, 100, False, None, 40, id="8.3.3 18 in 2025 is a junior"),
        pytest.param(2000, 2006, 100, False, None, 20, id="8.3.3 19 in 2025 is not a junior"),
        pytest.param(2000, 2007, 100, False, P("2026-01"), 20, id="8.3.3 19 in 2026, not junior"),
        pytest.param(2000, None, 29, False, None, 40, id="8.3.3 fewer than 30 games -> K 40"),
        pytest.param(2000, None, 30, False, None, 20, id="8.3.3 30 games -> K 20"),
    ],
)
def test_k_for(
    rating: int,
    birth_year: int | None,
    games: int,
    ever_2400: bool,
    period: Period | None,
    k: int,
) -> None:
    assert k_for(rating, birth_year, games, ever_2400=ever_2400, period=period) == k


def test_rating_state_takes_the_peak_to_be_the_rating() -> None:
    state = rating_state(2350, 2010, 12, ever_2400=False)
    assert (state.rating, state.peak, state.games_completed, state.ever_2400) == (
        2350,
        2350,
        12,
        False,
    )


# -- what the user types ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "games"),
    [
        pytest.param("2100:1,1950:0.5,1800:0", [win(2100), draw(1950), loss(1800)], id="plain"),
        pytest.param(" 2100 : 1 , 1950:½ ,1800:= ", [win(2100), draw(1950), draw(1800)], id="½ ="),
        pytest.param("0:1.0,3500:.5", [win(0), draw(3500)], id="rating edges, 1.0 and .5"),
    ],
)
def test_parse_opponents(text: str, games: list[tuple[int, int]]) -> None:
    assert parse_opponents(text) == games


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "", "opponents: give at least one game, e.g. 2100:1,1950:0.5.", id="nothing given"
        ),
        pytest.param(
            "  ", "opponents: give at least one game, e.g. 2100:1,1950:0.5.", id="only spaces"
        ),
        pytest.param(
            "2100:2", "opponents: '2100:2' has a score other than 1, 0.5 or 0.", id="score 2"
        ),
        pytest.param(
            "2100:0.25",
            "opponents: '2100:0.25' has a score other than 1, 0.5 or 0.",
            id="score 0.25",
        ),
        pytest.param(
            "2100:abc",
            "opponents: '2100:abc' has a score other than 1, 0.5 or 0.",
            id="score not a number",
        ),
        pytest.param(
            "2100:Infinity",
            "opponents: '2100:Infinity' has a score other than 1, 0.5 or 0.",
            id="score infinite",
        ),
        pytest.param(
            "2100:1e999999",
            "opponents: '2100:1e999999' has a score other than 1, 0.5 or 0.",
            id="score overflows",
        ),
        pytest.param(
            "2100", "opponents: '2100' is not rating:score; write e.g. 2100:1.", id="no score"
        ),
        pytest.param(
            "2100:1:0",
            "opponents: '2100:1:0' is not rating:score; write e.g. 2100:1.",
            id="two colons",
        ),
        pytest.param(
            "21x0:1",
            "opponents: '21x0:1' has a rating that is not a whole number from 0 to 3500.",
            id="rating not a number",
        ),
        pytest.param(
            "-5:1",
            "opponents: '-5:1' has a rating that is not a whole number from 0 to 3500.",
            id="rating below 0",
        ),
        pytest.param(
            "3501:1",
            "opponents: '3501:1' has a rating that is not a whole number from 0 to 3500.",
            id="rating above 3500",
        ),
        pytest.param(
            "2100:1,",
            "opponents: there is an empty item; separate games with one comma.",
            id="trailing comma",
        ),
        pytest.param(
            "2100:1,,1900:0",
            "opponents: there is an empty item; separate games with one comma.",
            id="double comma",
        ),
    ],
)
def test_parse_opponents_refuses(text: str, message: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        parse_opponents(text)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("text", "score"),
    [("5", 500), ("5.5", 550), ("5½", 550), ("½", 50), (" 0 ", 0), ("10.0", 1000)],
)
def test_parse_score(text: str, score: int) -> None:
    assert parse_score(text) == score


@pytest.mark.parametrize("text", ["", "five", "-1", "5.3", "NaN"])
def test_parse_score_refuses(text: str) -> None:
    with pytest.raises(InvalidInput, match=r"^score: .* is not a score; write points like 5"):
        parse_score(text)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        pytest.param(
            lambda: calculate_games(3501, 20, [win(2000)]),
            "rating: 3501 is not a rating; give 0 to 3500.",
            id="rating above 3500",
        ),
        pytest.param(
            lambda: calculate_games(2000, 0, [win(2000)]),
            "k: 0 is not a development coefficient; give a whole number >= 1.",
            id="K below 1",
        ),
        pytest.param(
            lambda: calculate_games(2000, 20, []),
            "opponents: give at least one game, e.g. 2100:1,1950:0.5.",
            id="no games",
        ),
        pytest.param(
            lambda: calculate_games(2000, 20, [win(-1)]),
            "opponents: -1 is not a rating; give 0 to 3500.",
            id="opponent rating below 0",
        ),
        pytest.param(
            lambda: calculate_games(2000, 20, [(2000, 30)]),
            "opponents: 30 hundredths is not a score of 1, 0.5 or 0.",
            id="score not 1, 0.5 or 0",
        ),
        pytest.param(
            lambda: calculate_games(2700, 20, [win(2000)], Pool.RAPID, P("2025-10")),
            "opponents: a rapid game between 2700 and 2000 is not rated in 2025-10 "
            "(600 or more apart, one above 2600); leave it out.",
            id="rapid pairing 600+ apart with one above 2600 is not rated",
        ),
        pytest.param(
            lambda: calculate_average(2000, 20, 3501, 500, 9),
            "average: 3501 is not a rating; give 0 to 3500.",
            id="average above 3500",
        ),
        pytest.param(
            lambda: calculate_average(2000, 20, 2000, 0, 0),
            "games: 0 is not a number of games; give at least 1.",
            id="estimate without games",
        ),
        pytest.param(
            lambda: calculate_average(2000, 20, 2000, 1000, 9),
            "score: 10 is not a score of 9 games; give whole or half points.",
            id="score above the games",
        ),
        pytest.param(
            lambda: calculate_average(2000, 20, 2000, 525, 9),
            "score: 5.25 is not a score of 9 games; give whole or half points.",
            id="score not in half points",
        ),
        pytest.param(
            lambda: k_for(2000, 2030, 10, ever_2400=False),
            "birth-year: 2030 is after the period 2025-10.",
            id="birth year after the period",
        ),
        pytest.param(
            lambda: k_for(2000, 2000, -1, ever_2400=False),
            "games: -1 is not a number of games completed.",
            id="negative games completed",
        ),
    ],
)
def test_calculator_refuses_bad_input(call: Callable[[], object], message: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        call()
    assert str(raised.value) == message


def test_rapid_pairing_far_apart_is_rated_before_2024_12() -> None:
    calculation = calculate_games(2700, 10, [win(2000)], Pool.RAPID, P("2024-11"))
    # D 700 counts as 400: PD 0.92; 10 x 0.08 = +0.80 -> +1
    assert calculation.change == 1


# -- the command line ------------------------------------------------------------------------


def test_calc_reproduces_fides_worked_example_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shown = run(
        "calc", "--rating", "1800", "--average", "1850", "--score", "5", "--games", "9", "--k", "20"
    )
    assert shown.exit_code == 0, shown.stderr
    assert "Expected 3.87 of 9, scored 5" in shown.stdout
    assert "rounded +23; new rating 1823" in shown.stdout
    assert "This is an estimate" in shown.stdout
    assert not list(tmp_path.iterdir()), "calc must not create a database"


def test_calc_per_game_json_with_k_from_the_players_state() -> None:
    shown = run(
        "calc",
        "--rating",
        "2000",
        "--opponents",
        "2100:1,1950:½,1800:0",
        "--games",
        "40",
        "--logistic",
        "--format",
        "json",
    )
    data = json.loads(shown.stdout)
    assert (data["k_applied"], data["change"], data["new_rating"]) == (20, -4, 1996)
    assert data["k_reason"] == "K 20: 30 or more rated games, never 2400"
    assert [row["expected"] for row in data["rows"]] == [0.36, 0.57, 0.76]
    assert (data["total_expected"], data["k_times_sum"]) == (1.69, -3.8)
    assert data["logistic_expected"] == [0.3599, 0.5715, 0.7597]
    assert data["estimate"] is False


def test_calc_junior_k_from_the_birth_year() -> None:
    shown = run(
        "calc",
        "--rating",
        "1800",
        "--opponents",
        "1800:1",
        "--birth-year",
        "2012",
        "--games",
        "100",
        "--period",
        "2026-10",
        "--format",
        "json",
    )
    assert json.loads(shown.stdout)["k_applied"] == 40


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        pytest.param(
            ["--rating", "1800"], "error: opponents: give --opponents, or --average", id="no mode"
        ),
        pytest.param(
            ["--rating", "1800", "--opponents", "1800:1", "--average", "1800"],
            "error: opponents: give --opponents, or --average",
            id="both modes",
        ),
        pytest.param(
            ["--rating", "1800", "--opponents", "1800:1"],
            "error: k: give --k, or the rated games completed",
            id="no K",
        ),
        pytest.param(
            ["--rating", "1800", "--average", "1850", "--k", "20"],
            "error: score: the estimate needs --score and --games",
            id="no score",
        ),
        pytest.param(
            ["--rating", "1800", "--opponents", "2100:2", "--k", "20"],
            "error: opponents: '2100:2' has a score other than 1, 0.5 or 0.",
            id="bad score",
        ),
    ],
)
def test_calc_refusals(arguments: list[str], message: str) -> None:
    """The calculator reads the command line alone: every refusal is a usage error."""
    shown = run("calc", *arguments)
    assert shown.exit_code == 2
    assert shown.stderr.startswith(message)
    assert shown.stderr.count("\n") == 1


def test_calc_estimate_as_csv_is_one_row_of_totals() -> None:
    shown = run(
        "calc",
        "--rating",
        "1800",
        "--average",
        "1850",
        "--score",
        "5",
        "--games",
        "9",
        "--k",
        "20",
        "--format",
        "csv",
    )
    header, row = shown.stdout.splitlines()
    totals = dict(zip(header.split(","), row.split(","), strict=True))
    assert (totals["total_expected"], totals["change"], totals["new_rating"]) == (
        "3.87",
        "23",
        "1823",
    )


def test_calc_refuses_k_together_with_the_players_state() -> None:
    shown = run(
        "calc", "--rating", "1800", "--opponents", "1800:1", "--k", "20", "--birth-year", "2010"
    )
    assert (shown.exit_code, shown.stderr) == (
        2,
        "error: k: give --k, or the player's state to decide K, not both.\n",
    )
