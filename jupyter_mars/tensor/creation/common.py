"""Argument checking and chunk-grid helpers shared by the creation modules and ``mt.random``.

Every checker raises NumPy's exception type for bad input, with a message naming the
argument. The grid helpers walk the chunks of an output given its ``nsplits``.

The tile rule of a node on a GPU gives its kernels a trailing ``xp="cupy"`` argument
(``device_args``): they make their chunks with CuPy, on the device, and never build a
chunk in host memory to copy it there. On a CPU slot the kernels are called exactly as
before, without it.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits, normalize_chunk_size
from jupyter_mars.engine.devices import GPU, cupy_module
from jupyter_mars.engine.node import TileContext
from jupyter_mars.engine.primitives.rechunk import Rechunk
from jupyter_mars.tensor.core import Tensor, new_tensor, unknown_shape

# ---- argument checking -----------------------------------------------------------------------


def normalize_shape(shape: Any, name: str = "shape") -> tuple[int, ...]:
    """``shape`` as a tuple of non-negative ints, with NumPy's exceptions for bad input."""
    if isinstance(shape, Tensor):
        raise TypeError(f"{name} must be an int or a sequence of ints, not a tensor")
    if isinstance(shape, np.ndarray):
        shape = shape.tolist() if shape.ndim else shape.item()
    items = shape if isinstance(shape, (tuple, list)) else (shape,)
    out = []
    for n in items:
        try:
            value = operator.index(n)
        except TypeError:
            raise TypeError(
                f"{name} must be an int or a sequence of ints, got {type(n).__name__} {n!r}"
            ) from None
        out.append(value)
    if any(n < 0 for n in out):
        raise ValueError(f"negative dimensions are not allowed ({name}={tuple(out)})")
    return tuple(out)


def as_dtype(dtype: Any, default: Any = np.float64, name: str = "dtype") -> np.dtype[Any]:
    """``np.dtype(dtype)`` (``default`` for None); a TypeError naming ``name`` otherwise."""
    if dtype is None:
        dtype = default
    if isinstance(dtype, Tensor):
        raise TypeError(f"{name} must be a NumPy dtype, not a tensor")
    try:
        dt: np.dtype[Any] = np.dtype(dtype)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name}: data type {dtype!r} not understood") from exc
    if dt.kind == "O":
        raise TypeError(
            f"{name}: object arrays are not supported; give a numeric, bool or string dtype"
        )
    if dt.kind in "Mm":
        raise TypeError(f"{name}: datetime/timedelta tensors are not supported")
    return dt


def check_order(order: Any, allowed: str, func: str) -> str:
    """``order`` (one of ``allowed``, any case) as the memory layout of new chunks."""
    if not isinstance(order, str) or order.upper() not in allowed:
        choices = ", ".join(repr(c) for c in allowed)
        raise ValueError(f"{func}(): order must be one of {choices}, got {order!r}")
    order = order.upper()
    return "F" if order == "F" else "C"


def check_int(value: Any, name: str) -> int:
    """``value`` as an int (anything with ``__index__``); a TypeError naming ``name``."""
    if isinstance(value, Tensor):
        raise TypeError(f"{name} must be an int, not a tensor")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}") from None


# ---- the array module of a chunk kernel ------------------------------------------------------


def device_args(ctx: TileContext) -> tuple[str, ...]:
    """The trailing ``xp`` argument a creation kernel gets: ``("cupy",)`` in a node on a
    GPU, none on a CPU slot (where the kernel's default, NumPy, is what it always was)."""
    return ("cupy",) if ctx.device == GPU else ()


def array_module_named(xp: str, what: str) -> ModuleType:
    """NumPy for ``xp="numpy"``, CuPy for ``"cupy"`` (``GPUUnavailable`` naming ``what``
    where this process has no GPU)."""
    return np if xp == "numpy" else cupy_module(what)


def on_module(value: Any, xp: ModuleType) -> Any:
    """A small host parameter of a kernel (a fill value, a linspace end) as an array of
    ``xp``: CuPy computes with device arrays only. Scalars stay as they are."""
    if xp is np or not isinstance(value, np.ndarray):
        return value
    return xp.asarray(value)


def nsplits_for(shape: Sequence[int], chunk_size: Any, dtype: np.dtype[Any]) -> NSplits:
    """The chunk lengths ``chunk_size`` describes for an output of ``shape`` and ``dtype``."""
    return normalize_chunk_size(shape, chunk_size, max(dtype.itemsize, 1))


def broadcasts_to(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    """Whether an array of ``shape`` broadcasts to ``target`` (both known) as NumPy does."""
    try:
        return np.broadcast_shapes(shape, target) == tuple(target)
    except ValueError:
        return False


_UNKNOWN_SHAPE = "chunk_size cannot be applied to a tensor of unknown shape; execute it first"


def rechunked(t: Tensor, chunk_size: Any, unknown: str = _UNKNOWN_SHAPE) -> Tensor:
    """``t`` in the chunks ``chunk_size`` describes (``t`` itself for None); a ValueError
    with the message ``unknown`` when ``t``'s shape is not known yet."""
    if chunk_size is None:
        return t
    if unknown_shape(t.shape):
        raise ValueError(unknown)
    nsplits = nsplits_for(t.shape, chunk_size, t.dtype)
    return new_tensor(Rechunk(nsplits), [t], t.shape, t.dtype)


# ---- the chunk grid ------------------------------------------------------------------------


def numblocks(nsplits: NSplits) -> list[int]:
    """The number of chunks along each axis."""
    return [len(axis) for axis in nsplits]


def block_indices(nsplits: NSplits) -> Iterator[tuple[int, ...]]:
    """Every chunk index of the grid, in C order."""
    return itertools.product(*(range(len(axis)) for axis in nsplits))


def chunk_shape(nsplits: NSplits, index: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of chunk ``index``."""
    return tuple(int(nsplits[a][i]) for a, i in enumerate(index))


def chunk_region(
    value: Any, starts: Sequence[Sequence[float]], index: tuple[int, ...], shape: tuple[int, ...]
) -> Any:
    """The part of ``value`` that chunk ``index`` (of ``shape``, at ``starts``) covers.

    ``value`` is a scalar (returned as it is) or an array broadcast against the trailing
    axes of the output; its axes of length 1 are kept whole.
    """
    if not isinstance(value, np.ndarray) or value.ndim == 0:
        return value
    offset = len(index) - value.ndim
    region = []
    for a in range(value.ndim):
        if value.shape[a] == 1:
            region.append(slice(None))
        else:
            lo = int(starts[a + offset][index[a + offset]])
            region.append(slice(lo, lo + shape[a + offset]))
    return value[tuple(region)]
