"""The SQL form of the FIDE rules (`ledger.services.set_rating`) gives what
`ledger.core.rules` gives, on every line of each rule and at its edges, on each backend."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import Any

import pytest
from sqlalchemy import Boolean, Column, Integer, MetaData, Table, case, insert, literal, select

from ledger.core import compression, rules
from ledger.core.domain import Period, Pool
from ledger.core.eras import ERAS, era_of
from ledger.services import set_rating
from ledger.storage.batches import insert_values
from ledger.storage.database import Ledger
from ledger.storage.models import PeriodType
from ledger.storage.staging import EXPECTED_SCORES, staged

PERIOD = Period(2026, 10)
RATINGS = (1000, 1400, 1999, 2000, 2264, 2265, 2300, 2599, 2600, 2601, 2649, 2650, 2651, 2800, 3400)
"""Ratings at the edges of the rule of 400, its 2650 exemption and the wide pairings."""


def _evaluated(
    ledger: Ledger,
    columns: dict[str, Any],
    rows: Sequence[tuple[Any, ...]],
    expression: Callable[[Any], Any],
    *,
    look_up: bool = False,
) -> list[Any]:
    """`expression` of a temporary table's columns, for each of `rows`, in their order
    (`look_up`: with table 8.1.2 staged as the close stages it)."""
    grid = Table(
        "grid",
        MetaData(),
        Column("n", Integer, primary_key=True),
        *(Column(name, kind) for name, kind in columns.items()),
        prefixes=["TEMPORARY"],
    )
    with ledger.transaction() as session, staged(session, grid), ExitStack() as tables:
        if look_up:
            tables.enter_context(staged(session, EXPECTED_SCORES))
            rows_8_1_2 = set_rating.expected_score_rows()
            insert_values(session, EXPECTED_SCORES, ("difference", "expected"), rows_8_1_2)
        values = [{"n": n, **dict(zip(columns, row, strict=True))} for n, row in enumerate(rows)]
        session.execute(insert(grid), values)
        statement = select(expression(grid.c)).select_from(grid).order_by(grid.c.n)
        return list(session.scalars(statement))


def test_rounding_is_half_away_from_zero_as_in_the_rules(ledger: Ledger) -> None:
    hundredths = range(-1000, 1001)
    got = _evaluated(
        ledger,
        {"h": Integer},
        [(h,) for h in hundredths],
        lambda c: set_rating.round_half_away_from_zero(c.h),
    )
    assert got == [rules.round_half_away_from_zero(h) for h in hundredths]
    assert got[hundredths.index(-250)] == -3
    assert got[hundredths.index(250)] == 3


BOUNDARIES = sorted(
    {period for era in ERAS for period in (era.first_period - 1, era.first_period)} | {PERIOD}
)
"""Each era's first period and the last period before it (`ledger.core.eras`)."""


@pytest.mark.parametrize("period", BOUNDARIES, ids=str)
def test_the_700_cap_on_k_is_the_rules(ledger: Ledger, period: Period) -> None:
    grid = list(itertools.product((10, 15, 20, 25, 30, 40), range(1, 81)))
    got = _evaluated(
        ledger,
        {"k": Integer, "games": Integer},
        grid,
        lambda c: set_rating.capped_k(c.k, c.games, period),
    )
    assert got == [rules.capped_k(k, games, period) for k, games in grid]


@pytest.mark.parametrize("period", BOUNDARIES, ids=str)
def test_k_and_its_line_of_8_3_3_are_the_rules(ledger: Ledger, period: Period) -> None:
    births = (None, period.year - 19, period.year - 18, period.year - 17)
    grid = list(itertools.product((0, 29, 30, 31), (False, True), (2299, 2300, 2301), births))
    columns = {"games": Integer, "ever": Boolean, "peak": Integer, "born": Integer}

    def state(c: Any) -> tuple[Any, ...]:
        return c.games, c.ever, c.peak, c.born, period

    keys = _evaluated(ledger, columns, grid, lambda c: set_rating.k_rule_key(*state(c)))
    ks = _evaluated(ledger, columns, grid, lambda c: set_rating.development_coefficient(*state(c)))
    expected = [
        rules.standing_k_rule(games, ever_2400=ever, peak=peak, birth_year=born, period=period)
        for games, ever, peak, born in grid
    ]
    assert keys == [rule.key for rule in expected]
    assert ks == [rules.k_of(rule, period) for rule in expected]
    assert set(expected) == set(rules.k_lines(era_of(period)))


