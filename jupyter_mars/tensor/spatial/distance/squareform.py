"""``squareform``: a condensed distance vector to its square matrix, and back.

Both directions work by blocks of rows of the square matrix. To a matrix: each block of
rows is built from the whole condensed vector (one chunk), as many blocks as the vector
has chunks. To a vector: each block of rows of the matrix gives its rows of the condensed
vector; with ``checks`` it is compared with the matching block of columns (symmetry) and
its diagonal (zeros), so a matrix that is not a distance matrix fails when executed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor, unknown_shape
from jupyter_mars.tensor.datasource import astensor, tensor


def even_blocks(n: int, count: int) -> tuple[int, ...]:
    """``n`` rows in ``count`` blocks (at least one) whose lengths differ by one at most."""
    count = max(1, min(count, n))
    base, extra = divmod(n, count)
    return tuple(base + (1 if i < extra else 0) for i in range(count))


def row_blocks(n: int, size: int) -> tuple[int, ...]:
    """``n`` rows in blocks of ``size`` (the last one shorter); one empty block if none."""
    return tuple(min(size, n - start) for start in range(0, n, size)) or (0,)


def _block_rows(chunk_size: Any) -> int | None:
    if chunk_size is None:
        return None
    size = chunk_size[0] if isinstance(chunk_size, (tuple, list)) else chunk_size
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
        raise ValueError(f"chunk_size must be a positive int, got {chunk_size!r}")
    return int(size)


def condensed_index(n: int, i: Any, j: Any) -> Any:
    """Where the pair ``(i, j)``, ``i < j``, of ``n`` points sits in a condensed vector."""
    return n * i - i * (i + 1) // 2 + (j - i - 1)


def matrix_rows(vector: Any, n: int, start: int, stop: int) -> Any:
    rows, cols = np.meshgrid(np.arange(start, stop), np.arange(n), indexing="ij")
    low, high = np.minimum(rows, cols), np.maximum(rows, cols)
    out = np.zeros((stop - start, n), dtype=vector.dtype)
    off = low != high
    out[off] = vector[condensed_index(n, low[off], high[off])]
    return out


def vector_rows(block: Any, columns: Any, start: int) -> Any:
    if columns is not None:
        if not np.array_equal(block, columns.T):
            raise ValueError("Distance matrix 'X' must be symmetric.")
        if np.any(np.diagonal(block[:, start:]) != 0):
            raise ValueError("Distance matrix 'X' diagonal must be zero.")
    keep = np.arange(block.shape[1])[None, :] > np.arange(start, start + block.shape[0])[:, None]
    return block[keep]


@dataclass(frozen=True, eq=False)
class SquareForm(Op):
    to_matrix: bool
    checks: bool
    block_rows: int | None = None
    """Rows of the square matrix per block (Mars's ``chunk_size``); None: as many blocks
    as the input has chunks along its first axis."""

    def label(self) -> str:
        return "squareform"


@tile_rule(SquareForm)
def _tile_squareform(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SquareForm)
    (x,) = inputs
    ctx.require_known(x)
    if op.to_matrix:
        n = int(node.shape[0])
        whole = rechunk_tiled(f"{node.key}-whole", x, ((int(sum(x.nsplits[0])),),), node.dtype, ctx)
        blocks = (
            row_blocks(n, op.block_rows) if op.block_rows else even_blocks(n, len(x.nsplits[0]))
        )
        grid = key_grid(node.key, (len(blocks), 1))
        start = 0
        for i, rows in enumerate(blocks):
            ctx.add_blockwise(
                grid[i, 0], matrix_rows, (Ref(whole.keys[0]), n, start, start + rows), {}
            )
            start += rows
        return Tiled((blocks, (n,)), grid)
    n = int(sum(x.nsplits[0]))
    splits = row_blocks(n, op.block_rows) if op.block_rows else tuple(int(r) for r in x.nsplits[0])
    by_rows = rechunk_tiled(f"{node.key}-rows", x, (splits, (n,)), node.dtype, ctx)
    by_cols = (
        rechunk_tiled(f"{node.key}-cols", x, ((n,), splits), node.dtype, ctx) if op.checks else None
    )
    grid = key_grid(node.key, (len(splits),))
    lengths = []
    start = 0
    for i, rows in enumerate(splits):
        cols = Ref(by_cols.keys[0, i]) if by_cols is not None else None
        ctx.add_blockwise(grid[i], vector_rows, (Ref(by_rows.keys[i, 0]), cols, start), {})
        lengths.append(sum(n - 1 - r for r in range(start, start + rows)))
        start += rows
    return Tiled((tuple(lengths),), grid)


def squareform(X: Any, force: str = "no", checks: bool = True, chunk_size: Any = None) -> Tensor:  # noqa: N803 - SciPy's name
    """SciPy's ``squareform``: a condensed distance vector to a square matrix, and back.

    ``chunk_size`` (Mars's keyword) is the number of rows of the square matrix per block
    (an int, or a tuple whose first entry is used).

    ``checks`` (symmetry, zero diagonal) are made on each block of rows when the result is
    executed, not at the call, since they need the data.
    """
    x = astensor(X)
    mode = force.lower()
    if mode == "tomatrix" and x.ndim != 1:
        raise ValueError("Forcing 'tomatrix' but input X is not a distance vector.")
    if mode == "tovector" and x.ndim != 2:
        raise ValueError("Forcing 'tovector' but input X is not a distance matrix.")
    if x.ndim not in (1, 2):
        raise ValueError(
            "The first argument must be one or two dimensional array. "
            f"A {x.ndim}-dimensional array is not permitted"
        )
    rows = _block_rows(chunk_size)
    if unknown_shape(x.shape):
        raise ValueError("squareform needs the length of X: execute it first")
    if x.ndim == 1:
        length = int(x.shape[0])
        if length == 0:
            return tensor(np.zeros((1, 1), dtype=x.dtype))
        n = math.ceil(math.sqrt(length * 2))
        if n * (n - 1) != length * 2:
            raise ValueError(
                "Incompatible vector size. It must be a binomial coefficient n choose 2 "
                "for some integer n >= 2."
            )
        return new_tensor(SquareForm(True, bool(checks), rows), [x], (n, n), x.dtype)
    if x.shape[0] != x.shape[1]:
        raise ValueError("The matrix argument must be square.")
    n = int(x.shape[0])
    if n <= 1 and not checks:
        return tensor(np.array([], dtype=x.dtype))
    op = SquareForm(False, bool(checks), rows)
    return new_tensor(op, [x], (n * (n - 1) // 2,), x.dtype)
