"""The partial states of a wide block of one NumPy number dtype, as arrays.

A wide frame (thousands of columns, usually one float or int dtype) would otherwise
carry one Python state per column through the tree reduction: a list of thousands of
NumPy scalars or ``(n, total, m2)`` tuples per chunk, merged column by column and sized
item by item by the runtime's memory accounting. ``StackedStates`` holds the same states
as one array per state field, so chunking, merging and finishing are a few NumPy calls
whatever the width. Each array holds what the per-column path holds for that column
(``to_list`` gives it back), so both paths compute the same numbers, operation for
operation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.reduction._moments import stacked_moments

Array = np.ndarray[Any, Any]
MOMENTS = frozenset({"mean", "var", "std", "sem"})
SIMPLE_MERGE: dict[str, Any] = {
    "sum": np.add,
    "prod": np.multiply,
    "count": np.add,
    "any": np.logical_or,
    "all": np.logical_and,
    "min": np.minimum,
    "max": np.maximum,
}
"""The NumPy ufunc whose reduction merges the partials of each simple reduction."""


@dataclass(frozen=True)
class StackedStates:
    """The states of a block's reduced columns: ``(values,)`` for the simple reductions
    (pandas' own per-column result of the chunk), ``(n, total, m2)`` for the moments."""

    arrays: tuple[Array, ...]

    @property
    def nbytes(self) -> int:
        """What the runtime's memory accounting reads (one attribute, not per column)."""
        return sum(int(a.nbytes) for a in self.arrays)

    def to_list(self) -> list[Any]:
        """The per-column states, as the column-by-column path has them."""
        if len(self.arrays) == 1:
            return list(self.arrays[0])
        n, total, m2 = (a.tolist() for a in self.arrays)
        return list(zip(n, total, m2))


def stack_chunk(how: str, skipna: bool, frame: pd.DataFrame) -> StackedStates | None:
    """The states of ``frame``'s columns (all of one NumPy number dtype), or None where
    only the per-column path knows how (an empty chunk of min/max keeps its column)."""
    if how in MOMENTS:
        values = frame.to_numpy(dtype=np.float64)
        return StackedStates(stacked_moments(values, skipna, second=how != "mean"))
    if how == "count":
        return StackedStates((frame.count().to_numpy(dtype=np.int64),))
    if how not in SIMPLE_MERGE or (how in ("min", "max") and not len(frame)):
        return None
    if how == "sum" and frame.dtypes.iloc[0] in (np.float32, np.float64):
        return StackedStates((_float_sums(frame, skipna),))
    # one dtype in, so pandas' per-column results have the column's own type
    return StackedStates((getattr(frame, how)(skipna=skipna).to_numpy(),))


def _float_sums(frame: pd.DataFrame, skipna: bool) -> Array:
    """pandas' column sums of a float32 or float64 frame in one pass where a column has
    no missing value (pandas first masks the missing values, a second pass over all of
    them). The sum of a column with a NaN is NaN, so only those are summed again by
    pandas; the others are the very sum pandas takes once it finds nothing to mask."""
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, summed again by pandas
        totals: Array = frame.to_numpy().sum(axis=0)
    again = np.isnan(totals)
    if again.any():
        totals[again] = frame.iloc[:, np.flatnonzero(again)].sum(skipna=skipna).to_numpy()
    return totals


def can_merge(parts: list[Any]) -> bool:
    """Whether ``parts`` are all stacked states of the same fields and dtypes."""
    first = parts[0]
    if not isinstance(first, StackedStates):
        return False
    dtypes = [a.dtype for a in first.arrays]
    return all(
        isinstance(p, StackedStates) and [a.dtype for a in p.arrays] == dtypes for p in parts
    )


def stack_merge(how: str, skipna: bool, parts: list[StackedStates]) -> StackedStates:
    """The states of the parts' rows together."""
    if how in MOMENTS:
        merged = parts[0].arrays
        for part in parts[1:]:
            merged = _merge_moments(merged, part.arrays)
        return StackedStates(merged)
    merge = SIMPLE_MERGE[how]
    if how in ("min", "max") and skipna:
        merge = np.fmin if how == "min" else np.fmax  # NaN only where all are NaN
    values = np.stack([p.arrays[0] for p in parts])
    return StackedStates((merge.reduce(values, axis=0),))


def _merge_moments(a: tuple[Array, ...], b: tuple[Array, ...]) -> tuple[Array, ...]:
    """``merge_moments`` of every column at once, with its very operations and order."""
    na, ta, ma = a
    nb, tb, mb = b
    n = na + nb
    with np.errstate(invalid="ignore", divide="ignore"):
        delta = tb / nb - ta / na
        m2 = ma + mb + delta * delta * na * nb / n
    # an empty side leaves the other exactly as it was
    a_empty, b_empty = na == 0, nb == 0
    total = np.where(a_empty, tb, np.where(b_empty, ta, ta + tb))
    m2 = np.where(a_empty, mb, np.where(b_empty, ma, m2))
    return (n, total, m2)


def stack_finish(how: str, ddof: int, state: StackedStates) -> Array:
    """Every column's result (``finish_moments`` of each, or the merged values)."""
    if how not in MOMENTS:
        return state.arrays[0]
    n, total, m2 = state.arrays
    with np.errstate(invalid="ignore", divide="ignore"):
        if how == "mean":
            return np.where(n > 0, total / n, np.nan)
        var = np.where(n > ddof, m2 / (n - ddof), np.nan)
        if how == "var":
            return var
        std = np.where(var >= 0, np.sqrt(var), np.nan)
        if how == "std":
            return std
        return np.where(n > 0, std / np.sqrt(n), np.nan)
