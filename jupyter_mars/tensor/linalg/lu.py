"""Blocked LU with partial pivoting (``emit_lu``, shared by ``solve``, ``inv``, ``det``
and ``slogdet``), and ``lu`` itself.

The square matrix is rechunked so both axes share the row chunking; the work is held as
column panels (all rows from the current step down). Step ``k``:

- the panel of column block ``k`` (rows ``o_k..n``) is factored by
  ``scipy.linalg.lu``: a row permutation ``s_k``, a unit lower trapezoidal ``L_k`` and
  ``U[k, k]`` (one task; partial pivoting over the whole column, as LAPACK does);
- every column panel ``j > k`` is permuted by ``s_k``, gives ``U[k, j]`` by a triangular
  solve, and its trailing rows are updated, ``C_j <- C_j - L_k U[k, j]`` (one task per
  ``j``, in parallel).

The later row permutations are applied to the earlier ``L`` panels at the end, and their
composition gives ``P`` (``a = P @ L @ U``, as ``scipy.linalg.lu``). A non-square matrix
given to ``lu`` is factored in one chunk; stacks of matrices (``ndim > 2``) one matrix per
chunk.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.linalg._core import (
    LinAlgError,
    assert_stacked_2d,
    batch_apply,
    new_token,
    nth_result,
    probe_dtype,
    scipy_linalg,
    take,
    zeros_block,
)
from jupyter_mars.tensor.linalg.permutation import permutation_block, pl_block, row_indices

# ---- kernels ------------------------------------------------------------------------------


def _panel(obj: Any) -> Any:
    """A column panel: a plain array, or the second item of an update result."""
    return obj[1] if isinstance(obj, tuple) else obj


def concat_rows(dtype: np.dtype[Any], *blocks: Any) -> Any:
    return array_module(*blocks).concatenate(blocks, axis=0).astype(dtype, copy=False)


def lu_factors(
    block: Any, permute_l: bool = False, p_indices: bool = False, check_finite: bool = True
) -> Any:
    """``scipy.linalg.lu`` of ``block`` (a matrix, or a stack of them), or CuPy's on a GPU.
    CuPy's takes one matrix and gives ``p`` as a matrix: a stack is factored matrix by
    matrix, and ``p_indices`` are read off ``p`` (row ``i`` of ``p`` has its 1 in column
    ``p_indices[i]``)."""
    linalg = scipy_linalg(block)
    xp = array_module(block)
    if xp is np:
        return linalg.lu(block, permute_l=permute_l, p_indices=p_indices, check_finite=check_finite)
    if block.ndim > 2:
        matrices = [
            lu_factors(m, permute_l, p_indices, check_finite)
            for m in block.reshape(-1, *block.shape[-2:])
        ]
        return tuple(
            xp.stack([f[i] for f in matrices]).reshape(*block.shape[:-2], *matrices[0][i].shape)
            for i in range(len(matrices[0]))
        )
    factors = linalg.lu(block, permute_l=permute_l, check_finite=check_finite)
    if p_indices and not permute_l:
        p, lower, upper = factors
        return xp.argmax(p, axis=1).astype(np.int32), lower, upper
    return factors


def factor_panel(src: Any) -> tuple[Any, Any, Any]:
    """``(s, L, U)`` with ``panel[s] = L @ U``."""
    panel = _panel(src)
    p, lower, upper = lu_factors(panel, p_indices=True, check_finite=False)
    return array_module(panel).argsort(p), lower, upper


def update_panel(src: Any, factor: Any, width: int) -> tuple[Any, Any]:
    """``(U[k, j], trailing panel)`` from the panel of block column ``j`` at step ``k``."""
    perm, lower, _ = factor
    x = _panel(src)[perm]
    u_kj = scipy_linalg(x, lower).solve_triangular(
        lower[:width], x[:width], lower=True, unit_diagonal=True, check_finite=False
    )
    return u_kj, x[width:] - lower[width:] @ u_kj


def final_lower(starts: Sequence[int], factor: Any, *later: Any) -> Any:
    """``L`` panel of a step with the row permutations of the later steps applied."""
    lower = factor[1]
    if later:
        lower = lower.copy()
    for start, f in zip(starts, later):
        lower[start:] = lower[start:][f[0]]
    return lower


def total_permutation(n: int, starts: Sequence[int], *factors: Any) -> Any:
    """``pi`` with ``a[pi] = L @ U``."""
    pi = array_module(*(f[0] for f in factors)).arange(n)
    for start, f in zip(starts, factors):
        pi[start:] = pi[start:][f[0]]
    return pi


def rows_of(panel: Any, lo: int, hi: int) -> Any:
    return panel[lo:hi]


# ---- tiling of the LU steps ---------------------------------------------------------------


@dataclass
class LUTasks:
    """Keys of the tasks of one blocked LU (see the module docstring)."""

    splits: tuple[int, ...]
    starts: list[int]
    factors: list[Key]
    updates: dict[tuple[int, int], Key]
    lower: dict[tuple[int, int], Key]
    upper: dict[tuple[int, int], Key]
    perm: Key


def square_splits(x: Tiled) -> tuple[int, ...]:
    splits = tuple(int(v) for v in x.nsplits[0])
    if sum(splits) != sum(x.nsplits[1]):
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return splits


def emit_lu(
    tok: str, x: Tiled, in_dtype: np.dtype[Any], dtype: np.dtype[Any], ctx: TileContext
) -> LUTasks:
    """Add the tasks of a blocked LU of ``x`` (square) under the key prefix ``tok``."""
    splits = square_splits(x)
    rx = rechunk_tiled(f"{tok}-sq", x, (splits, splits), in_dtype, ctx)
    nb = len(splits)
    starts = [int(v) for v in offsets(splits)]
    n = starts[-1]
    current: dict[int, Key] = {}
    for j in range(nb):
        key: Key = (tok, "col", j)
        ctx.new_task(key, concat_rows, dtype, *(Ref(rx.keys[i, j]) for i in range(nb)))
        current[j] = key
    factors: list[Key] = []
    updates: dict[tuple[int, int], Key] = {}
    for k in range(nb):
        fkey = (tok, "factor", k)
        ctx.new_task(fkey, factor_panel, Ref(current[k]))
        factors.append(fkey)
        for j in range(k + 1, nb):
            ukey = (tok, "update", k, j)
            ctx.new_task(ukey, update_panel, Ref(current[j]), Ref(fkey), splits[k])
            updates[k, j] = ukey
            current[j] = ukey
    lower: dict[tuple[int, int], Key] = {}
    upper: dict[tuple[int, int], Key] = {}
    for j in range(nb):
        lkey = (tok, "lpanel", j)
        rel = [starts[k] - starts[j] for k in range(j + 1, nb)]
        ctx.new_task(lkey, final_lower, rel, Ref(factors[j]), *(Ref(f) for f in factors[j + 1 :]))
        for i in range(j, nb):
            key = (tok, "L", i, j)
            lo, hi = starts[i] - starts[j], starts[i + 1] - starts[j]
            ctx.new_task(key, rows_of, Ref(lkey), lo, hi)
            lower[i, j] = key
        upper[j, j] = (tok, "U", j, j)
        ctx.new_task(upper[j, j], take, Ref(factors[j]), 2)
        for i in range(j):
            upper[i, j] = (tok, "U", i, j)
            ctx.new_task(upper[i, j], take, Ref(updates[i, j]), 0)
    perm = (tok, "perm")
    ctx.new_task(perm, total_permutation, n, starts[:-1], *(Ref(f) for f in factors))
    return LUTasks(splits, starts, factors, updates, lower, upper, perm)


def lu_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    import scipy.linalg  # SciPy loads with the first decomposition, not with mt

    result: np.dtype[Any] = np.dtype(probe_dtype(scipy.linalg.lu, dtype, index=1))
    return result


# ---- lu -------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class LUPart(Op):
    token: str
    part: str
    """``p``, ``l``, ``u``, ``pl`` (``P @ L``) or ``pi`` (``p`` as row indices)."""

    def label(self) -> str:
        return f"lu{self.part}"


@tile_rule(LUPart)
def _tile_lu_part(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, LUPart)
    (x,) = inputs
    ctx.require_known(x)
    work = lu_dtype(node.inputs[0].dtype)
    tasks = emit_lu(op.token, x, node.inputs[0].dtype, work, ctx)
    splits, starts = tasks.splits, tasks.starts
    nb = len(splits)
    if op.part == "pi":
        grid = key_grid(node.key, [nb])
        for i in range(nb):
            ctx.new_task(grid[i], row_indices, Ref(tasks.perm), starts[i], starts[i + 1])
        return Tiled((splits,), grid)
    grid = key_grid(node.key, [nb, nb])
    for i in range(nb):
        for j in range(nb):
            key = grid[i, j]
            shape = (splits[i], splits[j])
            if op.part == "p":
                ctx.new_task(
                    key,
                    permutation_block,
                    Ref(tasks.perm),
                    starts[i],
                    starts[i + 1],
                    starts[j],
                    starts[j + 1],
                    node.dtype,
                )
            elif op.part == "l":
                if i >= j:
                    ctx.new_task(key, take_all, Ref(tasks.lower[i, j]))
                else:
                    ctx.new_task(key, zeros_block, shape, node.dtype, ctx.device)
            elif op.part == "u":
                if i <= j:
                    ctx.new_task(key, take_all, Ref(tasks.upper[i, j]))
                else:
                    ctx.new_task(key, zeros_block, shape, node.dtype, ctx.device)
            else:  # pl: rows of L in the original row order
                ctx.new_task(
                    key,
                    pl_block,
                    Ref(tasks.perm),
                    Ref((op.token, "lpanel", j)),
                    starts[i],
                    starts[i + 1],
                    starts[j],
                    splits[j],
                )
    return Tiled((splits, splits), grid)


def take_all(block: Any) -> Any:
    return block


def _lu_shape(
    core: tuple[int, ...], part: int, permute_l: bool, p_indices: bool
) -> tuple[int, ...]:
    m, n = core
    k = min(m, n)
    if permute_l:
        return (m, k) if part == 0 else (k, n)
    if part == 0 and p_indices:
        return (m,)
    return ((m, m), (m, k), (k, n))[part]


def lu(
    a: Any,
    permute_l: bool = False,
    overwrite_a: bool = False,
    check_finite: bool = True,
    p_indices: bool = False,
) -> Any:
    """Lazy ``scipy.linalg.lu``: ``(p, l, u)`` with ``a = p @ l @ u``; ``(p @ l, u)``
    with ``permute_l=True``; ``p`` as row indices (``a = l[p] @ u``) with ``p_indices``.
    ``overwrite_a`` and ``check_finite`` are accepted and ignored.

    A square matrix gets the blocked LU above (partial pivoting over whole columns, as
    LAPACK does, so the factors equal SciPy's up to rounding). A non-square matrix is
    factored in one chunk, a stack of matrices one matrix per chunk.
    """
    import scipy.linalg  # SciPy loads with the first decomposition, not with mt

    t = astensor(a)
    assert_stacked_2d(t)
    dtype = lu_dtype(t.dtype)
    p_dtype = (
        np.dtype(np.int32)
        if p_indices and not permute_l
        else np.dtype(probe_dtype(scipy.linalg.lu, t.dtype, index=0))
    )
    m, n = t.shape[-2:]
    square = m == n and m == m and m > 0
    if t.ndim > 2 or not square:
        n_parts = 2 if permute_l else 3
        dtypes = [dtype, dtype] if permute_l else [p_dtype, dtype, dtype]
        names = ["pl", "u"] if permute_l else ["p", "l", "u"]
        return tuple(
            batch_apply(
                t,
                functools.partial(
                    nth_result,
                    lu_factors,
                    part,
                    permute_l=bool(permute_l),
                    p_indices=bool(p_indices),
                ),
                2,
                functools.partial(
                    _lu_shape, part=part, permute_l=bool(permute_l), p_indices=bool(p_indices)
                ),
                dtypes[part],
                f"lu{names[part]}",
            )
            for part in range(n_parts)
        )
    token = new_token("lu")
    shape = (m, n)
    if permute_l:
        return (
            new_tensor(LUPart(token, "pl"), [t], shape, dtype),
            new_tensor(LUPart(token, "u"), [t], shape, dtype),
        )
    return (
        new_tensor(LUPart(token, "pi"), [t], (m,), p_dtype)
        if p_indices
        else new_tensor(LUPart(token, "p"), [t], shape, p_dtype),
        new_tensor(LUPart(token, "l"), [t], shape, dtype),
        new_tensor(LUPart(token, "u"), [t], shape, dtype),
    )
