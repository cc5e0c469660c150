"""The old place of `ledger.queries.lists.whole`, whose names it still gives: the callers
that import them from here keep working until they import them from there."""

from ledger.queries.lists.whole import (
    CELL_NAMES,
    TEXT_CELLS,
    Cells,
    cells,
    whole_list_cells,
)

__all__ = ["CELL_NAMES", "TEXT_CELLS", "Cells", "cells", "whole_list_cells"]
