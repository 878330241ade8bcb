"""``append``, ``insert`` and ``delete``: new tensors with parts added or removed along
an axis.

NumPy's own ``insert``/``delete`` are run on the axis' *positions* (``arange(n)``, a few
bytes per element, in the client), which gives NumPy's placement rules and its errors at
the call. The result is then put together from slices of the input (and of the inserted
values): each run of consecutive positions is one slice, so input chunks are reused and
nothing is gathered element by element unless the positions are scattered.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape import broadcast_to, concatenate, moveaxis, ravel, reshape
from jupyter_mars.tensor.shape.common import check_axis, known_length, wrap_node

MAX_RUNS = 64
"""Past this many runs of consecutive positions, one gather replaces the slices."""


def _along(axis: int, index: Any) -> tuple[Any, ...]:
    return (slice(None),) * axis + (index,)


def gather_runs(x: Tensor, axis: int, positions: np.ndarray[Any, Any]) -> Tensor:
    """``x`` taken at ``positions`` along ``axis``, as slices of its consecutive runs."""
    n = x.shape[axis]
    if len(positions) == n and np.array_equal(positions, np.arange(n)):
        return wrap_node(x)
    breaks = np.flatnonzero(np.diff(positions) != 1) + 1
    starts = np.concatenate(([0], breaks)).astype(int)
    stops = np.concatenate((breaks, [len(positions)])).astype(int)
    if len(positions) == 0 or len(starts) > MAX_RUNS:
        return x[_along(axis, positions)]  # type: ignore[no-any-return]
    pieces = [
        x[_along(axis, slice(int(positions[a]), int(positions[b - 1]) + 1))]
        for a, b in zip(starts, stops)
    ]
    return pieces[0] if len(pieces) == 1 else concatenate(pieces, axis=axis)


def _prepare(arr: Any, axis: Any) -> tuple[Tensor, int]:
    x = astensor(arr)
    if axis is None:
        return ravel(x), 0
    return x, check_axis(axis, x.ndim)


def _positions_spec(obj: Any) -> Any:
    """``obj`` as NumPy's ``insert``/``delete`` take it (a tensor's values are fetched)."""
    if isinstance(obj, Tensor):
        return np.asarray(obj)
    return obj


def delete(arr: Any, obj: Any, axis: Any = None) -> Tensor:
    """Lazy ``numpy.delete``: ``arr`` without the parts ``obj`` selects along ``axis``."""
    x, ax = _prepare(arr, axis)
    if x.ndim == 0:
        raise ValueError("delete(): arr must have at least one dimension")
    n = known_length(x, ax, "delete")
    kept = np.delete(np.arange(n), _positions_spec(obj))
    return gather_runs(x, ax, kept)


def _insert_values(values: Any, x: Tensor, ax: int, scalar_obj: bool, count: int | None) -> Tensor:
    """``values`` cast to ``x``'s dtype and shaped as the block inserted along ``ax``."""
    if isinstance(values, Tensor):
        v = values.astype(x.dtype, copy=False)
    else:
        v = astensor(np.array(values, dtype=x.dtype))
    if v.ndim < x.ndim:
        v = reshape(v, (1,) * (x.ndim - v.ndim) + v.shape)
    if scalar_obj:
        v = moveaxis(v, 0, ax)
    width = v.shape[ax] if count is None else count
    target = tuple(width if a == ax else n for a, n in enumerate(x.shape))
    if v.shape == target:
        return wrap_node(v)
    try:
        return broadcast_to(v, target)
    except ValueError:
        raise ValueError(
            f"could not broadcast input array from shape {v.shape} into shape {target}"
        ) from None


def insert(arr: Any, obj: Any, values: Any, axis: Any = None) -> Tensor:
    """Lazy ``numpy.insert``: ``values`` put before the positions ``obj`` along ``axis``."""
    x, ax = _prepare(arr, axis)
    n = known_length(x, ax, "insert")
    spec = _positions_spec(obj)
    if isinstance(spec, slice):
        indices = np.arange(*spec.indices(n))
    else:
        indices = np.asarray(spec)
        if indices.dtype == np.bool_ and indices.ndim == 1:
            indices = np.flatnonzero(indices)  # a mask of the positions, as NumPy 2 reads it
        elif indices.size == 0:
            indices = indices.astype(np.intp)
        if indices.dtype.kind not in "iu":
            if indices.size == 1:
                raise TypeError(
                    "slice indices must be integers or None or have an __index__ method"
                )
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        if indices.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    if indices.size == 0:
        _insert_values(values, x, ax, False, 0)  # NumPy still checks that they broadcast
        return wrap_node(x)
    bad = indices[(indices < -n) | (indices > n)]
    if bad.size:
        raise IndexError(f"index {int(bad[0])} is out of bounds for axis {ax} with size {n}")
    if indices.size == 1:
        block = _insert_values(values, x, ax, indices.ndim == 0, None)
        at = int(indices.ravel()[0])
        at = at + n if at < 0 else at
        width = block.shape[ax]
        order = np.arange(width)
        positions = np.concatenate([np.arange(at), n + order, np.arange(at, n)])
    else:
        block = _insert_values(values, x, ax, False, len(indices))
        positions = np.insert(np.arange(n), indices, n + np.arange(len(indices)))
    joined = concatenate([x, block], axis=ax)
    return gather_runs(joined, ax, positions)


def append(arr: Any, values: Any, axis: Any = None) -> Tensor:
    """Lazy ``numpy.append``: ``values`` joined after ``arr`` (both flattened if no axis)."""
    x, v = astensor(arr), astensor(values)
    if axis is None:
        return concatenate([ravel(x), ravel(v)], axis=0)
    return concatenate([x, v], axis=axis)


__all__ = ["append", "delete", "insert"]
