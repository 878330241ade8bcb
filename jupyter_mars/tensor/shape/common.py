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


def is_unknown(n: Any) -> bool:
    return isinstance(n, float) and math.isnan(n)


def check_axis(axis: Any, ndim: int, argname: str = "axis", *, expected: str = "an int") -> int:
    """One axis of an ``ndim``-d tensor as a non-negative int: the tensor package's one
    axis check. A non-integer raises TypeError naming ``argname`` and what it takes
    (``expected``: "an int or None" where the caller handles None first); an axis out of
    range raises NumPy's AxisError, prefixed by the argument's name where that is not
    ``axis``, as NumPy words it (``moveaxis``' ``source``)."""
    if isinstance(axis, (bool, np.bool_)):
        raise TypeError(f"{argname} must be {expected}, got {axis!r}")
    try:
        value = operator.index(axis)  # ints, NumPy's, anything with __index__, as NumPy
    except TypeError:
        raise TypeError(f"{argname} must be {expected}, got {axis!r}") from None
    if not -ndim <= value < ndim:
        raise AxisError(value, ndim, None if argname == "axis" else argname)
    return value % ndim


def known_length(x: Any, axis: int, func: str) -> int:
    """The length of ``axis`` of ``x``, for a ``func`` that must know it before execution;
    ``ValueError`` saying what to do where a filter made it unknown."""
    n = x.shape[axis]
    if is_unknown(n):
        raise ValueError(
            f"{func}(): the length of axis {axis} is unknown until the input is executed; "
            "call .execute() on it first"
        )
    return int(n)


def normalize_axis_tuple(axis: Any, ndim: int, argname: str = "axis") -> tuple[int, ...]:
    """Axes (an int or a sequence of ints) as non-negative ints, in the order given."""
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(check_axis(a, ndim, argname) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {argname}: {axis!r}")
    return out


def int_arg(value: Any, argname: str) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{argname} must be an int, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{argname} must be an int, got {value!r}") from None


def int_tuple(value: Any, argname: str) -> tuple[int, ...]:
    """An int or a sequence of ints, as a tuple of ints."""
    if isinstance(value, Tensor):
        value = np.asarray(value)
    if isinstance(value, np.ndarray):
        if value.ndim > 1:
            raise ValueError(f"{argname} must be an int or a 1-d sequence of ints")
        value = value.tolist()
    items = value if isinstance(value, (tuple, list)) else (value,)
    try:
        return tuple(int_arg(v, argname) for v in items)
    except TypeError:
        raise TypeError(f"{argname} must be an int or a sequence of ints, got {value!r}") from None


def shape_param(shape: Any) -> tuple[int, ...]:
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


def check_order(order: Any, func: str) -> None:
    if order in ("C", "F", "A", "K", None):
        return
    raise ValueError(f"{func}(): order must be one of 'C', 'F', 'A' or 'K', got {order!r}")


def same_length(a: Any, b: Any) -> bool:
    return is_unknown(a) or is_unknown(b) or a == b


def shape_str(shape: Sequence[Any]) -> str:
    """A shape as NumPy prints it: ``(7,)``, ``(2, 3)``, ``()``."""
    parts = ["nan" if is_unknown(n) else str(int(n)) for n in shape]
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def wrap_node(node_like: Tensor) -> Tensor:
    """A new handle on the same node (so ``__setitem__`` on it does not touch the input)."""
    return Tensor(node_like.node)


def node_grid(node_key: str, numblocks: Sequence[int]) -> Any:
    return key_grid(node_key, numblocks)


def tiled_keys(t: Tiled) -> Any:
    return t.keys
