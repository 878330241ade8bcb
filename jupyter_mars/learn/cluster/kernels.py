"""Compiled loops over a block of rows for k-means: one pass that reads each row once.

Each row is scored against every centre by ``||c||² - 2 x·c`` (the ranking scikit-learn
uses: the first of equal scores wins), and what a step needs of the row is taken while
it is in registers: its label and its cluster's sums and weight (Lloyd's step), or its
nearest point and squared distance to it (k-means||), or its squared distance to its own
centre (the inertia). NumPy's version of these, slices of rows through a matrix product
and ``argmin``, makes several passes over each slice and holds the GIL between calls;
these hold it not at all, so the blocks of one iteration run on every core at once.

The loops are compiled by Numba on first use and cached beside this module. Dot products
may be summed in any order (as BLAS sums them); nothing else is relaxed, so infinities
and NaNs compare as IEEE says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["lloyd_rows", "nearest_rows", "row_gaps"]

_JIT: dict[str, Any] = {"nogil": True, "cache": True, "fastmath": {"reassoc", "contract"}}

F = TypeVar("F", bound=Callable[..., Any])


def _compiled(func: F) -> F:
    """``func`` compiled without the GIL, cached on disk."""
    return cast(F, numba.njit(**_JIT)(func))


@_compiled
def _score(x: Any, i: int, centers: Any, norms: Any, j: int) -> float:
    dot = 0.0
    for f in range(x.shape[1]):
        dot += x[i, f] * centers[j, f]
    return float(norms[j] - 2.0 * dot)


@_compiled
def _best(x: Any, i: int, centers: Any, norms: Any) -> tuple[int, float]:
    best = 0
    low = _score(x, i, centers, norms, 0)
    for j in range(1, centers.shape[0]):
        score = _score(x, i, centers, norms, j)
        if score < low:
            low = score
            best = j
    return best, low


@_compiled
def lloyd_rows(
    x: Any, centers: Any, norms: Any, weights: Any, labels: Any, sums: Any, totals: Any
) -> None:
    """Label each row of ``x`` with its best centre (into ``labels``) and add the row,
    times its weight (1 where ``weights`` is empty), to its cluster's ``sums`` and the
    weight to its ``totals``."""
    weighted = len(weights) > 0
    for i in range(x.shape[0]):
        best, _ = _best(x, i, centers, norms)
        labels[i] = best
        w = weights[i] if weighted else 1.0
        for f in range(x.shape[1]):
            sums[best, f] += w * x[i, f]
        totals[best] += w


@_compiled
def nearest_rows(x: Any, row_norms: Any, points: Any, norms: Any, index: Any, gaps: Any) -> None:
    """For each row of ``x``: the index of its nearest point (into ``index``) and its
    squared distance to it, ``||x||² - 2 x·p + ||p||²`` at least 0 (into ``gaps``)."""
    for i in range(x.shape[0]):
        best, low = _best(x, i, points, norms)
        index[i] = best
        gaps[i] = max(low + row_norms[i], 0.0)


@_compiled
def row_gaps(x: Any, labels: Any, centers: Any, out: Any) -> None:
    """Each row's squared distance to its centre, ``sum((x - c)²)`` (into ``out``)."""
    for i in range(x.shape[0]):
        c = labels[i]
        total = 0.0
        for f in range(x.shape[1]):
            gap = x[i, f] - centers[c, f]
            total += gap * gap
        out[i] = total
