"""Whole-tensor helpers: ``result_type``, ``ndim``, ``scalar``, ``copy``,
``ascontiguousarray``, ``asfortranarray``, ``copyto``, ``broadcast_arrays``, and the
alias ``product`` (``prod``).

A tensor has no memory layout of its own (chunks are made in C order), so
``ascontiguousarray`` and ``asfortranarray`` only give NumPy's dtype and at least one
dimension. ``copyto`` writes into a tensor as ``x[...] = value`` does: it rebinds the
tensor to a new node, and tensors made from the old one keep their values.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import GPU, array_module
from jupyter_mars.session import ExecutableTuple
from jupyter_mars.tensor.arithmetic import where as where_
from jupyter_mars.tensor.core import Tensor, is_scalar, moved
from jupyter_mars.tensor.datasource import astensor, tensor
from jupyter_mars.tensor.elemwise import broadcast_shapes, elemwise
from jupyter_mars.tensor.gpu_keyword import check_gpu
from jupyter_mars.tensor.memory_order import with_order
from jupyter_mars.tensor.reduction import prod
from jupyter_mars.tensor.shape import atleast_1d, broadcast_to
from jupyter_mars.tensor.shape.common import shape_str, wrap_node
from jupyter_mars.tensor.views import rebind

product = prod


def _dtype_operand(x: Any) -> Any:
    """What ``numpy.result_type`` should see for ``x``: a tensor stands for its dtype."""
    if isinstance(x, Tensor):
        # a 0-d array is as strong as any array under NumPy 2's promotion rules
        return np.empty(0, dtype=x.dtype)
    return x


def result_type(*arrays_and_dtypes: Any) -> np.dtype[Any]:
    """``numpy.result_type``, where a tensor counts as an array of its dtype."""
    return np.result_type(*(_dtype_operand(x) for x in arrays_and_dtypes))


def ndim(a: Any) -> int:
    """The number of dimensions of a tensor or of anything NumPy takes for an array."""
    return a.ndim if isinstance(a, Tensor) else int(np.ndim(a))


def scalar(data: Any, dtype: Any = None, gpu: Any = None) -> Tensor:
    """A 0-d tensor holding ``data`` (Mars's ``scalar``); ``gpu=True``: on a GPU."""
    check_gpu(gpu, "scalar")
    value = np.asarray(data, dtype=dtype)
    if value.ndim != 0:
        raise ValueError(f"scalar(): data must be a scalar, got an array of shape {value.shape}")
    return tensor(value, gpu=gpu)


def copy(a: Any, order: str = "K", subok: bool = False) -> Tensor:
    """A tensor with ``a``'s values that later assignments into ``a`` do not change."""
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"copy(): order must be one of 'C', 'F', 'A' or 'K', got {order!r}")
    # tensors are values: a new handle on the same node is a copy, as assignment
    # rebinds the handle it is made through (and it is not a view: see views.py)
    return with_order(wrap_node(astensor(a)) if isinstance(a, Tensor) else tensor(a), order, "copy")


def ascontiguousarray(a: Any, dtype: Any = None, like: Any = None, gpu: Any = None) -> Tensor:
    """``a`` with at least one dimension, cast to ``dtype`` if given, in C-ordered chunks;
    ``gpu=True``: on a GPU (by default, where ``a`` is)."""
    check_gpu(gpu, "ascontiguousarray")
    t = astensor(a, dtype=dtype)
    if gpu is not None:
        t = moved(t, bool(gpu))
    t = atleast_1d(t)
    if t.node.device == GPU:  # laid out by the chunks' own module, on the device
        return elemwise(contiguous_chunk, t, dtype=t.dtype, name="ascontiguousarray")
    return with_order(t, "C", "ascontiguousarray")


def contiguous_chunk(block: Any) -> Any:
    """Chunk kernel: ``block`` C-contiguous, by the module that holds it (a copy only
    where it is not already)."""
    return array_module(block).ascontiguousarray(block)


def asfortranarray(a: Any, dtype: Any = None, like: Any = None) -> Tensor:
    """``a`` with at least one dimension, cast to ``dtype`` if given, in F-ordered chunks
    (fetched in Fortran order, see ``memory_order.py``)."""
    return with_order(atleast_1d(astensor(a, dtype=dtype)), "F", "asfortranarray")


def _cast_meta(value: Any) -> Any:
    """An operand with ``value``'s type for NumPy's casting check (Python scalars stay weak)."""
    if isinstance(value, Tensor):
        return np.empty(1, dtype=value.dtype)
    if is_scalar(value):
        return value
    return np.empty(1, dtype=np.asarray(value).dtype)


def _fits(shape: tuple[Any, ...], target: tuple[Any, ...]) -> bool:
    """Whether ``shape`` broadcasts to ``target`` without changing it."""
    try:
        return broadcast_shapes(shape, target) == target
    except ValueError:
        return False


def copyto(dst: Any, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    """Write ``src`` (broadcast) into the tensor ``dst`` where ``where`` holds."""
    if isinstance(dst, np.ndarray):
        np.copyto(dst, np.asarray(src), casting=casting, where=np.asarray(where))  # type: ignore[arg-type]
        return
    if not isinstance(dst, Tensor):
        raise TypeError(f"copyto() argument 1 must be a tensor, not {type(dst).__name__}")
    # NumPy's own check of the cast and of the where mask's type, on one element
    np.copyto(np.empty(1, dst.dtype), _cast_meta(src), casting=casting)  # type: ignore[arg-type]
    source = astensor(src) if not is_scalar(src) else src
    mask = astensor(where) if not is_scalar(where) else where
    for what, value in (("input array", source), ("where mask", mask)):
        shape = np.shape(value) if not isinstance(value, Tensor) else value.shape
        if not _fits(shape, dst.shape):
            raise ValueError(
                f"could not broadcast {what} from shape {shape_str(shape)} into shape "
                f"{shape_str(dst.shape)}"
            )
    if isinstance(mask, Tensor) and mask.dtype != np.bool_:
        raise TypeError(
            f"Cannot cast array data from {mask.dtype!r} to dtype('bool') according to the "
            "rule 'safe'"
        )
    new = where_(mask, source, dst).astype(dst.dtype, copy=False)
    if new.shape != dst.shape:
        new = broadcast_to(new, dst.shape)
    rebind(dst, new.node)


def broadcast_arrays(*args: Any, subok: bool = False) -> ExecutableTuple:
    """The inputs broadcast to their common shape, as a tuple of tensors."""
    tensors = [astensor(a) for a in args]
    shape = broadcast_shapes(*(t.shape for t in tensors))
    if any(isinstance(n, float) and math.isnan(n) for n in shape):
        raise ValueError("broadcast_arrays() needs the inputs' lengths; execute the inputs first")
    return ExecutableTuple(t if t.shape == shape else broadcast_to(t, shape) for t in tensors)


def _copy_method(self: Tensor, order: str = "C") -> Tensor:
    """Lazy ``ndarray.copy``."""
    return copy(self, order=order)


Tensor.copy = _copy_method  # type: ignore[attr-defined]

__all__ = [
    "ascontiguousarray",
    "asfortranarray",
    "broadcast_arrays",
    "copy",
    "copyto",
    "ndim",
    "product",
    "result_type",
    "scalar",
]
