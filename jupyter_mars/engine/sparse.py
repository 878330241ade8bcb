"""Sparse chunks: 2-d ``scipy.sparse`` CSR matrices in place of NumPy arrays.

A sparse tensor is a ``SparseNode``: an ordinary node whose chunks are CSR matrices and
whose whole result, put together, is one CSR matrix. The engine's primitives move such
chunks as they move arrays; the few places that build a chunk from pieces (assembling a
result, cutting new chunks in a rechunk) ask this module. Operators that know nothing of
sparse chunks never see them: the tensor layer gives them dense chunks (``to_dense``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps

from jupyter_mars.engine.node import Node, Tiled


def is_sparse_chunk(value: Any) -> bool:
    return bool(sps.issparse(value))


def to_dense(block: Any) -> Any:
    """A chunk as a NumPy array (a dense chunk unchanged)."""
    return block.toarray() if sps.issparse(block) else block


def to_sparse(block: Any, missing: Any = None) -> Any:
    """A 2-d chunk as a CSR matrix (a CSR chunk unchanged). With ``missing`` (Mars's
    keyword), a dense chunk stores every entry but those equal to ``missing`` (NaN: the
    NaNs), zeros included; the entries left out read as 0."""
    if isinstance(block, sps.csr_matrix):
        return block
    if sps.issparse(block):
        return sps.csr_matrix(block)
    dense = np.asarray(block)
    if missing is None:
        return sps.csr_matrix(dense)
    keep = ~np.isnan(dense) if _is_nan(missing) else dense != missing
    return sps.csr_matrix((dense[keep], keep.nonzero()), shape=dense.shape)


def _is_nan(value: Any) -> bool:
    try:
        return bool(np.isnan(value))
    except TypeError:
        return False


def empty_sparse(shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    """An all-zero CSR chunk, storing nothing."""
    return sps.csr_matrix(shape, dtype=dtype)


class SparseNode(Node):
    """A lazy 2-d tensor whose chunks are CSR matrices."""

    __slots__ = ()

    def assemble(self, tiled: Tiled, chunks: list[Any], threads: int = 1) -> Any:
        return assemble_sparse(tiled.numblocks, chunks, self.dtype)


def assemble_sparse(grid: tuple[int, ...], chunks: Sequence[Any], dtype: np.dtype[Any]) -> Any:
    """One CSR matrix from a 2-d grid of CSR chunks (flat, in row-major order)."""
    if len(chunks) == 1:
        return to_sparse(chunks[0])
    rows, cols = grid
    # each row of chunks side by side, then the rows stacked: SciPy stacks CSR rows by
    # joining their arrays, twice as fast as a general ``bmat``
    bands = [join_sparse([chunks[i * cols + j] for j in range(cols)], axis=1) for i in range(rows)]
    return join_sparse(bands, axis=0).astype(dtype, copy=False)


def join_sparse(blocks: Sequence[Any], axis: int) -> Any:
    """Sparse chunks joined along ``axis`` (0: stacked, 1: side by side) into one CSR."""
    parts = [to_sparse(b) for b in blocks]
    if len(parts) == 1:
        return parts[0]
    return sps.hstack(parts, format="csr") if axis == 1 else sps.vstack(parts, format="csr")


def fill_sparse(
    shape: tuple[int, ...], dtype: np.dtype[Any], regions: Sequence[Any], blocks: Sequence[Any]
) -> Any:
    """A CSR chunk of ``shape`` from pieces: ``regions[i] = (source_slices, target_slices)``
    of ``blocks[i]`` (the sparse form of a rechunk's copy into a fresh array)."""
    rows: list[Any] = []
    cols: list[Any] = []
    values: list[Any] = []
    for (src, dst), block in zip(regions, blocks):
        piece = sps.coo_matrix(block[src])
        rows.append(piece.row + dst[0].start)
        cols.append(piece.col + dst[1].start)
        values.append(piece.data)
    data = np.concatenate(values) if values else np.empty(0, dtype=dtype)
    coords = (np.concatenate(rows), np.concatenate(cols)) if rows else ([], [])
    return sps.csr_matrix((data.astype(blocks[0].dtype, copy=False), coords), shape=shape)
