"""Argument checks and small helpers shared by the shape functions.

Axis and integer arguments are validated when a function is called, with NumPy's exception
types (``TypeError``, ``ValueError``, ``AxisError``) and messages naming the argument.
Lengths may be ``nan`` (data-dependent); the helpers here treat ``nan`` as "any length".
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jupyter_mars.engine.node import Tiled, key_grid
from jupyter_mars.tensor.core import Tensor

AxisError = np.exceptions.AxisError


def _isnan(n: Any) -> bool:
    return isinstance(n, float) and math.isnan(n)


def normalize_axis_index(axis: Any, ndim: int, argname: str = "axis") -> int:
    """``axis`` as a non-negative int; ``AxisError`` naming ``argname`` when out of range."""
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{argname} must be an int, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise AxisError(int(axis), ndim, argname)
    return int(axis) % ndim


def normalize_axis_tuple(axis: Any, ndim: int, argname: str = "axis") -> tuple[int, ...]:
    """Axes (an int or a sequence of ints) as non-negative ints, in the order given."""
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(normalize_axis_index(a, ndim, argname) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {argname}: {axis!r}")
    return out


def _int_arg(value: Any, argname: str) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{argname} must be an int, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{argname} must be an int, got {value!r}") from None


def _int_tuple(value: Any, argname: str) -> tuple[int, ...]:
    """An int or a sequence of ints, as a tuple of ints."""
    if isinstance(value, Tensor):
        value = np.asarray(value)
    if isinstance(value, np.ndarray):
        if value.ndim > 1:
            raise ValueError(f"{argname} must be an int or a 1-d sequence of ints")
        value = value.tolist()
    items = value if isinstance(value, (tuple, list)) else (value,)
    try:
        return tuple(_int_arg(v, argname) for v in items)
    except TypeError:
        raise TypeError(f"{argname} must be an int or a sequence of ints, got {value!r}") from None


def _shape_param(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = np.asarray(shape)
    if isinstance(shape, np.ndarray):
        shape = shape.tolist()
    items = shape if isinstance(shape, (tuple, list)) else (shape,)
    out = []
    for n in items:
        if isinstance(n, (bool, np.bool_)) or not hasattr(n, "__index__"):
            raise TypeError(
                f"shape must be an int or a tuple of ints, got {type(n).__name__} in {shape!r}"
            )
        out.append(operator.index(n))
    return tuple(out)


def _check_order(order: Any, func: str) -> None:
    if order in ("C", "F", "A", "K", None):
        return
    raise ValueError(f"{func}(): order must be one of 'C', 'F', 'A' or 'K', got {order!r}")


def _same_length(a: Any, b: Any) -> bool:
    return _isnan(a) or _isnan(b) or a == b


def _shape_str(shape: Sequence[Any]) -> str:
    """A shape as NumPy prints it: ``(7,)``, ``(2, 3)``, ``()``."""
    parts = ["nan" if _isnan(n) else str(int(n)) for n in shape]
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def _wrap(node_like: Tensor) -> Tensor:
    """A new handle on the same node (so ``__setitem__`` on it does not touch the input)."""
    return Tensor(node_like.node)


def _grid(node_key: str, numblocks: Sequence[int]) -> Any:
    return key_grid(node_key, numblocks)


def _keys(t: Tiled) -> Any:
    return t.keys
