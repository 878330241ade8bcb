"""Index arrays built from other index arrays: ``ix_`` (open meshes for cross indexing)
and ``ravel_multi_index`` (coordinates to flat positions, chunk by chunk; an
out-of-range coordinate is seen in the data, so with ``mode='raise'`` it raises when
executed)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jupyter_mars.session import ExecutableTuple
from jupyter_mars.tensor.datasource import asarray
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.indexing.nonzero import nonzero
from jupyter_mars.tensor.shape import expand_dims
from jupyter_mars.tensor.shape.common import int_tuple

_MODES = ("raise", "wrap", "clip")


def ix_(*args: Any) -> ExecutableTuple:
    """One tensor per sequence, shaped to broadcast as the axes of an open mesh; a
    boolean sequence stands for the positions where it holds."""
    nd = len(args)
    out = []
    for k, seq in enumerate(args):
        index = asarray(seq)
        if index.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if index.dtype == np.bool_:
            index = nonzero(index)[0]
        elif index.size == 0:
            index = index.astype(np.intp)
        others = tuple(a for a in range(nd) if a != k)
        out.append(expand_dims(index, others) if others else index)
    return ExecutableTuple(out)


def ravel_chunk(dims: tuple[int, ...], mode: Any, order: str, *coords: Any) -> Any:
    return np.ravel_multi_index(coords, dims, mode=mode, order=order)  # type: ignore[call-overload]


def ravel_multi_index(multi_index: Any, dims: Any, mode: Any = "raise", order: str = "C") -> Any:
    """Flat positions in an array of shape ``dims`` of the coordinates ``multi_index``."""
    shape = int_tuple(dims, "dims")
    coords = [asarray(c) for c in multi_index]
    if len(coords) != len(shape):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(shape)}")
    for c in coords:
        if c.dtype.kind not in "iu":
            raise TypeError("only int indices permitted")
    modes = tuple(mode) if isinstance(mode, (tuple, list)) else (mode,)
    for m in modes:
        if m not in _MODES:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {m!r})")
    if order not in ("C", "F"):
        raise ValueError("order must be one of 'C', 'F'")
    mode_arg = tuple(modes) if isinstance(mode, (tuple, list)) else mode
    # dims and mode are tuples: bound here, as elemwise takes tuples for arrays
    kernel = functools.partial(ravel_chunk, shape, mode_arg, order)
    return elemwise(kernel, *coords, dtype=np.intp, name="ravel_multi_index")


__all__ = ["ix_", "ravel_multi_index"]
