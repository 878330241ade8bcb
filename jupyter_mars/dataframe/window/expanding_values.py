"""``expanding()`` methods that depend on the values themselves, not on running sums:
``first``, ``last``, ``nunique``, ``rank``, ``median``, ``quantile`` and ``apply``.

They run on the scan of ``neighbours`` like the other expanding methods; what each
chunk is given from the rows above it differs:

- ``first`` / ``last``: each column's first and last value and its count of values;
- ``nunique``: each column's distinct values so far (sorted);
- ``rank``, ``median``, ``quantile``: each column's values so far, sorted. A row's rank
  is the count of carried values below (and tied with) it, by binary search, plus
  pandas' rank of the row within its own chunk. A quantile of the carried values and a
  prefix of the chunk is found among a band of the carried values around the ranks the
  chunk can reach (a chunk of ``c`` values moves the quantile's rank by at most ``c``),
  the values below the band counted, with a Fenwick tree over the band and the chunk;
- ``apply``: the rows above, whole (the function is given every row up to each row).

These carries grow with the rows (the distinct values, or all values) where the running
sums of ``expanding`` do not: an exact median, rank or distinct count of every prefix
depends on every earlier value, in any order. They hold the values only, as one sorted
float array per column, and each chunk's work is its own rows against them (a binary
search per row, or a Fenwick tree over the chunk and a band of ``2c`` carried values),
never pandas over the rows above. ``apply`` is the exception by definition: the user's
function is given every row up to each row, so the last chunk's task holds the column's
rows (values and labels) and calls it once per row of its own.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.neighbours import Carry, scan, tail_carry
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.window.expanding import Expanding, as_frame_like, values_2d

Values = tuple[Any, ...]
"""Per column, a sorted float array."""


@dataclass(frozen=True)
class Distinct:
    """Each column's distinct values (sorted) and its count of values."""

    values: Values
    count: Any


# --- first / last ---------------------------------------------------------------------


@dataclass(frozen=True)
class Ends:
    """Each column's count of values and its first and last value (NaN without)."""

    count: Any
    first: Any
    last: Any


def ends_summary(chunk: Any) -> Ends:
    x = values_2d(chunk)
    valid = ~np.isnan(x)
    count = valid.sum(axis=0).astype(np.float64)
    filled = pd.DataFrame(x)
    first = filled.bfill().iloc[0].to_numpy() if len(x) else np.full(x.shape[1], np.nan)
    last = filled.ffill().iloc[-1].to_numpy() if len(x) else np.full(x.shape[1], np.nan)
    return Ends(count, first, last)


def ends_fold(carry: Ends | None, part: Ends) -> Ends:
    if carry is None:
        return part
    return Ends(
        carry.count + part.count,
        np.where(carry.count > 0, carry.first, part.first),
        np.where(part.count > 0, part.last, carry.last),
    )


def ends_finish(how: str, min_periods: int, meta: Any, chunk: Any, before: Any, after: Any) -> Any:
    x = values_2d(chunk)
    ncols = x.shape[1]
    carry = before if before is not None else Ends(np.zeros(ncols), *[np.full(ncols, np.nan)] * 2)
    frame = pd.DataFrame(np.vstack([carry.last[None, :], x]))
    if how == "last":
        out = frame.ffill().to_numpy()[1:]
    else:
        valid = ~np.isnan(x)
        seen = np.cumsum(valid, axis=0) > 0
        first = pd.DataFrame(x).bfill().iloc[0].to_numpy() if len(x) else carry.first
        out = np.where(carry.count > 0, carry.first, np.where(seen, first, np.nan))
    count = carry.count + np.cumsum(~np.isnan(x), axis=0)
    out = np.where(count >= max(min_periods, 1), out, np.nan)
    return as_frame_like(meta, chunk, out.reshape(len(x), ncols))


# --- the values so far, sorted ----------------------------------------------------------


def sorted_values(distinct: bool, chunk: Any) -> Values:
    x = values_2d(chunk)
    columns = (x[~np.isnan(x[:, j]), j] for j in range(x.shape[1]))
    return tuple(np.unique(c) if distinct else np.sort(c) for c in columns)


def merge_sorted(distinct: bool, carry: Values | None, part: Values) -> Values:
    if carry is None:
        return part
    joined = (np.concatenate([a, b]) for a, b in zip(carry, part))
    return tuple(np.unique(c) if distinct else np.sort(c, kind="stable") for c in joined)


def distinct_summary(chunk: Any) -> Distinct:
    x = values_2d(chunk)
    return Distinct(sorted_values(True, chunk), (~np.isnan(x)).sum(axis=0))


def distinct_fold(carry: Distinct | None, part: Distinct) -> Distinct:
    if carry is None:
        return part
    return Distinct(merge_sorted(True, carry.values, part.values), carry.count + part.count)


def _carried(before: Values | None, ncols: int) -> Values:
    return before if before is not None else tuple(np.empty(0) for _ in range(ncols))


