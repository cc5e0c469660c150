"""The rating chart's geometry: each published list a point, in whole pixels, for the small
SVG template `chart.svg.html` (no charting library: see docs/web.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ledger.queries import HistoryRow

WIDTH = 640
HEIGHT = 200
MARGIN = 40
"""Room for the rating labels on the left and the list names below."""
LEAST_SPAN = 20
"""A flat history is drawn within a band this many points high."""


@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    points: list[Point]
    low: int
    high: int
    width: int = WIDTH
    height: int = HEIGHT
    margin: int = MARGIN

    @property
    def line(self) -> str:
        """The polyline through the points, as SVG's `points` attribute."""
        return " ".join(f"{point.x},{point.y}" for point in self.points)

    @property
    def bottom(self) -> int:
        return self.height - self.margin


def rating_chart(history: Sequence[HistoryRow]) -> Chart | None:
    """The chart of the lists the player was on (None: on none)."""
    rated = [(row.list_name, row.rating) for row in history if row.rating is not None]
    if not rated:
        return None
    ratings = [rating for _, rating in rated]
    low, high = min(ratings), max(ratings)
    if high - low < LEAST_SPAN:
        middle = (low + high) // 2
        low, high = middle - LEAST_SPAN // 2, middle + LEAST_SPAN // 2
    inner_width, inner_height = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN
    step = inner_width // max(1, len(rated) - 1)
    points = [
        Point(
            MARGIN + index * step,
            MARGIN + (high - rating) * inner_height // (high - low),
            f"{name}: {rating}",
        )
        for index, (name, rating) in enumerate(rated)
    ]
    return Chart(points, low, high)
