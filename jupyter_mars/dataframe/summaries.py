"""Facts about the whole object that pandas returns as Python values: ``empty``, ``size``,
``nbytes``, ``memory_usage``, ``hasnans``, ``is_unique``, ``is_monotonic_increasing``
and ``is_monotonic_decreasing``.

What the metadata knows (the columns, a known number of rows) answers without running
anything. Otherwise each chunk is summed up by one small task (its length, its bytes,
its first and last values and whether it is sorted), only those summaries are fetched,
and they are combined here: the data itself never leaves the workers.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Index, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks

SUMMARY_META = pd.DataFrame({"summary": pd.Series([], dtype=object)})
"""What the per-chunk summary tasks give: one row per chunk holding a Python value."""


def one_row(func: Callable[[Any], Any], chunk: Any) -> pd.DataFrame:
    return pd.DataFrame({"summary": [func(chunk)]})


def chunk_summaries(frame: FrameBase, func: Callable[[Any], Any]) -> list[Any]:
    """``func`` of every chunk, in order: the only data fetched."""
    kernel = functools.partial(one_row, func)
    rows = map_chunks(kernel, [frame], (Slot(0),), SUMMARY_META, keeps_rows=False)
    return list(rows.to_pandas()["summary"])


def row_count(frame: FrameBase) -> int:
    """The number of rows: known from the metadata, else counted chunk by chunk."""
    n = frame._nrows()
    if isinstance(n, float) and math.isnan(n):
        return int(sum(chunk_summaries(frame, len)))
    return int(n)


# ---- empty, size ----------------------------------------------------------------------


def empty(self: FrameBase) -> bool:
    """True when the object holds no element (no rows, or a frame without columns)."""
    if isinstance(self, DataFrame) and len(self.meta.columns) == 0:
        return True
    return row_count(self) == 0


def size(self: FrameBase) -> int:
    """The number of elements: rows times columns for a DataFrame."""
    columns = len(self.meta.columns) if isinstance(self, DataFrame) else 1
    return row_count(self) * columns


# ---- bytes ----------------------------------------------------------------------------


def index_facts(index: pd.Index, deep: bool) -> tuple[int, int, tuple[int, int, int] | None]:
    """(bytes, length, the range of a RangeIndex) of one chunk's index."""
    if isinstance(index, pd.RangeIndex):
        return (0, len(index), (index.start, index.stop, index.step))
    # a new Index on the same values: pandas counts the lookup table of one whose table
    # was built (by an earlier operation on this stored chunk), which a fresh one lacks
    fresh = pd.Index(index.array, copy=False)
    return (int(fresh.memory_usage(deep=deep)), len(index), None)


def index_bytes(facts: list[tuple[int, int, tuple[int, int, int] | None]], deep: bool) -> int:
    """The bytes of the whole index from its chunks' facts: a range when every chunk is
    one range continuing the last (pandas keeps it a RangeIndex), else 8 per position of
    a range chunk (they become int64 labels) and the others' own bytes."""
    ranges = [r for _, n, r in facts if n]
    if all(r is not None for r in ranges):
        steps = [r for r in ranges if r is not None]
        if not steps:
            return int(pd.RangeIndex(0).memory_usage(deep=deep))
        joined = all(a[1] == b[0] and a[2] == b[2] for a, b in zip(steps, steps[1:], strict=False))
        if joined:
            whole = pd.RangeIndex(steps[0][0], steps[-1][1], steps[0][2])
            return int(whole.memory_usage(deep=deep))
    return sum(b if r is None else 8 * n for b, n, r in facts)


def frame_usage(index: bool, deep: bool, chunk: pd.DataFrame) -> tuple[Any, ...]:
    return (chunk.memory_usage(index=False, deep=deep), index_facts(chunk.index, deep))


def memory_usage(self: DataFrame, index: bool = True, deep: bool = False) -> pd.Series:
    """Bytes per column (and of the index first, as ``'Index'``), as pandas counts them."""
    parts = chunk_summaries(self, functools.partial(frame_usage, index, deep))
    columns = self.meta.memory_usage(index=False, deep=deep)
    total = functools.reduce(operator.add, [p[0] for p in parts], columns)
    if index:
        head = pd.Series([index_bytes([p[1] for p in parts], deep)], index=["Index"])
        total = pd.concat([head, total])
    return total.astype("int64")


