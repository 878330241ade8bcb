"""``union1d`` and ``setdiff1d``, from ``unique`` and ``isin``: sorted and de-duplicated
in parallel, their length known once executed (``nan`` until then)."""

from __future__ import annotations

from typing import Any

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape import concatenate, ravel
from jupyter_mars.tensor.sorting import isin, unique


def union1d(ar1: Any, ar2: Any) -> Tensor:
    """Lazy ``numpy.union1d``: the sorted values found in either input."""
    return unique(concatenate([ravel(astensor(ar1)), ravel(astensor(ar2))]))  # type: ignore[no-any-return]


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Tensor:
    """Lazy ``numpy.setdiff1d``: the values of ``ar1`` not in ``ar2`` (sorted unless
    ``assume_unique``, which keeps ``ar1``'s order, as NumPy)."""
    left = ravel(astensor(ar1)) if assume_unique else unique(astensor(ar1))
    keep = isin(left, ar2, assume_unique=assume_unique, invert=True)
    return left[keep]  # type: ignore[no-any-return]


__all__ = ["setdiff1d", "union1d"]
