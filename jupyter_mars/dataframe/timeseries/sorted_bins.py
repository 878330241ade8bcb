"""Per-bin sums, counts, minima and maxima of a chunk whose times are sorted, by NumPy.

pandas resamples a chunk by labelling every row with its bin (an array as long as the
chunk), checking that the labels are sorted, finding where they change, and only then
summing each run of rows with ``ufunc.reduceat``; ``sum`` and ``count`` each do it again.
Where the times are sorted and hold no NaT, and the rule has a fixed length, the bins of
the whole frame (``grid``: pandas' labels, bin edges all) say where each bin starts in
the chunk with one binary search per bin, and the same ``reduceat`` gives the same sums:
a few passes over the values instead of a dozen.

The partials are what pandas' resampler gives on the chunk (the chunk's bins, empty ones
included, same dtypes), so merging them is unchanged. Values with NaN go to pandas:
it sums them with compensated (Kahan) sums, which ``reduceat`` would not match.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

SORTED_HOWS = {"sum", "count", "mean", "min", "max"}
"""The functions done here; ``mean`` is its (sum, count) pair."""
_REDUCE = {"sum": np.add, "min": np.minimum, "max": np.maximum}


def bin_starts(
    times: pd.DatetimeIndex, grid: pd.DatetimeIndex, step: pd.Timedelta, closed: str, label: str
) -> tuple[pd.DatetimeIndex, np.ndarray[Any, Any]]:
    """The chunk's bins (labels) and where each starts in ``times``."""
    lefts = grid if label == "left" else grid - step
    # the bin of a time t is the last left edge <= t (< t with bins closed on the right)
    side = "right" if closed == "left" else "left"
    first = int(lefts.searchsorted(times[0], side=side)) - 1
    last = int(lefts.searchsorted(times[-1], side=side)) - 1
    starts = times.searchsorted(
        lefts[first : last + 1], side="left" if closed == "left" else "right"
    )
    return grid[first : last + 1], np.asarray(starts, dtype=np.intp)


def _column(
    values: np.ndarray[Any, Any],
    how: str,
    starts: np.ndarray[Any, Any],
    sizes: np.ndarray[Any, Any],
) -> np.ndarray[Any, Any]:
    """``how`` of each bin of one column, empty bins as pandas gives them."""
    if how == "count":
        return sizes.astype(np.int64)
    full = sizes > 0
    reduced = _REDUCE[how].reduceat(values, starts[full])
    if how == "sum":
        out = np.zeros(len(sizes), dtype=values.dtype)
    else:  # an empty bin has no minimum: NaN
        out = np.full(len(sizes), np.nan, dtype=np.float64)
    out[full] = reduced
    return out


def sorted_partial(
    obj: Any, how: str, grid: pd.DatetimeIndex, step: pd.Timedelta, closed: str, label: str
) -> Any | None:
    """pandas' ``how`` per bin of ``obj`` (a chunk, its columns selected), or None where
    this path does not apply (unsorted times, NaT, NaN, other dtypes)."""
    times = obj.index
    if how not in SORTED_HOWS or not isinstance(times, pd.DatetimeIndex) or not len(times):
        return None
    if times.hasnans or not times.is_monotonic_increasing:
        return None
    columns = [obj] if isinstance(obj, pd.Series) else [obj.iloc[:, i] for i in range(obj.shape[1])]
    arrays = []
    for column in columns:
        values = column.to_numpy() if isinstance(column.dtype, np.dtype) else None
        if values is None or values.dtype not in (np.float64, np.int64):
            return None
        if how in ("min", "max") and values.dtype != np.float64:
            return None
        if values.dtype == np.float64 and np.isnan(values).any():
            return None
        arrays.append(values)
    labels, starts = bin_starts(times, grid, step, closed, label)
    sizes = np.diff(starts, append=len(times))
    labels = labels.rename(times.name)

    def result(part: str) -> Any:
        out = [_column(values, part, starts, sizes) for values in arrays]
        if isinstance(obj, pd.Series):
            return pd.Series(out[0], index=labels, name=obj.name, copy=False)
        data = dict(enumerate(out))
        return pd.DataFrame(data, index=labels, copy=False).set_axis(obj.columns, axis=1)

    if how == "mean":
        return result("sum"), result("count")
    return result(how)
