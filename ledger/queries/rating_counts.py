"""The old place of `ledger.queries.lists.counts`, whose names it still gives: the callers
that import them from here keep working until they import them from there."""

from ledger.queries.lists.counts import (
    KEPT,
    KEPT_LARGE,
    KeptCounts,
    RatingCounts,
    above,
    above_counter,
    grouped,
    kept_or_read,
)

__all__ = [
    "KEPT",
    "KEPT_LARGE",
    "KeptCounts",
    "RatingCounts",
    "above",
    "above_counter",
    "grouped",
    "kept_or_read",
]
