"""Distinct values: ``Series.unique``, ``nunique`` and ``value_counts``, by tree reductions.

Each chunk reduces to its distinct values (or their counts) in first-occurrence order;
partial results are merged in chunk order, so the merged values keep the order of their
first occurrence in the whole input, as pandas reports them. Counts of equal values add
up (a ``groupby`` of the partial counts that keeps the order of appearance). The last
step orders the counts exactly as pandas does from the same unsorted counts.

The partial results are as large as the number of distinct values, so this suits data
with fewer distinct values than rows; the work on the rows is all in the chunks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.arithmetic import call_method
from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.sort.tree import tree_frame, tree_tensor


def _merge_distinct(parts: list[pd.Series]) -> pd.Series:
    return pd.concat(parts).drop_duplicates()


def _numpy_dtype(dtype: Any) -> np.dtype[Any]:
    return dtype if isinstance(dtype, np.dtype) else np.dtype(object)


@dataclass(frozen=True)
class UniqueValues:
    def chunk(self, block: pd.Series) -> pd.Series:
        return block.drop_duplicates()

    def combine(self, parts: list[pd.Series]) -> pd.Series:
        return _merge_distinct(parts)

    def aggregate(self, part: pd.Series) -> np.ndarray[Any, Any]:
        return np.asarray(part.unique(), dtype=_numpy_dtype(part.dtype))


def unique(series: Series) -> Any:
    """The distinct values in order of first occurrence, as a lazy 1-d tensor (extension
    dtypes such as strings come as an object array)."""
    dtype = _numpy_dtype(series.meta.dtype)
    return tree_tensor(series, UniqueValues(), "unique", (math.nan,), dtype)


@dataclass(frozen=True)
class CountDistinct:
    dropna: bool
    columns: pd.Index | None = None
    """The DataFrame's columns; None for a Series."""

    def _columns(self, block: Any) -> list[pd.Series]:
        if self.columns is None:
            return [block]
        return [block.iloc[:, j] for j in range(block.shape[1])]

    def chunk(self, block: Any) -> list[pd.Series]:
        return [c.drop_duplicates() for c in self._columns(block)]

    def combine(self, parts: list[list[pd.Series]]) -> list[pd.Series]:
        return [_merge_distinct(list(cols)) for cols in zip(*parts)]

    def aggregate(self, part: list[pd.Series]) -> Any:
        counts = [c.nunique(dropna=self.dropna) for c in part]
        if self.columns is None:
            return np.int64(counts[0])
        return pd.Series(counts, index=self.columns, dtype=np.int64)


def _check_dropna(dropna: Any) -> bool:
    if not isinstance(dropna, (bool, np.bool_)):
        raise ValueError(f"dropna must be True or False, got {dropna!r}")
    return bool(dropna)


def series_nunique(series: Series, dropna: bool = True) -> Any:
    """The number of distinct values (missing values count once unless ``dropna``), as a
    lazy 0-d tensor."""
    kernels = CountDistinct(_check_dropna(dropna))
    return tree_tensor(series, kernels, "nunique", (), np.int64)


def frame_nunique(frame: DataFrame, axis: Any = 0, dropna: bool = True) -> Any:
    """The number of distinct values of every column (``axis=1``: of every row), as a
    lazy Series."""
    if axis in (1, "columns"):
        # a row lies whole in one row chunk: pandas' own count, chunk by chunk
        kwargs = {"axis": 1, "dropna": _check_dropna(dropna)}
        meta = empty_like(frame.meta.nunique(**kwargs))
        return map_chunks(call_method, [frame], (Slot(0), "nunique"), meta, kwargs, "nunique")
    if axis not in (0, "index", "rows"):
        raise NotImplementedError(f"nunique supports axis=0 only, got axis={axis!r}")
    meta = frame.meta.nunique(dropna=_check_dropna(dropna))
    kernels = CountDistinct(bool(dropna), frame.meta.columns)
    return tree_frame(frame, kernels, "nunique", empty_like(meta), len(frame.meta.columns))


@dataclass(frozen=True)
class ValueCounts:
    normalize: bool
    sort: bool
    ascending: bool
    dropna: bool
    subset: tuple[Any, ...] | None = None
    """Columns counted together for a DataFrame; None for a Series."""

    def chunk(self, block: Any) -> pd.Series:
        if self.subset is None:
            return block.value_counts(sort=False, dropna=self.dropna)
        return block.value_counts(subset=list(self.subset), sort=False, dropna=self.dropna)

    def combine(self, parts: list[pd.Series]) -> pd.Series:
        counts = pd.concat(parts)
        levels = list(range(counts.index.nlevels))
        grouped = counts.groupby(level=levels, sort=False, dropna=False).sum()
        grouped.name = counts.name
        return grouped

    def aggregate(self, counts: pd.Series) -> pd.Series:
        if self.subset is not None and not isinstance(counts.index, pd.MultiIndex):
            counts.index = pd.MultiIndex.from_arrays([counts.index])  # one counted column
        total = counts.sum()
        if self.sort:
            counts = counts.sort_values(ascending=self.ascending, kind="stable")
        if self.normalize:
            counts = counts / total
            counts.name = "proportion"
        return counts


def _flags(**flags: Any) -> dict[str, bool]:
    for name, value in flags.items():
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{name} must be True or False, got {value!r}")
    return {k: bool(v) for k, v in flags.items()}


def value_counts(
    series: Series,
    normalize: bool = False,
    sort: bool = True,
    ascending: bool = False,
    bins: Any = None,
    dropna: bool = True,
) -> Any:
    """How often each distinct value occurs, most frequent first (pandas' order of ties),
    as a lazy Series named ``count`` (``proportion`` with ``normalize``)."""
    if bins is not None:
        raise NotImplementedError("value_counts(bins=...) is not supported")
    flags = _flags(normalize=normalize, sort=sort, ascending=ascending, dropna=dropna)
    meta = series.meta.value_counts(**flags)
    kernels = ValueCounts(flags["normalize"], flags["sort"], flags["ascending"], flags["dropna"])
    return tree_frame(series, kernels, "value_counts", empty_like(meta))


def frame_value_counts(
    frame: DataFrame,
    subset: Any = None,
    normalize: bool = False,
    sort: bool = True,
    ascending: bool = False,
    dropna: bool = True,
) -> Any:
    """How often each distinct row of the ``subset`` columns occurs, as a lazy Series with
    a MultiIndex of those columns."""
    flags = _flags(normalize=normalize, sort=sort, ascending=ascending, dropna=dropna)
    meta = frame.meta.value_counts(subset=subset, **flags)
    if subset is None:
        labels = tuple(frame.meta.columns)
    else:
        labels = tuple(subset) if isinstance(subset, (list, tuple, pd.Index)) else (subset,)
    kernels = ValueCounts(
        flags["normalize"], flags["sort"], flags["ascending"], flags["dropna"], labels
    )
    return tree_frame(frame, kernels, "value_counts", empty_like(meta))


def _attach() -> None:
    frame_methods: dict[str, Any] = {
        "nunique": frame_nunique,
        "value_counts": frame_value_counts,
    }
    series_methods: dict[str, Any] = {
        "unique": unique,
        "nunique": series_nunique,
        "value_counts": value_counts,
    }
    for attr, value in frame_methods.items():
        setattr(DataFrame, attr, value)
    for attr, value in series_methods.items():
        setattr(Series, attr, value)


_attach()
