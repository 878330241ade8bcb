"""Reading and writing at positions: ``take_along_axis``, and the in-place writers
``put_along_axis``, ``put``, ``place`` and ``putmask``.

A writer rebinds the tensor to a new node, as ``x[index] = value`` does, so tensors made
from the old one keep their values. ``take_along_axis``/``put_along_axis`` index with one
integer tensor per axis (ranges broadcast against ``indices``); ``put`` assigns into the
flattened tensor; ``place`` and ``putmask`` are a ``where`` between the tensor and the
values laid out by position (the running count of the mask for ``place``, the flat
position for ``putmask``), so nothing is gathered.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.tensor.arithmetic import clip, where
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation import arange
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.indexing.take import take
from jupyter_mars.tensor.numpy_extras.rearrange import resize
from jupyter_mars.tensor.reduction import cumsum
from jupyter_mars.tensor.shape import ravel, reshape
from jupyter_mars.tensor.shape.common import check_axis, is_unknown
from jupyter_mars.tensor.ufuncs import remainder  # type: ignore[attr-defined]

_MODES = ("raise", "wrap", "clip")


def _along_axis_index(arr: Tensor, indices: Any, axis: Any) -> tuple[Tensor, tuple[Any, ...]]:
    """``arr`` (flattened when ``axis`` is None) and the fancy index that pairs each of
    ``indices`` with its position on the other axes."""
    index = asarray(indices)
    if index.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if index.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        return ravel(arr), (index,)
    if index.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    ax = check_axis(axis, arr.ndim)
    fancy: list[Any] = []
    for d, n in enumerate(arr.shape):
        if d == ax:
            fancy.append(index)
        else:
            shape = tuple(n if e == d else 1 for e in range(arr.ndim))
            fancy.append(reshape(arange(n), shape))
    return arr, tuple(fancy)


def take_along_axis(arr: Any, indices: Any, axis: Any = -1) -> Tensor:
    """The elements of ``arr`` at ``indices`` along ``axis``, matched on the other axes."""
    source, fancy = _along_axis_index(asarray(arr), indices, axis)
    result: Tensor = source[fancy]
    return result


def _writable(a: Any, name: str) -> Tensor:
    if not isinstance(a, Tensor):
        raise TypeError(
            f"{name}() writes in place: argument 1 must be a tensor, not {type(a).__name__}"
        )
    return a


def _rebind(target: Tensor, value: Tensor) -> None:
    target._node = value.astype(target.dtype, copy=False).node


def put_along_axis(arr: Any, indices: Any, values: Any, axis: Any) -> None:
    """Write ``values`` into ``arr`` at ``indices`` along ``axis`` (in place)."""
    if isinstance(arr, np.ndarray):
        np.put_along_axis(arr, np.asarray(indices), np.asarray(values), axis)
        return
    target = _writable(arr, "put_along_axis")
    if axis is None:
        flat, fancy = _along_axis_index(target, indices, None)
        flat[fancy] = values
        _rebind(target, reshape(flat, target.shape))
        return
    _, fancy = _along_axis_index(target, indices, axis)
    target[fancy] = values


def put(a: Any, ind: Any, v: Any, mode: str = "raise") -> None:
    """Write ``v`` (repeated as needed) at the flat positions ``ind`` of ``a`` (in place)."""
    if mode not in _MODES:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    if isinstance(a, np.ndarray):
        np.put(a, np.asarray(ind), np.asarray(v), mode=mode)  # type: ignore[arg-type]
        return
    target = _writable(a, "put")
    if is_unknown(target.size):
        raise ValueError("put() needs the tensor's size; execute it first")
    n = int(target.size)
    index = ravel(asarray(ind))
    if index.dtype.kind not in "iu":
        raise TypeError(f"put(): ind must hold integers, got dtype {index.dtype}")
    if mode == "raise" and not isinstance(ind, Tensor):
        known = np.asarray(ind).ravel()
        bad = known[(known < -n) | (known >= n)]
        if bad.size:
            raise IndexError(f"index {bad[0]} is out of bounds for axis 0 with size {n}")
    if mode == "wrap":
        index = remainder(index, n)
    elif mode == "clip":
        index = clip(index, 0, n - 1)
    values = ravel(asarray(v))
    if values.size == 0:
        return  # NumPy writes nothing from empty values
    if values.size != index.size:
        values = resize(values, index.shape)
    flat = ravel(target)
    flat[index] = values.astype(target.dtype, copy=False)
    _rebind(target, reshape(flat, target.shape))


def _same_size(target: Tensor, mask: Tensor, name: str) -> None:
    if target.size != mask.size and not (is_unknown(target.size) or is_unknown(mask.size)):
        raise ValueError(f"{name}: mask and data must be the same size")


def place(arr: Any, mask: Any, vals: Any) -> None:
    """Write ``vals`` in order (repeated as needed) where ``mask`` holds (in place)."""
    if isinstance(arr, np.ndarray):
        np.place(arr, np.asarray(mask), np.asarray(vals))
        return
    target = _writable(arr, "place")
    condition = asarray(mask).astype(bool, copy=False)
    _same_size(target, condition, "place")
    values = ravel(asarray(vals))
    if values.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    flat_mask = ravel(condition)
    # the k-th True of the mask takes vals[k % len(vals)]
    rank = cumsum(flat_mask) - 1
    laid_out = take(values, remainder(rank, values.size))
    new = where(flat_mask, laid_out.astype(target.dtype), ravel(target))
    _rebind(target, reshape(new, target.shape))


def putmask(a: Any, mask: Any, values: Any) -> None:
    """Write ``values[i % len(values)]`` at each flat position ``i`` where ``mask`` holds
    (in place)."""
    if isinstance(a, np.ndarray):
        np.putmask(a, np.asarray(mask), np.asarray(values))
        return
    target = _writable(a, "putmask")
    condition = asarray(mask).astype(bool, copy=False)
    _same_size(target, condition, "putmask")
    source = asarray(values)
    if source.size == 0:
        return  # NumPy writes nothing from empty values
    laid_out = resize(source, target.shape).astype(target.dtype)
    new = where(reshape(condition, target.shape), laid_out, target)
    _rebind(target, new)


__all__ = ["place", "put", "put_along_axis", "putmask", "take_along_axis"]
