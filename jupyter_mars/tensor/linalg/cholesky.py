"""``cholesky``: blocked Cholesky factorisation over the chunk grid.

The matrix is rechunked so that both axes share the row chunking (square diagonal
blocks). With blocks ``A[i, j]`` and the lower factor ``L``::

    L[k, k] = chol(A[k, k] - sum_{j<k} L[k, j] @ L[k, j]^H)
    L[i, k] = (A[i, k] - sum_{j<k} L[i, j] @ L[k, j]^H) @ L[k, k]^-H       (i > k)

one task per block of the lower triangle (the blocks below the diagonal of one column
run in parallel), zeros above. Only the lower triangle of ``a`` is read, as in NumPy.
A matrix that is not positive definite raises ``numpy.linalg.LinAlgError`` when executed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.linalg._core import (
    assert_stacked_2d,
    assert_stacked_square,
    batch_apply,
    conj_transpose,
    linalg_errors,
    probe_dtype,
    same_shape,
    scipy_linalg,
    zeros_block,
)


def _gram(pairs: tuple[Any, ...]) -> Any:
    """``sum X_j @ Y_j^H`` over consecutive pairs ``(X_j, Y_j)``; None when empty."""
    acc = None
    for x, y in zip(pairs[0::2], pairs[1::2]):
        prod = x @ conj_transpose(y)
        acc = prod if acc is None else acc + prod
    return acc


def chol_diag(a_kk: Any, dtype: np.dtype[Any], *pairs: Any) -> Any:
    s = a_kk.astype(dtype, copy=False)
    update = _gram(pairs)
    if update is not None:
        s = s - update
    with linalg_errors(s):
        return np.linalg.cholesky(s)


def chol_below(a_ik: Any, l_kk: Any, dtype: np.dtype[Any], *pairs: Any) -> Any:
    s = a_ik.astype(dtype, copy=False)
    update = _gram(pairs)
    if update is not None:
        s = s - update
    # X @ L_kk^H = S  <=>  L_kk @ X^H = S^H
    solve_triangular = scipy_linalg(l_kk, s).solve_triangular
    xh = solve_triangular(l_kk, conj_transpose(s), lower=True, check_finite=False)
    return np.ascontiguousarray(conj_transpose(xh))


def upper_from_lower(block: Any) -> Any:
    return np.ascontiguousarray(conj_transpose(block))


@dataclass(frozen=True, eq=False)
class Cholesky(Op):
    lower: bool

    def label(self) -> str:
        return "cholesky"


@tile_rule(Cholesky)
def _tile_cholesky(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Cholesky)
    (x,) = inputs
    ctx.require_known(x)
    splits = tuple(int(v) for v in x.nsplits[0])
    if sum(splits) != sum(x.nsplits[1]):
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    rx = rechunk_tiled(f"{node.key}-sq", x, (splits, splits), node.inputs[0].dtype, ctx)
    nb = len(splits)
    dtype = node.dtype
    low = key_grid(f"{node.key}-L", [nb, nb]) if not op.lower else key_grid(node.key, [nb, nb])
    for k in range(nb):
        pairs_k = [Ref(low[k, j]) for j in range(k) for _ in (0, 1)]
        ctx.new_task(low[k, k], chol_diag, Ref(rx.keys[k, k]), dtype, *pairs_k)
        for i in range(k + 1, nb):
            pairs = [r for j in range(k) for r in (Ref(low[i, j]), Ref(low[k, j]))]
            ctx.new_task(low[i, k], chol_below, Ref(rx.keys[i, k]), Ref(low[k, k]), dtype, *pairs)
    grid = key_grid(node.key, [nb, nb])
    for i in range(nb):
        for j in range(nb):
            if op.lower and i < j or not op.lower and i > j:
                ctx.new_task(grid[i, j], zeros_block, (splits[i], splits[j]), dtype, ctx.device)
            elif not op.lower:
                ctx.new_task(grid[i, j], upper_from_lower, Ref(low[j, i]))
    return Tiled((splits, splits), grid)


def _chol_upper(block: Any) -> Any:
    xp = array_module(block)
    if xp is np:
        return np.linalg.cholesky(block, upper=True)
    # CuPy's cholesky gives the lower factor only
    with linalg_errors(block):
        return xp.linalg.cholesky(block).swapaxes(-1, -2).conj()


def cholesky(a: Any, lower: bool = True, *, upper: bool = False) -> Tensor:
    """Lazy ``numpy.linalg.cholesky``: ``L`` with ``a = L @ L^H`` (blocked, see above).

    ``lower=False`` (Mars) or ``upper=True`` (NumPy 2) gives the upper factor ``L^H``.
    Stacks of matrices are factored one whole matrix per chunk.
    """
    t = astensor(a)
    assert_stacked_2d(t)
    assert_stacked_square(t)
    dtype = probe_dtype(np.linalg.cholesky, t.dtype)
    want_lower = bool(lower) and not upper
    if t.ndim > 2:
        func = np.linalg.cholesky if want_lower else _chol_upper
        return batch_apply(t, func, 2, same_shape, dtype, "cholesky")
    return new_tensor(Cholesky(want_lower), [t], t.shape, dtype)
