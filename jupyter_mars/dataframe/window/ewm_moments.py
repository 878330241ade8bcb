"""``ewm(...).var()`` and ``.std()`` (and, over pairs of columns, ``cov`` and ``corr``, see
``ewm_pairs``): exponentially weighted moments carried across chunks.

pandas' recurrence keeps, per column, a weighted distribution of the values seen so far:
its total weight, mean and (biased) variance, the sum of its squared weights (for the
bias correction ``T**2 / (T**2 - sum of squared weights)``) and the count of values.
A decaying row multiplies every weight by ``d = 1 - alpha``; a value then joins with
weight 1 (``adjust=True``), or with weight ``alpha`` after which all weights are scaled
to total 1 (``adjust=False``). The carry into a chunk is that distribution (``Moments``)
after all rows above it.

- ``adjust=True``: the rows above only decay inside a chunk, so each row of the chunk is
  the carry, decayed, merged (Chan's pairwise formula) with pandas' moments of the chunk
  alone up to that row.
- ``adjust=False``: the carry's share of each row shrinks by the same factors as a
  single value standing in its place would. pandas runs on the chunk preceded by the
  carry's mean at the carry's distance from the chunk (a stand-in value), which gives
  the exact weights and means; the carry's own spread is then added back:
  ``gamma * var`` to the variance and ``gamma**2 * (squares - 1)`` to the squared
  weights, ``gamma`` being the carry's share at the row. The squared weights of that run
  are read off pandas' own bias correction of a column of distinct values with the same
  gaps.

The fold from chunk to chunk merges the carry with each chunk's distribution at its
end, computed from the chunk alone with NumPy. Where only one value has been seen,
pandas' bias correction divides zero by a difference of two rounded powers of ``d``
(zero or NaN depending on the rounding); that difference is formed the same way here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.neighbours import Carry, scan
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.window.ewm import EWM, Params, decay_factors
from jupyter_mars.dataframe.window.expanding import FloatArray, as_frame_like, values_2d


@dataclass(frozen=True)
class Moments:
    """Each column pair's weighted distribution after some rows (arrays, one value a
    pair; a variance is the pair of a column with itself)."""

    weight: FloatArray
    """Total weight (``adjust=False``: 1 at the last value, then decayed)."""
    mean_x: FloatArray
    mean_y: FloatArray
    cov: FloatArray
    """Weighted biased covariance."""
    squares: FloatArray
    """Sum of squared weights over ``weight**2`` (1 with a single value)."""
    since: FloatArray
    """Decaying rows since the last value."""
    count: FloatArray


def _empty(ncols: int) -> Moments:
    zero, nan = np.zeros(ncols), np.full(ncols, np.nan)
    return Moments(zero, nan, nan, zero, zero + 1.0, zero, zero)


def merge(
    wa: Any, xa: Any, ya: Any, ca: Any, wb: Any, xb: Any, yb: Any, cb: Any
) -> tuple[Any, Any, Any, Any]:
    """Weight, means and biased covariance of two weighted parts taken together (a part
    of weight 0 counts as absent, whatever its means)."""
    total = wa + wb
    with np.errstate(invalid="ignore", divide="ignore"):
        fa, fb = wa / total, wb / total
        dx, dy = xb - xa, yb - ya
        both, only_a = (wa > 0) & (wb > 0), wb <= 0
        mean_x = np.where(both, xa + dx * fb, np.where(only_a, xa, xb))
        mean_y = np.where(both, ya + dy * fb, np.where(only_a, ya, yb))
        cov = np.where(both, fa * ca + fb * cb + fa * fb * dx * dy, np.where(only_a, ca, cb))
    return total, mean_x, mean_y, cov


def operands(how: str, chunk: Any) -> tuple[Any, Any]:
    """The two sides of each pair: a column with itself for ``var`` and ``std``; the
    first half of the columns with the second for ``cov``; for ``corr`` the pairs
    ``(x, y)``, ``(x, x)`` and ``(y, y)`` side by side."""
    values = values_2d(chunk)
    if how in ("var", "std"):
        return values, values
    half = values.shape[1] // 2
    x, y = values[:, :half], values[:, half:]
    if how == "cov":
        return x, y
    return np.hstack([x, x, y]), np.hstack([y, x, y])


# --- the distribution at a chunk's end, from the chunk alone --------------------------


@dataclass(frozen=True)
class Part:
    """What a chunk alone tells of each pair's distribution at its end."""

    decay: FloatArray
    """``d`` to the chunk's decaying rows (what the weights above it are scaled by)."""
    decays: FloatArray
    """The chunk's decaying rows."""
    first_decays: FloatArray
    """Decaying rows up to the first value, that row included."""
    head: tuple[FloatArray, FloatArray]
    """The first values."""
    head_weight: FloatArray
    """``adjust=False``: what is left of the first value's weight 1 at the end."""
    alone: Moments
    """The chunk's own moments at its end (``adjust=False``: those of the values after
    the first, with the count of all)."""