def _enough(carried: Any, x: Any, min_periods: int) -> Any:
    return len(carried) + np.cumsum(~np.isnan(x)) >= max(min_periods, 1)


def nunique_finish(min_periods: int, meta: Any, chunk: Any, before: Any, after: Any) -> Any:
    x = values_2d(chunk)
    ncols = x.shape[1]
    carry = before if before is not None else Distinct(_carried(None, ncols), np.zeros(ncols))
    out = np.empty_like(x)
    for j, seen in enumerate(carry.values):
        column = x[:, j]
        valid = ~np.isnan(column)
        new = valid & ~pd.Series(column).duplicated().to_numpy() & ~np.isin(column, seen)
        distinct = len(seen) + np.cumsum(new)
        # pandas counts no values as 0 distinct ones (when min_periods allows it)
        enough = carry.count[j] + np.cumsum(valid) >= min_periods
        out[:, j] = np.where(enough, distinct, np.nan)
    return as_frame_like(meta, chunk, out)


def rank_finish(
    method: str,
    ascending: bool,
    pct: bool,
    min_periods: int,
    meta: Any,
    chunk: Any,
    before: Any,
    after: Any,
) -> Any:
    x = values_2d(chunk)
    carried = _carried(before, x.shape[1])
    own = pd.DataFrame(x).expanding(min_periods=1)
    low = own.rank(method="min", ascending=ascending).to_numpy()
    high = own.rank(method="max", ascending=ascending).to_numpy()
    out = np.empty_like(x)
    for j, seen in enumerate(carried):
        column = x[:, j]
        left = np.searchsorted(seen, column, side="left")
        right = np.searchsorted(seen, column, side="right")
        below, tied = (left, right) if ascending else (len(seen) - right, len(seen) - left)
        lowest, highest = below + low[:, j], tied + high[:, j]
        rank = {"min": lowest, "max": highest}.get(method, (lowest + highest) / 2)
        if pct:
            rank = rank / (len(seen) + np.cumsum(~np.isnan(column)))
        out[:, j] = np.where(_enough(seen, column, min_periods), rank, np.nan)
    return as_frame_like(meta, chunk, out)


def _kth(tree: list[int], top: int, k: int) -> int:
    """The position of the ``k``-th (0-based) value counted in the Fenwick ``tree``."""
    at, step = 0, top
    while step:
        nxt = at + step
        if nxt < len(tree) and tree[nxt] <= k:
            at = nxt
            k -= tree[nxt]
        step >>= 1
    return at  # 1-based position ``at + 1`` holds it: index ``at`` of the sorted values


def _pick(values: Any, tree: list[int], top: int, t: float, skip: int, how: str) -> float:
    """pandas' quantile at fractional rank ``t`` of the values, the ``skip`` lowest of
    which are not counted in ``tree`` (``how``: its interpolation, or ``median``)."""
    idx = int(t)
    low = values[_kth(tree, top, idx - skip)]
    frac = t - idx
    if frac == 0:
        return float(low)
    high = values[_kth(tree, top, idx + 1 - skip)]
    if how in ("median", "midpoint"):
        return float((low + high) / 2)
    if how == "linear":
        return float(low + (high - low) * frac)
    if how == "lower":
        return float(low)
    if how == "higher":
        return float(high)
    nearest_low = frac < 0.5 or (frac == 0.5 and idx % 2 == 0)
    return float(low if nearest_low else high)


def _column_quantiles(seen: Any, column: Any, q: float, how: str) -> Any:
    valid = ~np.isnan(column)
    mine = column[valid]
    m, c = len(seen), len(mine)
    lo = max(0, int(q * max(m - 1, 0)) - c - 1)
    hi = min(m, int(q * max(m + c - 1, 0)) + 3)
    pool = np.concatenate([seen[lo:hi], mine])
    order = np.argsort(pool, kind="stable")
    where = np.empty(len(pool), dtype=np.intp)
    where[order] = np.arange(len(pool))
    values = pool[order]
    tree = [0] * (len(pool) + 1)

    def add(position: int) -> None:
        i = position + 1
        while i < len(tree):
            tree[i] += 1
            i += i & -i

    for position in where[: hi - lo]:
        add(int(position))
    top = 1 << max(len(pool).bit_length() - 1, 0)
    out = np.full(len(column), np.nan)
    n, next_own = m, hi - lo
    for k in range(len(column)):
        if valid[k]:
            add(int(where[next_own]))
            next_own += 1
            n += 1
        if n:
            out[k] = _pick(values, tree, top, q * (n - 1), lo, how)
    return out


def quantile_finish(
    q: float, how: str, min_periods: int, meta: Any, chunk: Any, before: Any, after: Any
) -> Any:
    x = values_2d(chunk)
    carried = _carried(before, x.shape[1])
    out = np.empty_like(x)
    for j, seen in enumerate(carried):
        column = x[:, j]
        found = _column_quantiles(seen, column, q, how)
        out[:, j] = np.where(_enough(seen, column, min_periods), found, np.nan)
    return as_frame_like(meta, chunk, out)


