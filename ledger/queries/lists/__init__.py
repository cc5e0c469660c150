"""Rating lists, read: the one entry point every face calls, and a module for each way a list
is read.

A list request, step by step
============================

`ledger list --federation NOR --top 10`, `GET /lists/standard/latest?federation=NOR` and
`GET /api/v1/lists/standard/latest` all build one `ListRequest` and call
`published_list` (`request`):

1. **The request** (`request`): the newest list by default, else a period's, the list in
   force on a day or an earlier version, or the live list; its options are checked at once
   (a period and a day together are refused).
2. **Which list** (`in_force`): the newest closed period, the period named, or the newest
   published before the day; refused where none was published.
3. **Its rows, best first** (`published` for the newest and older lists, `older` for a list
   before the newest, `versions` for an earlier version, `live` for the newest list with the
   games since rated by `ledger.core.rules`): the statements are `sql`, the filter
   `ledger.queries.filters`; a long-running reader's counts by rating (`counts.KeptCounts`)
   cut a deep page without counting the rows above it.
4. **Their places** (`ranking`): ranks shared by equal ratings, positions, movement since the
   previous list, within the filter and on the whole list.
5. **The records** (`rows`): a `RatingList` of `ListRow`s, which every face renders; a
   whole list for a file (`list_cells`) is read in bulk as plain tuples instead (`whole`).

The names are imported when first used (PEP 562, from the stub `__init__.pyi`, which lists
each once).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
