"""The rating calculator and the reading aids of FIDE section 8, as pure functions.

Owns the calculator in the manner of FIDE's web page, in its two modes (per game, as FIDE
rates, and the quick estimate from an average opponent), the performance rating by table
8.1.1, the "rule of 400" linear performance, the tournament category, and the classic
logistic expected score shown beside table 8.1.2 for comparison only. Every official number
comes from ledger.core.rules, so a calculation agrees with a closed period to the point. Scores,
expected scores and K products are integer hundredths; nothing here does I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext

from ledger.core.domain import Period, Pool
from ledger.core.eras import CURRENT_ERA
from ledger.core.errors import InvalidInput
from ledger.core.rules import (
    EVER_2400,
    KRule,
    PeriodPairings,
    RatingState,
    RulesInForce,
    capped_k,
    divide_half_up,
    expected_score,
    is_rateable_pairing,
    k_of,
    k_reason,
    k_rule,
    rating_difference,
    round_half_away_from_zero,
    rules_in_force,
)
from ledger.core.tables import RATING_DIFFERENCE_BY_SCORE

CURRENT_RULES = CURRENT_ERA.first_period
"""The period whose rules the calculator applies unless told: the first of today's era."""

MAX_RATING = 3500
"""Ledger's choice: the calculator accepts ratings from 0 to this."""

WIN, DRAW, LOSS = 100, 50, 0
"""A game's score in hundredths (8.3.2)."""

CATEGORY_1_FROM = 2251
CATEGORY_WIDTH = 25
"""Tournament category (section 8): category 1 is 2251-2275, each next one 25 higher."""

LINEAR_STEP = 400
"""The "rule of 400" performance: each win adds 400, each loss takes 400 away."""