# --- apply: every row above -------------------------------------------------------------


def apply_finish(
    func: Any,
    raw: bool,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    min_periods: int,
    meta: Any,
    chunk: Any,
    before: Any,
    after: Any,
) -> Any:
    lead = 0 if before is None else len(before)
    whole = chunk if not lead else pd.concat([before, chunk])
    x = values_2d(whole)
    out = np.full((len(chunk), x.shape[1]), np.nan)
    frame = whole if isinstance(whole, pd.DataFrame) else whole.to_frame()
    counts = np.cumsum(~np.isnan(x), axis=0)
    for j in range(x.shape[1]):
        series = frame.iloc[:, j].astype(np.float64)
        for k in range(len(chunk)):
            row = lead + k
            if counts[row, j] >= min_periods:  # pandas calls func on no values too
                window = x[: row + 1, j] if raw else series.iloc[: row + 1]
                out[k, j] = func(window, *args, **kwargs)
    return as_frame_like(meta, chunk, out)


# --- the methods --------------------------------------------------------------------------


def _meta(self: Expanding, how: str, *args: Any, **kwargs: Any) -> Any:
    # pandas checks the arguments and the columns' dtypes on made-up rows
    sample = sample_like(self._frame.meta).expanding(min_periods=self._min_periods)
    return empty_like(getattr(sample, how)(*args, **kwargs))


def _run(self: Expanding, how: str, finish: Any, carry: Carry) -> Any:
    return scan(self._frame, finish, finish.args[-1], f"expanding_{how}", before=carry)


def _ends(how: str) -> Any:
    def method(self: Expanding, numeric_only: bool = False) -> Any:
        meta = _meta(self, how, numeric_only=numeric_only)
        finish = functools.partial(ends_finish, how, self._min_periods, meta)
        return _run(self, how, finish, Carry(ends_summary, ends_fold))

    method.__name__ = how
    method.__doc__ = f"The {how} value of each growing window, as pandas gives it."
    return method


def _values_carry() -> Carry:
    return Carry(functools.partial(sorted_values, False), functools.partial(merge_sorted, False))


def nunique(self: Expanding, numeric_only: bool = False) -> Any:
    """The number of distinct values in each growing window."""
    meta = _meta(self, "nunique", numeric_only=numeric_only)
    finish = functools.partial(nunique_finish, self._min_periods, meta)
    return _run(self, "nunique", finish, Carry(distinct_summary, distinct_fold))


def rank(
    self: Expanding,
    method: str = "average",
    ascending: bool = True,
    pct: bool = False,
    numeric_only: bool = False,
) -> Any:
    """Each row's rank among the values up to it (``method``: average, min or max)."""
    kwargs = {"method": method, "ascending": ascending, "pct": pct, "numeric_only": numeric_only}
    meta = _meta(self, "rank", **kwargs)
    finish = functools.partial(
        rank_finish, method, bool(ascending), bool(pct), self._min_periods, meta
    )
    return _run(self, "rank", finish, _values_carry())


def quantile(
    self: Expanding, q: float, interpolation: str = "linear", numeric_only: bool = False
) -> Any:
    """The ``q`` quantile of each growing window, interpolated as pandas does."""
    meta = _meta(self, "quantile", q, interpolation=interpolation, numeric_only=numeric_only)
    finish = functools.partial(quantile_finish, float(q), interpolation, self._min_periods, meta)
    return _run(self, "quantile", finish, _values_carry())


def median(self: Expanding, numeric_only: bool = False, **kwargs: Any) -> Any:
    """The median of each growing window."""
    meta = _meta(self, "median", numeric_only=numeric_only, **kwargs)
    finish = functools.partial(quantile_finish, 0.5, "median", self._min_periods, meta)
    return _run(self, "median", finish, _values_carry())


def apply(
    self: Expanding,
    func: Any,
    raw: bool = False,
    engine: str | None = None,
    engine_kwargs: dict[str, Any] | None = None,
    args: tuple[Any, ...] | None = None,
    kwargs: dict[str, Any] | None = None,
) -> Any:
    """``func`` of each growing window (a Series, or with ``raw`` a NumPy array)."""
    if engine not in (None, "cython"):
        raise NotImplementedError(f"expanding().apply: engine={engine!r} is not supported")
    args, kwargs = tuple(args or ()), dict(kwargs or {})
    meta = _meta(self, "apply", func, raw=raw, args=args, kwargs=kwargs)
    finish = functools.partial(apply_finish, func, bool(raw), args, kwargs, self._min_periods, meta)
    return _run(self, "apply", finish, tail_carry(sys.maxsize))


for _name in ("first", "last"):
    setattr(Expanding, _name, _ends(_name))
for _name, _method in {
    "nunique": nunique,
    "rank": rank,
    "quantile": quantile,
    "median": median,
    "apply": apply,
}.items():
    setattr(Expanding, _name, _method)
