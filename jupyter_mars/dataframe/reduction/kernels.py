"""Chunk, combine and aggregate kernels of the frame reductions.

A ``ReduceSpec`` holds what a reduction needs (its name, ``skipna``, ``ddof``, which
columns) and its bound methods are the three kernels of the engine's tree reduction, so
they pickle to workers. A partial result is a list with one state per reduced column:

- ``sum``/``prod``/``count``/``any``/``all``: pandas' own result for the chunk, merged by
  applying the same pandas reduction to the partials (so dtypes follow pandas);
- ``min``/``max``: the same, except that an empty chunk keeps its empty column (min of
  nothing has no identity and must not turn an int column into float);
- ``mean``/``var``/``std``/``sem``: ``(n, total, m2)`` moments (see ``_moments``); the
  mean of datetimes and timedeltas is taken on their integer ticks, as pandas does, and
  turned back into a Timestamp or Timedelta at the end;
- ``skew``/``kurt``: ``(n, mean, m2, m3, m4)`` (see ``_shape_moments``);
- ``sum``/``prod`` with ``min_count``: ``(pandas' result, non-missing count)``, NaN at the
  end where the count falls short.

A wide block whose reduced columns share one NumPy number dtype holds those same states
as arrays instead of a list (``StackedStates``, see ``_stacked``), merged and finished
in a few NumPy calls; partials of both kinds meet as lists.

With ``flat`` (``axis=None``) the per-column results are reduced once more into one
scalar: moments of all columns merged, the others reduced by pandas.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from pandas.core.dtypes.dtypes import BaseMaskedDtype

from jupyter_mars.dataframe.meta_dtypes import in_meta_dtype
from jupyter_mars.dataframe.reduction._moments import (
    column_moments,
    finish_moments,
    many_moments,
    merge_moments,
)
from jupyter_mars.dataframe.reduction._stacked import (
    StackedStates,
    can_merge,
    stack_chunk,
    stack_finish,
    stack_merge,
)
from jupyter_mars.dataframe.reduction.shape_moments import (
    column_shape_moments,
    finish_shape,
    merge_all,
)

MOMENTS = frozenset({"mean", "var", "std", "sem"})
SHAPES = frozenset({"skew", "kurt"})
"""Reductions from moments up to the fourth (see ``_shape_moments``)."""
EXTREMES = frozenset({"min", "max"})
WHOLE_BLOCK_FROM = 16
"""Blocks of more reduced columns than this reduce their columns dtype by dtype."""
MERGE_AS = {"sum": "sum", "prod": "prod", "count": "sum", "any": "any", "all": "all"}
"""The pandas reduction that merges partials of each simple reduction."""


NUMPY_FAST = frozenset({"min", "max", "sum"})
"""Reductions NumPy gives pandas' answer for, on a column of plain numbers without NaN."""


def numpy_reduce(column: pd.Series, how: str) -> Any:
    """pandas' ``min``, ``max`` or ``sum`` of a non-empty int64, uint64 or float64 column
    (any int or float for ``min``/``max``) by NumPy alone, or None where pandas is
    needed: a missing value, another dtype. pandas checks every value for NaN first;
    NumPy's answer is NaN exactly where one is present, so a number rules them out."""
    dtype = column.dtype
    if not isinstance(dtype, np.dtype) or dtype.kind not in "iuf" or len(column) == 0:
        return None
    if how == "sum" and dtype not in (np.int64, np.uint64, np.float64):
        return None  # pandas sums narrower dtypes in a wider one
    found = getattr(column.to_numpy(), how)()
    return None if dtype.kind == "f" and np.isnan(found) else found


