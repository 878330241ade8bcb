"""Argument checks and dtype probes shared by the products.

Lengths may be ``nan`` (data-dependent): such a length matches any other. Error messages
follow NumPy's (the shapes printed as NumPy prints them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from jupyter_mars.tensor import ufuncs
from jupyter_mars.tensor.core import Tensor


def fmt_shape(shape: Sequence[Any]) -> str:
    """A shape as NumPy prints it in error messages: ``(2,3)``, ``(3,)``."""
    items = [str(int(n)) if not (isinstance(n, float) and math.isnan(n)) else "nan" for n in shape]
    return "(" + ",".join(items) + ("," if len(items) == 1 else "") + ")"


def differ(x: Any, y: Any) -> bool:
    """Known lengths that differ (nan matches anything)."""
    if isinstance(x, float) and math.isnan(x) or isinstance(y, float) and math.isnan(y):
        return False
    return bool(x != y)


def tiny(t: Tensor, ndim: int | None = None) -> np.ndarray[Any, Any]:
    """Ones of ``t``'s dtype, each axis of length 1: to ask NumPy for a result dtype."""
    return np.ones((1,) * (t.ndim if ndim is None else ndim), dtype=t.dtype)


def dot_dtype(a: Tensor, b: Tensor, name: str) -> np.dtype[Any]:
    """``numpy.dot``'s result dtype; ``TypeError`` naming ``name`` when it has none."""
    try:
        return np.asarray(np.dot(tiny(a, 2), tiny(b, 2))).dtype
    except TypeError as exc:
        raise TypeError(
            f"{name}: unsupported operand dtypes {a.dtype} and {b.dtype}: {exc}"
        ) from exc


def check_out(name: str, out: Any) -> None:
    if out is not None:
        raise TypeError(f"{name}(): the 'out' argument is not supported on tensors")


def multiply(a: Tensor, b: Tensor) -> Tensor:
    """``a * b`` (a product with a 0-d operand)."""
    result: Tensor = getattr(ufuncs, "multiply")(a, b)  # noqa: B009
    return result


def broadcast_batches(a: Tensor, b: Tensor, requested: Sequence[Any]) -> int:
    """Number of batch axes (all but the last two) of ``a`` and ``b`` broadcast together.

    ``ValueError`` with NumPy's gufunc message when they do not broadcast (``requested``
    is the core shape of the result, shown in the message).
    """
    batch_a, batch_b = a.shape[:-2], b.shape[:-2]
    nbatch = max(len(batch_a), len(batch_b))
    for pos in range(1, nbatch + 1):
        x = batch_a[-pos] if pos <= len(batch_a) else 1
        y = batch_b[-pos] if pos <= len(batch_b) else 1
        if x != 1 and y != 1 and differ(x, y):
            remap = " ".join(_remapped(t) for t in (a, b))
            raise ValueError(
                "operands could not be broadcast together with remapped shapes "
                f"[original->remapped]: {remap}  and requested shape {fmt_shape(requested)}"
            )
    return nbatch


def _remapped(t: Tensor) -> str:
    """How NumPy shows an operand's batch shape in a gufunc's broadcast error."""
    batch = [str(n) for n in t.shape[:-2]] + ["newaxis"] * min(t.ndim, 2)
    return f"{fmt_shape(t.shape)}->({','.join(batch)})"
