"""The old place of `ledger.queries.lists.versions`, whose names it still gives: the callers
that import them from here keep working until they import them from there."""

from ledger.queries.lists.versions import (
    ChangedRow,
    ListDiff,
    list_diff,
    version,
    version_list,
    versions,
)

__all__ = ["ChangedRow", "ListDiff", "list_diff", "version", "version_list", "versions"]
