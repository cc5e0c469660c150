"""The old place of `ledger.queries.lists.ranking`, whose names it still gives: the callers
that import them from here keep working until they import them from there."""

from ledger.queries.lists.ranking import (
    FEW_ROWS,
    ListSource,
    Places,
    places,
    previous_rating,
    shared_ranks,
    tied_in_rows,
)

__all__ = [
    "FEW_ROWS",
    "ListSource",
    "Places",
    "places",
    "previous_rating",
    "shared_ranks",
    "tied_in_rows",
]
