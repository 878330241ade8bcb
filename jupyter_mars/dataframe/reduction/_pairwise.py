"""Kernels of ``corr`` and ``cov``: mergeable co-moments of every pair of columns.

pandas uses, for each pair of columns, the rows where both are present. A chunk gives,
for every pair ``(i, j)``, the count of such rows ``n``, the means of column i and of
column j over them, and the sums of products of deviations (``cxy``, ``m2x``, ``m2y``);
all are k-by-k matrices computed with matrix products on the chunk shifted by its column
means (so the sums of products do not cancel). Two parts merge with the update of Chan,
Golub and LeVeque, pair by pair; ``finish`` gives pandas' covariance or Pearson
correlation, NaN where fewer than ``min_periods`` rows are shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

CoMoments = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""``(n, mean_x, mean_y, cxy, m2x, m2y)``, each k by k (x: row column, y: col column)."""


def co_moments(values: np.ndarray) -> CoMoments:
    """The co-moments of a float block (rows by k columns, NaN for missing values)."""
    present = ~np.isnan(values)
    w = present.astype(np.float64)
    counts = present.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        shift = np.where(counts > 0, np.nansum(values, axis=0) / np.maximum(counts, 1), 0.0)
    v = np.where(present, values - shift, 0.0)
    n = w.T @ w
    sx = v.T @ w  # sum over shared rows of column i's shifted values
    sy = sx.T
    sxy = v.T @ v
    sxx = (v * v).T @ w
    syy = sxx.T
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = np.where(n > 0, sx / n, 0.0)
        my = np.where(n > 0, sy / n, 0.0)
    cxy = sxy - sx * my
    m2x = sxx - sx * mx
    m2y = syy - sy * my
    return (n, mx + shift[:, None], my + shift[None, :], cxy, m2x, m2y)


def merge_co_moments(a: CoMoments, b: CoMoments) -> CoMoments:
    na, mxa, mya, ca, m2xa, m2ya = a
    nb, mxb, myb, cb, m2xb, m2yb = b
    n = na + nb
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(n > 0, na * nb / np.maximum(n, 1), 0.0)
        wb = np.where(n > 0, nb / np.maximum(n, 1), 0.0)
    dx = mxb - mxa
    dy = myb - mya
    return (
        n,
        mxa + dx * wb,
        mya + dy * wb,
        ca + cb + dx * dy * f,
        m2xa + m2xb + dx * dx * f,
        m2ya + m2yb + dy * dy * f,
    )


def finish_co_moments(m: CoMoments, method: str, min_periods: int, ddof: int) -> np.ndarray:
    """The k-by-k covariance (``ddof`` delta degrees of freedom) or correlation."""
    n, _, _, cxy, m2x, m2y = m
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "cov":
            out = np.where(n - ddof > 0, cxy / (n - ddof), np.nan)
        else:
            divisor = np.sqrt(m2x * m2y)
            out = np.where(divisor > 0, cxy / divisor, np.nan)
            out = np.clip(out, -1.0, 1.0)
    return np.where(n >= min_periods, out, np.nan)


@dataclass(frozen=True)
class PairwiseSpec:
    """``corr`` or ``cov`` (``method``) of the columns at ``positions`` (None: a
    two-column block of a Series and its other), as pandas computes them."""

    method: str
    min_periods: int | None
    ddof: int
    positions: tuple[int, ...] | None
    columns: Any = None
    """The result's labels for a DataFrame; None: the scalar of two Series."""

    def chunk(self, block: Any, axis: Any = None, keepdims: bool = True) -> Any:
        part = block if self.positions is None else block.iloc[:, list(self.positions)]
        values = part.to_numpy(dtype=np.float64, na_value=np.nan)
        return (len(values), co_moments(values))

    def combine(self, parts: list[Any], axis: Any = None) -> Any:
        rows, merged = parts[0]
        for r, p in parts[1:]:
            rows += r
            merged = merge_co_moments(merged, p)
        return (rows, merged)

    def aggregate(self, part: Any, axis: Any = None, keepdims: bool = False) -> Any:
        rows, m = part
        minp = 1 if self.min_periods is None else self.min_periods
        if self.columns is None:  # two Series: pairwise complete rows, ddof as given
            return np.float64(finish_co_moments(m, self.method, minp, self.ddof)[0, 1])
        ddof = 1
        if self.method == "cov" and bool((np.diag(m[0]) == rows).all()):
            # nothing missing: pandas' np.cov path, which honours ddof
            ddof = self.ddof
            minp = 0 if self.min_periods is None else self.min_periods
        out = finish_co_moments(m, self.method, minp, ddof)
        return pd.DataFrame(out, index=self.columns, columns=self.columns)
