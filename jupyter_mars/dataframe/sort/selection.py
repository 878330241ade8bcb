"""Exact quantiles of numeric columns by parallel selection, never gathering a column.

An exact quantile needs the values of one or two ranks ``k`` of a column's sorted,
non-missing values. Three steps find them:

1. a tree of per-chunk sketches: each chunk sorts its values and keeps its count and
   about ``SAMPLES`` of its order statistics with their ranks in the chunk. From those,
   the last step of the tree picks, per column and quantile, a window ``[lo, hi]`` that
   surely holds the wanted ranks: at most ``k`` values lie below ``lo`` and at least
   ``k + 2`` at or below ``hi`` (each chunk's sample brackets its own count below or at
   any value), about ``2 / SAMPLES`` of the values between them;
2. a map over the chunks that counts, per window, the values below ``lo`` and keeps the
   values inside it;
3. one task that adds the counts, sorts the few values kept and reads the ranks, then
   interpolates as NumPy does.

The bytes that meet in one place are the sketches and the windows, a small fraction
of the column, and the result is bit for bit pandas' (which uses NumPy's quantile).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.collect import collect
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.sort._tree import tree_frame, tree_tensor

SAMPLES = 128
"""Order statistics kept per chunk and column; the windows hold about 2/SAMPLES of a
column's values."""
CANDIDATES = 4096
"""At most this many sample values are tried as window ends (any subset stays exact)."""

Sketch = tuple[int, np.ndarray[Any, Any], np.ndarray[Any, Any]]
"""``(count, ranks, values)`` of one chunk of one column."""


def _values(block: Any, position: int | None) -> np.ndarray[Any, Any]:
    column = block if position is None else block.iloc[:, position]
    values = column.to_numpy(dtype=np.float64, na_value=np.nan)
    kept: np.ndarray[Any, Any] = values[~np.isnan(values)]
    return kept