_RATING_PATTERN = re.compile(r"[0-9]+")
_DRAW_SPELLINGS = frozenset(("=", "½"))
_LOGISTIC_PRECISION = 40
_FOUR_PLACES = Decimal("0.0001")


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game of a calculation, as FIDE's individual calculation shows it (8.3.1, 8.3.2).

    `difference` is D = own rating minus the opponent's; `capped_difference` is D after the
    rule of 400; `expected` (PD), `score` and `delta` (score minus PD) are hundredths.
    """

    opponent_rating: int
    difference: int
    capped_difference: int
    expected: int
    score: int
    delta: int


@dataclass(frozen=True, slots=True)
class AverageOpponent:
    """The quick estimate's basis: one game against the average opponent (table 8.1.2).

    `expected` is PD per game in hundredths, for D after the rule of 400.
    """

    rating: int
    difference: int
    capped_difference: int
    expected: int


@dataclass(frozen=True, slots=True)
class Calculation:
    """A what-if rating change (8.3.2 - 8.3.4), with every figure needed to explain it.

    Totals are hundredths: `total_expected` (ΣPD), `total_score`, `delta_sum` (ΣΔR) and
    `k_times_sum` (the unrounded change). `k_given` is the K asked for, `k_applied` the K
    after the 700 cap. `rows` lists the games (empty for an estimate); `average` is the
    estimate's basis (None per game). `break_even_score` is the smallest score, in half
    points as hundredths, whose rounded change is not negative. `rules` names the era of
    FIDE's rules the period is rated by, with its caps and floor.
    """

    rating: int
    k_given: int
    k_applied: int
    games: int
    rows: tuple[GameRow, ...]
    average: AverageOpponent | None
    total_expected: int
    total_score: int
    delta_sum: int
    k_times_sum: int
    change: int
    new_rating: int
    estimate: bool
    break_even_score: int
    performance: int
    linear_performance: int
    rules: RulesInForce


# -- reading aids (section 8) -----------------------------------------------------------------


def performance_rating(opponent_ratings: Sequence[int], points_hundredths: int) -> int:
    """Performance rating Rc + dp(p) (section 8; table 8.1.1).

    Rc is the opponents' average and p = points / games, each rounded half up (ledger's
    choice: Rc to a whole number, p to hundredths). Only 100 % and 0 % give ±800: a score
    just short of either is held at p 0.99 or 0.01. Raises ValueError with no games or
    points outside 0 to the number of games.
    """
    return _performance(sum(opponent_ratings), len(opponent_ratings), points_hundredths)


def _performance(opponent_sum: int, games: int, points: int) -> int:
    if games == 0:
        raise ValueError("a performance rating needs at least one game")
    if not 0 <= points <= WIN * games:
        raise ValueError(f"{points} hundredths is not a score of {games} games")
    p = divide_half_up(points, games)
    if 0 < points < WIN * games:
        p = min(max(p, 1), 99)
    return divide_half_up(opponent_sum, games) + RATING_DIFFERENCE_BY_SCORE[p]


def linear_performance(opponent_ratings: Sequence[int], wins: int, losses: int) -> int:
    """The "rule of 400" approximation: (Σ opponents + 400 x (wins − losses)) / games.

    Rounded half up (toward the higher rating). A reading aid only; FIDE's performance is
    `performance_rating`. Raises ValueError with no games or impossible wins and losses.
    """
    games = len(opponent_ratings)
    if games == 0:
        raise ValueError("a performance rating needs at least one game")
    if wins < 0 or losses < 0 or wins + losses > games:
        raise ValueError(f"{wins} wins and {losses} losses do not fit in {games} games")
    return _linear(sum(opponent_ratings), games, wins - losses)


def _linear(opponent_sum: int, games: int, margin: int) -> int:
    return divide_half_up(opponent_sum + LINEAR_STEP * margin, games)


def tournament_category(average_rating: int) -> int | None:
    """The FIDE tournament category of an event by its participants' average (section 8).

    Category 1 is 2251-2275, each next category 25 points higher (23 is 2801-2825, and the
    scale goes on above); None below 2251.
    """
    if average_rating < CATEGORY_1_FROM:
        return None
    return (average_rating - CATEGORY_1_FROM) // CATEGORY_WIDTH + 1


def logistic_expected_score(difference: int) -> Decimal:
    """The classic Elo expected score 1 / (1 + 10^(−D/400)), to 4 places, half up.

    For comparison with table 8.1.2 only: FIDE never uses the formula for official ratings
    (section 1). Computed in Decimal at 40 digits before rounding to 4 places.
    """
    with localcontext() as context:
        context.prec = _LOGISTIC_PRECISION
        score = 1 / (1 + Decimal(10) ** (Decimal(-difference) / 400))
    return score.quantize(_FOUR_PLACES, rounding=ROUND_HALF_UP)


# -- K for the calculator (8.3.3) -------------------------------------------------------------


def rating_state(
    rating: int, birth_year: int | None, games_completed: int, *, ever_2400: bool
) -> RatingState:
    """The state K depends on, from what a calculator user knows (8.3.3).

    The peak is taken to be the rating, and a rating of 2400 or more counts as having
    reached 2400 (ledger's choice: the user states the rating a list would publish).
    """
    _check_rating("rating", rating)
    if games_completed < 0:
        raise InvalidInput(f"games: {games_completed} is not a number of games completed.")
    return RatingState(
        rating=rating,
        games_completed=games_completed,
        ever_2400=ever_2400 or rating >= EVER_2400,
        peak=rating,
        birth_year=birth_year,
    )


def k_for(
    rating: int,
    birth_year: int | None,
    games_completed: int,
    *,
    ever_2400: bool,
    period: Period | None = None,
) -> int:
    """K for a player described by rating, birth year, games and the 2400 flag (8.3.3).

    `period` (default CURRENT_RULES) decides who is a junior; the 700 cap is applied by
    the calculation, which knows the number of games.
    """
    rules = CURRENT_RULES if period is None else period
    return k_of(
        _k_line(rating, birth_year, games_completed, ever_2400=ever_2400, period=period), rules
    )


def _k_line(
    rating: int,
    birth_year: int | None,
    games_completed: int,
    *,
    ever_2400: bool,
    period: Period | None,
) -> KRule:
    """The line of 8.3.3 that decides K for the player described."""
    rules = CURRENT_RULES if period is None else period
    if birth_year is not None and birth_year > rules.year:
        raise InvalidInput(f"birth-year: {birth_year} is after the period {rules}.")
    return k_rule(rating_state(rating, birth_year, games_completed, ever_2400=ever_2400), rules)


# -- the calculator (8.3.1 - 8.3.4) -----------------------------------------------------------


def calculate_games(
    rating: int,
    k: int,
    games: Sequence[tuple[int, int]],
    pool: Pool = Pool.STANDARD,
    period: Period | None = None,
) -> Calculation:
    """The change from a list of (opponent rating, score in hundredths), as FIDE rates.

    Per game D after the rule of 400 (8.3.1; from January 2022 to February 2024 once for the
    games given, as one event) and PD from table 8.1.2; K capped by 700 / n
    (8.3.3); K x ΣΔR rounded once, 0.5 away from zero (8.3.4). `period` (default
    CURRENT_RULES) decides the rule of 400 and, in rapid and blitz, which pairings are
    rated at all; an unrated pairing is refused.
    """
    rules = CURRENT_RULES if period is None else period
    _check_rating("rating", rating)
    _check_k(k)
    if not games:
        raise InvalidInput("opponents: give at least one game, e.g. 2100:1,1950:0.5.")
    opponents = [opponent for opponent, _ in games]
    differences = PeriodPairings.of(pool, rules).event_differences(rating, opponents)
    rows = tuple(
        _game_row(rating, opponent, score, capped, pool, rules)
        for (opponent, score), capped in zip(games, differences, strict=True)
    )
    opponent_sum = sum(row.opponent_rating for row in rows)
    expected = sum(row.expected for row in rows)
    score = sum(row.score for row in rows)
    totals = _Totals(opponent_sum, expected, score, len(rows))
    return _calculation(rating, k, rows, None, totals, rules_in_force(pool, rules))


def _game_row(
    rating: int, opponent: int, score: int, capped: int, pool: Pool, period: Period
) -> GameRow:
    _check_rating("opponents", opponent)
    if score not in (WIN, DRAW, LOSS):
        raise InvalidInput(f"opponents: {score} hundredths is not a score of 1, 0.5 or 0.")
    if not is_rateable_pairing(pool, period, rating, opponent):
        raise InvalidInput(
            f"opponents: a {pool} game between {rating} and {opponent} is not rated "
            f"in {period} (600 or more apart, one above 2600); leave it out."
        )
    pd = expected_score(capped)
    return GameRow(opponent, rating - opponent, capped, pd, score, score - pd)


def calculate_average(
    rating: int,
    k: int,
    average_opponent: int,
    score_hundredths: int,
    games: int,
    pool: Pool = Pool.STANDARD,
    period: Period | None = None,
) -> Calculation:
    """The quick estimate from the opponents' average rating (FIDE's calculator).

    D = rating − average after the rule of 400 (8.3.1), as for one game; expected total =
    games x PD; change = K (capped by 700 / games, 8.3.3) x (score − expected), rounded
    once (8.3.4). An estimate: per game, PD differs from opponent to opponent.
    """
    rules = CURRENT_RULES if period is None else period
    _check_rating("rating", rating)
    _check_rating("average", average_opponent)
    _check_k(k)
    if games < 1:
        raise InvalidInput(f"games: {games} is not a number of games; give at least 1.")
    _check_score(score_hundredths, games)
    capped = rating_difference(rating, average_opponent, pool, rules)
    pd = expected_score(capped)
    basis = AverageOpponent(average_opponent, rating - average_opponent, capped, pd)
    totals = _Totals(average_opponent * games, games * pd, score_hundredths, games)
    return _calculation(rating, k, (), basis, totals, rules_in_force(pool, rules))


@dataclass(frozen=True, slots=True)
class _Totals:
    """What both modes add up: the opponents' ratings, ΣPD and the score (hundredths) over
    `games` games."""

    opponent_sum: int
    expected: int
    score: int
    games: int


def _calculation(
    rating: int,
    k: int,
    rows: tuple[GameRow, ...],
    average: AverageOpponent | None,
    totals: _Totals,
    in_force: RulesInForce,
) -> Calculation:
    """The totals shared by both modes: capped K (where the era caps it), K x ΣΔR, the
    rounded change (8.3.3-4)."""
    n, expected, score, opponent_sum = (
        totals.games,
        totals.expected,
        totals.score,
        totals.opponent_sum,
    )
    k_applied = capped_k(k, n, in_force.first_period)
    k_times_sum = k_applied * (score - expected)
    change = round_half_away_from_zero(k_times_sum)
    return Calculation(
        rating=rating,
        k_given=k,
        k_applied=k_applied,
        games=n,
        rows=rows,
        average=average,
        total_expected=expected,
        total_score=score,
        delta_sum=score - expected,
        k_times_sum=k_times_sum,
        change=change,
        new_rating=rating + change,
        estimate=average is not None,
        break_even_score=_break_even_score(k_applied, expected),
        performance=_performance(opponent_sum, n, score),
        linear_performance=_linear(opponent_sum, n, (2 * score - WIN * n) // WIN),
        rules=in_force,
    )


def _break_even_score(k: int, expected: int) -> int:
    """The smallest score in half points (hundredths) whose rounded change is not negative.

    K x (score − expected) of −0.50 rounds away from zero to −1 (8.3.4), so the product must
    be −0.49 or more: score >= expected − 49 // K, then up to the next half point.
    """
    lowest = 0 if k == 0 else max(0, expected - 49 // k)
    return (lowest + DRAW - 1) // DRAW * DRAW


# -- parsing and checking what the user typed ---------------------------------------------------


def parse_opponents(text: str) -> list[tuple[int, int]]:
    """Games written "2100:1,1950:0.5,1800:0" as (opponent rating, score in hundredths).

    A draw may also be written ½ or =; spaces around items and parts are ignored.
    """
    if not text.strip():
        raise InvalidInput("opponents: give at least one game, e.g. 2100:1,1950:0.5.")
    return [_parse_game(item.strip()) for item in text.split(",")]


def _parse_game(item: str) -> tuple[int, int]:
    if not item:
        raise InvalidInput("opponents: there is an empty item; separate games with one comma.")
    parts = [part.strip() for part in item.split(":")]
    if len(parts) != 2:
        raise InvalidInput(f"opponents: {item!r} is not rating:score; write e.g. 2100:1.")
    rating_text, score_text = parts
    if not _RATING_PATTERN.fullmatch(rating_text) or int(rating_text) > MAX_RATING:
        raise InvalidInput(
            f"opponents: {item!r} has a rating that is not a whole number from 0 to {MAX_RATING}."
        )
    score = DRAW if score_text in _DRAW_SPELLINGS else _hundredths(score_text)
    if score not in (WIN, DRAW, LOSS):
        raise InvalidInput(f"opponents: {item!r} has a score other than 1, 0.5 or 0.")
    return int(rating_text), score


def parse_score(text: str) -> int:
    """A total score written 5, 5.5 or 5½, in hundredths; it must be whole or half points."""
    score = _hundredths(text.strip().replace("½", ".5"))
    if score is None or score < 0 or score % DRAW:
        raise InvalidInput(f"score: {text!r} is not a score; write points like 5 or 5.5.")
    return score


def _hundredths(text: str) -> int | None:
    """A decimal number in hundredths, or None if it is not one exactly."""
    try:
        value = Decimal(text) * 100
    except ArithmeticError:  # InvalidOperation for text that is no number, or Overflow
        return None
    if not value.is_finite() or value != value.to_integral_value():
        return None
    return int(value)


def _check_rating(field: str, rating: int) -> None:
    if not 0 <= rating <= MAX_RATING:
        raise InvalidInput(f"{field}: {rating} is not a rating; give 0 to {MAX_RATING}.")


def _check_k(k: int) -> None:
    if k < 1:
        raise InvalidInput(f"k: {k} is not a development coefficient; give a whole number >= 1.")


def _check_score(score: int, games: int) -> None:
    if score % DRAW or not 0 <= score <= WIN * games:
        points = format(Decimal(score) / 100, "f")
        raise InvalidInput(
            f"score: {points} is not a score of {games} games; give whole or half points."
        )


def k_with_reason(
    rating: int,
    k: int | None,
    birth_year: int | None,
    games_completed: int | None,
    *,
    ever_2400: bool,
    period: Period | None = None,
) -> tuple[int, str]:
    """The K a calculation uses, and why: as given, or from the player's state (8.3.3)."""
    if k is not None:
        return k, f"K {k}: as given"
    if games_completed is None:
        raise InvalidInput("k: give --k, or the rated games completed to decide K (8.3.3).")
    rule = _k_line(rating, birth_year, games_completed, ever_2400=ever_2400, period=period)
    rules = CURRENT_RULES if period is None else period
    k = k_of(rule, rules)
    return k, k_reason(rule, k, 0, birth_year, rules)


