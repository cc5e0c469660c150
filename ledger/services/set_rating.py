"""The FIDE rules of `ledger.core.rules` as SQL expressions, for a close that rates a whole
period in a few statements.

`rules` states the rules and stays the one place that decides them: every number here is
one of its constants or comes from its functions (table 8.1.2 is staged from
`rules.expected_score`), and each expression names the function of `rules` it evaluates.
Tests evaluate each expression on every line of its rule, and at each of its edges, on both
backends, beside that function (`tests/test_set_rating.py`). Scores, expected scores and
K products stay integer hundredths, and integer division truncates toward zero on SQLite
and PostgreSQL alike, so the arithmetic is as exact as in Python.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from sqlalchemy import (
    ColumnElement,
    SQLColumnExpression,
    and_,
    case,
    func,
    literal,
    not_,
    or_,
    true,
)

from ledger.core import compression, rules
from ledger.core.domain import GameResult, Period
from ledger.core.eras import era_of
from ledger.storage.models import PeriodType

Integer = SQLColumnExpression[Any]
"""An integer SQL expression (a rating, a count, hundredths)."""

Condition = SQLColumnExpression[Any]
"""A condition (SQLite's booleans are the integers 0 and 1)."""


def expected_score_rows() -> list[tuple[int, int]]:
    """Table 8.1.2 as (D, PD in hundredths) for every D from -`rules.TABLE_REACH` up to
    `rules.TABLE_REACH`, from `rules.expected_score`: the look-up the close joins on."""
    reach = rules.TABLE_REACH
    return [
        (difference, rules.expected_score(difference)) for difference in range(-reach, reach + 1)
    ]


def difference_key(
    own: Integer,
    opponent: Integer,
    pairings: rules.PeriodPairings,
    upgraded: Condition | None = None,
) -> Integer:
    """D after the rule of 350 / 400 of the period's era (8.3.1,
    `rules.PeriodPairings.difference`), held within the look-up's reach
    (`expected_score_rows`), from the rated side's point of view. `upgraded`: where the cap
    applies once an event, whether this is the side's game of the event it applies to
    (`rules.upgraded_game`, `closing.figures`); None, as in Python, holds it to the cap."""
    difference = own - opponent
    capped = _within(difference, pairings.difference_cap)
    actual = _within(difference, rules.TABLE_REACH)
    uncapped: list[tuple[Condition, Integer]] = []
    if pairings.cap_exempt_from is not None:
        uncapped.append((own >= pairings.cap_exempt_from, actual))
    if pairings.cap_once_per_event and upgraded is not None:
        uncapped.append((and_(difference > pairings.difference_cap, not_(upgraded)), actual))
    if not uncapped:
        return capped
    return case(*uncapped, else_=capped)


def _within(value: Integer, bound: int) -> Integer:
    return case((value < -bound, -bound), (value > bound, bound), else_=value)


def rateable(white: Integer, black: Integer, pairings: rules.PeriodPairings) -> Condition:
    """Whether a played game between two rated players is rated at all
    (`rules.PeriodPairings.rateable`: the wide pairings of rapid and blitz)."""
    if not pairings.wide_pairings_unrated:
        return true()
    top = rules.WIDE_PAIRING_TOP_RATING
    return or_(func.abs(white - black) < rules.WIDE_PAIRING_GAP, and_(white <= top, black <= top))


def score(result: SQLColumnExpression[GameResult], *, white: bool) -> Integer:
    """A played game's score in hundredths for White (`white`) or Black
    (`GameResult.score`)."""
    return case(
        *((result == each, each.score(white=white)) for each in GameResult if each.is_played)
    )


def _k_lines(
    games_completed: Integer,
    ever_2400: Condition,
    peak: Integer,
    birth_year: Integer,
    period: Period,
) -> list[tuple[Condition, rules.KRule]]:
    """The lines of 8.3.3 in force in the era of `period`, in `rules.standing_k_rule`'s
    order (`rules.k_lines`), each with its condition; the last,
    `rules.KRule.ESTABLISHED`, holds otherwise."""
    conditions = {
        rules.KRule.EVER_2400: ever_2400,
        rules.KRule.JUNIOR: and_(
            birth_year >= rules.junior_born_from(period), peak < rules.JUNIOR_RATING_LIMIT
        ),
        rules.KRule.FEWER_THAN_30_GAMES: games_completed < rules.ESTABLISHED_GAMES,
    }
    in_force = rules.k_lines(era_of(period))
    return [(conditions[rule], rule) for rule in in_force if rule in conditions]


def k_rule_key(
    games_completed: Integer,
    ever_2400: Condition,
    peak: Integer,
    birth_year: Integer,
    period: Period,
) -> ColumnElement[str]:
    """The key of the line of 8.3.3 that decides K (`rules.standing_k_rule`)."""
    lines = _k_lines(games_completed, ever_2400, peak, birth_year, period)
    return case(
        *((condition, rule.key) for condition, rule in lines),
        else_=rules.KRule.ESTABLISHED.key,
    )


def development_coefficient(
    games_completed: Integer,
    ever_2400: Condition,
    peak: Integer,
    birth_year: Integer,
    period: Period,
) -> Integer:
    """K before the 700 cap (8.3.3, `rules.standing_k_rule`, `rules.k_of`)."""
    lines = _k_lines(games_completed, ever_2400, peak, birth_year, period)
    return case(
        *((condition, rules.k_of(rule, period)) for condition, rule in lines),
        else_=rules.k_of(rules.KRule.ESTABLISHED, period),
    )


def capped_k(k: Integer, games: Integer, period: Period) -> Integer:
    """8.3.3's 700 cap on K for `games` games, at least one, where the era of `period`
    has it (`rules.capped_k`)."""
    cap = era_of(period).k_product_cap
    if cap is None:
        return k
    return case((k * games > cap, cap // games), else_=k)


def round_half_away_from_zero(hundredths: Integer) -> Integer:
    """Hundredths rounded to a whole number, 0.5 away from zero (8.3.4,
    `rules.round_half_away_from_zero`)."""
    return case((hundredths >= 0, (hundredths + 50) // 100), else_=-((50 - hundredths) // 100))


def is_listed(rating: Integer, period: Period) -> Condition:
    """7.1.4: the rating is published on the list of `period` (`rules.is_listed`)."""
    return rating >= rules.rating_floor(period)


def awaits_compression(rating: Integer) -> Condition:
    """The rating of the list of 2024-02 is below its floor where only FIDE's compression
    lifts it (`compression.awaits_compression`)."""
    return rating.between(compression.OLD_FLOOR, compression.NEW_FLOOR - 1)


def ever_2400_after(ever_2400: Condition, rating: Integer) -> Condition:
    """8.3.3's 2400 flag once `rating` is published (`rules.ever_2400_after`)."""
    return or_(ever_2400, rating >= rules.EVER_2400)


def peak_after(peak: Integer, rating: Integer) -> Integer:
    """The peak once `rating` is published (`rules.peak_after`)."""
    return case((rating > peak, rating), else_=peak)


def peak_period_after(
    peak: Integer, peak_period: SQLColumnExpression[Any], rating: Integer, period: Period
) -> SQLColumnExpression[Any]:
    """The list the peak was reached on, once `rating` is on the list of `period`
    (`rules.peak_period_after`: the peak rose where `rating` is above the peak before)."""
    return case((rating > peak, literal(period, PeriodType())), else_=peak_period)


def standing_after(
    period: Period,
    *,
    rating: Integer,
    games_completed: Integer,
    ever_2400: Condition,
    peak: Integer,
    peak_period: SQLColumnExpression[Any],
    birth_year: Integer,
    last_active: SQLColumnExpression[Any],
) -> dict[str, SQLColumnExpression[Any]]:
    """The standing the list of `period` gives a player whose new rating is `rating`, with
    `games_completed` after it and the 2400 flag, the peak and its list before it: each
    field of `rules.NewStanding` by name (`rules.state_after`, `rules.standing_after`)."""
    ever_2400_now = ever_2400_after(ever_2400, rating)
    peak_now = peak_after(peak, rating)
    listed = is_listed(rating, period)
    k_next = development_coefficient(
        games_completed, ever_2400_now, peak_now, birth_year, period + 1
    )
    standing = {
        "rating": rating,
        "listed": listed,
        "k_next": case((listed, k_next)),
        "games_completed": games_completed,
        "ever_2400": ever_2400_now,
        "peak": peak_now,
        "peak_period": peak_period_after(peak, peak_period, rating, period),
        "last_active": last_active,
    }
    assert list(standing) == _NEW_STANDING
    return standing


_NEW_STANDING = [field.name for field in dataclasses.fields(rules.NewStanding)]
