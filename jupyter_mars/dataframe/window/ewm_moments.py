"""``ewm(...).var()`` and ``.std()``: exponentially weighted variances carried across chunks.

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
  carry's mean at the carry's distance from the chunk (``z``), which gives the exact
  weights and means; the carry's own spread is then added back: ``gamma * var`` to the
  variance and ``gamma**2 * (squares - 1)`` to the squared weights, ``gamma`` being the
  carry's share at the row.

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
from jupyter_mars.dataframe.window.ewm import EWM, Params, _decays
from jupyter_mars.dataframe.window.expanding import FloatArray, as_frame_like, values_2d


@dataclass(frozen=True)
class Moments:
    """Each column's weighted distribution after some rows (arrays, one value a column)."""

    weight: FloatArray
    """Total weight (``adjust=False``: 1 at the last value, then decayed)."""
    mean: FloatArray
    var: FloatArray
    """Weighted biased variance."""
    squares: FloatArray
    """Sum of squared weights over ``weight**2`` (1 with a single value)."""
    since: FloatArray
    """Decaying rows since the last value."""
    count: FloatArray


def _empty(ncols: int) -> Moments:
    zero = np.zeros(ncols)
    return Moments(zero, np.full(ncols, np.nan), zero, zero + 1.0, zero, zero)


def merge(wa: Any, ma: Any, va: Any, wb: Any, mb: Any, vb: Any) -> tuple[Any, Any, Any]:
    """Weight, mean and biased variance of two weighted parts taken together (a part of
    weight 0 counts as absent, whatever its mean)."""
    total = wa + wb
    with np.errstate(invalid="ignore", divide="ignore"):
        fa, fb = wa / total, wb / total
        delta = mb - ma
        mean = np.where(wa > 0, np.where(wb > 0, ma + delta * fb, ma), mb)
        var = np.where(
            wa > 0, np.where(wb > 0, fa * va + fb * vb + fa * fb * delta * delta, va), vb
        )
    return total, mean, var


# --- the distribution at a chunk's end, from the chunk alone --------------------------


@dataclass(frozen=True)
class Part:
    """What a chunk alone tells of each column's distribution at its end."""

    decay: FloatArray
    """``d`` to the chunk's decaying rows (what the weights above it are scaled by)."""
    decays: FloatArray
    """The chunk's decaying rows."""
    first_decays: FloatArray
    """Decaying rows up to the first value, that row included."""
    head: FloatArray
    """The first value."""
    rest: tuple[FloatArray, FloatArray, FloatArray]
    """``adjust=False``: the values after the first as weight, mean and variance."""
    head_weight: FloatArray
    """``adjust=False``: what is left of the first value's weight 1 at the end."""
    alone: Moments
    """The chunk's own moments at its end (``adjust=False``: the values after the first,
    with the count of all)."""


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


def _weighted(weights: Any, x: Any) -> tuple[Any, Any, Any, Any]:
    """Total weight, mean, biased variance and sum of squared weights of each column."""
    # deviations from the first value: a constant column's mean is then that value exactly
    values = np.where(weights > 0, x - _first_values(x), 0.0)
    total = weights.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        shift = (weights * values).sum(axis=0) / total
        spread = (weights * (values - shift) ** 2).sum(axis=0) / total
    mean = shift + _first_values(x)
    return total, mean, spread, (weights * weights).sum(axis=0)


def summarize(p: Params, chunk: Any) -> Part:
    x = values_2d(chunk)
    n, ncols = x.shape
    valid = ~np.isnan(x)
    decays = _decays(p, valid) if n else np.zeros((0, ncols))
    end = decays[-1] if n else np.zeros(ncols)
    has = valid.any(axis=0)
    first_row = np.argmax(valid, axis=0) if n else np.zeros(ncols, dtype=np.intp)
    cols = np.arange(ncols)
    last_obs = np.where(valid, decays, 0.0).max(axis=0) if n else np.zeros(ncols)
    count = valid.sum(axis=0).astype(np.float64)
    since = np.where(has, end - last_obs, end)
    if p.adjust:
        weights = np.where(valid, (1 - p.alpha) ** (end - decays), 0.0) if n else x
        total, mean, spread, squares = _weighted(weights, x)
        with np.errstate(invalid="ignore", divide="ignore"):
            alone = Moments(total, mean, spread, squares / total**2, since, count)
        rest = (np.zeros(ncols),) * 3
        head_weight = np.zeros(ncols)
    else:
        old, seen = _gaps(p, valid, decays) if n else (x, x.astype(bool))
        later = valid & seen
        factor = np.where(later, old / (old + p.alpha), 1.0)
        added = np.where(later, p.alpha / (old + p.alpha), 0.0)
        # what each later factor leaves of a weight given at a row: the product below it
        after = np.vstack([np.cumprod(factor[::-1], axis=0)[::-1][1:], np.ones((1, ncols))])
        total, mean, spread, squares = _weighted(added * after, x)
        rest = (total, mean, spread)
        head_weight = np.prod(factor, axis=0)
        alone = Moments(total, mean, spread, squares, since, count)
    return Part(
        decay=(1 - p.alpha) ** end,
        decays=end,
        first_decays=decays[first_row, cols] if n else np.zeros(ncols),
        head=x[first_row, cols] if n else np.full(ncols, np.nan),
        rest=rest,
        head_weight=head_weight,
        alone=alone,
    )


