"""Element-wise routines that are not ufuncs: ``angle``, ``fix``, ``i0``, ``sinc``,
``nan_to_num``, ``iscomplex``, ``isreal``, ``round``, and Mars's n-ary ``tree_add`` and
``tree_multiply``.

Each is one blockwise node calling NumPy's function on every chunk, so dtypes and the
errors an operand's dtype already tells (``i0`` of complex values) come from NumPy at the
call.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jupyter_mars.tensor.arithmetic import around
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.elemwise import elemwise


def angle(z: Any, deg: bool = False) -> Tensor:
    """Lazy ``numpy.angle``: the counterclockwise angle of each complex value."""
    return elemwise(np.angle, z, bool(deg), name="angle")


def fix(x: Any) -> Tensor:
    """Lazy ``numpy.fix``: round towards zero, keeping the dtype."""
    return elemwise(np.fix, x, name="fix")


def i0(x: Any) -> Tensor:
    """Lazy ``numpy.i0``: the modified Bessel function of the first kind, order 0."""
    return elemwise(np.i0, x, name="i0")


def sinc(x: Any) -> Tensor:
    """Lazy ``numpy.sinc``: ``sin(pi x) / (pi x)``."""
    return elemwise(np.sinc, x, name="sinc")


def _nan_to_num(x: Any, nan: Any, posinf: Any, neginf: Any) -> Any:
    # always a copy: a chunk may be shared with other results
    return np.nan_to_num(x, copy=True, nan=nan, posinf=posinf, neginf=neginf)


def nan_to_num(
    x: Any, copy: bool = True, nan: Any = 0.0, posinf: Any = None, neginf: Any = None
) -> Tensor:
    """Lazy ``numpy.nan_to_num``; ``copy`` is accepted, results are always new tensors."""
    return elemwise(_nan_to_num, x, nan, posinf, neginf, name="nan_to_num")


def iscomplex(x: Any) -> Tensor:
    """Lazy ``numpy.iscomplex``: True where the imaginary part is non-zero."""
    return elemwise(np.iscomplex, x, name="iscomplex", dtype=np.bool_)


def isreal(x: Any) -> Tensor:
    """Lazy ``numpy.isreal``: True where the imaginary part is zero."""
    return elemwise(np.isreal, x, name="isreal", dtype=np.bool_)


round = around  # noqa: A001 - NumPy's name, as in Mars


def tree_reduce_chunks(ufunc: np.ufunc, dtype: np.dtype[Any] | None, *chunks: Any) -> Any:
    """``ufunc`` folded over the chunks of every operand, cast to ``dtype`` if given."""
    result = functools.reduce(ufunc, chunks)
    return np.asarray(result).astype(dtype, copy=False) if dtype is not None else result


_MARS_KEYWORDS = frozenset({"sparse", "gpu"})


def _tree(
    ufunc: np.ufunc, args: tuple[Any, ...], combine_size: Any, dtype: Any, kwargs: dict[str, Any]
) -> Tensor:
    name = f"tree_{ufunc.__name__}"
    unknown = sorted(set(kwargs) - _MARS_KEYWORDS)
    if unknown:
        raise TypeError(f"{name}() got unexpected keyword arguments {unknown}")
    if not args:
        raise TypeError(f"{name}() needs at least one operand")
    if combine_size is None:
        combine_size = len(args)
    if isinstance(combine_size, bool) or not isinstance(combine_size, (int, np.integer)):
        raise TypeError(f"{name}(): combine_size must be an int, got {combine_size!r}")
    if combine_size < 2 and len(args) > 1:
        raise ValueError(f"{name}(): combine_size must be at least 2, got {combine_size}")
    target = None if dtype is None else np.dtype(dtype)
    level = list(args)
    # a tree of nodes that each combine at most ``combine_size`` operands, so no task
    # reads more than that many chunks
    while True:
        groups = [level[i : i + combine_size] for i in range(0, len(level), combine_size)]
        last = len(groups) == 1
        level = [
            elemwise(tree_reduce_chunks, ufunc, target if last else None, *group, name=name)
            for group in groups
        ]
        if last:
            result: Tensor = level[0]
            return result


def tree_add(*args: Any, combine_size: Any = None, dtype: Any = None, **kwargs: Any) -> Tensor:
    """The sum of all operands (broadcast together), combined ``combine_size`` at a time.

    Mars's n-ary add; its ``sparse``/``gpu`` keywords are accepted and ignored.
    """
    return _tree(np.add, args, combine_size, dtype, kwargs)


def tree_multiply(*args: Any, combine_size: Any = None, dtype: Any = None, **kwargs: Any) -> Tensor:
    """The product of all operands (broadcast together), combined ``combine_size`` at a time."""
    return _tree(np.multiply, args, combine_size, dtype, kwargs)


__all__ = [
    "angle",
    "fix",
    "i0",
    "iscomplex",
    "isreal",
    "nan_to_num",
    "round",
    "sinc",
    "tree_add",
    "tree_multiply",
]