@dataclass(frozen=True, slots=True)
class Request:
    """What a calculator user gives: per game (`opponents`) or an estimate (`average`,
    `score`, `games`); K as `k` or from the player's state. With `opponents`, `games`
    also means the rated games completed (the web calculators' usage)."""

    rating: int
    k: int | None = None
    birth_year: int | None = None
    games_completed: int | None = None
    ever_2400: bool = False
    opponents: str | None = None
    average: int | None = None
    score: str | None = None
    games: int | None = None
    pool: Pool = Pool.STANDARD
    period: Period | None = None


def calculate(request: Request) -> tuple[Calculation, str]:
    """The calculation a request asks for, and the K it used in words."""
    if (request.opponents is None) == (request.average is None):
        raise InvalidInput("opponents: give --opponents, or --average with --score and --games.")
    state_given = request.birth_year is not None or request.ever_2400
    if request.k is not None and (state_given or request.games_completed is not None):
        raise InvalidInput("k: give --k, or the player's state to decide K, not both.")
    completed = request.games_completed
    if completed is None and request.opponents is not None:
        completed = request.games
    k, why = k_with_reason(
        request.rating,
        request.k,
        request.birth_year,
        completed,
        ever_2400=request.ever_2400,
        period=request.period,
    )
    if request.opponents is not None:
        games = parse_opponents(request.opponents)
        return calculate_games(request.rating, k, games, request.pool, request.period), why
    if request.score is None or request.games is None:
        raise InvalidInput("score: the estimate needs --score and --games with --average.")
    result = calculate_average(
        request.rating,
        k,
        request.average or 0,
        parse_score(request.score),
        request.games,
        request.pool,
        request.period,
    )
    return result, why
