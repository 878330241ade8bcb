"""``rolling(...).cov(other)`` / ``.corr(other)`` and the same of ``expanding()``.

The two inputs are laid out as column pairs (``pairs``) and the window runs over that
frame as over any other: a rolling window attaches the rows its windows reach in other
chunks and lets pandas pair each left column with its right one; an expanding window is
a rolling one as long as the rows, so it carries the running sums of ``x``, ``y``,
``x*y``, ``x*x`` and ``y*y`` (about the first values, for accuracy) instead. The
pairwise table of a DataFrame's columns is made of these (``pairwise_table``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.neighbours import Carry, scan
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.window.expanding import Expanding, as_frame_like, values_2d
from jupyter_mars.dataframe.window.pairs import lay_out_pairs, numeric, other_frame
from jupyter_mars.dataframe.window.pairwise_table import pairwise_table, wants_table
from jupyter_mars.dataframe.window.rolling import Rolling


def _width(pairs: Any) -> int:
    return int(pairs.shape[1]) // 2


def rolling_pairs(
    params: dict[str, Any], how: str, ddof: int, meta: Any, pairs: pd.DataFrame
) -> Any:
    """pandas' rolling ``how`` of each left column of ``pairs`` with its right one."""
    width = _width(pairs)
    out = np.empty((len(pairs), width))
    for j in range(width):
        window = pairs.iloc[:, j].rolling(**params)
        out[:, j] = getattr(window, how)(pairs.iloc[:, width + j], ddof=ddof).to_numpy()
    return as_frame_like(meta, pairs, out)


def _meta(sample: Any, how: str, other: Any, table: bool, kwargs: dict[str, Any]) -> Any:
    return empty_like(getattr(sample, how)(sample_like(other.meta), pairwise=table, **kwargs))


def _table(self: Any, how: str, other: Any, meta: Any, kwargs: dict[str, Any]) -> Any:
    other = numeric(other) if kwargs["numeric_only"] else other
    return pairwise_table(self, how, other, meta, kwargs)


def _rolling(
    self: Rolling, how: str, other: Any, pairwise: Any, ddof: int, numeric_only: bool
) -> Any:
    table = wants_table(self._frame, other, pairwise)
    other = other_frame(self._frame, other)
    sample = sample_like(self._frame.meta).rolling(**self._params)
    kwargs: dict[str, Any] = {"ddof": ddof, "numeric_only": numeric_only}
    meta = _meta(sample, how, other, table, kwargs)
    if table:
        return _table(self, how, other, meta, kwargs)
    if self._params.get("on") is not None:
        raise NotImplementedError(f"rolling(on=...).{how}() is not supported")
    pairs = lay_out_pairs(self._frame, other, meta, numeric_only)
    kernel = functools.partial(rolling_pairs, self._params, how, ddof, meta)
    return self.over_rows(pairs, kernel, meta, how)


# --- expanding: running sums of the pairs ---------------------------------------------

Sums = tuple[Any, ...]
"""Per pair: valid count, then sums of ``x``, ``y``, ``x*x``, ``y*y``, ``x*y`` about
``centre`` (the pair's first values), and ``centre``."""


def _centred(x: Any, y: Any, centre: Any) -> tuple[Any, Any, Any]:
    valid = ~np.isnan(x) & ~np.isnan(y)
    dx = np.where(valid, x - centre[0], 0.0)
    dy = np.where(valid, y - centre[1], 0.0)
    return valid, dx, dy


def _first(x: Any, y: Any) -> tuple[Any, Any]:
    valid = ~np.isnan(x) & ~np.isnan(y)
    row = np.argmax(valid, axis=0)
    cols = np.arange(x.shape[1])
    has = valid.any(axis=0)
    return np.where(has, x[row, cols], 0.0), np.where(has, y[row, cols], 0.0)


def _split(chunk: Any) -> tuple[Any, Any]:
    v = values_2d(chunk)
    width = v.shape[1] // 2
    return v[:, :width], v[:, width:]


