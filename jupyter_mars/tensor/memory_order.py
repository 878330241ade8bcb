"""Memory order: chunks laid out in C or Fortran order, as NumPy lays out its results.

A tensor has no strides of its own; its chunks are NumPy arrays, and each is laid out as
the kernel that made it left it (``np.transpose`` of a C-ordered chunk is F-ordered, a
ufunc keeps its operand's order, ``zeros(order='F')`` makes F-ordered chunks). Where
NumPy promises a layout (``asfortranarray``, ``copy(order='F')``, ``reshape(order='F')``)
the chunks are laid out so here, and a fetched result is assembled in the layout its
chunks share (``engine/assemble.py``), so ``fetch().flags`` is NumPy's.

``'A'`` and ``'K'`` keep the chunks as they are.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.elemwise import elemwise


def lay_out(block: Any, order: str) -> Any:
    """Chunk kernel: ``block`` in ``order`` (a copy only where it is not already)."""
    return np.asarray(block, order=order)  # type: ignore[call-overload]


def check_order(order: Any, func: str) -> str:
    """``order`` as one of 'C', 'F', 'A', 'K' (None is 'K'); NumPy's error otherwise."""
    if order is None:
        return "K"
    if not isinstance(order, str) or order.upper() not in ("C", "F", "A", "K"):
        raise ValueError(f"{func}(): order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    return order.upper()


def with_order(x: Tensor, order: Any, func: str = "asarray") -> Tensor:
    """``x`` with its chunks in ``order`` ('C' or 'F'; 'A', 'K' and None keep them)."""
    order = check_order(order, func)
    if order in ("A", "K"):
        return x
    return elemwise(functools.partial(lay_out, order=order), x, dtype=x.dtype, name=func)


__all__: list[str] = []