def _gaps(p: Params, valid: Any, decays: Any) -> tuple[Any, Any]:
    """Per row, ``d`` to the decaying rows since the previous value in the chunk, and
    whether a value came before in the chunk."""
    ncols = valid.shape[1]
    last = np.maximum.accumulate(np.where(valid, decays, 0.0), axis=0)
    previous = np.vstack([np.zeros((1, ncols)), last[:-1]])
    seen = np.vstack([np.zeros((1, ncols), dtype=bool), np.cumsum(valid, axis=0)[:-1] > 0])
    return (1 - p.alpha) ** (decays - previous), seen


def _first_values(x: Any) -> Any:
    """Each column's first value (0 where it has none)."""
    if not len(x):
        return np.zeros(x.shape[1])
    valid = ~np.isnan(x)
    first = x[np.argmax(valid, axis=0), np.arange(x.shape[1])]
    return np.where(valid.any(axis=0), first, 0.0)


def _weighted(weights: Any, x: Any, y: Any) -> tuple[Any, ...]:
    """Total weight, means, biased covariance and sum of squared weights of each pair."""
    # deviations from the first values: a constant column's mean is then that value
    # exactly, as in pandas' recurrence
    fx, fy = _first_values(x), _first_values(y)
    dx = np.where(weights > 0, x - fx, 0.0)
    dy = np.where(weights > 0, y - fy, 0.0)
    total = weights.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        sx = (weights * dx).sum(axis=0) / total
        sy = (weights * dy).sum(axis=0) / total
        cov = (weights * (dx - sx) * (dy - sy)).sum(axis=0) / total
    return total, sx + fx, sy + fy, cov, (weights * weights).sum(axis=0)


def summarize(p: Params, how: str, chunk: Any) -> Part:
    x, y = operands(how, chunk)
    n, ncols = x.shape
    valid = ~(np.isnan(x) | np.isnan(y))
    decays = decay_factors(p, valid) if n else np.zeros((0, ncols))
    end = decays[-1] if n else np.zeros(ncols)
    has = valid.any(axis=0)
    first_row = np.argmax(valid, axis=0) if n else np.zeros(ncols, dtype=np.intp)
    cols = np.arange(ncols)
    last_obs = np.where(valid, decays, 0.0).max(axis=0) if n else np.zeros(ncols)
    count = valid.sum(axis=0).astype(np.float64)
    since = np.where(has, end - last_obs, end)
    if p.adjust:
        weights = np.where(valid, (1 - p.alpha) ** (end - decays), 0.0) if n else x
        total, mean_x, mean_y, cov, squares = _weighted(weights, x, y)
        with np.errstate(invalid="ignore", divide="ignore"):
            squares = squares / total**2
        head_weight = np.zeros(ncols)
    else:
        old, seen = _gaps(p, valid, decays) if n else (x, x.astype(bool))
        later = valid & seen
        factor = np.where(later, old / (old + p.alpha), 1.0)
        added = np.where(later, p.alpha / (old + p.alpha), 0.0)
        # what the later factors leave of a weight given at a row: the product below it
        after = np.vstack([np.cumprod(factor[::-1], axis=0)[::-1][1:], np.ones((1, ncols))])
        total, mean_x, mean_y, cov, squares = _weighted(added * after, x, y)
        head_weight = np.prod(factor, axis=0)
    nan = np.full(ncols, np.nan)
    return Part(
        decay=(1 - p.alpha) ** end,
        decays=end,
        first_decays=decays[first_row, cols] if n else np.zeros(ncols),
        head=(x[first_row, cols], y[first_row, cols]) if n else (nan, nan),
        head_weight=head_weight,
        alone=Moments(total, mean_x, mean_y, cov, squares, since, count),
    )


