"""``Tensor.view(dtype)``: the same bytes read as another dtype, as ``ndarray.view``.

With the same itemsize each chunk is reinterpreted where it is. With another itemsize
the last axis is rescaled (``n * old // new`` elements), so NumPy's rules apply to the
bytes of the whole last axis: the last axis is made one chunk first, then each chunk is
reinterpreted. NumPy's errors (a 0-d array, a last axis whose bytes do not divide) are
raised at the call. The result is a view: assigning into it assigns into the tensor (the
bytes are read back as the tensor's dtype), and assigning into the tensor shows in it.

Tensors do not track strides, so a tensor is always taken as C-contiguous: NumPy's "the
last axis must be contiguous" error (a transposed array, say) never happens here.
"""

from __future__ import annotations

import builtins
import functools
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.statistics.common import apply_whole_axes
from jupyter_mars.tensor.views import link_view


def view_block(dtype: np.dtype[Any], block: Any) -> Any:
    """Chunk kernel: ``block``'s bytes as ``dtype`` (a copy first where they are not
    contiguous along the last axis, as a chunk cut from a larger array may be)."""
    return np.ascontiguousarray(block).view(dtype)


def _check(x: Tensor, dtype: np.dtype[Any]) -> None:
    old, new = x.dtype.itemsize, dtype.itemsize
    if old == new:
        return
    if x.ndim == 0:
        raise ValueError(
            "Changing the dtype of a 0d array is only supported if the itemsize is unchanged"
        )
    if new > old and (x.shape[-1] * old) % new:
        raise ValueError(
            "When changing to a larger dtype, its size must be a divisor of the total size "
            "in bytes of the last axis of the array."
        )
    if new < old and old % new:
        raise ValueError(
            "When changing to a smaller dtype, its size must be a divisor of the size of "
            "original dtype"
        )


def reinterpret(x: Tensor, dtype: np.dtype[Any]) -> Tensor:
    """``x``'s bytes as ``dtype`` (a new tensor, not linked as a view)."""
    _check(x, dtype)
    if x.dtype.itemsize == dtype.itemsize:
        return elemwise(functools.partial(view_block, dtype), x, dtype=dtype, name="view")
    last = x.ndim - 1
    length = x.shape[-1] * x.dtype.itemsize // dtype.itemsize
    out_axes: tuple[int | None, ...] = (*range(last), None)
    kernel = functools.partial(view_block, dtype)
    return apply_whole_axes(x, kernel, (last,), out_axes, (*x.shape[:-1], length), dtype, "view")


class _DtypeView:
    """``derive`` and ``write_back`` of a dtype view."""

    def __init__(self, dtype: np.dtype[Any]) -> None:
        self.dtype = dtype

    def derive(self, base: Tensor) -> Tensor:
        return reinterpret(base, self.dtype)

    def write_back(self, base: Tensor, view: Tensor) -> Tensor:
        return reinterpret(view, base.dtype)


_SAME = object()
"""``view()`` without a dtype keeps the dtype (an explicit None is float64, as NumPy's)."""


def tensor_view(self: Tensor, dtype: Any = _SAME, type: Any = None) -> Tensor:  # noqa: A002
    """``ndarray.view``: the tensor's elements as ``dtype`` (the same dtype when not
    given), sharing them with the tensor (assignments through either show in both)."""
    if type is not None and type is not Tensor:
        raise TypeError("view(): tensors cannot be viewed as another array type")
    if isinstance(dtype, builtins.type) and issubclass(dtype, np.ndarray):
        raise TypeError("view(): tensors cannot be viewed as another array type")
    target = self.dtype if dtype is _SAME else np.dtype(dtype)
    region = _DtypeView(target)
    return link_view(region.derive(self), self, region.derive, region.write_back)


Tensor.view = tensor_view  # type: ignore[attr-defined]

__all__: list[str] = []