def pair_summary(chunk: Any) -> Sums:
    x, y = _split(chunk)
    if not len(x):
        return ()
    centre = _first(x, y)
    valid, dx, dy = _centred(x, y, centre)
    sums = (dx.sum(0), dy.sum(0), (dx * dx).sum(0), (dy * dy).sum(0), (dx * dy).sum(0))
    return (valid.sum(0).astype(np.float64), *sums, centre)


def _recentre(sums: Sums, centre: tuple[Any, Any]) -> Sums:
    """The same sums about another centre (the shifts are exact for the counts)."""
    n, sx, sy, sxx, syy, sxy, (cx, cy) = sums
    ax, ay = cx - centre[0], cy - centre[1]
    return (
        n,
        sx + n * ax,
        sy + n * ay,
        sxx + 2 * ax * sx + n * ax * ax,
        syy + 2 * ay * sy + n * ay * ay,
        sxy + ax * sy + ay * sx + n * ax * ay,
        centre,
    )


def pair_fold(carry: Sums | None, part: Sums) -> Sums:
    if carry is None or not carry:
        return part
    if not part:
        return carry
    moved = _recentre(part, carry[6])
    return (*(a + b for a, b in zip(carry[:6], moved[:6])), carry[6])


def pair_finish(
    how: str, min_periods: int, ddof: int, meta: Any, chunk: Any, before: Any, after: Any
) -> Any:
    x, y = _split(chunk)
    if not len(x):
        return as_frame_like(meta, chunk, x)
    carry = before if before else None
    centre = carry[6] if carry else _first(x, y)
    valid, dx, dy = _centred(x, y, centre)
    running = [np.cumsum(a, axis=0) for a in (valid, dx, dy, dx * dx, dy * dy, dx * dy)]
    if carry:
        running = [r + c for r, c in zip(running, carry[:6])]
    n, sx, sy, sxx, syy, sxy = running
    with np.errstate(invalid="ignore", divide="ignore"):
        cxy = sxy - sx * sy / n
        if how == "cov":
            out = cxy / (n - ddof)
            out = np.where(n - ddof > 0, out, np.nan)
        else:
            vx = np.maximum(sxx - sx * sx / n, 0.0)
            vy = np.maximum(syy - sy * sy / n, 0.0)
            out = cxy / np.sqrt(vx * vy)
            out = np.where((vx > 0) & (vy > 0) & (n - ddof > 0), out, np.nan)
    out = np.where(n >= max(min_periods, 1), out, np.nan)
    return as_frame_like(meta, chunk, out)


def _expanding(
    self: Expanding, how: str, other: Any, pairwise: Any, ddof: int, numeric_only: bool
) -> Any:
    table = wants_table(self._frame, other, pairwise)
    other = other_frame(self._frame, other)
    sample = sample_like(self._frame.meta).expanding(min_periods=self._min_periods)
    kwargs: dict[str, Any] = {"ddof": ddof, "numeric_only": numeric_only}
    meta = _meta(sample, how, other, table, kwargs)
    if table:
        return _table(self, how, other, meta, kwargs)
    pairs = lay_out_pairs(self._frame, other, meta, numeric_only)
    kernel = functools.partial(pair_finish, how, self._min_periods, ddof, meta)
    return scan(pairs, kernel, meta, f"expanding_{how}", before=Carry(pair_summary, pair_fold))


def _pair_method(run: Callable[..., Any], how: str, window: str) -> Callable[..., Any]:
    """A window's ``cov`` or ``corr`` method (``how``), computed by ``run``."""
    statistic = "covariance" if how == "cov" else "correlation"

    def method(
        self: Any,
        other: Any = None,
        pairwise: Any = None,
        ddof: int = 1,
        numeric_only: bool = False,
    ) -> Any:
        return run(self, how, other, pairwise, ddof, numeric_only)

    method.__name__ = method.__qualname__ = how
    method.__doc__ = (
        f"pandas' {window} {statistic} with ``other`` (a Series with itself when None)."
    )
    return method


for _how in ("cov", "corr"):
    setattr(Rolling, _how, _pair_method(_rolling, _how, "rolling"))
    setattr(Expanding, _how, _pair_method(_expanding, _how, "expanding"))
