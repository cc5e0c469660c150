"""The old place of `ledger.queries.lists.live`, whose names it still gives: the callers
that import them from here keep working until they import them from there."""

from ledger.queries.lists.live import (
    LiveRow,
    live_list,
)

__all__ = ["LiveRow", "live_list"]
