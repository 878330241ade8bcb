"""``diff`` and ``ediff1d``: differences of neighbours, as ``x[1:] - x[:-1]`` along an
axis (``!=`` for booleans, as NumPy does), built from slices and one element-wise node per
order, so every chunk is computed beside its neighbour's first element."""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape import broadcast_to, concatenate, ravel
from jupyter_mars.tensor.shape.common import check_axis, int_arg, wrap_node
from jupyter_mars.tensor.ufuncs import not_equal, subtract  # type: ignore[attr-defined]


def _edge(value: Any, x: Tensor, axis: int) -> Tensor:
    """``prepend``/``append`` as a block to join along ``axis`` (scalars broadcast)."""
    v = astensor(value)
    if v.ndim == 0:
        shape = tuple(1 if a == axis else n for a, n in enumerate(x.shape))
        return broadcast_to(v, shape)
    return v


def diff(a: Any, n: Any = 1, axis: Any = -1, prepend: Any = None, append: Any = None) -> Tensor:
    """Lazy ``numpy.diff``: the ``n``-th differences along ``axis``."""
    order = int_arg(n, "n")
    if order < 0:
        raise ValueError(f"order must be non-negative but got {order}")
    x = astensor(a)
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = check_axis(axis, x.ndim)
    if order == 0:
        return wrap_node(x)
    parts = [x]
    if prepend is not None:
        parts.insert(0, _edge(prepend, x, ax))
    if append is not None:
        parts.append(_edge(append, x, ax))
    if len(parts) > 1:
        x = concatenate(parts, axis=ax)
    op = not_equal if x.dtype == np.bool_ else subtract
    head = (slice(None),) * ax
    for _ in range(order):
        x = op(x[(*head, slice(1, None))], x[(*head, slice(None, -1))])
    return x


def _ends(value: Any, x: Tensor, name: str) -> Tensor:
    v = ravel(astensor(value))
    if not np.can_cast(v.dtype, x.dtype, casting="same_kind"):
        raise TypeError(
            f"dtype of `{name}` must be compatible with input `ary` under the `same_kind` rule."
        )
    cast: Tensor = v.astype(x.dtype, copy=False)
    return cast


def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Tensor:
    """Lazy ``numpy.ediff1d``: differences of the flattened tensor, with optional ends."""
    x = ravel(astensor(ary))
    result = subtract(x[1:], x[:-1])
    parts = [result]
    if to_begin is not None:
        parts.insert(0, _ends(to_begin, result, "to_begin"))
    if to_end is not None:
        parts.append(_ends(to_end, result, "to_end"))
    return parts[0] if len(parts) == 1 else concatenate(parts)


__all__ = ["diff", "ediff1d"]
