"""How many columns of each dtype a pandas DataFrame has, without a step per column.

``DataFrame.dtypes`` builds a Series of one entry per column (an object array taken
through the block numbers): a millisecond for a thousand columns, paid for every chunk
of a wide frame a task makes or measures. pandas keeps a frame as a few blocks, each of
one dtype and some columns, so the counts come from the blocks where pandas exposes them
(checked against the column count), and from ``dtypes`` otherwise.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def dtype_counts(frame: Any) -> dict[Any, int] | None:
    """``{dtype: number of columns}`` of a DataFrame, None for anything without columns."""
    columns, index = getattr(frame, "columns", None), getattr(frame, "index", None)
    if columns is None or index is None:
        return None
    counts = _block_counts(frame)
    if counts is not None and sum(counts.values()) == len(columns):
        return counts
    dtypes = getattr(frame, "dtypes", None)
    if dtypes is None:
        return None
    found: dict[Any, int] = {}
    for dtype in np.asarray(dtypes, dtype=object).tolist():
        found[dtype] = found.get(dtype, 0) + 1
    return found


def _block_counts(frame: Any) -> dict[Any, int] | None:
    blocks = getattr(getattr(frame, "_mgr", None), "blocks", None)
    if not isinstance(blocks, tuple):
        return None
    counts: dict[Any, int] = {}
    for block in blocks:
        dtype, places = getattr(block, "dtype", None), getattr(block, "mgr_locs", None)
        if dtype is None or places is None:
            return None
        counts[dtype] = counts.get(dtype, 0) + len(places)
    return counts
