"""``dot``/``matmul``/``@`` where an operand is a sparse tensor (both at most 2-d).

One task per output chunk: it joins the chunks of ``a``'s row panel and of ``b``'s
column panel along the contracted axis and makes one SciPy product of them, so the two
operands' chunk boundaries along that axis need not agree (no rechunk). The result is
sparse when both operands are, as SciPy's is; otherwise dense.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.sparse_ops import sparse_matmul
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.sparse.convert import issparse


@dataclass(frozen=True, eq=False)
class SparseMatmul(Op):
    sparse: bool
    """Whether the result is sparse (both operands are)."""
    name: str
    """``dot`` or ``matmul``, for keys and messages."""

    def label(self) -> str:
        return f"sparse_{self.name}"


@tile_rule(SparseMatmul)
def _tile_sparse_matmul(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SparseMatmul)
    a, b = inputs
    ctx.require_known(a, b)
    out_nsplits = (a.nsplits[:1] if a.keys.ndim == 2 else ()) + (
        b.nsplits[1:] if b.keys.ndim == 2 else ()
    )
    grid = key_grid(node.key, [len(s) for s in out_nsplits])
    for index in np.ndindex(*grid.shape):
        row = a.keys[index[0]] if a.keys.ndim == 2 else a.keys
        column = b.keys[:, index[-1]] if b.keys.ndim == 2 else b.keys
        key: Key = grid[tuple(index)]
        ctx.new_task(
            key,
            sparse_matmul,
            op.sparse,
            node.dtype,
            a.keys.ndim - 1,
            [Ref(k) for k in row],
            [Ref(k) for k in column],
        )
    return Tiled(out_nsplits, grid)


def sparse_product(a: Tensor, b: Tensor, dtype: np.dtype[Any], name: str) -> Tensor:
    """``a @ b`` of checked operands (at most 2-d, one of them sparse) in ``dtype``."""
    shape = a.shape[:-1] + b.shape[1:]
    both = issparse(a) and issparse(b)
    return new_tensor(SparseMatmul(both, name), [a, b], shape, dtype, sparse=both)


def involves_sparse(a: Tensor, b: Tensor) -> bool:
    """Whether a product of ``a`` and ``b`` takes the sparse path."""
    return (issparse(a) or issparse(b)) and 1 <= a.ndim <= 2 and 1 <= b.ndim <= 2
