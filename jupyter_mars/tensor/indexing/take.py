"""``take``, ``compress`` and ``extract``, built on ``x[index]``.

``take`` along an axis is ``x[:, ..., indices]`` (after wrapping or clipping the indices
for ``mode="wrap"``/``"clip"``); without an axis, the flat indices are unravelled into one
integer index per axis (elementwise when they are a tensor). ``compress`` and ``extract``
index with the condition as a mask when it matches the tensor, else ``take`` its
``nonzero`` positions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.indexing.getitem import getitem
from jupyter_mars.tensor.indexing.nonzero import flatnonzero, nonzero
from jupyter_mars.tensor.indexing.normalize import isnan, nonnegative, prod
from jupyter_mars.tensor.shape.common import check_axis

EMPTY_TAKE = "cannot do a non-empty take from an empty axes."

# ---- chunk kernels ---------------------------------------------------------------------------


def wrap_indices(indices: Any, size: int, mode: str) -> Any:
    """``intp`` indices into an axis of ``size`` as ``take``'s ``mode`` makes them: wrapped,
    clipped, or (``"raise"``) non-negative, with IndexError for one out of bounds."""
    xp = array_module(indices)
    flat = xp.asarray(indices).astype(np.intp)
    if mode == "wrap":
        return xp.mod(flat, size)
    if mode == "clip":
        return xp.clip(flat, 0, size - 1)
    return nonnegative(flat, size, 0)


def unravel_component(indices: Any, shape: tuple[int, ...], i: int, size: int, mode: str) -> Any:
    """Component ``i`` of the multi-index of flat ``indices`` into ``shape`` (take's modes)."""
    return np.unravel_index(wrap_indices(indices, size, mode), shape)[i].astype(np.intp)


# ---- argument checks -------------------------------------------------------------------------


def _take_indices(indices: Any) -> Any:
    """Indices for ``take``: an integer tensor or ``intp`` array. Like NumPy, sequences and
    scalars are converted element by element, arrays must hold integers (or bools)."""
    if not isinstance(indices, (Tensor, np.ndarray)):
        return np.array(indices, dtype=np.intp)
    if indices.dtype.kind not in "biu":
        raise TypeError(
            f"Cannot cast array data from {indices.dtype!r} to dtype('int64') according to the "
            "rule 'same_kind'"
        )
    return indices.astype(np.intp) if indices.dtype.kind == "b" else indices


def _known_size(n: Any, what: str) -> int:
    if isnan(n):
        raise ValueError(f"{what} needs the tensor's shape, which is unknown until executed")
    return int(n)


def _as_bool(condition: Tensor) -> Tensor:
    return condition if condition.dtype.kind == "b" else condition.astype(bool)


# ---- public functions ------------------------------------------------------------------------


def _take_along(x: Tensor, idx: Any, axis: int, mode: str) -> Tensor:
    if mode != "raise":
        n = _known_size(x.shape[axis], f"take(mode={mode!r})")
        if n == 0 and (isinstance(idx, Tensor) or np.size(idx)):
            raise IndexError(EMPTY_TAKE)
        if isinstance(idx, Tensor):
            idx = elemwise(wrap_indices, idx, size=n, mode=mode, dtype=np.intp, name="take_" + mode)
        else:
            idx = wrap_indices(idx, n, mode)
    return getitem(x, (slice(None),) * axis + (idx,))


def take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: str = "raise") -> Tensor:
    """Lazy ``numpy.take``: elements along ``axis`` (of the flattened tensor when None)."""
    if out is not None:
        raise TypeError("take(): the 'out' argument is not supported on tensors")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    x = astensor(a)
    idx = _take_indices(indices)
    if axis is not None:
        return _take_along(x, idx, check_axis(axis, x.ndim, expected="an int or None"), mode)
    if x.ndim <= 1:
        return _take_along(x if x.ndim else getitem(x, None), idx, 0, mode)
    shape = tuple(_known_size(n, "take(axis=None)") for n in x.shape)
    size = prod(shape)
    empty = size == 0 and mode != "raise"
    if isinstance(idx, Tensor):
        if empty:
            raise IndexError(EMPTY_TAKE)
        comps: tuple[Any, ...] = tuple(
            elemwise(
                unravel_component,
                idx,
                shape=shape,
                i=i,
                size=size,
                mode=mode,
                dtype=np.intp,
                name="unravel_index",
            )
            for i in range(x.ndim)
        )
    else:
        if empty and idx.size:
            raise IndexError(EMPTY_TAKE)
        flat = idx if empty else wrap_indices(idx, size, mode)
        comps = np.unravel_index(np.asarray(flat, dtype=np.intp), shape)
    return getitem(x, comps)


def compress(condition: Any, a: Any, axis: Any = None, out: Any = None) -> Tensor:
    """Lazy ``numpy.compress``: the slices along ``axis`` where ``condition`` is true."""
    if out is not None:
        raise TypeError("compress(): the 'out' argument is not supported on tensors")
    x = astensor(a)
    if isinstance(condition, Tensor):
        if condition.ndim != 1:
            raise ValueError("condition must be a 1-d array")
        cond = _as_bool(condition)
        if axis is None and x.ndim != 1:
            return take(x, nonzero(cond)[0], axis=None)
        ax = 0 if axis is None else check_axis(axis, x.ndim, expected="an int or None")
        n, m = x.shape[ax], cond.shape[0]
        if not isnan(n) and not isnan(m) and n == m:
            return getitem(x, (slice(None),) * ax + (cond,))
        return take(x, nonzero(cond)[0], axis=ax)
    c = np.asarray(condition)
    if c.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return take(x, np.flatnonzero(c), axis=axis)


def extract(condition: Any, arr: Any) -> Tensor:
    """Lazy ``numpy.extract``: the elements of ``arr`` (flattened) where ``condition`` is
    nonzero (flattened)."""
    x = astensor(arr)
    if isinstance(condition, Tensor):
        cond = _as_bool(condition)
        if cond.ndim and cond.shape == x.shape and not any(isnan(n) for n in x.shape):
            return getitem(x, cond)
        return take(x, flatnonzero(cond), axis=None)
    return take(x, np.flatnonzero(np.asarray(condition)), axis=None)
