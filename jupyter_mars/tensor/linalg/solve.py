"""``solve`` and ``inv`` by the blocked LU (``lu.py``), then blocked substitution
(``triangular.py``).

``solve`` permutes ``b`` by the LU's row permutation, then substitutes forward with ``L``
and backward with ``U`` block by block (``b`` keeps its column chunks); ``inv`` does the
same with ``P^T`` for ``b``, built block by block. Stacks of matrices (``ndim > 2``) are
solved one whole matrix per chunk.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.linalg._core import (
    apply_whole,
    assert_stacked_2d,
    assert_stacked_square,
    batch_apply,
    probe_dtype,
    same_shape,
)
from jupyter_mars.tensor.linalg.lu import emit_lu
from jupyter_mars.tensor.linalg.permutation import permuted_identity_block, permuted_rows
from jupyter_mars.tensor.linalg.triangular import emit_substitution
from jupyter_mars.tensor.products.checks import broadcast_batches
from jupyter_mars.tensor.products.contraction import contract


@dataclass(frozen=True, eq=False)
class LUSolve(Op):
    """``a^-1 b`` (``b`` is the second input), or ``a^-1`` when there is no ``b``."""

    def label(self) -> str:
        return "solve"


@tile_rule(LUSolve)
def _tile_lu_solve(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    ctx.require_known(*inputs)
    x = inputs[0]
    dtype = node.dtype
    tok = f"{node.key}-lu"
    tasks = emit_lu(tok, x, node.inputs[0].dtype, dtype, ctx)
    splits, starts = tasks.splits, tasks.starts
    nb = len(splits)
    rhs: dict[tuple[int, int], Key] = {}
    if len(inputs) == 1:  # inverse: the right-hand side is P^T, block by block
        col_splits: tuple[int, ...] = splits
        vector = False
        for i in range(nb):
            for c in range(nb):
                key = (tok, "rhs", i, c)
                ctx.new_task(
                    key,
                    permuted_identity_block,
                    Ref(tasks.perm),
                    starts[i],
                    starts[i + 1],
                    starts[c],
                    starts[c + 1],
                    dtype,
                )
                rhs[i, c] = key
    else:
        b = inputs[1]
        vector = len(b.nsplits) == 1
        target = (splits,) if vector else (splits, b.nsplits[1])
        rb = rechunk_tiled(f"{tok}-b", b, target, node.inputs[1].dtype, ctx)
        col_splits = () if vector else tuple(int(v) for v in b.nsplits[1])
        for c in range(1 if vector else len(col_splits)):
            blocks = [Ref(rb.keys[(i,) if vector else (i, c)]) for i in range(nb)]
            for i in range(nb):
                key = (tok, "rhs", i, c)
                ctx.new_task(
                    key, permuted_rows, Ref(tasks.perm), starts[i], starts[i + 1], dtype, *blocks
                )
                rhs[i, c] = key
    ncols = 1 if vector else len(col_splits)
    lower_diag = {i: tasks.lower[i, i] for i in range(nb)}
    y = emit_substitution(
        tok + "y", rhs, ncols, nb, lower_diag, tasks.lower, True, True, False, dtype, ctx
    )
    grid = key_grid(node.key, [nb] if vector else [nb, ncols])
    out_keys = {(i, c): grid[(i,) if vector else (i, c)] for i in range(nb) for c in range(ncols)}
    upper_diag = {i: tasks.upper[i, i] for i in range(nb)}
    emit_substitution(
        tok + "x", y, ncols, nb, upper_diag, tasks.upper, False, False, True, dtype, ctx, out_keys
    )
    nsplits = (splits,) if vector else (splits, col_splits)
    return Tiled(nsplits, grid)


def _solve_batched(a: Tensor, b: Tensor, dtype: np.dtype[Any]) -> Tensor:
    vector = b.ndim == 1
    batch_a = a.shape[:-2]
    batch_b = () if vector else b.shape[:-2]
    nbatch = broadcast_batches(a, b, b.shape[-2:])
    r, c, k = nbatch, nbatch + 1, nbatch + 2
    sub_a = tuple(range(nbatch - len(batch_a), nbatch)) + (r, c)
    if vector:
        sub_b: tuple[int, ...] = (c,)
        out: tuple[int, ...] = tuple(range(nbatch)) + (c,)
    else:
        sub_b = tuple(range(nbatch - len(batch_b), nbatch)) + (c, k)
        out = tuple(range(nbatch)) + (c, k)
    return contract(
        [a, b], [sub_a, sub_b], out, dtype, solve_blocks, "solve", whole=frozenset({r, c, k})
    )


def solve_blocks(a: Any, b: Any) -> Any:
    return apply_whole(np.linalg.solve, a, b)


def solve(a: Any, b: Any) -> Tensor:
    """Lazy ``numpy.linalg.solve``: ``x`` with ``a @ x = b``.

    ``b`` is a vector when 1-D, else a (stack of) matrices. A 2-D ``a`` and ``b`` use the
    blocked LU (``b`` keeps its column chunks); stacks solve one whole matrix per chunk.
    A singular ``a`` raises ``numpy.linalg.LinAlgError`` when executed.
    """
    ta, tb = astensor(a), astensor(b)
    assert_stacked_2d(ta)
    assert_stacked_square(ta)
    if tb.ndim == 0:
        raise ValueError(
            "solve: Input operand 1 does not have enough dimensions (has 0, gufunc core with "
            "signature (m,m),(m)->(m) requires 1)"
        )
    m = ta.shape[-1]
    bm = tb.shape[0] if tb.ndim == 1 else tb.shape[-2]
    if m == m and bm == bm and m != bm:
        sig, name = (
            ("(m,m),(m)->(m)", "solve1") if tb.ndim == 1 else ("(m,m),(m,n)->(m,n)", "solve")
        )
        raise ValueError(
            f"{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            f"signature {sig} (size {bm} is different from {m})"
        )
    dtype = np.dtype(probe_dtype(np.linalg.solve, ta.dtype, tb.dtype))
    if ta.ndim > 2 or tb.ndim > 2 or m == 0:
        return _solve_batched(ta, tb, dtype)
    return new_tensor(LUSolve(), [ta, tb], tuple(tb.shape), dtype)


def inv(a: Any) -> Tensor:
    """Lazy ``numpy.linalg.inv`` by the blocked LU (a stack: one matrix per chunk).

    A singular matrix raises ``numpy.linalg.LinAlgError`` when executed.
    """
    t = astensor(a)
    assert_stacked_2d(t)
    assert_stacked_square(t)
    dtype = probe_dtype(np.linalg.inv, t.dtype)
    if t.ndim > 2 or t.shape[-1] == 0:
        return batch_apply(t, np.linalg.inv, 2, same_shape, dtype, "inv")
    return new_tensor(LUSolve(), [t], t.shape, dtype)
