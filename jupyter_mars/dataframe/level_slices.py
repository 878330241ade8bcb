"""``loc`` keys of a MultiIndex that select on each level: a tuple holding slices or lists
(``df.loc[(slice(None), 1), :]``, ``s.loc[pd.IndexSlice["a":"c", [1, 2]]]``).

pandas' rules for these are intricate: lists order the result by their own order, level
by level; which levels a scalar drops depends on the kind of object and on the other
parts of the key; a missing label raises KeyError, an unsorted index UnsortedIndexError.
So pandas applies them, once, to the rows that can match: each chunk keeps the rows whose
every level passes a test that no matching row fails (equal to a scalar, in a list,
between a slice's bounds), and one task puts the kept rows together and calls pandas'
``loc`` with the user's key.

The meta comes from pandas' ``loc`` on one row made to match the key, so the levels
dropped are the ones pandas drops.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

_LISTS = (list, np.ndarray, pd.Index, pd.Series)


def _is_list(part: Any) -> bool:
    """A list of labels (a boolean mask is not one)."""
    return isinstance(part, _LISTS) and getattr(part, "dtype", None) != np.dtype(bool)


def is_level_selection(index: Any, key: Any) -> bool:
    """Whether ``key`` is a tuple of per-level parts, one a slice or a list of labels."""
    if not isinstance(index, pd.MultiIndex) or not isinstance(key, tuple):
        return False
    if not 0 < len(key) <= index.nlevels:
        return False
    if not any(isinstance(p, slice) or _is_list(p) for p in key):
        return False
    return all(
        isinstance(p, slice) or _is_list(p) or not isinstance(p, (tuple, set, dict)) for p in key
    )


def _level_hits(values: pd.Index, part: Any) -> np.ndarray[Any, Any] | None:
    """Rows whose label on one level may match ``part``; None: every row may."""
    try:
        if isinstance(part, slice):
            if part.step is not None or (part.start is None and part.stop is None):
                return None
            hit = np.ones(len(values), dtype=bool)
            if part.start is not None:
                hit &= np.asarray(values >= part.start)
            if part.stop is not None:
                hit &= np.asarray(values <= part.stop)
            return hit
        if _is_list(part):
            return np.asarray(values.isin(list(part)))
        return np.asarray(values == part)
    except TypeError:  # labels that do not compare with the bounds: pandas decides
        return None


def level_rows_mask(index: pd.MultiIndex, key: tuple[Any, ...]) -> np.ndarray[Any, Any]:
    """Every row that can match ``key`` (more, where a level's test cannot tell)."""
    mask = np.ones(len(index), dtype=bool)
    for level, part in enumerate(key):
        hit = _level_hits(index.get_level_values(level), part)
        if hit is not None:
            mask &= hit
    return mask


def keep_candidates(chunk: Any, key: tuple[Any, ...]) -> Any:
    """The rows of one chunk that can match ``key``."""
    return chunk[level_rows_mask(chunk.index, key)]


def select_levels(rows: Any, key: tuple[Any, ...]) -> Any:
    """pandas' ``loc`` with ``key`` on the rows that can match it."""
    if isinstance(rows, pd.DataFrame):
        return rows.loc[key, :]
    return rows.loc[key]


def _labels(level: pd.Index, part: Any) -> list[Any]:
    """Labels of ``level`` that ``part`` selects: each of a list's, one for the rest."""
    if _is_list(part):
        if len(part):
            return list(part)
    elif isinstance(part, slice):
        for bound in (part.start, part.stop):
            if bound is not None:
                return [bound]
    else:
        return [part]
    if len(level):
        return [level[0]]
    kind = level.dtype.kind
    if kind in "iuf":
        return [level.dtype.type(0)]
    if kind == "M":
        return [pd.Timestamp(0)]
    if kind == "b":
        return [False]
    return ["a"]


SAMPLE_ROWS = 4096
"""The most rows the meta's sample may have (lists of labels multiply them)."""


def level_selection_meta(meta: Any, key: tuple[Any, ...]) -> Any:
    """The meta of ``loc[key]``: pandas' result on rows that match ``key`` (every label of
    its lists, as pandas wants them all), emptied. Where pandas cannot be asked so (a key
    whose labels do not fit the levels, lists too long), the levels are kept."""
    index: pd.MultiIndex = meta.index
    parts = [key[i] if i < len(key) else slice(None) for i in range(index.nlevels)]
    labels = [_labels(level, part) for level, part in zip(index.levels, parts, strict=True)]
    if np.prod([len(each) for each in labels]) > SAMPLE_ROWS:
        return meta
    try:
        rows = pd.MultiIndex.from_product(labels, names=index.names)
        arrays = [
            rows.get_level_values(i).astype(level.dtype) for i, level in enumerate(index.levels)
        ]
        row_index = pd.MultiIndex.from_arrays(arrays, names=index.names)
        # the values are not the meta's dtypes (a missing int is a float): only the index
        # pandas gives is read, and set on the meta
        selected = select_levels(meta.reindex(row_index), key).index[:0]
    except (KeyError, TypeError, ValueError):
        return meta
    return meta.set_axis(selected, axis=0)