def fold(p: Params, carry: Moments | None, part: Part) -> Moments:
    c = carry if carry is not None else _empty(len(part.decay))
    a = part.alone
    has = a.count > 0
    started = c.count > 0
    if p.adjust:
        wa = c.weight * part.decay
        total, mean_x, mean_y, cov = merge(
            wa, c.mean_x, c.mean_y, c.cov, a.weight, a.mean_x, a.mean_y, a.cov
        )
        with np.errstate(invalid="ignore", divide="ignore"):
            squares = (wa * wa * c.squares + a.weight**2 * a.squares) / total**2
    else:
        old = (1 - p.alpha) ** (c.since + part.first_decays)
        share = np.where(started, part.head_weight * old / (old + p.alpha), 0.0)
        head = np.where(started, part.head_weight * p.alpha / (old + p.alpha), part.head_weight)
        zero = np.zeros_like(head)
        first = merge(share, c.mean_x, c.mean_y, c.cov, head, *part.head, zero)
        total, mean_x, mean_y, cov = merge(*first, a.weight, a.mean_x, a.mean_y, a.cov)
        with np.errstate(invalid="ignore", divide="ignore"):
            squares = (share**2 * c.squares + head**2 + a.squares) / total**2
        total = np.ones_like(total)  # pandas scales the weights to total 1 at a value
    return Moments(
        np.where(has, total, c.weight * part.decay),
        np.where(has, mean_x, c.mean_x),
        np.where(has, mean_y, c.mean_y),
        np.where(has, cov, c.cov),
        np.where(has, squares, c.squares),
        np.where(has, a.since, c.since + part.decays),
        c.count + a.count,
    )


# --- each row of a chunk, with the carry ----------------------------------------------


def _pandas(p: Params, data: Any, adjust: bool) -> Any:
    return pd.DataFrame(data).ewm(**{**p.pandas, "adjust": adjust, "min_periods": 0})


def _pandas_cov(window: Any, x: Any, y: Any) -> Any:
    """pandas' biased covariance of each column pair, row by row."""
    if y is x:
        return window.var(bias=True).to_numpy(dtype=np.float64)
    other = pd.DataFrame(y)
    return window.cov(other, pairwise=False, bias=True).to_numpy(dtype=np.float64)


def _adjusted_rows(p: Params, x: Any, y: Any, valid: Any, c: Moments) -> tuple[Any, Any]:
    """Per row, for ``adjust=True``: the biased covariance and squared weights of the
    carry, decayed, merged with pandas' moments of the chunk so far."""
    ones = np.where(valid, 1.0, np.nan)
    # deviations from the first values, as in ``_weighted``
    fx, fy = _first_values(x), _first_values(y)
    dx = x - fx
    dy = dx if y is x else y - fy
    window = _pandas(p, dx, True)
    mean_x = window.mean().to_numpy(dtype=np.float64) + fx
    mean_y = mean_x if y is x else _pandas(p, dy, True).mean().to_numpy(dtype=np.float64) + fy
    cov = _pandas_cov(window, dx, dy)
    weight = np.nan_to_num(_pandas(p, ones, True).sum().to_numpy(dtype=np.float64))
    decay2 = {"alpha": 1 - (1 - p.alpha) ** 2, "ignore_na": p.ignore_na, "adjust": True}
    squares = np.nan_to_num(pd.DataFrame(ones).ewm(**decay2).sum().to_numpy(dtype=np.float64))
    wa = c.weight * (1 - p.alpha) ** decay_factors(p, valid)
    total, _, _, merged = merge(wa, c.mean_x, c.mean_y, c.cov, weight, mean_x, mean_y, cov)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = (wa * wa * c.squares + squares) / total**2
    return merged, ratio


def _plain_rows(p: Params, x: Any, y: Any, valid: Any, c: Moments) -> tuple[Any, Any]:
    """Per row, for ``adjust=False``: pandas on the chunk after the carry's stand-in (its
    means, at its distance from the chunk), then the carry's own spread added back."""
    n, ncols = x.shape
    started = c.count > 0
    d = 1 - p.alpha
    # past this many rows of decay the stand-in's weight is zero in pandas' arithmetic
    cap = int(np.ceil(-1080 / np.log2(d))) + 2 if d > 0 else 1
    gap = np.where(started, np.minimum(c.since, cap), 0).astype(np.int64)
    lead = int(gap.max()) + 1 if started.any() else 0
    where = np.flatnonzero(started)
    at = lead - 1 - gap[where]

    def stand_in(values: Any, means: Any) -> Any:
        prefix = np.full((lead, ncols), np.nan)
        prefix[at, where] = means[where]
        return np.vstack([prefix, values])

    # a column of distinct values with the same gaps gives the weights' squares
    probe = stand_in(np.where(valid, np.cumsum(valid, axis=0), np.nan), np.zeros(ncols))
    xs = stand_in(x, c.mean_x)
    ys = xs if y is x else stand_in(y, c.mean_y)
    window = _pandas(p, xs, False)
    cov = _pandas_cov(window, xs, ys)[lead:]
    probing = _pandas(p, probe, False)
    biased = probing.var(bias=True).to_numpy(dtype=np.float64)[lead:]
    unbiased = probing.var(bias=False).to_numpy(dtype=np.float64)[lead:]
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = 1 - biased / unbiased
    ratio = np.where(np.isfinite(ratio) & (unbiased > 0), ratio, 1.0)
    # the carry's share at each row: what each later value leaves of it
    decays = decay_factors(p, valid)
    old, seen = _gaps(p, valid, decays)
    factor = np.where(valid & seen, old / (old + p.alpha), 1.0)
    first_decays = decays[np.argmax(valid, axis=0), np.arange(ncols)] if n else decays
    entry = d ** (c.since + first_decays)
    share = np.cumprod(factor, axis=0) * (entry / (entry + p.alpha))
    share = np.where(np.cumsum(valid, axis=0) > 0, share, 1.0)
    share = np.where(started, share, 0.0)
    return cov + share * np.nan_to_num(c.cov), ratio + share**2 * (c.squares - 1)


