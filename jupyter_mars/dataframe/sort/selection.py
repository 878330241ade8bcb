"""Exact quantiles of numeric columns by parallel selection, never gathering a column.

An exact quantile needs the values of one or two ranks ``k`` of a column's sorted,
non-missing values. Three steps find them, each a pass of comparisons at most:

1. a tree of per-chunk random samples: each chunk counts its values and draws
   ``SAMPLES`` of its rows (a chunk that short gives all its values). From the pooled
   samples, each weighted by the rows it stands for, the last step of the tree estimates
   how many values lie below any value, and picks per column and quantile a window
   ``[lo, hi]`` that holds the wanted ranks unless the estimate is off by more than
   ``MARGIN_SE`` standard errors (never, for chunks given whole);
2. a map over the chunks that counts, per window, the values below ``lo`` and keeps the
   values inside it;
3. a task that adds the counts and checks each window: at most ``k`` values below ``lo``
   and ``k + 1`` at or below ``hi``. Windows that hold their ranks (all but about one in
   a million, whatever the order of the data, since the samples are random) give the
   ranks from the few values kept; a window that missed is widened to the side it missed
   by, and a second map, which does nothing when no window missed, keeps the values of
   the widened windows. The last task reads the ranks and interpolates as NumPy does.

Sampling and counting are cheap next to sorting or partitioning a chunk; the bytes that
meet in one place are the samples and the windows, a small part of the column, and the
result is bit for bit pandas' (which uses NumPy's quantile).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.collect import collect
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.sort.tree import tree_frame, tree_tensor

SAMPLES = 8192
"""Rows drawn per chunk and column; a chunk of at most this many gives all its values."""
MARGIN_SE = 5.0
"""Standard errors of the estimated ranks that a window reaches beyond the wanted ones."""

Sample = tuple[int, int, bool, np.ndarray[Any, Any]]
"""``(count, rows, whole, values)`` of one chunk of one column: its non-missing values,
its rows, whether the values are all of them (else ``SAMPLES`` rows drawn at random,
missing ones left out), and the values (sorted)."""

SLACK = 6 / math.sqrt(SAMPLES)
"""How far the share of a chunk's rows below a window's end may be from that below the
estimated quantile (the variance is taken at the worst share within it)."""


def _numbers(block: Any, position: int | None) -> np.ndarray[Any, Any]:
    """The column's values as float64, missing ones NaN (no copy for float64)."""
    column = block if position is None else block.iloc[:, position]
    values: np.ndarray[Any, Any] = (
        column.to_numpy()
        if column.dtype == np.float64
        else column.to_numpy(dtype=np.float64, na_value=np.nan)
    )
    return values


def _sample(values: np.ndarray[Any, Any]) -> Sample:
    rows = len(values)
    missing = np.isnan(values)
    n = rows - int(np.count_nonzero(missing))
    if rows <= SAMPLES:
        return (n, rows, True, np.sort(values[~missing]))
    # the same draw for the same chunk length: a quantile gives the same windows each run
    drawn = values[np.random.default_rng(rows).integers(0, rows, SAMPLES)]
    return (n, rows, False, np.sort(drawn[~np.isnan(drawn)]))


def _share_variance(p: float) -> float:
    """The largest ``p (1 - p)`` for shares within ``SLACK`` of ``p``."""
    if abs(p - 0.5) <= SLACK:
        return 0.25
    nearest = p + SLACK if p < 0.5 else p - SLACK
    return nearest * (1 - nearest)


def wanted_ranks(n: int, q: float, interpolation: str) -> tuple[int, int]:
    """The 0-based ranks NumPy reads for quantile ``q`` of ``n`` sorted values."""
    h = (n - 1) * q
    low = int(math.floor(h))
    if interpolation == "nearest":
        low = int(np.round(h))  # NumPy rounds halves to even
        return low, low
    return low, min(low + 1, n - 1)