def fold(p: Params, carry: Moments | None, part: Part) -> Moments:
    c = carry if carry is not None else _empty(len(part.decay))
    a = part.alone
    has = a.count > 0
    started = c.count > 0
    if p.adjust:
        wa = c.weight * part.decay
        total, mean, var = merge(wa, c.mean, c.var, a.weight, a.mean, a.var)
        with np.errstate(invalid="ignore", divide="ignore"):
            squares = (wa * wa * c.squares + a.weight**2 * a.squares) / total**2
    else:
        old = (1 - p.alpha) ** (c.since + part.first_decays)
        share = np.where(started, part.head_weight * old / (old + p.alpha), 0.0)
        head = np.where(started, part.head_weight * p.alpha / (old + p.alpha), part.head_weight)
        w1, m1, v1 = merge(share, c.mean, c.var, head, part.head, np.zeros_like(head))
        total, mean, var = merge(w1, m1, v1, *part.rest)
        with np.errstate(invalid="ignore", divide="ignore"):
            squares = (share**2 * c.squares + head**2 + a.squares) / total**2
        total = np.ones_like(total)  # pandas scales the weights to total 1 at a value
    return Moments(
        np.where(has, total, c.weight * part.decay),
        np.where(has, mean, c.mean),
        np.where(has, var, c.var),
        np.where(has, squares, c.squares),
        np.where(has, a.since, c.since + part.decays),
        c.count + a.count,
    )


# --- each row of a chunk, with the carry ----------------------------------------------


def _pandas(p: Params, data: Any, adjust: bool) -> Any:
    return pd.DataFrame(data).ewm(**{**p.pandas, "adjust": adjust, "min_periods": 0})


def _adjusted_rows(p: Params, x: Any, c: Moments) -> tuple[Any, Any, Any]:
    """Per row: mean-free moments of carry + chunk (weight, biased variance, squares)."""
    valid = ~np.isnan(x)
    ones = np.where(valid, 1.0, np.nan)
    # deviations from the first value, as in ``_weighted``
    first = _first_values(x)
    window = _pandas(p, x - first, True)
    mean = window.mean().to_numpy(dtype=np.float64) + first
    spread = window.var(bias=True).to_numpy(dtype=np.float64)
    weight = np.nan_to_num(_pandas(p, ones, True).sum().to_numpy(dtype=np.float64))
    decay2 = {"alpha": 1 - (1 - p.alpha) ** 2, "ignore_na": p.ignore_na, "adjust": True}
    squares = np.nan_to_num(pd.DataFrame(ones).ewm(**decay2).sum().to_numpy(dtype=np.float64))
    scale = (1 - p.alpha) ** _decays(p, valid)
    wa = c.weight * scale
    total, _, var = merge(wa, c.mean, c.var, weight, mean, spread)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = (wa * wa * c.squares + squares) / total**2
    return total, var, ratio


