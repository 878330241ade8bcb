"""``elemwise``: apply a NumPy function element by element, chunk by chunk.

Shapes broadcast as in NumPy; the dtype is what NumPy gives for the same operand types
(found by calling the function on one-element arrays), so errors such as an impossible
cast or an unsupported operand type are raised here, at the user's line.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import is_device_array
from jupyter_mars.engine.primitives.blockwise import Blockwise, Slot
from jupyter_mars.engine.sparse import SparseNode
from jupyter_mars.engine.sparse_ops import (
    DenseOperand,
    SparseOperand,
    keeps_zeros,
    sparse_elementwise,
)
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.float_errors import with_build_errstate


def broadcast_shapes(*shapes: Sequence[Any]) -> tuple[Any, ...]:
    """NumPy broadcasting of shapes, where a ``nan`` length matches anything."""
    ndim = max((len(s) for s in shapes), default=0)
    out: list[Any] = []
    for axis in range(ndim):
        length: Any = 1
        for s in shapes:
            i = axis - (ndim - len(s))
            if i < 0:
                continue
            n = s[i]
            if isinstance(n, float) and math.isnan(n):
                length = n if length == 1 or not isinstance(length, int) else length
            elif n != 1:
                if (
                    length != 1
                    and not (isinstance(length, float) and math.isnan(length))
                    and length != n
                ):
                    shown = " ".join(str(tuple(s)) for s in shapes)
                    raise ValueError(
                        f"operands could not be broadcast together with shapes {shown}"
                    )
                length = n
        out.append(length)
    return tuple(out)


def _meta_operand(x: Any) -> Any:
    if isinstance(x, Tensor):
        return np.ones(1, dtype=x.dtype)
    if isinstance(x, np.ndarray):
        return np.ones(1, dtype=x.dtype)
    return x


def infer_dtype(
    func: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any]
) -> np.dtype[Any]:
    with np.errstate(all="ignore"):
        result = func(*(_meta_operand(a) for a in args), **kwargs)
    if isinstance(result, tuple):
        result = result[0]
    return np.asarray(result).dtype


def elemwise(
    func: Callable[..., Any],
    *args: Any,
    dtype: Any = None,
    name: str | None = None,
    **kwargs: Any,
) -> Tensor:
    """``func(*args, **kwargs)`` element-wise on tensors, arrays and scalars."""
    tensors: list[Tensor] = []
    template: list[Any] = []
    for arg in args:
        # a CuPy array is data, as a NumPy array is: a tensor operand, on the GPU
        if not isinstance(arg, (Tensor, np.ndarray, list, tuple)) and not is_device_array(arg):
            template.append(arg)
            continue
        t = astensor(arg)
        template.append(Slot(len(tensors)))
        tensors.append(t)
    shape = broadcast_shapes(*(t.shape for t in tensors))
    if dtype is None:
        dtype = infer_dtype(
            func, [a if type(a) is not Slot else tensors[a.index] for a in template], kwargs
        )
    label = name or str(getattr(func, "__name__", "map"))
    sparse: bool | None = None
    if any(isinstance(t.node, SparseNode) for t in tensors):
        # sparse inputs: a sparse result where zeros stay zero (a 2-d one), else dense
        operands = [
            (SparseOperand if isinstance(t.node, SparseNode) else DenseOperand)(t.dtype)
            for t in tensors
        ]
        probe = [a if type(a) is not Slot else operands[a.index] for a in template]
        sparse = len(shape) == 2 and keeps_zeros(func, probe, kwargs)
        func = functools.partial(sparse_elementwise, func, sparse, np.dtype(dtype))
    # the floating-point error handling in force here governs the chunks (see errstate.py)
    op = Blockwise(with_build_errstate(func), tuple(template), dict(kwargs), label)
    return new_tensor(op, tensors, shape, dtype, sparse=sparse)