@dataclass(frozen=True)
class Samples:
    """Step 1's kernels; the finish gives, per column, ``[n, lo_0, hi_0, lo_1, ...]``."""

    positions: tuple[int | None, ...]
    qs: tuple[float, ...]
    interpolation: str

    def chunk(self, block: Any) -> list[list[Sample]]:
        return [[_sample(_numbers(block, p))] for p in self.positions]

    def combine(self, parts: list[list[list[Sample]]]) -> list[list[Sample]]:
        return [sum((part[c] for part in parts), []) for c in range(len(self.positions))]

    def _windows(self, samples: list[Sample], n: int) -> list[float]:
        values = np.concatenate([s[3] for s in samples])
        weights = np.concatenate(
            [np.full(len(s[3]), 1.0 if s[2] else s[1] / SAMPLES) for s in samples]
        )
        order = np.argsort(values, kind="stable")
        values, through = values[order], np.cumsum(weights[order])
        # estimated values below each sampled value (at most, for whole chunks) and at
        # or below it (at least), give or take the margin
        before = through - weights[order]
        drawn = [(s[1], s[3]) for s in samples if not s[2]]
        out: list[float] = []
        for q in self.qs:
            low, high = wanted_ranks(n, q, self.interpolation)
            # a chunk's estimated count below x has a variance of rows^2 p (1 - p) / SAMPLES,
            # p its share of rows below x: taken near the estimated quantile
            at = values[min(int(np.searchsorted(through, low + 1)), len(values) - 1)]
            variance = sum(
                rows * rows * _share_variance(np.searchsorted(v, at) / SAMPLES) / SAMPLES
                for rows, v in drawn
            )
            margin = MARGIN_SE * math.sqrt(variance)
            fits_lo = np.flatnonzero(before <= low - margin)
            fits_hi = np.flatnonzero(through >= high + 1 + margin)
            out.append(float(values[fits_lo[-1]]) if len(fits_lo) else -math.inf)
            out.append(float(values[fits_hi[0]]) if len(fits_hi) else math.inf)
        return out

    def aggregate(self, part: list[list[Sample]]) -> pd.DataFrame:
        columns = {}
        for c, samples in enumerate(part):
            n = sum(s[0] for s in samples)
            row = [float(n)]
            row.extend(self._windows(samples, n) if n else [math.nan] * (2 * len(self.qs)))
            columns[c] = row
        return pd.DataFrame(columns)


PIECES_META = pd.DataFrame(
    {
        "column": pd.Series(dtype=np.int64),
        "q": pd.Series(dtype=np.int64),
        "below": pd.Series(dtype=np.int64),
        "values": pd.Series(dtype=object),
    }
)
"""Steps 2's output: per column and quantile, the count below the window and the values
inside it (an array)."""


def windows_of(block: Any, bounds: pd.DataFrame, positions: tuple[int | None, ...]) -> pd.DataFrame:
    """Step 2: per column ``c`` and quantile ``j`` whose window is set (not NaN), a row
    ``(c, j, values below lo, values inside [lo, hi])``."""
    nq = (len(bounds) - 1) // 2
    windows = bounds.to_numpy()
    rows: dict[str, list[Any]] = {"column": [], "q": [], "below": [], "values": []}
    for c, p in enumerate(positions):
        wanted = [j for j in range(nq) if not math.isnan(windows[1 + 2 * j, c])]
        if not wanted:
            continue
        values = _numbers(block, p)  # NaN is neither below nor inside any window
        present = len(values) - int(np.count_nonzero(np.isnan(values)))
        for j in wanted:
            lo, hi = windows[1 + 2 * j, c], windows[2 + 2 * j, c]
            from_lo = values >= lo
            rows["column"].append(c)
            rows["q"].append(j)
            rows["below"].append(present - int(np.count_nonzero(from_lo)))
            rows["values"].append(values[from_lo & (values <= hi)])
    out = pd.DataFrame(rows, columns=list(PIECES_META.columns))
    return out.astype(PIECES_META.dtypes.to_dict())


