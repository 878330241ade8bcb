"""``ewm(...).mean()``: exponentially weighted means carried exactly across chunks.

pandas' recurrence, per column, with decay ``d = 1 - alpha`` applied on every row (only
on rows with a value when ``ignore_na``):

- ``adjust=True``: the mean is ``num / den`` where, on each decaying row, ``num`` and
  ``den`` are multiplied by ``d`` and a value ``x`` then adds ``x`` to ``num`` and 1 to
  ``den``. A chunk therefore maps ``(num, den)`` to ``(D * num + A, D * den + B)``: ``D``
  is ``d`` to the number of decaying rows and ``A``, ``B`` are the chunk's own weighted
  sums, which pandas' ``ewm().sum()`` gives row by row. The carry into a chunk is the
  ``(num, den)`` of all rows above it; each row of the chunk is then
  ``(d**k * num + a) / (d**k * den + b)``.
- ``adjust=False``: a value ``x`` turns the mean ``w`` into
  ``(o * w + alpha * x) / (o + alpha)``, where ``o`` is ``d`` to the number of decaying
  rows since the last value. The carry is ``(w, o)``. After its first value, a chunk's
  means are an affine function of what that first value made of the carry, so each row
  is pandas' mean of the chunk alone plus the difference at the first value times the
  product of the later rows' coefficients ``o / (o + alpha)``.

Both give pandas' results to rounding. ``min_periods`` counts values, carried as well.
``times`` is not supported.
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
from jupyter_mars.dataframe.window.expanding import FloatArray, as_frame_like, values_2d


@dataclass(frozen=True)
class Params:
    """What the kernels need: pandas' own arguments and the decay they mean."""

    pandas: dict[str, Any]
    """The decay argument given (``com``, ``span``, ``halflife`` or ``alpha``), with
    ``adjust`` and ``ignore_na``."""
    alpha: float
    adjust: bool
    ignore_na: bool
    min_periods: int
    convex: bool = False
    """``adjust=False`` weighs a value ``1 - o`` instead of ``alpha`` (see ``_convex``)."""

    def new_weight(self, old: Any) -> Any:
        return 1 - old if self.convex else self.alpha


def _center_of_mass(com: Any, span: Any, halflife: Any, alpha: Any) -> float:
    """The centre of mass from whichever decay argument was given, as pandas derives it."""
    if com is not None:
        return float(com)
    if span is not None:
        return (float(span) - 1) / 2
    if halflife is not None:
        return float(1 / (1 - np.exp(np.log(0.5) / float(halflife))) - 1)
    return (1 - float(alpha)) / float(alpha)


@functools.cache
def _convex() -> bool:
    """Whether this pandas weighs a value after a gap of ``g`` rows by ``1 - d**g`` rather
    than ``alpha`` when ``com == 1`` and ``adjust=False`` (pandas 3.0 does, from a branch
    meant for ``times``); asked of pandas itself, so the results match either way."""
    probe = pd.Series([1.0, np.nan, 5.0]).ewm(com=1, adjust=False).mean()
    return bool(probe.iloc[2] == 4.0)


def _chunk_alone(p: Params, x: FloatArray, how: str, adjust: bool) -> FloatArray:
    window = pd.DataFrame(x).ewm(**{**p.pandas, "adjust": adjust, "min_periods": 0})
    return np.asarray(getattr(window, how)().to_numpy(dtype=np.float64))


def decay_factors(p: Params, valid: Any) -> Any:
    """Decaying rows so far, at each row (the row itself included)."""
    steps = valid if p.ignore_na else np.ones_like(valid)
    return np.cumsum(steps, axis=0, dtype=np.float64)


# --- adjust=True: carry (num, den, count) --------------------------------------------