def vector_usage(index: bool, deep: bool, chunk: Any) -> tuple[Any, ...]:
    if isinstance(chunk, pd.Index):
        return (0, index_facts(chunk, deep))
    return (int(chunk.memory_usage(index=False, deep=deep)), index_facts(chunk.index, deep))


def vector_memory_usage(self: FrameBase, index: bool = True, deep: bool = False) -> int:
    """Bytes of the values (and of the index): pandas' ``memory_usage`` of a Series."""
    parts = chunk_summaries(self, functools.partial(vector_usage, index, deep))
    if isinstance(self, Index):
        return index_bytes([p[1] for p in parts], deep)
    values = sum(p[0] for p in parts)
    return int(values + (index_bytes([p[1] for p in parts], deep) if index else 0))


def chunk_nbytes(chunk: Any) -> Any:
    if isinstance(chunk, pd.RangeIndex):
        return (chunk.start, chunk.stop, chunk.step)
    return int(chunk.nbytes)


def nbytes(self: FrameBase) -> int:
    """Bytes of the values, as pandas' ``nbytes`` counts them (pointers for objects)."""
    dtype = self.meta.dtype
    if isinstance(dtype, np.dtype) and not isinstance(self.meta, pd.RangeIndex):
        return row_count(self) * dtype.itemsize
    parts = chunk_summaries(self, chunk_nbytes)
    if parts and all(isinstance(p, tuple) for p in parts):
        return int(pd.RangeIndex(parts[0][0], parts[-1][1], parts[0][2]).nbytes)
    return sum(p if isinstance(p, int) else 8 * len(range(*p)) for p in parts)


# ---- hasnans, is_unique, monotonic ----------------------------------------------------


def has_nans(chunk: Any) -> bool:
    return bool(chunk.hasnans)


def hasnans(self: FrameBase) -> bool:
    """True when any value is missing."""
    return any(chunk_summaries(self, has_nans))


def is_unique(self: FrameBase) -> bool:
    """True when no value repeats (one missing value counts once)."""
    if isinstance(self, Series):
        distinct = self.nunique(dropna=False)  # type: ignore[attr-defined]
        return bool(distinct.execute().fetch() == row_count(self))
    return bool(self.to_pandas().is_unique)


def order_facts(increasing: bool, chunk: Any) -> tuple[Any, ...]:
    """(holds values, sorted within, first value, last value) of one chunk."""
    if len(chunk) == 0:
        return (False, True, None, None)
    values = chunk if isinstance(chunk, pd.Index) else pd.Index(chunk.array)
    inside = values.is_monotonic_increasing if increasing else values.is_monotonic_decreasing
    return (True, bool(inside), values[0], values[-1])


def monotonic(self: FrameBase, increasing: bool) -> bool:
    facts = [f for f in chunk_summaries(self, functools.partial(order_facts, increasing)) if f[0]]
    if not all(f[1] for f in facts):
        return False
    in_order = operator.le if increasing else operator.ge
    try:
        return all(in_order(a[3], b[2]) for a, b in zip(facts, facts[1:], strict=False))
    except TypeError:  # values that do not compare are not sorted, as in pandas
        return False


def is_monotonic_increasing(self: FrameBase) -> bool:
    """True when every value is at least the one before (and none is missing)."""
    return monotonic(self, True)


def is_monotonic_decreasing(self: FrameBase) -> bool:
    """True when every value is at most the one before (and none is missing)."""
    return monotonic(self, False)


ATTACHED: dict[str, tuple[Any, tuple[type[FrameBase], ...]]] = {
    "empty": (property(empty), (DataFrame, Series)),
    "size": (property(size), (DataFrame, Series)),
    "nbytes": (property(nbytes), (Series,)),
    "hasnans": (property(hasnans), (Series,)),
    "is_unique": (property(is_unique), (Series,)),
    "is_monotonic_increasing": (property(is_monotonic_increasing), (Series,)),
    "is_monotonic_decreasing": (property(is_monotonic_decreasing), (Series,)),
}
"""Name -> (method or property, the kinds that get it); ``md.Index`` has its own
(``index/``)."""


def _attach() -> None:
    for name, (value, kinds) in ATTACHED.items():
        for cls in kinds:
            setattr(cls, name, value)
    DataFrame.memory_usage = memory_usage  # type: ignore[attr-defined]
    Series.memory_usage = vector_memory_usage  # type: ignore[attr-defined]


_attach()