@dataclass(frozen=True)
class ReduceSpec:
    """One reduction over rows; ``positions`` are the reduced columns (None: a Series)."""

    how: str
    skipna: bool
    ddof: int
    positions: tuple[int, ...] | None
    columns: Any = None
    """The result's index (the reduced columns' labels) for a DataFrame."""
    dtypes: tuple[Any, ...] = ()
    """The reduced columns' dtypes (datetime means are given back in theirs)."""
    min_count: int = 0
    flat: bool = False
    """``axis=None``: one scalar over every value of every reduced column."""
    out_dtype: Any = None
    """The scalar's dtype with ``flat``; the Series' dtype of a DataFrame's reduction
    (pandas' on the empty frame), which decides where it is a nullable one."""

    def _columns(self, block: Any) -> list[pd.Series]:
        if self.positions is None:
            return [block]
        return [block.iloc[:, p] for p in self.positions]

    def _chunk_one(self, column: pd.Series) -> Any:
        how = self.how
        if how in SHAPES:
            return column_shape_moments(column, self.skipna)
        if how in MOMENTS:
            return column_moments(_as_numbers(column), self.skipna, how != "mean")
        if self.min_count and how in ("sum", "prod"):
            return (getattr(column, how)(skipna=self.skipna), int(column.count()))
        if how == "count":
            return np.int64(column.count())
        if how in EXTREMES and len(column) == 0:
            return column
        if how in NUMPY_FAST:
            found = numpy_reduce(column, how)
            if found is not None:
                return found
        return getattr(column, how)(skipna=self.skipna)

    def chunk(self, block: Any, axis: Any = None, keepdims: bool = True) -> Any:
        """One state per column of a row chunk (as arrays for a wide block of one dtype)."""
        if self.positions is not None and len(self.positions) > WHOLE_BLOCK_FROM:
            stacked = self._chunk_stacked(block)
            if stacked is not None:
                return stacked
            return self._chunk_by_dtype(block)
        return [self._chunk_one(c) for c in self._columns(block)]

    def _chunk_stacked(self, block: pd.DataFrame) -> StackedStates | None:
        """The states of a block whose reduced columns share one NumPy number dtype, as
        arrays; None where the per-column states are needed."""
        assert self.positions is not None
        if self.min_count or self.how in SHAPES:
            return None
        positions = list(self.positions)
        dtypes = set(block.dtypes.iloc[positions])
        dtype = dtypes.pop() if len(dtypes) == 1 else None
        if not isinstance(dtype, np.dtype) or dtype.kind not in "biuf":
            return None
        # all the block's columns in order: the block itself, no copy taken
        whole = positions == list(range(block.shape[1]))
        return stack_chunk(self.how, self.skipna, block if whole else block.iloc[:, positions])

    def _chunk_by_dtype(self, block: pd.DataFrame) -> list[Any]:
        """The states of a wide block: the columns of each NumPy number dtype at once
        (one pandas or NumPy call instead of one per column), the others one by one."""
        assert self.positions is not None
        states: list[Any] = [None] * len(self.positions)
        groups: dict[Any, list[int]] = {}
        dtypes = list(block.dtypes)
        for k, p in enumerate(self.positions):
            groups.setdefault(dtypes[p], []).append(k)
        for dtype, picks in groups.items():
            columns = block.iloc[:, [self.positions[k] for k in picks]]
            found = self._chunk_many(columns, dtype)
            if found is None:
                found = [self._chunk_one(columns.iloc[:, n]) for n in range(len(picks))]
            for k, state in zip(picks, found):
                states[k] = state
        return states

    def _chunk_many(self, columns: pd.DataFrame, dtype: Any) -> list[Any] | None:
        """The states of columns of one NumPy number dtype together, as ``_chunk_one``
        gives them, or None where only ``_chunk_one`` knows how."""
        how = self.how
        if not isinstance(dtype, np.dtype) or dtype.kind not in "biuf" or self.min_count:
            return None
        if how in MOMENTS:
            return many_moments(columns.to_numpy(dtype=np.float64), self.skipna)
        if how in EXTREMES and not len(columns):
            return None
        if how == "count":
            return list(columns.count().to_numpy(dtype=np.int64))
        if how not in MERGE_AS and how not in EXTREMES:
            return None
        # one dtype in, so the frame's per-column results have the column's own type
        return list(getattr(columns, how)(skipna=self.skipna).to_numpy())

    def _merge_one(self, states: list[Any]) -> Any:
        how = self.how
        if how in SHAPES:
            return merge_all(states)
        if how in MOMENTS:
            merged = states[0]
            for s in states[1:]:
                merged = merge_moments(merged, s)
            return merged
        if how in EXTREMES:
            found = [s for s in states if not isinstance(s, pd.Series)]
            if not found:
                return states[0]
            return getattr(_partials(found), how)(skipna=self.skipna)
        if self.min_count and how in ("sum", "prod"):
            values = getattr(_partials([v for v, _ in states]), how)(skipna=False)
            return (values, sum(n for _, n in states))
        logical = how in ("any", "all")
        return getattr(_partials(states, logical), MERGE_AS[how])(skipna=False)

    def combine(self, parts: list[Any], axis: Any = None) -> Any:
        """Merge the partials of several chunks, column by column (all at once where they
        are stacked alike)."""
        if can_merge(parts):
            return stack_merge(self.how, self.skipna, parts)
        parts = [_as_list(p) for p in parts]
        if len(parts[0]) > WHOLE_BLOCK_FROM:
            merged = self._merge_numbers(parts)
            if merged is not None:
                return merged
        return [self._merge_one(list(states)) for states in zip(*parts)]

    def _merge_numbers(self, parts: list[list[Any]]) -> list[Any] | None:
        """``combine`` of wide partials that are all NumPy numbers, one NumPy reduction
        per state type (None where ``_merge_one`` must merge column by column)."""
        how = self.how
        merge = _NUMPY_MERGE.get(how if how in EXTREMES else MERGE_AS.get(how, ""))
        if merge is None or self.min_count:
            return None
        types = [type(state) for state in parts[0]]
        if not all(issubclass(t, (np.number, np.bool_)) for t in types) or any(
            [type(state) for state in part] != types for part in parts[1:]
        ):
            return None
        if how in EXTREMES and self.skipna:
            merge = np.fmin if how == "min" else np.fmax  # NaN only where all are NaN
        out: list[Any] = [None] * len(types)
        groups: dict[Any, list[int]] = {}
        for k, t in enumerate(types):
            groups.setdefault(t, []).append(k)
        for t, picks in groups.items():
            values = np.array([[part[k] for k in picks] for part in parts], dtype=t)
            for k, value in zip(picks, merge.reduce(values, axis=0)):
                out[k] = t(value)
        return out

    def _finish_one(self, state: Any, dtype: Any = None) -> Any:
        if self.how in SHAPES:
            return _missing_as_na(_in_float(finish_shape(state, self.how), dtype), dtype)
        if self.how in MOMENTS:
            value = finish_moments(state, self.how, self.ddof)
            if self.how == "mean":
                value = _as_dates(value, dtype)
            elif self.how == "std":
                value = _as_span(value, dtype)
            value = _in_float(value, dtype)
            return _missing_as_na(value, dtype)
        if isinstance(state, pd.Series):  # min/max of no rows at all
            return getattr(state, self.how)(skipna=self.skipna)
        if self.min_count and self.how in ("sum", "prod"):
            value, count = state
            return value if count >= self.min_count else np.float64(np.nan)
        return state

    def _finish_flat(self, part: list[Any]) -> Any:
        how = self.how
        if how in SHAPES:
            value: Any = finish_shape(merge_all(part), how)
        elif how in MOMENTS:
            merged = part[0] if part else (0, 0.0, 0.0)
            for s in part[1:]:
                merged = merge_moments(merged, s)
            value = finish_moments(merged, how, self.ddof)
        elif self.min_count and how in ("sum", "prod"):
            total = getattr(pd.Series([v for v, _ in part], dtype=object), how)(skipna=False)
            count = sum(n for _, n in part)
            value = total if count >= self.min_count else np.nan
        else:
            values = _partials([self._finish_one(s) for s in part], how in ("any", "all"))
            # the columns' own results honoured skipna: a NaN among sums is a real one
            # (inf - inf), as in pandas' sum of every value; an extreme's NaN is an empty column
            skipna = self.skipna if how in EXTREMES else False
            value = getattr(values, MERGE_AS.get(how, how))(skipna=skipna)
        dtype = self.out_dtype
        if isinstance(dtype, np.dtype) and dtype.kind in "biuf" and not pd.isna(value):
            return np.asarray(value).astype(dtype)[()]
        return np.float64(value) if pd.isna(value) else value

    def aggregate(self, part: Any, axis: Any = None, keepdims: bool = False) -> Any:
        """The scalar (Series input) or the per-column Series (DataFrame input)."""
        if isinstance(part, StackedStates) and not self.flat:
            finished = stack_finish(self.how, self.ddof, part)
            if self.how in MOMENTS and self.dtypes:
                finished = _in_float(finished, self.dtypes[0])
            return pd.Series(finished, index=self.columns)
        part = _as_list(part)
        if self.flat:
            return self._finish_flat(part)
        dtypes = self.dtypes or (None,) * len(part)
        values = [self._finish_one(s, t) for s, t in zip(part, dtypes)]
        if self.positions is None:  # a Series' scalar: a missing date or span is NaT
            value = values[0]
            return pd.NaT if isinstance(value, (np.datetime64, np.timedelta64)) else value
        if not values:  # no columns: what pandas gives, whatever the rows
            empty = getattr(pd.DataFrame(), self.how)()
            empty.index = self.columns[:0]
            return empty
        return in_meta_dtype(values_to_series(values, self.columns), self.out_dtype)


