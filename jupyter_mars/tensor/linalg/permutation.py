"""Kernels that build blocks of the row permutation ``P`` of a blocked LU from ``pi``, the
permutation vector with ``a[pi] = L @ U``: blocks of ``P``, ``P^T`` and ``P @ L``, rows
``pi`` of a column panel, and SciPy's ``p_indices`` form.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module


def permutation_block(
    pi: Any, row_lo: int, row_hi: int, col_lo: int, col_hi: int, dtype: np.dtype[Any]
) -> Any:
    """Block of ``P`` (``P[pi[c], c] = 1``)."""
    xp = array_module(pi)
    out = xp.zeros((row_hi - row_lo, col_hi - col_lo), dtype=dtype)
    rows = pi[col_lo:col_hi]
    hit = (rows >= row_lo) & (rows < row_hi)
    out[rows[hit] - row_lo, xp.nonzero(hit)[0]] = 1
    return out


def permuted_identity_block(
    pi: Any, row_lo: int, row_hi: int, col_lo: int, col_hi: int, dtype: np.dtype[Any]
) -> Any:
    """Block of ``P^T`` (row ``r`` has its 1 in column ``pi[r]``)."""
    xp = array_module(pi)
    out = xp.zeros((row_hi - row_lo, col_hi - col_lo), dtype=dtype)
    cols = pi[row_lo:row_hi]
    hit = (cols >= col_lo) & (cols < col_hi)
    out[xp.nonzero(hit)[0], cols[hit] - col_lo] = 1
    return out


def permuted_rows(pi: Any, lo: int, hi: int, dtype: np.dtype[Any], *blocks: Any) -> Any:
    """Rows ``pi[lo:hi]`` of the column panel made of ``blocks``."""
    whole = array_module(*blocks).concatenate(blocks, axis=0)
    return whole[pi[lo:hi]].astype(dtype, copy=False)


def pl_block(pi: Any, lpanel: Any, row_lo: int, row_hi: int, col_lo: int, width: int) -> Any:
    """Block of ``P @ L``: row ``r`` of it is row ``inverse(pi)[r]`` of ``L``."""
    xp = array_module(pi, lpanel)
    inverse = xp.empty_like(pi)
    inverse[pi] = xp.arange(len(pi))
    src = inverse[row_lo:row_hi]
    out = xp.zeros((row_hi - row_lo, width), dtype=lpanel.dtype)
    hit = src >= col_lo
    out[hit] = lpanel[src[hit] - col_lo]
    return out


def row_indices(pi: Any, lo: int, hi: int) -> Any:
    """Chunk of SciPy's ``p_indices`` form (``a = l[p] @ u``): the inverse of ``pi``."""
    xp = array_module(pi)
    inverse = xp.empty_like(pi, dtype=np.int32)
    inverse[pi] = xp.arange(len(pi), dtype=np.int32)
    return inverse[lo:hi]