def _single_value(p: Params, since: Any) -> Any:
    """pandas' ``sum_wt**2 - sum_wt2`` after one value and ``since`` decaying rows."""
    d = 1 - p.alpha
    steps = int(np.nanmax(since, initial=0)) + 1
    weight = np.cumprod(np.r_[1.0, np.full(steps, d)])
    squares = np.cumprod(np.r_[1.0, np.full(steps, d * d)])
    k = np.nan_to_num(since).astype(np.int64)
    return weight[k] * weight[k] - squares[k]


def _corrected(p: Params, cov: Any, ratio: Any, valid: Any, count: Any, c: Moments) -> Any:
    """pandas' unbiased covariance from the biased one and the squared weights."""
    decays = decay_factors(p, valid)
    last = np.maximum.accumulate(np.where(valid, decays, -1.0), axis=0)
    since = np.where(last >= 0, decays - last, c.since + decays)
    single = _single_value(p, np.where(count == 1, since, 0))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = cov / (1 - ratio)
    out = np.where(count == 1, np.where(single > 0, 0.0, np.nan), out)
    return np.where((count > 1) & ~(ratio < 1), np.nan, out)


def finish(p: Params, meta: Any, how: str, bias: bool, chunk: Any, before: Any, after: Any) -> Any:
    x, y = operands(how, chunk)
    n, ncols = x.shape
    width = len(meta.columns) if isinstance(meta, pd.DataFrame) else 1
    if not n:
        return as_frame_like(meta, chunk, np.zeros((0, width)))
    c = before if before is not None else _empty(ncols)
    valid = ~(np.isnan(x) | np.isnan(y))
    cov, ratio = (_adjusted_rows if p.adjust else _plain_rows)(p, x, y, valid, c)
    count = c.count + np.cumsum(valid, axis=0)
    out = cov if bias or how == "corr" else _corrected(p, cov, ratio, valid, count, c)
    out = np.where(count >= max(p.min_periods, 1), out, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        if how == "std":
            out = np.sqrt(np.maximum(out, 0.0))
        elif how == "corr":
            k = ncols // 3
            spread = out[:, k : 2 * k] * out[:, 2 * k :]
            out = out[:, :k] / np.sqrt(np.where(spread >= 0, spread, 0.0))
    return as_frame_like(meta, chunk, out)


def moments(p: Params, frame: Any, meta: Any, how: str, bias: bool) -> Any:
    """The lazy ``how`` (``var``, ``std``, ``cov`` or ``corr``, see ``operands`` for the
    columns each reads) of ``frame`` under ``p``, shaped as ``meta``."""
    carry = Carry(functools.partial(summarize, p, how), functools.partial(fold, p))
    kernel = functools.partial(finish, p, meta, how, bool(bias))
    return scan(frame, kernel, meta, f"ewm_{how}", before=carry)


def _moments(self: EWM, how: str, bias: bool, numeric_only: bool) -> Any:
    p = self._params
    frame: Any = self._frame
    # pandas checks the columns' dtypes only when there are rows: made-up ones here
    window = sample_like(frame.meta).ewm(**p.pandas, min_periods=p.min_periods)
    meta = empty_like(getattr(window, how)(bias=bias, numeric_only=numeric_only))
    if isinstance(meta, pd.DataFrame) and len(meta.columns) != len(frame.meta.columns):
        frame = frame[list(meta.columns)]
    return moments(p, frame, meta, how, bias)


def ewm_var(self: EWM, bias: bool = False, numeric_only: bool = False) -> Any:
    """pandas' exponentially weighted variance (``bias=False``: corrected for the
    weights, as pandas does)."""
    return _moments(self, "var", bias, numeric_only)


def ewm_std(self: EWM, bias: bool = False, numeric_only: bool = False) -> Any:
    """pandas' exponentially weighted standard deviation."""
    return _moments(self, "std", bias, numeric_only)


EWM.var = ewm_var  # type: ignore[attr-defined]
EWM.std = ewm_std  # type: ignore[attr-defined]
