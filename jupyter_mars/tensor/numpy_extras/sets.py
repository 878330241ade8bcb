"""Set routines NumPy has and Mars does not: ``intersect1d``, ``setxor1d`` and the array
API's ``unique_values``, ``unique_counts``, ``unique_inverse``, ``unique_all``, built on
``unique`` (sorted, de-duplicated in parallel; lengths known once executed).

The array API's functions return tuples with NumPy's field names. As NumPy does, they
keep every NaN of ``unique_values`` and ``unique_counts`` apart (each NaN is its own value,
at the end); ``unique_inverse`` and ``unique_all`` count all NaNs as one value, as
``mt.unique`` does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.session import ExecutableTuple
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation import ones_like
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.shape import concatenate, ravel, reshape
from jupyter_mars.tensor.sorting import isin, sort, unique
from jupyter_mars.tensor.ufuncs import isnan, logical_not  # type: ignore[attr-defined]


class _Fields(ExecutableTuple):
    """A tuple of tensors whose items are also named, like NumPy's result tuples."""

    _fields: tuple[str, ...] = ()

    def __getattr__(self, name: str) -> Any:
        if name in self._fields:
            return self[self._fields.index(name)]
        raise AttributeError(name)


class UniqueAllResult(_Fields):
    _fields = ("values", "indices", "inverse_indices", "counts")


class UniqueCountsResult(_Fields):
    _fields = ("values", "counts")


class UniqueInverseResult(_Fields):
    _fields = ("values", "inverse_indices")


def _split_nans(x: Tensor) -> tuple[Tensor, Tensor | None]:
    """The flattened non-NaN values and the NaNs (None when the dtype has no NaN)."""
    flat = ravel(x)
    if flat.dtype.kind not in "fc":
        return flat, None
    mask = isnan(flat)
    return flat[logical_not(mask)], flat[mask]


def unique_values(x: Any) -> Tensor:
    """The distinct values of ``x``, sorted; every NaN kept."""
    values, nans = _split_nans(asarray(x))
    found: Tensor = unique(values)
    return found if nans is None else concatenate([found, nans])


def unique_counts(x: Any) -> UniqueCountsResult:
    """The distinct values of ``x`` and how often each occurs; every NaN counts once."""
    values, nans = _split_nans(asarray(x))
    found, counts = unique(values, return_counts=True)
    if nans is not None:
        found = concatenate([found, nans])
        counts = concatenate([counts, ones_like(nans, dtype=counts.dtype)])
    return UniqueCountsResult((found, counts))


def unique_inverse(x: Any) -> UniqueInverseResult:
    """The distinct values of ``x`` and, in ``x``'s shape, where each element is among them."""
    t = asarray(x)
    found, inverse = unique(t, return_inverse=True)
    return UniqueInverseResult((found, reshape(inverse, t.shape)))


def unique_all(x: Any) -> UniqueAllResult:
    """The distinct values, the first index of each, the inverse and the counts."""
    t = asarray(x)
    found, first, inverse, counts = unique(
        t, return_index=True, return_inverse=True, return_counts=True
    )
    return UniqueAllResult((found, first, reshape(inverse, t.shape), counts))


def intersect1d(
    ar1: Any, ar2: Any, assume_unique: bool = False, return_indices: bool = False
) -> Any:
    """The sorted values found in both inputs (with the first index of each in each
    input when ``return_indices``)."""
    a, b = ravel(asarray(ar1)), ravel(asarray(ar2))
    # NumPy compares (and returns) the values in the inputs' common dtype
    common_dtype = np.result_type(a.dtype, b.dtype)
    a, b = a.astype(common_dtype, copy=False), b.astype(common_dtype, copy=False)
    if return_indices:
        left, left_index = unique(a, return_index=True)
        right, right_index = unique(b, return_index=True)
        keep = isin(left, right, assume_unique=True)
        kept = left[keep]
        matched = isin(right, left, assume_unique=True)
        return ExecutableTuple((kept, left_index[keep], right_index[matched]))
    if not assume_unique:
        a, b = unique(a), unique(b)
    common: Tensor = a[isin(a, b, assume_unique=True)]
    return common if not assume_unique else sort(common)


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Tensor:
    """The sorted values found in exactly one of the inputs."""
    a, b = ravel(asarray(ar1)), ravel(asarray(ar2))
    if not assume_unique:
        a, b = unique(a), unique(b)
    only_a = a[isin(a, b, assume_unique=True, invert=True)]
    only_b = b[isin(b, a, assume_unique=True, invert=True)]
    result: Tensor = sort(concatenate([only_a, only_b]))
    return result


__all__ = [
    "intersect1d",
    "setxor1d",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
]