def _plain_rows(p: Params, x: Any, c: Moments) -> tuple[Any, Any, Any]:
    """Per row, for ``adjust=False``: pandas on the chunk after the carry's stand-in."""
    n, ncols = x.shape
    valid = ~np.isnan(x)
    started = c.count > 0
    d = 1 - p.alpha
    # past this many rows of decay the stand-in's weight is zero in pandas' arithmetic
    cap = int(np.ceil(-1080 / np.log2(d))) + 2 if d > 0 else 1
    gap = np.where(started, np.minimum(c.since, cap), 0).astype(np.int64)
    lead = int(gap.max()) + 1 if started.any() else 0
    prefix = np.full((lead, ncols), np.nan)
    probe_prefix = prefix.copy()
    where = np.flatnonzero(started)
    prefix[lead - 1 - gap[where], where] = c.mean[where]
    probe_prefix[lead - 1 - gap[where], where] = 0.0
    probe = np.where(valid, np.cumsum(valid, axis=0), np.nan)
    window = _pandas(
        p, np.vstack([np.hstack([prefix, probe_prefix]), np.hstack([x, probe])]), False
    )
    biased = window.var(bias=True).to_numpy(dtype=np.float64)[lead:]
    unbiased = window.var(bias=False).to_numpy(dtype=np.float64)[lead:]
    spread = biased[:, :ncols]
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = 1 - biased[:, ncols:] / unbiased[:, ncols:]
    ratio = np.where(np.isfinite(ratio) & (unbiased[:, ncols:] > 0), ratio, 1.0)
    # the carry's share at each row: what each later value leaves of it
    decays = _decays(p, valid)
    old, seen = _gaps(p, valid, decays)
    factor = np.where(valid & seen, old / (old + p.alpha), 1.0)
    first_decays = decays[np.argmax(valid, axis=0), np.arange(ncols)] if n else decays
    entry = d ** (c.since + first_decays)
    share = np.cumprod(factor, axis=0) * (entry / (entry + p.alpha))
    share = np.where(np.cumsum(valid, axis=0) > 0, share, 1.0)
    share = np.where(started, share, 0.0)
    var = spread + share * np.nan_to_num(c.var)
    ratio = ratio + share**2 * (c.squares - 1)
    return np.ones_like(var), var, ratio


def _single_value(p: Params, since: Any) -> Any:
    """pandas' ``sum_wt**2 - sum_wt2`` after one value and ``since`` decaying rows."""
    d = 1 - p.alpha
    steps = int(np.nanmax(since, initial=0)) + 1
    weight = np.cumprod(np.r_[1.0, np.full(steps, d)])
    squares = np.cumprod(np.r_[1.0, np.full(steps, d * d)])
    k = np.nan_to_num(since).astype(np.int64)
    return weight[k] * weight[k] - squares[k]


def finish(p: Params, meta: Any, how: str, bias: bool, chunk: Any, before: Any, after: Any) -> Any:
    x = values_2d(chunk)
    n, ncols = x.shape
    c = before if before is not None else _empty(ncols)
    if not n:
        return as_frame_like(meta, chunk, x)
    _, var, ratio = (_adjusted_rows if p.adjust else _plain_rows)(p, x, c)
    valid = ~np.isnan(x)
    count = c.count + np.cumsum(valid, axis=0)
    if not bias:
        decays = _decays(p, valid)
        last = np.maximum.accumulate(np.where(valid, decays, -1.0), axis=0)
        since = np.where(last >= 0, decays - last, c.since + decays)
        single = _single_value(p, np.where(count == 1, since, 0))
        with np.errstate(invalid="ignore", divide="ignore"):
            out = var / (1 - ratio)
        out = np.where(count == 1, np.where(single > 0, 0.0, np.nan), out)
        out = np.where((count > 1) & ~(ratio < 1), np.nan, out)
    else:
        out = var
    if how == "std":
        out = np.sqrt(np.maximum(out, 0.0))
    return as_frame_like(meta, chunk, np.where(count >= max(p.min_periods, 1), out, np.nan))


def _moments(self: EWM, how: str, bias: bool, numeric_only: bool) -> Any:
    p = self._params
    frame: Any = self._frame
    # pandas checks the columns' dtypes only when there are rows: made-up ones here
    window = sample_like(frame.meta).ewm(**p.pandas, min_periods=p.min_periods)
    meta = empty_like(getattr(window, how)(bias=bias, numeric_only=numeric_only))
    if isinstance(meta, pd.DataFrame) and len(meta.columns) != len(frame.meta.columns):
        frame = frame[list(meta.columns)]
    carry = Carry(functools.partial(summarize, p), functools.partial(fold, p))
    kernel = functools.partial(finish, p, meta, how, bool(bias))
    return scan(frame, kernel, meta, f"ewm_{how}", before=carry)


def ewm_var(self: EWM, bias: bool = False, numeric_only: bool = False) -> Any:
    """pandas' exponentially weighted variance (``bias=False``: corrected for the
    weights, as pandas does)."""
    return _moments(self, "var", bias, numeric_only)


def ewm_std(self: EWM, bias: bool = False, numeric_only: bool = False) -> Any:
    """pandas' exponentially weighted standard deviation."""
    return _moments(self, "std", bias, numeric_only)


EWM.var = ewm_var  # type: ignore[attr-defined]
EWM.std = ewm_std  # type: ignore[attr-defined]
