"""Mergeable moments of one column: count, total and sum of squared deviations.

``mean``, ``var``, ``std`` and ``sem`` reduce each chunk to ``(n, total, m2)`` and merge
those with the parallel update of Chan, Golub and LeVeque: the squared deviations are
kept about each part's own mean, so merging never subtracts two large sums of squares.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

Moments = tuple[int, float, float]
"""``(non-missing count, sum, sum of squared deviations from the mean)``."""


def float_values(column: pd.Series) -> np.ndarray[Any, Any]:
    """A column's values as float64, missing ones NaN: a view where they already are."""
    values: np.ndarray[Any, Any] = (
        column.to_numpy()
        if column.dtype == np.float64
        else column.to_numpy(dtype=np.float64, na_value=np.nan)
    )
    return values


def present_values(column: pd.Series, skipna: bool) -> np.ndarray[Any, Any] | None:
    """The values a moment is taken of: all of them, or the non-missing ones with
    ``skipna``; None when one is missing without ``skipna`` (the moment is NaN)."""
    values = float_values(column)
    # a finite sum rules NaN out at the cost of the sum alone (infinities give NaN too, and
    # are told apart the slow way)
    with np.errstate(invalid="ignore"):
        total = values.sum()
    if not math.isnan(total):
        return values
    missing = np.isnan(values)
    if not missing.any():
        return values
    return values[~missing] if skipna else None


BLOCK = 1 << 15
"""Values per step of ``deviation_sums``: its temporaries stay in the CPU's cache (fresh
whole-column temporaries cost more in page faults than in arithmetic)."""


def deviation_sums(values: np.ndarray[Any, Any], mean: float, highest: int) -> list[float]:
    """The sums of the 2nd to ``highest`` (at most 4th) powers of ``values - mean``."""
    size = min(BLOCK, len(values))
    deviation, square = np.empty(size), np.empty(size)
    sums = [0.0] * (highest - 1)
    for start in range(0, len(values), BLOCK):
        part = values[start : start + BLOCK]
        d = np.subtract(part, mean, out=deviation[: len(part)])
        if highest == 2:
            sums[0] += float(np.dot(d, d))
            continue
        d2 = np.multiply(d, d, out=square[: len(part)])
        sums[0] += float(d2.sum())
        sums[1] += float(np.dot(d2, d))
        if highest == 4:
            sums[2] += float(np.dot(d2, d2))
    return sums


def column_moments(column: pd.Series, skipna: bool, spread: bool = True) -> Moments:
    """The moments of one chunk of a column, as float64 like pandas' own ``nanvar``;
    without ``spread`` (a mean) the squared deviations are left at 0."""
    values = present_values(column, skipna)
    if values is None:
        return (len(column), math.nan, math.nan)
    n = len(values)
    if n == 0:
        return (0, 0.0, 0.0)
    total = float(values.sum())
    if not spread:
        return (n, total, 0.0)
    (m2,) = deviation_sums(values, total / n, 2)
    return (n, total, m2)


def many_moments(values: np.ndarray[Any, Any], skipna: bool) -> list[Moments]:
    """``column_moments`` of each column of a 2-d float64 array, computed together."""
    n, totals, m2 = stacked_moments(values, skipna)
    # Python numbers from whole arrays (``tolist``), not one NumPy scalar at a time
    return list(zip(n.tolist(), totals.tolist(), m2.tolist()))


def stacked_moments(
    values: np.ndarray[Any, Any], skipna: bool, second: bool = True
) -> tuple[np.ndarray[Any, Any], ...]:
    """The moments of each column of a 2-d float64 array as three arrays: counts, totals
    and, with ``second``, sums of squared deviations (zeros without: a mean needs none).
    A column that ``skipna=False`` spoils is ``(rows, nan, nan)``, an empty one
    ``(0, 0.0, 0.0)``, as ``column_moments`` gives them."""
    rows, width = values.shape
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, as a missing value gives
        totals = values.sum(axis=0)
    # a missing value makes its column's total NaN: without one, no mask to make
    if not np.isnan(totals).any():
        n = np.full(width, rows, dtype=np.int64)
        deviations = values - totals / n if second and rows else None
        spoilt = np.zeros(width, dtype=bool)
    else:
        missing = np.isnan(values)
        spoilt = missing.any(axis=0)
        present = ~missing
        n = present.sum(axis=0)
        totals = np.where(present, values, 0.0).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            means = totals / n
        deviations = np.where(present, values - means, 0.0) if second else None
    m2 = (deviations * deviations).sum(axis=0) if deviations is not None else np.zeros(width)
    if not skipna and spoilt.any():
        n = np.where(spoilt, rows, n)
        totals = np.where(spoilt, np.nan, totals)
        m2 = np.where(spoilt, np.nan, m2)
    return (n.astype(np.int64, copy=False), totals, m2)


def merge_moments(a: Moments, b: Moments) -> Moments:
    """The moments of two disjoint parts together."""
    na, ta, ma = a
    nb, tb, mb = b
    if na == 0:
        return b
    if nb == 0:
        return a
    n = na + nb
    delta = tb / nb - ta / na
    return (n, ta + tb, ma + mb + delta * delta * na * nb / n)


def finish_moments(m: Moments, how: str, ddof: int) -> Any:
    """``mean``, ``var``, ``std`` or ``sem`` from merged moments, NaN where pandas gives it."""
    n, total, m2 = m
    if how == "mean":
        return np.float64(total / n) if n else np.float64(math.nan)
    var = m2 / (n - ddof) if n > ddof else math.nan
    if how == "var":
        return np.float64(var)
    std = math.sqrt(var) if var >= 0 else math.nan
    if how == "std":
        return np.float64(std)
    return np.float64(std / math.sqrt(n)) if n else np.float64(math.nan)
