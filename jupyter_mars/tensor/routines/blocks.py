"""``block``: a tensor assembled from nested lists of blocks, as ``numpy.block``.

The innermost lists are joined along the last axis, the lists holding them along the
one before, and so on; blocks with fewer dimensions get leading length-1 axes first.
The nesting is checked at the call with NumPy's errors; the joins are ``concatenate``
nodes, which reuse the blocks' chunks.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape import concatenate, reshape
from jupyter_mars.tensor.shape.common import wrap_node


def _where(path: tuple[int, ...]) -> str:
    return "arrays" + "".join(f"[{i}]" for i in path)


def _depth(arrays: Any, path: tuple[int, ...] = ()) -> int:
    """How deep the lists nest, checked to be the same everywhere."""
    if isinstance(arrays, tuple):
        raise TypeError(
            f"{_where(path)} is a tuple. Only lists can be used to arrange blocks, and "
            "tuples are not allowed in block()."
        )
    if not isinstance(arrays, list):
        return 0
    if not arrays:
        raise ValueError(f"List at {_where(path)} cannot be empty")
    depths = [_depth(item, (*path, i)) for i, item in enumerate(arrays)]
    for i, d in enumerate(depths):
        if d != depths[0]:
            raise ValueError(
                f"List depths are mismatched. First element was at depth "
                f"{len(path) + 1 + depths[0]}, but there is an element at depth "
                f"{len(path) + 1 + d} ({_where((*path, i))})"
            )
    return depths[0] + 1


def _leaves(arrays: Any) -> list[Tensor]:
    if isinstance(arrays, list):
        return [leaf for item in arrays for leaf in _leaves(item)]
    return [astensor(arrays)]


def _assemble(arrays: Any, depth: int, list_depth: int, ndim: int) -> Tensor:
    if depth == list_depth:
        t = astensor(arrays)
        return t if t.ndim == ndim else reshape(t, (1,) * (ndim - t.ndim) + t.shape)
    parts = [_assemble(item, depth + 1, list_depth, ndim) for item in arrays]
    return concatenate(parts, axis=-(list_depth - depth))


def block(arrays: Any) -> Tensor:
    """Lazy ``numpy.block``: join nested lists of tensors, innermost along the last axis."""
    list_depth = _depth(arrays)
    ndim = max(list_depth, max(t.ndim for t in _leaves(arrays)))
    result = _assemble(arrays, 0, list_depth, ndim)
    return wrap_node(result) if list_depth == 0 else result


__all__ = ["block"]