def _gathered(pieces: pd.DataFrame) -> dict[tuple[int, int], tuple[int, np.ndarray[Any, Any]]]:
    """Step 2's rows of all chunks, per (column, quantile): the count below, the values."""
    found: dict[tuple[int, int], tuple[int, list[Any]]] = {}
    for c, j, below, values in zip(
        pieces["column"].tolist(), pieces["q"].tolist(), pieces["below"].tolist(), pieces["values"]
    ):
        total, kept = found.setdefault((c, j), (0, []))
        kept.append(values)
        found[(c, j)] = (total + below, kept)
    return {key: (below, np.concatenate(kept)) for key, (below, kept) in found.items()}


@dataclass(frozen=True)
class Check:
    """Step 3's check: the widened windows (NaN: the window held its ranks)."""

    qs: tuple[float, ...]
    interpolation: str

    def __call__(self, values: list[Any]) -> pd.DataFrame:
        pieces, bounds = values
        gathered = _gathered(pieces)
        windows = np.full(bounds.shape, math.nan)
        windows[0] = bounds.iloc[0].to_numpy()
        for c in range(bounds.shape[1]):
            n = int(bounds.iloc[0, c])
            for j, q in enumerate(self.qs):
                if n == 0:
                    continue
                below, inside = gathered[(c, j)]
                low, high = wanted_ranks(n, q, self.interpolation)
                lo, hi = bounds.iloc[1 + 2 * j, c], bounds.iloc[2 + 2 * j, c]
                # at most ``low`` values below lo, at least ``high + 1`` at or below hi
                # (known from the counts when lo <= hi); where not, that side goes to
                # the end of the values
                lo_holds = below <= low
                hi_holds = lo <= hi and below + len(inside) >= high + 1
                if not (lo_holds and hi_holds):
                    windows[1 + 2 * j, c] = lo if lo_holds else -math.inf
                    windows[2 + 2 * j, c] = hi if hi_holds else math.inf
        return pd.DataFrame(windows)


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
    """Step 3: the quantiles from the counts and windows (the widened ones where a window
    missed), laid out as pandas does."""

    qs: tuple[float, ...]
    interpolation: str
    layout: Any
    """Turns the ``(columns x quantiles)`` array of results into the pandas result."""

    def __call__(self, values: list[Any]) -> Any:
        pieces, bounds, widened = values
        gathered = _gathered(pieces)
        gathered.update(_gathered(widened))
        ncol = bounds.shape[1]
        out = np.full((ncol, len(self.qs)), np.nan)
        for c in range(ncol):
            n = int(bounds.iloc[0, c])
            if n == 0:
                continue
            for j, q in enumerate(self.qs):
                below, inside = gathered[(c, j)]
                low, high = wanted_ranks(n, q, self.interpolation)
                ranks = sorted({low - below, high - below})
                picked = np.partition(inside, ranks)
                a, b = picked[low - below], picked[high - below]
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
        frame, Samples(positions, qs, interpolation), "quantile_sample", bounds_meta
    )

    def windows(of: Any, name: str) -> Any:
        return map_chunks(
            windows_of,
            [frame, of],
            (Slot(0), Slot(1), positions),
            PIECES_META,
            name=name,
            keeps_rows=False,
            broadcast=frozenset({1}),
        )

    pieces = windows(bounds, "quantile_windows")
    widened = collect(
        Check(qs, interpolation), [pieces, bounds], bounds_meta, 1 + 2 * len(qs), "quantile_check"
    )
    rest = windows(widened, "quantile_widened")
    nrows = len(meta) if hasattr(meta, "__len__") else 1
    finish = Finish(qs, interpolation, layout)
    return collect(finish, [pieces, bounds, rest], meta, nrows, "quantile")


def scalar_of(series_result: Any, dtype: Any, name: str = "quantile") -> Any:
    """A one-row lazy Series as a lazy 0-d tensor of its value."""
    return tree_tensor(series_result, FirstValue(), name, (), dtype)
