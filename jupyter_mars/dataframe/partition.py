"""Splitting a chunk's rows into parts for a shuffle: by a hash of key columns (groupby,
merge, drop_duplicates) or by ranges of sort keys (sort_values).

Every split puts equal keys in the same part, in every chunk and every process, so the
merge step of a shuffle sees all rows of a key together. The rows of each part keep their
order within the chunk.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from pandas.util import hash_array, hash_pandas_object

from jupyter_mars.engine.primitives.shuffle import shuffle_tasks

__all__ = ["hash_codes", "shuffle_tasks", "split_by_codes", "split_by_hash"]


def hash_codes(keys: Any, n_out: int) -> np.ndarray[Any, np.dtype[np.intp]]:
    """The part of each row: a stable hash of its key (a Series, a DataFrame of several key
    columns, an Index or an array) modulo ``n_out``.

    >>> hash_codes(pd.Series([1, 2, 1]), 4).tolist() == hash_codes(pd.Series([1, 2, 1]), 4).tolist()
    True
    """
    if isinstance(keys, pd.MultiIndex):
        keys = keys.to_frame(index=False)
    if isinstance(keys, (pd.DataFrame, pd.Series)):
        hashed = hash_pandas_object(keys, index=False).to_numpy()
    elif isinstance(keys, pd.Index):
        hashed = hash_pandas_object(keys).to_numpy()
    else:
        hashed = hash_array(np.asarray(keys))
    codes: np.ndarray[Any, np.dtype[np.intp]] = (hashed % np.uint64(n_out)).astype(np.intp)
    return codes


def split_by_codes(obj: Any, codes: np.ndarray[Any, Any], n_out: int) -> list[Any]:
    """``obj``'s rows in ``n_out`` parts, row ``r`` going to part ``codes[r]``.

    >>> [p.tolist() for p in split_by_codes(pd.Series([5, 6, 7]), np.array([1, 0, 1]), 2)]
    [[6], [5, 7]]
    """
    if n_out == 1:
        return [obj]
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(n_out + 1))
    taken = obj.iloc[order] if hasattr(obj, "iloc") else obj[order]
    if hasattr(taken, "iloc"):
        return [taken.iloc[bounds[j] : bounds[j + 1]] for j in range(n_out)]
    return [taken[bounds[j] : bounds[j + 1]] for j in range(n_out)]


def split_by_hash(chunk: Any, n_out: int, on: Sequence[Any] | None) -> list[Any]:
    """``chunk``'s rows in ``n_out`` parts by a hash of the columns ``on`` (of the index
    when ``on`` is None)."""
    keys = chunk.index if on is None else chunk[list(on)]
    return split_by_codes(chunk, hash_codes(keys, n_out), n_out)
