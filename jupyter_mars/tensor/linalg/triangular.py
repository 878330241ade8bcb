"""Blocked triangular solves: ``emit_substitution`` (also the forward and backward steps of
``solve``/``inv``) and ``solve_triangular``.

Row block ``i`` of ``x`` (per column block of the right-hand side) is one task: its
right-hand side minus the products with the blocks of ``x`` already solved, then a
triangular solve with the diagonal block.
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
from jupyter_mars.tensor.linalg._core import LinAlgError, scipy_linalg
from jupyter_mars.tensor.linalg.lu import square_splits


def substitute(
    rhs: Any, diag: Any, lower: bool, unit: bool, check: bool, dtype: np.dtype[Any], *pairs: Any
) -> Any:
    """Solve ``diag @ x = rhs - sum A_l @ x_l`` over the pairs ``(A_l, x_l)``."""
    s = rhs.astype(dtype, copy=True)
    for a, x in zip(pairs[0::2], pairs[1::2]):
        s -= a @ x
    if check and np.any(np.diagonal(diag) == 0):
        raise LinAlgError("Singular matrix")
    out = scipy_linalg(diag, s).solve_triangular(
        diag, s, lower=lower, unit_diagonal=unit, check_finite=False
    )
    return out.astype(dtype, copy=False)


def emit_substitution(
    tok: str,
    rhs: dict[tuple[int, int], Key],
    n_col_blocks: int,
    nb: int,
    diag: dict[int, Key],
    off: dict[tuple[int, int], Key],
    lower: bool,
    unit: bool,
    check: bool,
    dtype: np.dtype[Any],
    ctx: TileContext,
    out_keys: dict[tuple[int, int], Key] | None = None,
) -> dict[tuple[int, int], Key]:
    """Blocked triangular solve: ``x[i, c]`` for every row block ``i``, column block ``c``."""
    order = range(nb) if lower else range(nb - 1, -1, -1)
    x: dict[tuple[int, int], Key] = {}
    for c in range(n_col_blocks):
        for i in order:
            others = range(i) if lower else range(i + 1, nb)
            pairs = [r for l_ in others for r in (Ref(off[i, l_]), Ref(x[l_, c]))]
            key = out_keys[i, c] if out_keys is not None else (tok, "x", i, c)
            ctx.new_task(
                key, substitute, Ref(rhs[i, c]), Ref(diag[i]), lower, unit, check, dtype, *pairs
            )
            x[i, c] = key
    return x


# ---- solve_triangular ---------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SolveTriangular(Op):
    lower: bool
    unit_diagonal: bool

    def label(self) -> str:
        return "solve_triangular"


@tile_rule(SolveTriangular)
def _tile_solve_triangular(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SolveTriangular)
    ctx.require_known(*inputs)
    a, b = inputs
    splits = square_splits(a)
    ra = rechunk_tiled(f"{node.key}-a", a, (splits, splits), node.inputs[0].dtype, ctx)
    vector = len(b.nsplits) == 1
    target = (splits,) if vector else (splits, b.nsplits[1])
    rb = rechunk_tiled(f"{node.key}-b", b, target, node.inputs[1].dtype, ctx)
    nb = len(splits)
    ncols = 1 if vector else len(b.nsplits[1])
    rhs = {(i, c): rb.keys[(i,) if vector else (i, c)] for i in range(nb) for c in range(ncols)}
    diag = {i: ra.keys[i, i] for i in range(nb)}
    off = {(i, j): ra.keys[i, j] for i in range(nb) for j in range(nb)}
    grid = key_grid(node.key, [nb] if vector else [nb, ncols])
    out_keys = {(i, c): grid[(i,) if vector else (i, c)] for i in range(nb) for c in range(ncols)}
    emit_substitution(
        node.key,
        rhs,
        ncols,
        nb,
        diag,
        off,
        op.lower,
        op.unit_diagonal,
        False,
        node.dtype,
        ctx,
        out_keys,
    )
    nsplits = (splits,) if vector else (splits, tuple(int(v) for v in b.nsplits[1]))
    return Tiled(nsplits, grid)


def solve_triangular(
    a: Any, b: Any, trans: int = 0, lower: bool = False, unit_diagonal: bool = False, **kwargs: Any
) -> Tensor:
    """Lazy ``scipy.linalg.solve_triangular`` (``trans=0`` only), by blocked substitution.

    Only the triangle of ``a`` named by ``lower`` is read. A zero on the diagonal raises
    ``numpy.linalg.LinAlgError`` when executed.
    """
    import scipy.linalg  # SciPy loads with the first decomposition, not with mt

    if trans not in (0, "N"):
        raise NotImplementedError("solve_triangular: only trans=0 is supported")
    ta, tb = astensor(a), astensor(b)
    if ta.ndim != 2 or ta.shape[0] != ta.shape[1]:
        raise ValueError(f"expected square matrix, got shape {ta.shape}")
    if tb.ndim not in (1, 2):
        raise ValueError(f"solve_triangular: b must be 1-D or 2-D, got shape {tb.shape}")
    if ta.shape[0] == ta.shape[0] and tb.shape[0] == tb.shape[0] and ta.shape[0] != tb.shape[0]:
        raise ValueError(f"shapes of a {ta.shape} and b {tb.shape} are incompatible")
    dtype = np.asarray(
        scipy.linalg.solve_triangular(np.eye(1, dtype=ta.dtype), np.ones(1, dtype=tb.dtype))
    ).dtype
    return new_tensor(
        SolveTriangular(bool(lower), bool(unit_diagonal)), [ta, tb], tuple(tb.shape), dtype
    )