def _sketch(values: np.ndarray[Any, Any]) -> Sketch:
    n = len(values)
    if n == 0:
        return (0, np.empty(0, np.int64), np.empty(0))
    step = max(1, -(-n // SAMPLES))
    ranks = np.unique(np.r_[np.arange(0, n, step), n - 1])
    # the order statistics at those ranks alone: a partition, not a sort, of the chunk
    return (n, ranks, np.partition(values, ranks)[ranks])


def _below_at_most(sketches: list[Sketch], x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """For each candidate in ``x``: a count that the values ``< x`` never exceed."""
    total = np.zeros(len(x), np.int64)
    for n, ranks, values in sketches:
        if n == 0:
            continue
        i = np.searchsorted(values, x, side="left")
        total += np.where(i < len(ranks), ranks[np.minimum(i, len(ranks) - 1)], n)
    return total


def _at_or_below_at_least(sketches: list[Sketch], x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """For each candidate in ``x``: a count that the values ``<= x`` always reach."""
    total = np.zeros(len(x), np.int64)
    for n, ranks, values in sketches:
        if n == 0:
            continue
        i = np.searchsorted(values, x, side="right")
        total += np.where(i > 0, ranks[np.maximum(i - 1, 0)] + 1, 0)
    return total


def wanted_ranks(n: int, q: float, interpolation: str) -> tuple[int, int]:
    """The 0-based ranks NumPy reads for quantile ``q`` of ``n`` sorted values."""
    h = (n - 1) * q
    low = int(math.floor(h))
    if interpolation == "nearest":
        low = int(np.round(h))  # NumPy rounds halves to even
        return low, low
    return low, min(low + 1, n - 1)


@dataclass(frozen=True)
class Sketches:
    """Step 1's kernels; the finish gives, per column, ``[n, lo_0, hi_0, lo_1, ...]``."""

    positions: tuple[int | None, ...]
    qs: tuple[float, ...]
    interpolation: str

    def chunk(self, block: Any) -> list[list[Sketch]]:
        return [[_sketch(_values(block, p))] for p in self.positions]

    def combine(self, parts: list[list[list[Sketch]]]) -> list[list[Sketch]]:
        return [sum((part[c] for part in parts), []) for c in range(len(self.positions))]

    def _window(self, sketches: list[Sketch], q: float, n: int) -> tuple[float, float]:
        low, high = wanted_ranks(n, q, self.interpolation)
        candidates = np.unique(np.concatenate([s[2] for s in sketches]))
        if len(candidates) > CANDIDATES:
            candidates = candidates[np.linspace(0, len(candidates) - 1, CANDIDATES).astype(int)]
        fits_lo = candidates[_below_at_most(sketches, candidates) <= low]
        fits_hi = candidates[_at_or_below_at_least(sketches, candidates) >= high + 1]
        lo = fits_lo[-1] if len(fits_lo) else -np.inf
        hi = fits_hi[0] if len(fits_hi) else np.inf
        return float(lo), float(hi)

    def aggregate(self, part: list[list[Sketch]]) -> pd.DataFrame:
        columns = {}
        for c, sketches in enumerate(part):
            n = sum(s[0] for s in sketches)
            row = [float(n)]
            for q in self.qs:
                row.extend(self._window(sketches, q, n) if n else (math.nan, math.nan))
            columns[c] = row
        return pd.DataFrame(columns)


def windows_of(block: Any, bounds: pd.DataFrame, positions: tuple[int | None, ...]) -> pd.DataFrame:
    """Step 2: per column ``c`` and quantile ``j``, a row ``(c, j, count below lo, nan)``
    and a row ``(c, j, -1, value)`` per value inside the window."""
    pieces = []
    nq = (len(bounds) - 1) // 2
    for c, p in enumerate(positions):
        values = _values(block, p)
        for j in range(nq):
            lo, hi = bounds.iloc[1 + 2 * j, c], bounds.iloc[2 + 2 * j, c]
            inside = values[(values >= lo) & (values <= hi)]
            below = int(np.count_nonzero(values < lo))
            piece = np.empty((len(inside) + 1, 4))
            piece[:, 0], piece[:, 1] = c, j
            piece[0, 2:] = (below, np.nan)
            piece[1:, 2], piece[1:, 3] = -1, inside
            pieces.append(piece)
    data = np.concatenate(pieces) if pieces else np.empty((0, 4))
    return pd.DataFrame(data, columns=["column", "q", "below", "value"])


def _interpolate(a: float, b: float, n: int, q: float, interpolation: str) -> float:
    """NumPy's quantile between the values ``a`` and ``b`` of the two wanted ranks."""
    h = (n - 1) * q
    t = h - math.floor(h)
    if interpolation in ("lower", "nearest"):
        return a
    if interpolation == "higher":
        return b if t > 0 else a
    with np.errstate(invalid="ignore"):  # infinities: NaN as pandas gives, silently
        if interpolation == "midpoint":
            # NumPy's weight: a half, or none on an exact rank (still a blend, so that
            # infinities give NaN as there)
            return float(np.quantile(np.array([a, b]), 0.5 if t > 0 else 0.0))
        return float(np.quantile(np.array([a, b]), t))


@dataclass(frozen=True)
class Finish:
    """Step 3: the quantiles from the counts and windows, laid out as pandas does."""

    qs: tuple[float, ...]
    interpolation: str
    layout: Any
    """Turns the ``(columns x quantiles)`` array of results into the pandas result."""

    def __call__(self, values: list[Any]) -> Any:
        pieces, bounds = values
        ncol = bounds.shape[1]
        out = np.full((ncol, len(self.qs)), np.nan)
        groups = {key: g for key, g in pieces.groupby(["column", "q"], sort=False)}
        for c in range(ncol):
            n = int(bounds.iloc[0, c])
            if n == 0:
                continue
            for j, q in enumerate(self.qs):
                group = groups[(float(c), float(j))]
                below = int(group.loc[group["below"] >= 0, "below"].sum())
                inside = np.sort(group.loc[group["below"] < 0, "value"].to_numpy())
                low, high = wanted_ranks(n, q, self.interpolation)
                a, b = inside[low - below], inside[high - below]
                out[c, j] = _interpolate(a, b, n, q, self.interpolation)
        return self.layout(out)


@dataclass(frozen=True)
class FrameLayout:
    """Columns by quantiles into a Series named ``q`` (scalar ``q``) or a DataFrame."""

    qs: tuple[float, ...]
    scalar: bool
    columns: pd.Index
    dtypes: tuple[Any, ...]
    series: bool = False
    name: Any = None
    row_name: Any = "q"
    """The name of a scalar ``q``'s Series: ``q`` itself, or this (None for a median)."""

    def __call__(self, out: np.ndarray[Any, Any]) -> Any:
        if self.series:
            result = pd.Series(out[0], index=pd.Index(self.qs), name=self.name)
            return result.astype(self.dtypes[0])
        frame = pd.DataFrame(out.T, index=pd.Index(self.qs), columns=self.columns)
        frame = frame.astype(dict(zip(self.columns, self.dtypes))) if len(self.columns) else frame
        if self.scalar:
            row = frame.iloc[0]
            row.name = self.qs[0] if self.row_name == "q" else self.row_name
            return row
        return frame


@dataclass(frozen=True)
class FirstValue:
    def chunk(self, block: Any) -> Any:
        return block.iloc[0]

    def combine(self, parts: list[Any]) -> Any:
        return parts[0]

    def aggregate(self, part: Any) -> Any:
        return part


def selectable(dtypes: list[Any]) -> bool:
    """Columns this path takes: NumPy integers and floats (bools, dates and extension
    types go the gathering way)."""
    return all(isinstance(t, np.dtype) and t.kind in "iuf" for t in dtypes)


def select_quantiles(
    frame: Any,
    positions: tuple[int | None, ...],
    qs: tuple[float, ...],
    interpolation: str,
    layout: Any,
    meta: Any,
) -> Any:
    """Steps 1-3 over ``frame``'s columns at ``positions`` (None: a Series)."""
    bounds_meta = pd.DataFrame({c: pd.Series(dtype=np.float64) for c in range(len(positions))})
    bounds = tree_frame(
        frame, Sketches(positions, qs, interpolation), "quantile_sketch", bounds_meta
    )
    pieces_meta = windows_of(pd.DataFrame(), bounds_meta, ())
    pieces = map_chunks(
        windows_of,
        [frame, bounds],
        (Slot(0), Slot(1), positions),
        pieces_meta,
        name="quantile_windows",
        keeps_rows=False,
        broadcast=frozenset({1}),
    )
    nrows = len(meta) if hasattr(meta, "__len__") else 1
    return collect(Finish(qs, interpolation, layout), [pieces, bounds], meta, nrows, "quantile")


def scalar_of(series_result: Any, dtype: Any) -> Any:
    """A one-row lazy Series as a lazy 0-d tensor of its value."""
    return tree_tensor(series_result, FirstValue(), "quantile", (), dtype)
