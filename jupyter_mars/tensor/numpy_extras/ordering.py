"""``lexsort``: NumPy's ``lexsort`` on blocks where the keys and the sorted axis are
whole, the other axes keeping their chunks."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.shape import stack
from jupyter_mars.tensor.shape.common import check_axis, is_unknown
from jupyter_mars.tensor.statistics.common import apply_whole_axes


def lexsort(keys: Any, axis: Any = -1) -> Tensor:
    """Indices that sort by the last key, then the one before it, and so on (stable)."""
    if isinstance(keys, Tensor) or isinstance(keys, np.ndarray):
        stacked = asarray(keys)
    else:
        stacked = stack([asarray(k) for k in keys])
    if stacked.ndim == 0:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    data_ndim = stacked.ndim - 1
    if data_ndim == 0:
        # a 1-d input is a sequence of 0-d keys, as in NumPy
        kernel = functools.partial(np.lexsort)
        return apply_whole_axes(stacked, kernel, (0,), (), (), np.intp, "lexsort")
    ax = check_axis(axis, data_ndim)
    if any(is_unknown(n) for n in stacked.shape):
        raise ValueError("lexsort() needs the keys' lengths; execute them first")
    out_axes = tuple(None if d == ax + 1 else d for d in range(1, stacked.ndim))
    kernel = functools.partial(np.lexsort, axis=ax)
    return apply_whole_axes(
        stacked, kernel, (0, ax + 1), out_axes, stacked.shape[1:], np.intp, "lexsort"
    )


__all__ = ["lexsort"]
