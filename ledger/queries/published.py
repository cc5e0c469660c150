"""The old place of `ledger.queries.lists.request`, whose names it still gives: the callers
that import them from here keep working until they import them from there."""

from ledger.queries.lists.request import (
    ListRequest,
    list_cells,
    list_size,
    published_list,
)

__all__ = ["ListRequest", "list_cells", "list_size", "published_list"]
