"""FIDE's list cadence: which months end a rating period and publish a list.

The ledger names a period by its last month, whose close publishes the list of the first of
the next month (as it always has: period 2026-10 publishes the list of 1 November 2026). A
period covers the months since the list before: one month since July 2012, two before, three
before July 2009. A game belongs to the period that covers its month (`list_period`), so a
game of January 2011 is rated on the list of 1 March 2011, the list of period 2011-02.

The standard lists' eras, each from the first period it publishes:
- quarterly, lists of 1 January, April, July and October (periods ending in March, June,
  September and December), up to the list of 1 July 2009: FIDE Rating Regulations as
  amended by the 1999 General Assembly, 9.1 ("a list four times a year") and 9.11.
  **Ledger's choice**: every period before July 2009 is quarterly; FIDE's earlier
  half-yearly and yearly lists are not kept.
- every two months from the list of 1 September 2009 (period 2009-08, July and August 2009)
  to the list of 1 July 2012: FIDE news "Changes to Title and Rating Regulations effective
  from July 1st 2009" (13 July 2009): "The rating period will be shortened from three months
  to two months. The list dates will be January 1, March 1, May 1, July 1, September 1 and
  November 1."
- monthly from the list of 1 August 2012 (period 2012-07): FIDE Presidential Board of June
  2011, "moving to monthly lists from July 2012" (reported 8 June 2011); the Rating
  Regulations in force from 1 July 2012 ("On the first day of each month, the QC shall
  prepare a list").
FIDE's rapid and blitz lists began in 2012, monthly: **ledger's choice**, their periods are
monthly in every era.
"""

from __future__ import annotations

from ledger.core.domain import Period, Pool

STANDARD_ERAS = (
    (Period(1, 3), 3),
    (Period(2009, 8), 2),
    (Period(2012, 7), 1),
)
"""(first period of the era, months per period) of the standard lists, oldest first."""

_MONTHLY = ((Period(1, 1), 1),)


def list_period(pool: Pool, month: Period) -> Period:
    """The period that covers `month`: the first period from `month` on that publishes a
    list (the month itself in a monthly era; the first period of the next era where that
    comes first, as July 2009 goes with August)."""
    eras = STANDARD_ERAS if pool is Pool.STANDARD else _MONTHLY
    later = [era for era in eras if era[0] > month]
    first, months = ([era for era in eras if era[0] <= month] or [eras[0]])[-1]
    candidate = month + (-first.months_until(month)) % months
    return min(candidate, later[0][0]) if later else candidate


def is_list_period(pool: Pool, month: Period) -> bool:
    """Whether the close of `month` publishes a list: it ends a rating period."""
    return list_period(pool, month) == month


def previous_list_period(pool: Pool, period: Period) -> Period:
    """The list period before `period`."""
    before = period - 1
    while not is_list_period(pool, before):
        before -= 1
    return before


def next_list_period(pool: Pool, period: Period) -> Period:
    """The list period after `period`."""
    return list_period(pool, period + 1)


def months_of(pool: Pool, period: Period) -> tuple[Period, ...]:
    """The months the list period `period` covers, oldest first, ending with it."""
    start = previous_list_period(pool, period) + 1
    return tuple(start + step for step in range(start.months_until(period) + 1))


def list_periods(pool: Pool, first: Period, last: Period) -> list[Period]:
    """The list periods from the one covering `first` to `last`."""
    periods = []
    each = list_period(pool, first)
    while each <= last:
        periods.append(each)
        each = next_list_period(pool, each)
    return periods