def test_expected_scores_are_table_8_1_2_with_the_rule_of_400(ledger: Ledger) -> None:
    pairs = list(itertools.product(RATINGS, RATINGS))
    for pool, period in (
        *((Pool.STANDARD, period) for period in BOUNDARIES),
        (Pool.RAPID, PERIOD),
    ):
        pairings = rules.PeriodPairings.of(pool, period)

        def side(own: Any, opponent: Any, pairings: rules.PeriodPairings = pairings) -> Any:
            key = set_rating.difference_key(own, opponent, pairings)
            look_up = select(EXPECTED_SCORES.c.expected).where(EXPECTED_SCORES.c.difference == key)
            return look_up.scalar_subquery()

        def both(c: Any, pairings: rules.PeriodPairings = pairings) -> Any:
            rated = set_rating.rateable(c.white, c.black, pairings)
            return case((rated, side(c.white, c.black) * 1000 + side(c.black, c.white)))

        got = _evaluated(ledger, {"white": Integer, "black": Integer}, pairs, both, look_up=True)
        wanted = [pairings.expected_scores(white, black) for white, black in pairs]
        assert got == [None if pd is None else pd[0] * 1000 + pd[1] for pd in wanted], (
            pool,
            period,
        )
        assert None in wanted or pool is Pool.STANDARD


def test_the_cap_once_an_event_is_the_rules(ledger: Ledger) -> None:
    """From January 2022 to February 2024 a side's games above the cap take it only where
    `upgraded` (`rules.PeriodPairings.difference`); the lower side always does."""
    grid = list(itertools.product(RATINGS, RATINGS, (False, True)))
    for period in (Period(2021, 12), Period(2022, 1), Period(2024, 2), Period(2024, 3)):
        pairings = rules.PeriodPairings.of(Pool.STANDARD, period)
        got = _evaluated(
            ledger,
            {"own": Integer, "opponent": Integer, "upgraded": Boolean},
            grid,
            lambda c, pairings=pairings: set_rating.difference_key(
                c.own, c.opponent, pairings, c.upgraded
            ),
        )
        reach = rules.TABLE_REACH
        assert got == [
            max(-reach, min(reach, pairings.difference(own, opponent, upgraded=upgraded)))
            for own, opponent, upgraded in grid
        ], period


def test_the_floor_is_the_rules(ledger: Ledger) -> None:
    """The floor of each list's date: 1200, 1000 from 2012-06, 1400 from 2024-02."""
    ratings = (999, 1000, 1199, 1200, 1300, 1399, 1400, 1401, 2000)
    for period in (Period(2012, 4), Period(2012, 6), Period(2024, 1), Period(2024, 2), PERIOD):
        got = _evaluated(
            ledger,
            {"rating": Integer},
            [(rating,) for rating in ratings],
            lambda c, period=period: set_rating.is_listed(c.rating, period),
        )
        assert [bool(listed) for listed in got] == [
            rules.is_listed(rating, period) for rating in ratings
        ]
        floor = rules.rating_floor(period)
        assert got[ratings.index(floor - 1)] != got[ratings.index(floor)]


def test_the_ratings_awaiting_the_compression_are_the_rules(ledger: Ledger) -> None:
    """From the old floor, 1000, to 1399, below the new floor of the list of 2024-02."""
    ratings = (999, 1000, 1063, 1399, 1400, 1999)
    got = _evaluated(
        ledger,
        {"rating": Integer},
        [(rating,) for rating in ratings],
        lambda c: set_rating.awaits_compression(c.rating),
    )
    assert [bool(awaits) for awaits in got] == [
        compression.awaits_compression(rating) for rating in ratings
    ]
    assert [bool(awaits) for awaits in got] == [False, True, True, True, False, False]


def test_the_standing_a_new_rating_gives_is_the_rules(ledger: Ledger) -> None:
    """Each field of the standing after a list (the floor, the 2400 flag, the peak and its
    list, the next K) is `rules.state_after` and `rules.standing_after`."""
    births = (None, PERIOD.year - 19, PERIOD.year - 17)
    grid = list(
        itertools.product(
            (1399, 1400, 2299, 2300, 2399, 2400, 2401),
            (29, 30),
            (False, True),
            (1400, 2300, 2400),
            (None, Period(2024, 3)),
            births,
        )
    )
    columns = {
        "rating": Integer,
        "games": Integer,
        "ever": Boolean,
        "peak": Integer,
        "peak_period": PeriodType(),
        "born": Integer,
    }
    active = Period(2026, 9)
    wanted = []
    for rating, games, ever, peak, peak_period, born in grid:
        state = rules.state_after(
            rating, games_completed=games, ever_2400=ever, peak=peak, birth_year=born
        )
        standing = rules.standing_after(
            state, PERIOD, peak_before=peak, peak_period_before=peak_period, last_active=active
        )
        wanted.append({f.name: getattr(standing, f.name) for f in dataclasses.fields(standing)})

    def standing(c: Any) -> dict[str, Any]:
        return set_rating.standing_after(
            PERIOD,
            rating=c.rating,
            games_completed=c.games,
            ever_2400=c.ever,
            peak=c.peak,
            peak_period=c.peak_period,
            birth_year=c.born,
            last_active=literal(active, PeriodType()),
        )

    for name in wanted[0]:
        got = _evaluated(ledger, columns, grid, lambda c, name=name: standing(c)[name])
        if name in ("listed", "ever_2400"):
            got = [bool(value) for value in got]
        assert got == [each[name] for each in wanted], name
