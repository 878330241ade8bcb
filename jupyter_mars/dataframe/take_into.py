"""Columns of a 2-d array gathered into part of a larger one, written once.

pandas holds a frame of one dtype as one block, a row per column; keeping some rows of
the frame takes columns of that block. ``np.take(..., axis=1)`` copies an element at a
time through a generic loop and cannot write into a strided slice without a temporary,
so the kept values would be written twice. pandas' compiled ``take_2d_axis1`` kernels
write into any strided output directly and are about twice as fast; they are private to
pandas, so they are looked up by name and NumPy serves every dtype (or pandas version)
that has none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Kernel = Callable[..., None]


def _pandas_kernels() -> dict[np.dtype[Any], Kernel]:
    try:
        from pandas._libs import algos
    except ImportError:  # pragma: no cover - pandas without its compiled kernels
        return {}
    found: dict[np.dtype[Any], Kernel] = {}
    for name in ("bool", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
                 "float32", "float64"):  # fmt: skip
        kernel = getattr(algos, f"take_2d_axis1_{name}_{name}", None)
        if callable(kernel):
            found[np.dtype(name)] = kernel
    return found


KERNELS = _pandas_kernels()
"""The compiled kernel of each native dtype that has one (keyed by dtype: a byte-swapped
dtype compares unequal and takes NumPy's path)."""

_AS_INT64 = frozenset("mM")


def take_columns_into(out: np.ndarray[Any, Any], source: np.ndarray[Any, Any], pick: Any) -> None:
    """``out[:, :] = source[:, pick]``: the columns ``pick`` (positions, each in range) of
    the 2-d ``source``, written straight into ``out`` (any strides, same dtype and rows)."""
    pick = np.asarray(pick, dtype=np.intp)
    if out.shape != (source.shape[0], len(pick)):
        raise ValueError(f"out has shape {out.shape}, expected {(source.shape[0], len(pick))}")
    if out.dtype != source.dtype:
        raise TypeError(f"out has dtype {out.dtype}, expected {source.dtype}")
    if len(pick) and (pick.min() < 0 or pick.max() >= source.shape[1]):
        raise IndexError(f"column positions out of range for {source.shape[1]} columns")
    if source.dtype.kind in _AS_INT64 and source.dtype.itemsize == 8:
        source, out = source.view(np.int64), out.view(np.int64)
    kernel = KERNELS.get(source.dtype)
    if kernel is None or not out.size:
        out[...] = np.take(source, pick, axis=1)
        return
    kernel(source, pick, out, fill_value=_fill(source.dtype))


def _fill(dtype: np.dtype[Any]) -> Any:
    """A fill value the kernel accepts (never used: no position is -1)."""
    return np.nan if dtype.kind == "f" else 0
