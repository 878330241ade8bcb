"""``mode`` of Series and DataFrame: the most frequent values, sorted.

The counts of distinct values come from the tree of ``value_counts`` (per-chunk counts
merged up a tree), so only the distinct values and their counts meet in one place; a
``collect`` task then keeps those with the highest count, sorted as pandas sorts them.
A DataFrame's columns are counted separately and padded with missing values to the
longest, as pandas pads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.collect import collect
from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.reduction.args import check_flag, is_numeric, probe_frame


def modes_of(counts: pd.Series, dtype: Any, name: Any) -> pd.Series:
    """The values of ``counts`` (a value_counts result) that occur most often, sorted,
    in the counted column's dtype, on a fresh RangeIndex."""
    # categories that never occur are counted 0 and are no mode, even of an empty column
    top = counts.index[counts == counts.max()] if len(counts) else counts.index
    if len(counts) and counts.max() == 0:
        top = counts.index[:0]
    values = pd.Series(top, dtype=top.dtype, name=name)
    try:
        values = values.sort_values(kind="stable")
    except TypeError:  # values that do not compare stay in their order, as in pandas
        pass
    out = values.reset_index(drop=True)
    try:
        return out.astype(dtype)
    except (TypeError, ValueError):
        return out


@dataclass(frozen=True)
class SeriesModes:
    dtype: Any
    name: Any

    def __call__(self, values: list[Any]) -> pd.Series:
        return modes_of(values[0], self.dtype, self.name)


@dataclass(frozen=True)
class FrameModes:
    dtypes: tuple[Any, ...]
    columns: pd.Index

    def __call__(self, values: list[Any]) -> pd.DataFrame:
        found = [modes_of(v, t, None) for v, t in zip(values, self.dtypes)]
        out = pd.DataFrame(dict(enumerate(found)))
        if not found:
            out = pd.DataFrame(index=pd.RangeIndex(0))
        out.columns = self.columns
        return out


def series_mode(s: Any, dropna: bool = True) -> Any:
    """The most frequent value(s) as a lazy Series (several when tied), sorted."""
    drop = check_flag(dropna, "dropna")
    meta = s.meta.mode(dropna=drop)
    counts = s.value_counts(dropna=drop, sort=False)
    return collect(SeriesModes(s.dtype, s.name), [counts], meta, float("nan"), "mode")


def frame_mode(df: Any, axis: Any = 0, numeric_only: bool = False, dropna: bool = True) -> Any:
    """The most frequent value(s) of each column, as a lazy DataFrame on a RangeIndex."""
    if axis_number(df.meta, axis) != 0:
        raise NotImplementedError("mode(axis=1) is not supported")
    drop = check_flag(dropna, "dropna")
    only = check_flag(numeric_only, "numeric_only")
    meta = df.meta
    keep = [i for i, t in enumerate(meta.dtypes) if not only or is_numeric(t)]
    kept = meta.iloc[:, keep]
    out_meta = empty_like(probe_frame(kept).mode(dropna=drop))
    parts = [df.iloc[:, i].value_counts(dropna=drop, sort=False) for i in keep]
    build = FrameModes(tuple(kept.dtypes), kept.columns)
    if not parts:
        return DataFrame(build([]))
    return collect(build, parts, out_meta, float("nan"), "mode")


def _attach() -> None:
    setattr(Series, "mode", series_mode)  # noqa: B010
    setattr(DataFrame, "mode", frame_mode)  # noqa: B010


_attach()
