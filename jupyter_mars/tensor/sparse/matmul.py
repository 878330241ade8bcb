"""``dot``/``matmul``/``@`` where an operand is a sparse tensor (both at most 2-d).

Each row panel of ``a`` and column panel of ``b`` is joined along the contracted axis
once, by a task of its own; each output chunk is then one SciPy product of a row panel
and a column panel, so the operands' chunk boundaries along that axis need not agree (no
rechunk). The result is
sparse when both operands are, as SciPy's is; otherwise dense.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.sparse_ops import join_panel, sparse_matmul
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
    # each row panel of a and column panel of b is joined once, by a task of its own
    rows = [
        _panel(ctx, f"{node.key}-row", i, a.keys.ndim - 1, keys)
        for i, keys in enumerate(a.keys if a.keys.ndim == 2 else [a.keys])
    ]
    columns = [
        _panel(ctx, f"{node.key}-col", j, 0, keys)
        for j, keys in enumerate(b.keys.T if b.keys.ndim == 2 else [b.keys])
    ]
    for index in np.ndindex(*grid.shape):
        row = rows[index[0]] if a.keys.ndim == 2 else rows[0]
        column = columns[index[-1]] if b.keys.ndim == 2 else columns[0]
        key: Key = grid[tuple(index)]
        ctx.new_task(key, sparse_matmul, op.sparse, node.dtype, row, column)
    return Tiled(out_nsplits, grid)


def _panel(ctx: TileContext, name: str, i: int, axis: int, keys: Any) -> Ref:
    """A reference to the chunks ``keys`` joined along ``axis`` (the chunk itself when
    there is one)."""
    if len(keys) == 1:
        return Ref(keys[0])
    key = (name, i)
    ctx.new_task(key, join_panel, axis, *(Ref(k) for k in keys))
    return Ref(key)


def sparse_product(a: Tensor, b: Tensor, dtype: np.dtype[Any], name: str) -> Tensor:
    """``a @ b`` of checked operands (at most 2-d, one of them sparse) in ``dtype``."""
    shape = a.shape[:-1] + b.shape[1:]
    both = issparse(a) and issparse(b)
    return new_tensor(SparseMatmul(both, name), [a, b], shape, dtype, sparse=both)


def involves_sparse(a: Tensor, b: Tensor) -> bool:
    """Whether a product of ``a`` and ``b`` takes the sparse path."""
    return (issparse(a) or issparse(b)) and 1 <= a.ndim <= 2 and 1 <= b.ndim <= 2