_NUMPY_MERGE: dict[str, Any] = {
    "sum": np.add,
    "prod": np.multiply,
    "any": np.logical_or,
    "all": np.logical_and,
    "min": np.minimum,
    "max": np.maximum,
}
"""The NumPy ufunc whose reduction merges partials of NumPy numbers of one type."""


def _in_float(value: Any, dtype: Any) -> Any:
    """A moment of columns of a float dtype in that dtype (pandas gives float32 columns
    float32 means); of others (ints, dates) as it is."""
    if not isinstance(dtype, np.dtype) or dtype.kind != "f" or dtype == np.float64:
        return value
    return value.astype(dtype) if isinstance(value, np.ndarray) else dtype.type(value)


def _missing_as_na(value: Any, dtype: Any) -> Any:
    """A moment that is NaN (no values, too few for ``ddof``, a missing one kept) as
    pandas' NA for a nullable column, as pandas gives it."""
    if isinstance(dtype, BaseMaskedDtype) and isinstance(value, float) and np.isnan(value):
        return pd.NA
    return value


def _partials(values: list[Any], logical: bool = False) -> pd.Series:
    """Chunks' results of one column as a Series to merge. Where one is pandas' NA (a
    nullable column's), in the nullable dtype pandas infers for them, so that NA stays NA
    and ``any``/``all`` (``logical``) follow pandas' three-valued logic, as on the whole
    column."""
    if any(v is pd.NA for v in values):
        if logical:
            dtype: Any = "boolean"
        elif all(v is pd.NA for v in values):
            dtype = "Float64"  # all missing: any nullable dtype merges them to NA
        else:
            dtype = None
        try:
            return pd.Series(pd.array(values, dtype=dtype))
        except (TypeError, ValueError):  # no dtype holds them all: as objects
            pass
    return pd.Series(values)


