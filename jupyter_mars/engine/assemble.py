"""Chunk arrays put back together into one array, following the chunk grid."""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.engine.copies import copy_all
from jupyter_mars.engine.devices import array_module


def assemble(
    grid: tuple[int, ...], chunks: list[Any], dtype: np.dtype[Any], threads: int = 1
) -> Any:
    """Put chunk arrays together into one array, following the chunk ``grid`` (the
    number of chunks along each axis), copying on up to ``threads`` threads: a NumPy
    array, or a CuPy array on the GPU where the chunks are CuPy arrays (copied there by
    the device, on one thread)."""
    if len(chunks) == 1:
        only = chunks[0]
        # a 0-d result is a NumPy scalar, as NumPy's reductions and ufuncs give it, even
        # where a chunk function left a 0-d array
        return only[()] if isinstance(only, np.ndarray) and only.ndim == 0 else only
    shape = tuple(
        sum(chunks[_flat(grid, axis, i)].shape[axis] for i in range(n))
        for axis, n in enumerate(grid)
    )
    # the whole array is laid out as its chunks are: Fortran order where they all are and
    # some are not C-ordered too (a chunk one long on all axes but one is both), so a result
    # NumPy gives in F order comes back in F order
    fortran = all(_fortran(c) for c in chunks) and not all(_c_order(c) for c in chunks)
    xp = array_module(chunks[0])
    if xp is not np:
        threads = 1
    out = xp.empty(shape, dtype=chunks[0].dtype if chunks else dtype, order="F" if fortran else "C")
    starts = [
        np.cumsum([0, *(chunks[_flat(grid, a, i)].shape[a] for i in range(n))])
        for a, n in enumerate(grid)
    ]
    regions = (
        tuple(slice(starts[a][i], starts[a][i + 1]) for a, i in enumerate(index))
        for index in np.ndindex(*grid)
    )
    copy_all([(out[region], chunk) for region, chunk in zip(regions, chunks, strict=True)], threads)
    return out


def _fortran(chunk: Any) -> bool:
    flags = getattr(chunk, "flags", None)
    return flags is not None and bool(flags.f_contiguous)


def _c_order(chunk: Any) -> bool:
    flags = getattr(chunk, "flags", None)
    return flags is None or bool(flags.c_contiguous)


def _flat(grid: tuple[int, ...], axis: int, i: int) -> int:
    """Flat index of the chunk at position ``i`` along ``axis`` and 0 elsewhere."""
    index = [0] * len(grid)
    index[axis] = i
    return int(np.ravel_multi_index(index, grid)) if grid else 0
