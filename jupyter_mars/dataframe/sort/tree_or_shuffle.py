"""Mars's ``method=`` keyword on ``drop_duplicates``, ``duplicated``, ``nunique`` and
``Series.value_counts``.

Two ways to find distinct rows, with the same result:

- ``"shuffle"``: rows are hashed by their keys to partitions, each partition decides
  alone (``duplicated``'s flags, ``drop_duplicates`` keeping the unflagged rows);
- ``"tree"``: each chunk keeps its distinct rows, and partials are merged up a tree,
  keeping the distinct ones again: cheap when there are few distinct rows, and the
  result is one chunk. ``nunique`` counts the distinct values from that tree, or counts
  the rows ``drop_duplicates`` keeps through the shuffle.

``"auto"`` is the tree for ``nunique`` and ``value_counts`` and the shuffle for the others
(their results are as long as their input). ``value_counts`` by shuffle counts each
partition's values with a shuffled groupby and sorts the counts with a distributed sort,
so a Series of many distinct values never meets in one task; values counted as often as
each other come in the order of the values, where the tree (and pandas) keeps the order
in which they first occur. ``duplicated`` is a flag per row, so it always shuffles; it takes
the keyword for Mars's signature.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.collect import collect
from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.sort import binned_counts
from jupyter_mars.dataframe.sort import duplicated as by_shuffle
from jupyter_mars.dataframe.sort import unique as by_tree
from jupyter_mars.dataframe.sort.tree import tree_frame

METHODS = ("auto", "tree", "shuffle")


def check_method(method: Any) -> str:
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    return str(method)


@dataclass(frozen=True)
class DistinctRows:
    """Tree kernels of ``drop_duplicates``: a partial is the distinct rows so far and,
    for ``keep=False``, which of them were seen more than once."""

    subset: tuple[Any, ...] | None
    keep: Any
    ignore_index: bool

    def _flags(self, rows: Any, keep: Any) -> np.ndarray[Any, Any]:
        if isinstance(rows, pd.Series):
            return np.asarray(rows.duplicated(keep=keep), dtype=bool)
        subset = None if self.subset is None else list(self.subset)
        return np.asarray(rows.duplicated(subset=subset, keep=keep), dtype=bool)

    def _reduce(self, rows: Any, seen_twice: np.ndarray[Any, Any]) -> tuple[Any, Any]:
        keep = "first" if self.keep is False else self.keep
        repeated = seen_twice | self._flags(rows, False)
        kept = ~self._flags(rows, keep)
        return rows[kept], repeated[kept]

    def chunk(self, block: Any) -> tuple[Any, Any]:
        return self._reduce(block, np.zeros(len(block), dtype=bool))

    def combine(self, parts: list[tuple[Any, Any]]) -> tuple[Any, Any]:
        rows = pd.concat([p[0] for p in parts])
        return self._reduce(rows, np.concatenate([p[1] for p in parts]))

    def aggregate(self, part: tuple[Any, Any]) -> Any:
        rows, repeated = part
        if self.keep is False:
            rows = rows[~repeated]
        return rows.reset_index(drop=True) if self.ignore_index else rows


def drop_duplicates(
    frame: Any,
    subset: Any = None,
    keep: Any = "first",
    inplace: bool = False,
    ignore_index: bool = False,
    method: str = "auto",
) -> Any:
    """The rows that are not repeats, in their order (see the module for ``method``)."""
    how = check_method(method)
    if how != "tree":
        return by_shuffle.drop_duplicates(frame, subset, keep, inplace, ignore_index)
    if inplace:
        raise NotImplementedError("inplace drop_duplicates is not supported; use the result")
    by_shuffle._check_keep(keep)
    labels = by_shuffle._subset(frame, subset)
    meta = frame.meta
    if ignore_index:
        meta = meta.reset_index(drop=True)
    kernels = DistinctRows(labels, keep, bool(ignore_index))
    return tree_frame(frame, kernels, "drop_duplicates", empty_like(meta))


def series_drop_duplicates(
    series: Series,
    keep: Any = "first",
    inplace: bool = False,
    ignore_index: bool = False,
    method: str = "auto",
) -> Any:
    """The values that are not repeats, in their order."""
    return drop_duplicates(series, None, keep, inplace, ignore_index, method)


def duplicated(frame: Any, subset: Any = None, keep: Any = "first", method: str = "auto") -> Any:
    """Whether each row repeats another, as a lazy boolean Series on the input's index."""
    check_method(method)
    return by_shuffle.duplicated(frame, subset, keep)


def series_duplicated(series: Series, keep: Any = "first", method: str = "auto") -> Any:
    return duplicated(series, None, keep, method)


def series_nunique(series: Any, dropna: bool = True, method: str = "auto") -> Any:
    """The number of distinct values, as a lazy 0-d tensor."""
    if check_method(method) != "shuffle":
        return by_tree.series_nunique(series, dropna)
    drop = by_tree._check_dropna(dropna)
    distinct = by_shuffle.drop_duplicates(series)
    return distinct.count() if drop else distinct.isna().count()


def value_counts(
    series: Series,
    normalize: bool = False,
    sort: bool = True,
    ascending: bool = False,
    bins: Any = None,
    dropna: bool = True,
    method: str = "auto",
) -> Any:
    """How often each distinct value occurs (see the module for ``method``)."""
    if check_method(method) != "shuffle" or bins is not None:  # bins: a few counts anyway
        return binned_counts.value_counts(series, normalize, sort, ascending, bins, dropna)
    flags = by_tree._flags(normalize=normalize, sort=sort, ascending=ascending, dropna=dropna)
    counts = series.groupby(series, dropna=flags["dropna"]).agg("size", method="shuffle")  # type: ignore[attr-defined]
    counts = counts.rename("count")
    if flags["sort"]:
        counts = counts.sort_values(ascending=flags["ascending"], kind="stable")
    if flags["normalize"]:
        counts = (counts / counts.sum()).rename("proportion")
    return counts


@dataclass(frozen=True)
class Counts:
    columns: pd.Index

    def __call__(self, values: list[Any]) -> pd.Series:
        return pd.Series([np.int64(v) for v in values], index=self.columns, dtype=np.int64)


def frame_nunique(frame: Any, axis: Any = 0, dropna: bool = True, method: str = "auto") -> Any:
    """The number of distinct values of every column, as a lazy Series."""
    if check_method(method) != "shuffle":
        return by_tree.frame_nunique(frame, axis, dropna)
    meta = frame.meta.nunique(axis=axis, dropna=by_tree._check_dropna(dropna))
    parts = [series_nunique(frame.iloc[:, i], dropna, "shuffle") for i in range(frame.shape[1])]
    if not parts:
        return by_tree.frame_nunique(frame, axis, dropna)
    return collect(Counts(frame.columns), parts, empty_like(meta), len(parts), "nunique")


def _attach() -> None:
    frame_methods: dict[str, Any] = {
        "duplicated": duplicated,
        "drop_duplicates": drop_duplicates,
        "nunique": frame_nunique,
    }
    series_methods: dict[str, Any] = {
        "duplicated": series_duplicated,
        "drop_duplicates": series_drop_duplicates,
        "nunique": series_nunique,
        "value_counts": value_counts,
    }
    for attr, value in frame_methods.items():
        setattr(DataFrame, attr, value)
    for attr, value in series_methods.items():
        setattr(Series, attr, value)


_attach()
