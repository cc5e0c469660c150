"""The ledger's vocabulary (ledger.core.domain): periods, pools, game results and dates."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.domain import (
    FIRST_PERIOD,
    KEPT,
    KEPT_DATE,
    KEPT_PERIOD,
    LAST_PERIOD,
    GameResult,
    Period,
    Pool,
    parse_date,
    parse_period,
)
from ledger.core.errors import InvalidInput, LedgerError

# -- periods ----------------------------------------------------------------------------------

GOOD_PERIODS = {
    "period 2026-10": ("2026-10", Period(2026, 10)),
    "period 2026-01, first month": ("2026-01", Period(2026, 1)),
    "period 2026-12, last month": ("2026-12", Period(2026, 12)),
    "period with surrounding spaces": (" 2026-10 ", Period(2026, 10)),
    "period with a trailing newline": ("2026-10\n", Period(2026, 10)),
    "period 0001-01, the first there is": ("0001-01", Period(1, 1)),
    "period 9999-12, the last there is": ("9999-12", Period(9999, 12)),
}


@pytest.mark.parametrize(("text", "period"), list(GOOD_PERIODS.values()), ids=list(GOOD_PERIODS))
def test_period_parse(text: str, period: Period) -> None:
    assert Period.parse(text) == period


BAD_PERIODS = {
    "month 13": "2026-13",
    "month 00": "2026-00",
    "one-digit month": "2026-1",
    "two-digit year": "26-10",
    "not a period at all": "abc",
    "empty": "",
    "slash instead of dash": "2026/10",
    "a date, not a period": "2026-10-01",
    "space inside": "2026 -10",
}


@pytest.mark.parametrize("text", list(BAD_PERIODS.values()), ids=list(BAD_PERIODS))
def test_period_parse_rejects(text: str) -> None:
    with pytest.raises(InvalidInput, match=r"is not a period; write it as YYYY-MM, e\.g\. 2026-10"):
        Period.parse(text)


def test_period_parse_rejects_year_0000() -> None:
    with pytest.raises(InvalidInput, match="there is no period"):
        Period.parse("0000-01")


KEPT_OR_NOT = {
    "the first period the ledger keeps": ("1970-01", True),
    "the last": ("2099-12", True),
    "a period of today": ("2026-10", True),
    "the period before the first": ("1969-12", False),
    "the period after the last": ("2100-01", False),
    "the year 1": ("0001-01", False),
    "the year 9999": ("9999-12", False),
}


@pytest.mark.parametrize(("text", "kept"), list(KEPT_OR_NOT.values()), ids=list(KEPT_OR_NOT))
def test_parse_period_keeps_the_ledgers_periods(text: str, kept: bool) -> None:
    if kept:
        assert parse_period(text) == Period.parse(text)
    else:
        with pytest.raises(InvalidInput, match=f"^{text} is outside the ledger's periods; {KEPT}"):
            parse_period(text)


@pytest.mark.parametrize(
    ("text", "kept"),
    [("1970-01-01", True), ("2099-12-31", True), ("1969-12-31", False), ("2100-01-01", False)],
)
def test_parse_date_keeps_the_days_of_the_ledgers_periods(text: str, kept: bool) -> None:
    if kept:
        assert parse_date(text) == dt.date.fromisoformat(text)
    else:
        with pytest.raises(InvalidInput, match=f"^{text} is outside the ledger's periods; {KEPT}"):
            parse_date(text)


@given(st.integers(1, 9999), st.integers(1, 12))
def test_the_period_pattern_admits_exactly_the_kept_periods(year: int, month: int) -> None:
    period = Period(year, month)
    admitted = re.fullmatch(KEPT_PERIOD, str(period)) is not None
    assert admitted == (FIRST_PERIOD <= period <= LAST_PERIOD)


@given(st.dates())
def test_the_date_pattern_admits_exactly_the_kept_days(day: dt.date) -> None:
    admitted = re.fullmatch(KEPT_DATE, day.isoformat()) is not None
    assert admitted == (FIRST_PERIOD <= Period.of(day) <= LAST_PERIOD)


def test_period_parse_error_quotes_the_input() -> None:
    with pytest.raises(InvalidInput, match=r"^'2026-1' is not a period"):
        Period.parse("2026-1")


def test_invalid_input_is_a_ledger_error() -> None:
    with pytest.raises(LedgerError):
        Period.parse("abc")


@pytest.mark.parametrize(
    ("year", "month"), [(2026, 13), (2026, 0), (0, 6), (10000, 1)], ids=["13", "0", "y0", "y10000"]
)
def test_period_constructor_validates(year: int, month: int) -> None:
    with pytest.raises(InvalidInput, match=r"^there is no period \d+-\d\d\.$"):
        Period(year, month)


def test_period_parse_accepts_only_ascii_digits() -> None:
    with pytest.raises(InvalidInput):
        Period.parse("٢٠٢٦-١٠")


ARITHMETIC = {
    "next month": (Period(2026, 10), 1, Period(2026, 11)),
    "December + 1 is January of the next year": (Period(2026, 12), 1, Period(2027, 1)),
    "January - 1 is December of the year before": (Period(2027, 1), -1, Period(2026, 12)),
    "+ 12 is the same month next year": (Period(2026, 10), 12, Period(2027, 10)),
    "+ 0 is the same period": (Period(2026, 10), 0, Period(2026, 10)),
    "+ 27 crosses two year ends": (Period(2025, 11), 27, Period(2028, 2)),
    "- 13 crosses a year end": (Period(2026, 1), -13, Period(2024, 12)),
}


@pytest.mark.parametrize(
    ("period", "months", "result"), list(ARITHMETIC.values()), ids=list(ARITHMETIC)
)
def test_period_arithmetic(period: Period, months: int, result: Period) -> None:
    assert period + months == result
    assert result - months == period


def test_period_subtraction_across_a_year_end() -> None:
    assert Period(2027, 1) - 1 == Period(2026, 12)
    assert Period(2026, 10) - 12 == Period(2025, 10)


def test_period_arithmetic_before_year_1_is_invalid() -> None:
    with pytest.raises(InvalidInput):
        Period(1, 1) - 1


MONTHS_UNTIL = {
    "same period: 0": (Period(2026, 10), Period(2026, 10), 0),
    "next period: 1": (Period(2026, 10), Period(2026, 11), 1),
    "across a year end: 2025-11 to 2026-10 is 11": (Period(2025, 11), Period(2026, 10), 11),
    "a year: 2025-10 to 2026-10 is 12": (Period(2025, 10), Period(2026, 10), 12),
    "backwards is negative": (Period(2026, 10), Period(2025, 11), -11),
    "December to January is 1": (Period(2025, 12), Period(2026, 1), 1),
}


@pytest.mark.parametrize(
    ("start", "end", "months"), list(MONTHS_UNTIL.values()), ids=list(MONTHS_UNTIL)
)
def test_months_until(start: Period, end: Period, months: int) -> None:
    assert start.months_until(end) == months


periods = st.builds(Period, st.integers(1000, 9000), st.integers(1, 12))


@given(periods, st.integers(-10_000, 10_000))
def test_adding_months_is_undone_by_subtracting_them(period: Period, months: int) -> None:
    later = period + months
    assert later - months == period
    assert period.months_until(later) == months


@given(periods, periods)
def test_ordering_agrees_with_months_until(first: Period, second: Period) -> None:
    assert (first < second) == (first.months_until(second) > 0)


def test_periods_order_chronologically() -> None:
    assert Period(2025, 12) < Period(2026, 1)
    assert Period(2026, 2) > Period(2026, 1)
    assert Period(2026, 1) <= Period(2026, 1)
    unordered = [Period(2026, 1), Period(2024, 12), Period(2025, 12), Period(2025, 2)]
    assert sorted(unordered) == [
        Period(2024, 12),
        Period(2025, 2),
        Period(2025, 12),
        Period(2026, 1),
    ]


def test_periods_are_values() -> None:
    assert Period(2026, 10) == Period.parse("2026-10")
    assert hash(Period(2026, 10)) == hash(Period.parse("2026-10"))
    assert len({Period(2026, 10), Period.parse("2026-10"), Period(2026, 11)}) == 2


STR = {
    "two-digit month": (Period(2026, 1), "2026-01"),
    "December": (Period(2026, 12), "2026-12"),
    "four-digit year": (Period(987, 3), "0987-03"),
}


@pytest.mark.parametrize(("period", "text"), list(STR.values()), ids=list(STR))
def test_period_str(period: Period, text: str) -> None:
    assert str(period) == text
    assert Period.parse(text) == period


def test_period_of_a_date() -> None:
    assert Period.of(dt.date(2026, 10, 31)) == Period(2026, 10)
    assert Period.of(dt.date(2027, 1, 1)) == Period(2027, 1)


# -- pools ------------------------------------------------------------------------------------

POOLS = {
    "standard": ("standard", Pool.STANDARD),
    "rapid": ("rapid", Pool.RAPID),
    "blitz": ("blitz", Pool.BLITZ),
    "upper case": ("RAPID", Pool.RAPID),
    "mixed case with spaces": (" Blitz ", Pool.BLITZ),
}


@pytest.mark.parametrize(("text", "pool"), list(POOLS.values()), ids=list(POOLS))
def test_pool_parse(text: str, pool: Pool) -> None:
    assert Pool.parse(text) is pool


@pytest.mark.parametrize("text", ["classical", "", "standard rapid", "bullet"])
def test_pool_parse_rejects_and_names_the_choices(text: str) -> None:
    with pytest.raises(InvalidInput, match=r"unknown pool .*; use one of standard, rapid, blitz\."):
        Pool.parse(text)


# -- game results -----------------------------------------------------------------------------

SPELLINGS = {
    "white wins 1-0": ("1-0", GameResult.WHITE_WINS),
    "black wins 0-1": ("0-1", GameResult.BLACK_WINS),
    "draw 1/2-1/2": ("1/2-1/2", GameResult.DRAW),
    "draw ½-½": ("½-½", GameResult.DRAW),
    "draw =": ("=", GameResult.DRAW),
    "draw 0.5-0.5": ("0.5-0.5", GameResult.DRAW),
    "white wins by forfeit +/-": ("+/-", GameResult.WHITE_WINS_BY_FORFEIT),
    "black wins by forfeit -/+": ("-/+", GameResult.BLACK_WINS_BY_FORFEIT),
    "double forfeit -/-": ("-/-", GameResult.DOUBLE_FORFEIT),
    "spaces around the dash": (" 1 - 0 ", GameResult.WHITE_WINS),
    "spaces in a draw": ("1/2 - 1/2", GameResult.DRAW),
}


@pytest.mark.parametrize(("text", "result"), list(SPELLINGS.values()), ids=list(SPELLINGS))
def test_game_result_parse(text: str, result: GameResult) -> None:
    assert GameResult.parse(text) is result


BAD_RESULTS = {
    "empty": "",
    "2-0": "2-0",
    "colon 1:0": "1:0",
    "a word": "draw",
    "half a result 1/2": "1/2",
    "0-0 is not a result": "0-0",
    "lone ½": "½",
    "double win +/+": "+/+",
}


@pytest.mark.parametrize("text", list(BAD_RESULTS.values()), ids=list(BAD_RESULTS))
def test_game_result_parse_rejects(text: str) -> None:
    with pytest.raises(InvalidInput, match=r"is not a result; use 1-0, 0-1, 1/2-1/2 \(or =\)"):
        GameResult.parse(text)


RESULTS = {
    "section 5: 1-0 is played, white scores 1": (GameResult.WHITE_WINS, True, 100),
    "section 5: 0-1 is played, white scores 0": (GameResult.BLACK_WINS, True, 0),
    "section 5: draw is played, white scores ½": (GameResult.DRAW, True, 50),
    "section 5: +/- is a forfeit, white scores 1": (GameResult.WHITE_WINS_BY_FORFEIT, False, 100),
    "section 5: -/+ is a forfeit, white scores 0": (GameResult.BLACK_WINS_BY_FORFEIT, False, 0),
    "section 5: -/- is a forfeit, white scores 0": (GameResult.DOUBLE_FORFEIT, False, 0),
}


@pytest.mark.parametrize(("result", "played", "score"), list(RESULTS.values()), ids=list(RESULTS))
def test_played_and_white_score(result: GameResult, played: bool, score: int) -> None:
    assert result.is_played is played
    assert result.white_score == score


def test_every_result_round_trips_through_its_value() -> None:
    for result in GameResult:
        assert GameResult.parse(result.value) is result
        assert GameResult.parse(str(result)) is result


# -- dates ------------------------------------------------------------------------------------

GOOD_DATES = {
    "a date": ("2026-10-15", dt.date(2026, 10, 15)),
    "with spaces": (" 2026-10-15 ", dt.date(2026, 10, 15)),
    "a leap day": ("2024-02-29", dt.date(2024, 2, 29)),
}


@pytest.mark.parametrize(("text", "date"), list(GOOD_DATES.values()), ids=list(GOOD_DATES))
def test_parse_date(text: str, date: dt.date) -> None:
    assert parse_date(text) == date


BAD_DATES = {
    "month 13": "2026-13-01",
    "30 February": "2026-02-30",
    "29 February of a common year": "2026-02-29",
    "day first": "15/10/2026",
    "a period, not a date": "2026-10",
    "empty": "",
    "a word": "yesterday",
}


@pytest.mark.parametrize("text", list(BAD_DATES.values()), ids=list(BAD_DATES))
def test_parse_date_rejects(text: str) -> None:
    with pytest.raises(InvalidInput, match=r"is not a date; write it as YYYY-MM-DD\."):
        parse_date(text)


@pytest.mark.parametrize("text", ["20261015", "2026-W41-1"], ids=["basic format", "week date"])
def test_parse_date_accepts_only_yyyy_mm_dd(text: str) -> None:
    with pytest.raises(InvalidInput):
        parse_date(text)
