"""``expanding()``: windows from the first row to each row.

Each column's running state is a handful of numbers: rows seen, valid values seen, their
sum, minimum, maximum, mean and sum of squared deviations. Every chunk's state is
computed in parallel, a chain of tiny tasks merges them in row order (the moments with
Chan's parallel update), and each chunk is finished with NumPy running sums from the
state of the rows above it. Variances are accumulated around the mean carried in, which
keeps them accurate when the values are far from zero.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.dataframe.neighbours import Carry, scan
from jupyter_mars.dataframe.node import empty_like

FloatArray = Any
"""A float64 NumPy array (rows by columns, or one value per column)."""


def values_2d(chunk: Any) -> FloatArray:
    """The chunk as a float array of rows by columns (NaN for missing values)."""
    data = chunk.to_numpy(dtype=np.float64, na_value=np.nan)
    return data.reshape(len(chunk), 1 if data.ndim == 1 else data.shape[1])


def as_frame_like(meta: Any, chunk: Any, values: FloatArray) -> Any:
    """``values`` in the shape of ``meta``, with the chunk's index."""
    if isinstance(meta, pd.Series):
        return pd.Series(values[:, 0], index=chunk.index, name=meta.name, dtype=meta.dtype)
    out = pd.DataFrame(values, index=chunk.index, columns=meta.columns)
    return out if (out.dtypes == meta.dtypes).all() else out.astype(meta.dtypes.to_dict())


@dataclass(frozen=True)
class State:
    """Running statistics of each column over some rows."""

    rows: int
    count: FloatArray
    total: FloatArray
    low: FloatArray
    high: FloatArray
    mean: FloatArray
    m2: FloatArray


def summarize(chunk: Any) -> State:
    x = values_2d(chunk)
    valid = ~np.isnan(x)
    count = valid.sum(axis=0).astype(np.float64)
    filled = np.where(valid, x, 0.0)
    total = filled.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(count > 0, total / count, 0.0)
    m2 = np.where(valid, (x - mean) ** 2, 0.0).sum(axis=0)
    big = np.full(x.shape[1], np.inf)
    low = np.where(valid, x, big).min(axis=0, initial=np.inf)
    high = np.where(valid, x, -big).max(axis=0, initial=-np.inf)
    low = np.where(count > 0, low, np.nan)
    high = np.where(count > 0, high, np.nan)
    return State(len(chunk), count, total, low, high, mean, m2)


def fold(carry: State | None, part: State) -> State:
    """The state of the rows of ``carry`` followed by those of ``part``."""
    if carry is None:
        return part
    count = carry.count + part.count
    delta = part.mean - carry.mean
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(count > 0, part.count / count, 0.0)
        mean = carry.mean + delta * share
        m2 = carry.m2 + part.m2 + delta**2 * carry.count * share
    return State(
        carry.rows + part.rows,
        count,
        carry.total + part.total,
        np.fmin(carry.low, part.low),
        np.fmax(carry.high, part.high),
        mean,
        m2,
    )


def finish(
    how: str, min_periods: int, ddof: int, meta: Any, chunk: Any, before: State | None, after: Any
) -> Any:
    x = values_2d(chunk)
    ncols = x.shape[1]
    if not len(x):
        return as_frame_like(meta, chunk, x)
    carry = before if before is not None else summarize(chunk.iloc[:0])
    valid = ~np.isnan(x)
    count = carry.count + np.cumsum(valid, axis=0)
    rows = carry.rows + np.arange(1, len(x) + 1, dtype=np.float64)[:, None]
    enough = count >= min_periods
    with np.errstate(invalid="ignore", divide="ignore"):
        if how == "count":
            out = np.broadcast_to(count, x.shape).astype(np.float64)
            enough = np.broadcast_to(rows >= min_periods, x.shape)
        elif how in ("sum", "mean"):
            out = carry.total + np.cumsum(np.where(valid, x, 0.0), axis=0)
            if how == "mean":
                out = out / count
        elif how == "min":
            out = np.fmin.accumulate(np.vstack([carry.low[None, :], x]), axis=0)[1:]
        elif how == "max":
            out = np.fmax.accumulate(np.vstack([carry.high[None, :], x]), axis=0)[1:]
        else:  # var / std around the mean carried in (the first value when none)
            first = x[np.argmax(valid, axis=0), np.arange(ncols)]
            centre = np.where(carry.count > 0, carry.mean, np.nan_to_num(first))
            y = np.where(valid, x - centre, 0.0)
            s = np.cumsum(y, axis=0)
            m2 = carry.m2 + np.cumsum(y * y, axis=0) - s * s / count
            out = np.maximum(m2, 0.0) / (count - ddof)
            out = np.where(count - ddof > 0, out, np.nan)
            if how == "std":
                out = np.sqrt(out)
    out = np.where(enough, out, np.nan)
    return as_frame_like(meta, chunk, out.reshape(len(x), ncols))


def _aggregation(how: str) -> Any:
    def aggregate(self: Expanding, *args: Any, **kwargs: Any) -> Any:
        return self._aggregate(how, args, kwargs)

    aggregate.__name__ = how
    aggregate.__doc__ = f"The expanding ``{how}``, as pandas computes it."
    return aggregate


class Expanding:
    """A lazy frame's growing window (all rows up to each row)."""

    def __init__(self, frame: FrameBase, min_periods: int) -> None:
        self._frame = frame
        self._min_periods = min_periods
        self._pandas = frame.meta.expanding(min_periods=min_periods)  # checks the argument

    def _aggregate(self, how: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        # pandas checks the columns' dtypes only when there are rows: made-up ones here
        sample = sample_like(self._frame.meta).expanding(min_periods=self._min_periods)
        meta = empty_like(getattr(sample, how)(*args, **kwargs))
        ddof = 1
        if how in ("std", "var"):
            ddof = int(kwargs.pop("ddof", args[0] if args else 1))
            args = ()
        if args or kwargs:
            raise NotImplementedError(f"expanding {how}: arguments are not supported")
        kernel = functools.partial(finish, how, self._min_periods, ddof, meta)
        return scan(self._frame, kernel, meta, f"expanding_{how}", before=Carry(summarize, fold))

    def __repr__(self) -> str:
        return f"Expanding [min_periods={self._min_periods}]"

    sum = _aggregation("sum")
    mean = _aggregation("mean")
    min = _aggregation("min")
    max = _aggregation("max")
    std = _aggregation("std")
    var = _aggregation("var")
    count = _aggregation("count")


def expanding(frame: FrameBase, min_periods: int = 1, method: str = "single") -> Expanding:
    """Windows from the first row to each row, non-NaN only once ``min_periods`` valid
    values are in (rows, for ``count``)."""
    if method != "single":
        raise NotImplementedError(f"expanding: method={method!r} is not supported")
    return Expanding(frame, min_periods)
