"""Mergeable moments up to the fourth, for ``skew`` and ``kurt``.

A chunk of a column becomes ``(n, mean, m2, m3, m4)``: its count and mean and the sums of
the 2nd, 3rd and 4th powers of the deviations from that mean. Two parts merge with the
pairwise formulas of Pébay (2008), which shift each part's sums to the joint mean, so a
tree of merges gives the same moments as one pass over all values, without ever
subtracting large raw power sums. The finish applies pandas' bias-corrected estimators.

"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.reduction._moments import deviation_sums, present_values

ShapeMoments = tuple[int, float, float, float, float]
"""``(count, mean, m2, m3, m4)``; a count of -1 marks a missing value under skipna=False."""

EMPTY: ShapeMoments = (0, 0.0, 0.0, 0.0, 0.0)
POISONED: ShapeMoments = (-1, math.nan, math.nan, math.nan, math.nan)


def column_shape_moments(column: pd.Series, skipna: bool) -> ShapeMoments:
    """The moments of one chunk of a column, in float64 as pandas' ``nanskew``."""
    values = present_values(column, skipna)
    if values is None:
        return POISONED
    n = len(values)
    if n == 0:
        return EMPTY
    mean = float(values.sum()) / n
    m2, m3, m4 = deviation_sums(values, mean, 4)
    return (n, mean, m2, m3, m4)


def merge_shape_moments(a: ShapeMoments, b: ShapeMoments) -> ShapeMoments:
    """The moments of two disjoint parts together."""
    na, ma, a2, a3, a4 = a
    nb, mb, b2, b3, b4 = b
    if na < 0 or nb < 0:
        return POISONED
    if na == 0:
        return b
    if nb == 0:
        return a
    n = na + nb
    delta = mb - ma
    d_n = delta / n
    m2 = a2 + b2 + delta * d_n * na * nb
    m3 = a3 + b3 + delta * d_n * d_n * na * nb * (na - nb) + 3 * d_n * (na * b2 - nb * a2)
    m4 = (
        a4
        + b4
        + delta * d_n**3 * na * nb * (na * na - na * nb + nb * nb)
        + 6 * d_n * d_n * (na * na * b2 + nb * nb * a2)
        + 4 * d_n * (na * b3 - nb * a3)
    )
    return (n, ma + d_n * nb, m2, m3, m4)


def merge_all(states: list[ShapeMoments]) -> ShapeMoments:
    merged = EMPTY
    for state in states:
        merged = merge_shape_moments(merged, state)
    return merged


def finish_shape(m: ShapeMoments, how: str) -> np.float64:
    """pandas' sample skewness (``skew``) or excess kurtosis (``kurt``); NaN when too
    few values or when all values are equal, as pandas gives."""
    n, _, m2, m3, m4 = m
    if n < (3 if how == "skew" else 4) or m2 == 0:
        return np.float64(math.nan)
    if how == "skew":
        return np.float64(n * (n - 1) ** 0.5 / (n - 2) * (m3 / m2**1.5))
    adjust = 3 * (n - 1) ** 2 / ((n - 2) * (n - 3))
    return np.float64(n * (n + 1) * (n - 1) * m4 / ((n - 2) * (n - 3) * m2 * m2) - adjust)
