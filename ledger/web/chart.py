"""The rating chart's geometry, in whole pixels, for the small SVG template `chart.svg.html`
(no charting library: see docs/web.md). Each published list is a point placed by its month;
the value axis has round ticks and spans at least `LEAST_SPAN` points, so a small move looks
small; the time axis names a few of the lists' months."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ledger.core.domain import Period
from ledger.queries import HistoryRow

WIDTH = 560
HEIGHT = 240
LEFT = 60
"""Room for the ratings on the value axis (their labels are larger on a phone)."""
RIGHT = 44
"""Room for half of the last month's label."""
TOP = 12
BOTTOM = 30
"""Room for the months below the time axis."""
LEAST_SPAN = 100
"""The value axis spans at least this many points: a 26-point move is at most a quarter."""
RATING_STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)
MOST_RATING_GAPS = 5
MONTH_STEPS = (1, 2, 3, 6, 12, 24, 60, 120, 600, 1200)
MOST_MONTH_LABELS = 5


@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int
    label: str


@dataclass(frozen=True, slots=True)
class Tick:
    """A labelled place on an axis: `at` is its x (a month) or y (a rating) in pixels."""

    at: int
    label: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Chart:
    """The points, the axes' ends (`low`, `high`: ratings) and their ticks; `lowest` and
    `highest` are the ratings charted."""

    points: list[Point]
    low: int
    high: int
    lowest: int
    highest: int
    rating_ticks: list[Tick]
    month_ticks: list[Tick]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def line(self) -> str:
        """The polyline through the points, as SVG's `points` attribute."""
        return " ".join(f"{point.x},{point.y}" for point in self.points)


def rating_chart(history: Sequence[HistoryRow]) -> Chart | None:
    """The chart of the lists the player was on (None: on none)."""
    rated = [(row.period, row.list_name, row.rating) for row in history if row.rating is not None]
    if not rated:
        return None
    ratings = [rating for _, _, rating in rated]
    low, high, step = value_axis(min(ratings), max(ratings))
    first = min(period for period, _, _ in rated)
    months = first.months_until(max(period for period, _, _ in rated))

    def x(period: Period) -> int:
        inner = WIDTH - LEFT - RIGHT
        return LEFT + (first.months_until(period) * inner // months if months else inner // 2)

    def y(rating: int) -> int:
        return TOP + (high - rating) * (HEIGHT - TOP - BOTTOM) // (high - low)

    return Chart(
        points=[Point(x(period), y(rating), f"{name}: {rating}") for period, name, rating in rated],
        low=low,
        high=high,
        lowest=min(ratings),
        highest=max(ratings),
        rating_ticks=[Tick(y(value), str(value)) for value in range(low, high + 1, step)],
        month_ticks=[Tick(x(period), period.list_name) for period in month_labels(first, months)],
    )


def value_axis(lowest: int, highest: int) -> tuple[int, int, int]:
    """The ends of the value axis and its step: multiples of the step around every rating,
    at least `LEAST_SPAN` apart, in at most `MOST_RATING_GAPS` steps."""
    if highest - lowest < LEAST_SPAN:
        lowest = (lowest + highest) // 2 - LEAST_SPAN // 2
        highest = lowest + LEAST_SPAN
    for step in RATING_STEPS:
        low, high = lowest // step * step, -(-highest // step) * step
        if (high - low) // step <= MOST_RATING_GAPS:
            break
    return low, high, step


def month_labels(first: Period, months: int) -> list[Period]:
    """The periods whose lists the time axis names: every n-th month from the first, n
    the least step that names at most `MOST_MONTH_LABELS`."""
    step = next(each for each in MONTH_STEPS if months // each < MOST_MONTH_LABELS)
    return [first + offset for offset in range(0, months + 1, step)]