def _sums(p: Params, x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The chunk's own weighted sums of values and of weights, row by row."""
    valid = ~np.isnan(x)
    ones = np.where(valid, 1.0, np.nan)
    both = _chunk_alone(p, np.hstack([x, ones]), "sum", True)
    both = np.nan_to_num(both, nan=0.0)
    return both[:, : x.shape[1]], both[:, x.shape[1] :]


def adjusted_summary(p: Params, chunk: Any) -> tuple[FloatArray, ...]:
    x = values_2d(chunk)
    valid = ~np.isnan(x)
    if not len(x):
        zero = np.zeros(x.shape[1])
        return zero + 1.0, zero, zero, zero
    num, den = _sums(p, x)
    decay = (1 - p.alpha) ** decay_factors(p, valid)[-1]
    return decay, num[-1], den[-1], valid.sum(axis=0).astype(np.float64)


def adjusted_fold(carry: Any, part: tuple[FloatArray, ...]) -> tuple[FloatArray, ...]:
    decay, num, den, count = part
    if carry is None:
        return num, den, count
    return decay * carry[0] + num, decay * carry[1] + den, carry[2] + count


def adjusted_finish(p: Params, meta: Any, chunk: Any, before: Any, after: Any) -> Any:
    x = values_2d(chunk)
    valid = ~np.isnan(x)
    zero = np.zeros(x.shape[1])
    num0, den0, count0 = before if before is not None else (zero, zero, zero)
    if len(x):
        num, den = _sums(p, x)
    else:
        num = den = x
    decay = (1 - p.alpha) ** decay_factors(p, valid)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (decay * num0 + num) / (decay * den0 + den)
    count = count0 + np.cumsum(valid, axis=0)
    return as_frame_like(meta, chunk, np.where(count >= max(p.min_periods, 1), out, np.nan))


def sum_finish(p: Params, meta: Any, chunk: Any, before: Any, after: Any) -> Any:
    """``ewm().sum()``: the weighted sum of values, the carry's decayed by the chunk's
    decaying rows (pandas' ``num``, not divided by the weights)."""
    x = values_2d(chunk)
    valid = ~np.isnan(x)
    zero = np.zeros(x.shape[1])
    num0, _, count0 = before if before is not None else (zero, zero, zero)
    num = _sums(p, x)[0] if len(x) else x
    out = (1 - p.alpha) ** decay_factors(p, valid) * num0 + num
    count = count0 + np.cumsum(valid, axis=0)
    return as_frame_like(meta, chunk, np.where(count >= max(p.min_periods, 1), out, np.nan))


# --- adjust=False: carry (mean, decay since the last value, count) ------------------


@dataclass(frozen=True)
class Plain:
    """What a chunk alone tells about ``adjust=False`` means, per column."""

    has: Any
    """Whether the column has a value in the chunk."""
    first: FloatArray
    """Its first value."""
    first_decays: FloatArray
    """Decaying rows up to the first value, that row included."""
    means: FloatArray
    """pandas' means of the chunk alone, row by row."""
    gains: FloatArray
    """Product, up to each row, of the coefficients of the values after the first."""
    decays: FloatArray
    """Decaying rows so far, row by row."""
    since: FloatArray
    """Decaying rows since the last value, row by row (all rows before the first)."""
    count: FloatArray
    """Values so far, row by row."""


def _plain(p: Params, x: FloatArray) -> Plain:
    valid = ~np.isnan(x)
    ncols = x.shape[1]
    decays = decay_factors(p, valid)
    has = valid.any(axis=0)
    first_row = np.argmax(valid, axis=0) if len(x) else np.zeros(ncols, dtype=np.intp)
    cols = np.arange(ncols)
    last = np.maximum.accumulate(np.where(valid, decays, 0.0), axis=0)
    previous = np.vstack([np.zeros((1, ncols)), last[:-1]])
    seen = np.vstack([np.zeros((1, ncols), dtype=bool), np.cumsum(valid, axis=0)[:-1] > 0])
    old = (1 - p.alpha) ** (decays - previous)
    gains = np.cumprod(np.where(valid & seen, old / (old + p.new_weight(old)), 1.0), axis=0)
    means = _chunk_alone(p, x, "mean", False) if len(x) else x
    return Plain(
        has=has,
        first=x[first_row, cols] if len(x) else np.full(ncols, np.nan),
        first_decays=decays[first_row, cols] if len(x) else np.zeros(ncols),
        means=means,
        gains=gains,
        decays=decays,
        since=decays - last,
        count=np.cumsum(valid, axis=0, dtype=np.float64),
    )


def _enter(p: Params, plain: Plain, carry: Any) -> FloatArray:
    """How much the first value's mean moves when the carry is taken in (0 without)."""
    mean0, old0, _ = carry
    old = old0 * (1 - p.alpha) ** plain.first_decays
    new = p.new_weight(old)
    with np.errstate(invalid="ignore"):
        entered = (old * mean0 + new * plain.first) / (old + new)
    return np.where(plain.has & ~np.isnan(mean0), entered - plain.first, 0.0)


def _no_carry(ncols: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    return np.full(ncols, np.nan), np.ones(ncols), np.zeros(ncols)


def plain_summary(p: Params, chunk: Any) -> Plain:
    return _plain(p, values_2d(chunk))


def plain_fold(p: Params, carry: Any, part: Plain) -> Any:
    ncols = len(part.has)
    carry = carry if carry is not None else _no_carry(ncols)
    mean0, old0, count0 = carry
    if not len(part.means):
        return carry
    shift = _enter(p, part, carry)
    mean = np.where(part.has, part.means[-1] + part.gains[-1] * shift, mean0)
    old = np.where(
        part.has, (1 - p.alpha) ** part.since[-1], old0 * (1 - p.alpha) ** part.decays[-1]
    )
    return mean, old, count0 + part.count[-1]


def plain_finish(p: Params, meta: Any, chunk: Any, before: Any, after: Any) -> Any:
    x = values_2d(chunk)
    plain = _plain(p, x)
    carry = before if before is not None else _no_carry(x.shape[1])
    shift = _enter(p, plain, carry)
    started = plain.count > 0
    out = np.where(started, plain.means + plain.gains * shift, carry[0])
    count = carry[2] + plain.count
    return as_frame_like(meta, chunk, np.where(count >= max(p.min_periods, 1), out, np.nan))


class EWM:
    """A lazy frame's exponentially weighted window; ``mean()`` and ``sum()`` (and
    ``var()``, ``std()``, attached by ``ewm_moments``) give lazy frames."""

    def __init__(self, frame: FrameBase, params: Params) -> None:
        self._frame = frame
        self._params = params

    def mean(self) -> Any:
        """pandas' exponentially weighted mean."""
        p = self._params
        # pandas checks the columns' dtypes only when there are rows: made-up ones here
        window = sample_like(self._frame.meta).ewm(**p.pandas, min_periods=p.min_periods)
        meta = empty_like(window.mean())
        if p.adjust:
            carry = Carry(functools.partial(adjusted_summary, p), adjusted_fold)
            finish = functools.partial(adjusted_finish, p, meta)
        else:
            carry = Carry(functools.partial(plain_summary, p), functools.partial(plain_fold, p))
            finish = functools.partial(plain_finish, p, meta)
        return scan(self._frame, finish, meta, "ewm_mean", before=carry)

    def sum(self) -> Any:
        """pandas' exponentially weighted sum (``adjust=True`` only, as in pandas)."""
        p = self._params
        window = sample_like(self._frame.meta).ewm(**p.pandas, min_periods=p.min_periods)
        meta = empty_like(window.sum())  # pandas refuses adjust=False here
        carry = Carry(functools.partial(adjusted_summary, p), adjusted_fold)
        finish = functools.partial(sum_finish, p, meta)
        return scan(self._frame, finish, meta, "ewm_sum", before=carry)

    def __repr__(self) -> str:
        return f"ExponentialMovingWindow [{self._params.pandas}]"


def ewm(
    frame: FrameBase,
    com: float | None = None,
    span: float | None = None,
    halflife: float | None = None,
    alpha: float | None = None,
    min_periods: int | None = 0,
    adjust: bool = True,
    ignore_na: bool = False,
    times: Any = None,
    method: str = "single",
) -> EWM:
    """Exponentially weighted windows; exactly one of ``com``, ``span``, ``halflife`` and
    ``alpha`` sets the decay."""
    if times is not None:
        raise NotImplementedError("ewm: times is not supported")
    if method != "single":
        raise NotImplementedError(f"ewm: method={method!r} is not supported")
    given = {"com": com, "span": span, "halflife": halflife, "alpha": alpha}
    pandas_kwargs: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
    pandas_kwargs.update(adjust=adjust, ignore_na=ignore_na)
    frame.meta.ewm(**pandas_kwargs, min_periods=min_periods)  # pandas checks the arguments
    center = _center_of_mass(com, span, halflife, alpha)
    params = Params(
        pandas_kwargs,
        1.0 / (1.0 + center),
        bool(adjust),
        bool(ignore_na),
        int(min_periods or 0),
        convex=not adjust and center == 1 and _convex(),
    )
    return EWM(frame, params)
