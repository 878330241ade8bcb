"""``Series.value_counts(bins=...)``: how many values fall in each of a set of intervals.

The bin edges are known at the call (a sequence) or come from the column's lazy minimum
and maximum, as ``pandas.cut`` derives them (``bins`` an int). Each chunk then counts its
values per bin (``pandas.cut`` with the same edges, so the same bin for every value), one
task adds the chunks' counts and lays them out exactly as pandas' ``value_counts`` does:
every bin, zero counts included, sorted by count unless ``sort=False``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.collect import collect
from jupyter_mars.dataframe.core import Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.sort import unique as distinct_counts


@dataclass(frozen=True)
class EdgesFromRange:
    """``pandas.cut``'s edges for ``bins`` equal-width bins between the two values."""

    bins: int

    def __call__(self, values: list[Any]) -> pd.Series:
        low, high = (float(v) for v in values)
        _, edges = pd.cut(np.array([low, high]), self.bins, retbins=True, include_lowest=True)
        return pd.Series(edges)


def count_bins(chunk: pd.Series, edges: pd.Series) -> pd.Series:
    """Values per bin of one chunk, then the chunk's number of rows (missing ones too)."""
    codes = pd.cut(chunk, edges.to_numpy(), include_lowest=True).cat.codes.to_numpy()
    counts = np.bincount(codes[codes >= 0], minlength=len(edges) - 1)
    return pd.Series(np.r_[counts, len(chunk)].astype(np.int64))


@dataclass(frozen=True)
class FinishBinned:
    normalize: bool
    sort: bool
    ascending: bool
    dropna: bool

    def __call__(self, values: list[Any]) -> pd.Series:
        counts, edges = values
        nbins = len(edges) - 1
        per_chunk = counts.to_numpy().reshape(-1, nbins + 1)
        totals = per_chunk.sum(axis=0)
        sample = pd.Series([edges.iloc[0]], dtype=np.float64)
        labels = pd.cut(sample, edges.to_numpy(), include_lowest=True).cat.categories
        result = pd.Series(totals[:nbins], index=labels.astype("interval"), name="count")
        result = result.sort_index()
        if self.dropna and (result.to_numpy() == 0).all():
            result = result.iloc[0:0]
        if self.sort:
            result = result.sort_values(ascending=self.ascending)
        if self.normalize:
            result = result / totals[nbins]
            result.name = "proportion"
        return result


def value_counts(
    series: Series,
    normalize: bool = False,
    sort: bool = True,
    ascending: bool = False,
    bins: Any = None,
    dropna: bool = True,
) -> Any:
    """How often each distinct value occurs; with ``bins``, how many values fall in each
    interval (an int: that many equal-width bins over the values' range)."""
    if bins is None:
        return distinct_counts.value_counts(series, normalize, sort, ascending, None, dropna)
    flags = distinct_counts._flags(
        normalize=normalize, sort=sort, ascending=ascending, dropna=dropna
    )
    if not isinstance(series.meta.dtype, np.dtype) or series.meta.dtype.kind not in "iufb":
        raise TypeError(f"value_counts(bins=) needs numbers, got a Series of {series.meta.dtype}")
    probe = pd.Series([0.0, 1.0]).value_counts(bins=bins, **flags)  # pandas checks the bins
    edges: Any
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        low, high = series.min(), series.max()  # type: ignore[attr-defined]
        meta = pd.Series(dtype=np.float64)
        edges = collect(EdgesFromRange(int(bins)), [low, high], meta, int(bins) + 1, "bin_edges")
    else:
        edges = Series(pd.Series(np.asarray(bins, dtype=np.float64)))
    counts = map_chunks(
        count_bins,
        [series, edges],
        (Slot(0), Slot(1)),
        pd.Series(dtype=np.int64),
        name="count_bins",
        keeps_rows=False,
        broadcast=frozenset({1}),
    )
    finish = FinishBinned(**flags)
    return collect(finish, [counts, edges], empty_like(probe), math.nan, "value_counts")


setattr(Series, "value_counts", value_counts)  # noqa: B010