def _as_list(part: Any) -> list[Any]:
    """A partial as its list of per-column states."""
    return part.to_list() if isinstance(part, StackedStates) else part


def _as_numbers(column: pd.Series) -> pd.Series:
    """Datetimes and timedeltas as their integer ticks (missing ones NaN); others as is."""
    if column.dtype.kind not in "mM":
        return column
    ticks = column.array.asi8.astype(np.float64)
    ticks[column.isna().to_numpy()] = np.nan
    return pd.Series(ticks, index=column.index)


def _tick_unit(dtype: Any) -> str | None:
    """The unit of the ticks of a dtype of dates or spans (time zones too); None for
    other dtypes."""
    if dtype is None or getattr(dtype, "kind", "") not in "mM":
        return None
    return str(getattr(dtype, "unit", None) or np.datetime_data(dtype)[0])


def _as_dates(value: Any, dtype: Any) -> Any:
    """A mean of ticks back as a Timestamp or Timedelta of ``dtype`` (truncated, as
    pandas); other means as they are."""
    unit = _tick_unit(dtype)
    if unit is None:
        return value
    if np.isnan(value):
        if dtype.kind == "m":
            return _nat("m", unit)
        return pd.NaT if getattr(dtype, "tz", None) else _nat("M", unit)
    if dtype.kind == "m":
        return pd.Timedelta(int(value), unit=unit).as_unit(unit)
    return pd.Timestamp(int(value), unit=unit, tz=getattr(dtype, "tz", None)).as_unit(unit)


def _nat(kind: str, unit: str) -> Any:
    """NumPy's NaT of dates (``kind`` M) or spans (m) in ``unit``: typed, so that a result
    holding only it keeps its dtype."""
    return np.array("NaT", dtype=f"{kind}8[{unit}]")[()]


def _as_span(value: Any, dtype: Any) -> Any:
    """A standard deviation of ticks as a Timedelta in the unit of ``dtype`` (dates and
    spans alike, truncated as pandas); others as they are."""
    unit = _tick_unit(dtype)
    if unit is None:
        return value
    if np.isnan(value):
        return _nat("m", unit)  # typed: a missing span, not a missing date
    return pd.Timedelta(int(value), unit=unit).as_unit(unit)


def values_to_series(values: list[Any], columns: pd.Index) -> pd.Series:
    """Per-column results as pandas gathers them: a one-row frame whose row is taken, so
    mixed result types find a common dtype the way ``DataFrame.sum()`` does."""
    kinds = {type(v) for v in values}
    if len(kinds) == 1 and issubclass(next(iter(kinds)), (np.number, np.bool_)):
        # NumPy numbers of one type: their array is that row (no frame to build)
        return pd.Series(np.array(values), index=columns)
    row = pd.DataFrame({i: [v] for i, v in enumerate(values)})
    out = row.iloc[0]
    out.index = columns
    out.name = None
    return out


def reduce_rows(block: pd.DataFrame, how: str, kwargs: dict[str, Any]) -> pd.Series:
    """Row-wise reduction of one row chunk (``axis=1``): pandas on the chunk itself."""
    return getattr(block, how)(axis=1, **kwargs)
