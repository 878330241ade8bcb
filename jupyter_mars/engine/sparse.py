"""Sparse chunks: 2-d ``scipy.sparse`` CSR matrices in place of NumPy arrays.

A sparse tensor is a ``SparseNode``: an ordinary node whose chunks are CSR matrices and
whose whole result, put together, is one CSR matrix. The engine's primitives move such
chunks as they move arrays; the few places that build a chunk from pieces (assembling a
result, cutting new chunks in a rechunk) ask this module. Operators that know nothing of
sparse chunks never see them: the tensor layer gives them dense chunks (``to_dense``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np

from jupyter_mars.engine.node import Node, Tiled


def scipy_sparse() -> ModuleType:
    """``scipy.sparse``, imported at its first use: SciPy takes a tenth of a second and
    more to import, which a notebook that never makes a sparse chunk should not wait for
    at its first cell."""
    import scipy.sparse

    module: ModuleType = scipy.sparse  # SciPy ships no type information
    return module


def is_sparse_chunk(value: Any) -> bool:
    """Whether ``value`` is a SciPy sparse matrix; without importing SciPy, which is
    loaded wherever one was made."""
    loaded = sys.modules.get("scipy.sparse")
    return loaded is not None and bool(loaded.issparse(value))


def to_dense(block: Any) -> Any:
    """A chunk as a NumPy array (a dense chunk unchanged)."""
    return block.toarray() if is_sparse_chunk(block) else block


def to_sparse(block: Any, missing: Any = None) -> Any:
    """A 2-d chunk as a CSR matrix (a CSR chunk unchanged). With ``missing`` (Mars's
    keyword), a dense chunk stores every entry but those equal to ``missing`` (NaN: the
    NaNs), zeros included; the entries left out read as 0."""
    if isinstance(block, scipy_sparse().csr_matrix):
        return block
    if is_sparse_chunk(block):
        return scipy_sparse().csr_matrix(block)
    dense = np.asarray(block)
    if missing is None:
        return scipy_sparse().csr_matrix(dense)
    keep = ~np.isnan(dense) if _is_nan(missing) else dense != missing
    return scipy_sparse().csr_matrix((dense[keep], keep.nonzero()), shape=dense.shape)


def _is_nan(value: Any) -> bool:
    try:
        return bool(np.isnan(value))
    except TypeError:
        return False


def empty_sparse(shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    """An all-zero CSR chunk, storing nothing."""
    return scipy_sparse().csr_matrix(shape, dtype=dtype)


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
    return (
        scipy_sparse().hstack(parts, format="csr")
        if axis == 1
        else scipy_sparse().vstack(parts, format="csr")
    )


def fill_sparse(
    shape: tuple[int, ...], dtype: np.dtype[Any], regions: Sequence[Any], blocks: Sequence[Any]
) -> Any:
    """A CSR chunk of ``shape`` from pieces: ``regions[i] = (source_slices, target_slices)``
    of ``blocks[i]`` (the sparse form of a rechunk's copy into a fresh array)."""
    rows: list[Any] = []
    cols: list[Any] = []
    values: list[Any] = []
    for (src, dst), block in zip(regions, blocks):
        piece = scipy_sparse().coo_matrix(block[src])
        rows.append(piece.row + dst[0].start)
        cols.append(piece.col + dst[1].start)
        values.append(piece.data)
    data = np.concatenate(values) if values else np.empty(0, dtype=dtype)
    coords = (np.concatenate(rows), np.concatenate(cols)) if rows else ([], [])
    return scipy_sparse().csr_matrix(
        (data.astype(blocks[0].dtype, copy=False), coords), shape=shape
    )
