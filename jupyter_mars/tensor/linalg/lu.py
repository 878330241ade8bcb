"""Blocked LU with partial pivoting, and what is built on it: ``lu``, ``solve``, ``inv``,
``det``, ``slogdet``; plus blocked ``solve_triangular``.

The square matrix is rechunked so both axes share the row chunking; the work is held as
column panels (all rows from the current step down). Step ``k``:

- the panel of column block ``k`` (rows ``o_k..n``) is factored by
  ``scipy.linalg.lu``: a row permutation ``s_k``, a unit lower trapezoidal ``L_k`` and
  ``U[k, k]`` (one task; partial pivoting over the whole column, as LAPACK does);
- every column panel ``j > k`` is permuted by ``s_k``, gives ``U[k, j]`` by a triangular
  solve, and its trailing rows are updated, ``C_j <- C_j - L_k U[k, j]`` (one task per
  ``j``, in parallel).

The later row permutations are applied to the earlier ``L`` panels at the end, and their
composition gives ``P`` (``a = P @ L @ U``, as ``scipy.linalg.lu``). ``solve`` permutes
``b``, then substitutes forward with ``L`` and backward with ``U`` block by block.
A non-square matrix given to ``lu`` is factored in one chunk; stacks of matrices
(``ndim > 2``) one matrix per chunk.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.linalg._core import (
    LinAlgError,
    assert_stacked_2d,
    assert_stacked_square,
    batch_apply,
    new_token,
    no_axes,
    nth_result,
    probe_dtype,
    same_shape,
    take,
    zeros_block,
)

# ---- kernels ------------------------------------------------------------------------------


def _panel(obj: Any) -> Any:
    """A column panel: a plain array, or the second item of an update result."""
    return obj[1] if isinstance(obj, tuple) else obj


def concat_rows(dtype: np.dtype[Any], *blocks: Any) -> Any:
    return np.concatenate(blocks, axis=0).astype(dtype, copy=False)


def factor_panel(src: Any) -> tuple[Any, Any, Any]:
    """``(s, L, U)`` with ``panel[s] = L @ U``."""
    p, lower, upper = scipy.linalg.lu(_panel(src), p_indices=True, check_finite=False)
    return np.argsort(p), lower, upper


def update_panel(src: Any, factor: Any, width: int) -> tuple[Any, Any]:
    """``(U[k, j], trailing panel)`` from the panel of block column ``j`` at step ``k``."""
    perm, lower, _ = factor
    x = _panel(src)[perm]
    u_kj = scipy.linalg.solve_triangular(
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
    pi = np.arange(n)
    for start, f in zip(starts, factors):
        pi[start:] = pi[start:][f[0]]
    return pi


def rows_of(panel: Any, lo: int, hi: int) -> Any:
    return panel[lo:hi]


def permutation_block(
    pi: Any, row_lo: int, row_hi: int, col_lo: int, col_hi: int, dtype: np.dtype[Any]
) -> Any:
    """Block of ``P`` (``P[pi[c], c] = 1``)."""
    out = np.zeros((row_hi - row_lo, col_hi - col_lo), dtype=dtype)
    rows = pi[col_lo:col_hi]
    hit = (rows >= row_lo) & (rows < row_hi)
    out[rows[hit] - row_lo, np.nonzero(hit)[0]] = 1
    return out


def permuted_identity_block(
    pi: Any, row_lo: int, row_hi: int, col_lo: int, col_hi: int, dtype: np.dtype[Any]
) -> Any:
    """Block of ``P^T`` (row ``r`` has its 1 in column ``pi[r]``)."""
    out = np.zeros((row_hi - row_lo, col_hi - col_lo), dtype=dtype)
    cols = pi[row_lo:row_hi]
    hit = (cols >= col_lo) & (cols < col_hi)
    out[np.nonzero(hit)[0], cols[hit] - col_lo] = 1
    return out


def permuted_rows(pi: Any, lo: int, hi: int, dtype: np.dtype[Any], *blocks: Any) -> Any:
    """Rows ``pi[lo:hi]`` of the column panel made of ``blocks``."""
    whole = np.concatenate(blocks, axis=0)
    return whole[pi[lo:hi]].astype(dtype, copy=False)


def substitute(
    rhs: Any, diag: Any, lower: bool, unit: bool, check: bool, dtype: np.dtype[Any], *pairs: Any
) -> Any:
    """Solve ``diag @ x = rhs - sum A_l @ x_l`` over the pairs ``(A_l, x_l)``."""
    s = rhs.astype(dtype, copy=True)
    for a, x in zip(pairs[0::2], pairs[1::2]):
        s -= a @ x
    if check and np.any(np.diagonal(diag) == 0):
        raise LinAlgError("Singular matrix")
    out = scipy.linalg.solve_triangular(
        diag, s, lower=lower, unit_diagonal=unit, check_finite=False
    )
    return out.astype(dtype, copy=False)


def det_from_factors(dtype: np.dtype[Any], *factors: Any) -> Any:
    value: Any = np.ones((), dtype=dtype)
    for perm, _, upper in factors:
        value = value * _parity(perm) * np.prod(np.diagonal(upper))
    return np.asarray(value, dtype=dtype)


def _parity(perm: Any) -> int:
    """+1 for an even permutation, -1 for an odd one."""
    seen = np.zeros(len(perm), dtype=bool)
    swaps = 0
    for start in range(len(perm)):
        if seen[start]:
            continue
        length = 0
        j = start
        while not seen[j]:
            seen[j] = True
            j = perm[j]
            length += 1
        swaps += length - 1
    return -1 if swaps % 2 else 1


def slogdet_from_factors(dtype: np.dtype[Any], *factors: Any) -> tuple[Any, Any]:
    sign: Any = np.ones((), dtype=dtype)
    real = np.ones((), dtype=dtype).real.dtype
    logdet: Any = np.zeros((), dtype=real)
    for perm, _, upper in factors:
        diag = np.diagonal(upper)
        sign = sign * _parity(perm)
        if np.iscomplexobj(diag):
            absd = np.abs(diag)
            with np.errstate(divide="ignore", invalid="ignore"):
                sign = sign * np.prod(diag / absd)
        else:
            sign = sign * np.prod(np.sign(diag))
            absd = np.abs(diag)
        with np.errstate(divide="ignore"):
            logdet = logdet + np.sum(np.log(absd))
    if np.all(sign == 0) or logdet == -np.inf:
        return np.asarray(0, dtype=dtype), np.asarray(-np.inf, dtype=real)
    return np.asarray(sign, dtype=dtype), np.asarray(logdet, dtype=real)


def slogdet_part(index: int, dtype: np.dtype[Any], *factors: Any) -> Any:
    return slogdet_from_factors(dtype, *factors)[index]


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


def _square_splits(x: Tiled) -> tuple[int, ...]:
    splits = tuple(int(v) for v in x.nsplits[0])
    if sum(splits) != sum(x.nsplits[1]):
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return splits


def emit_lu(
    tok: str, x: Tiled, in_dtype: np.dtype[Any], dtype: np.dtype[Any], ctx: TileContext
) -> LUTasks:
    """Add the tasks of a blocked LU of ``x`` (square) under the key prefix ``tok``."""
    splits = _square_splits(x)
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
    work = _lu_dtype(node.inputs[0].dtype)
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
                    ctx.new_task(key, zeros_block, shape, node.dtype)
            elif op.part == "u":
                if i <= j:
                    ctx.new_task(key, take_all, Ref(tasks.upper[i, j]))
                else:
                    ctx.new_task(key, zeros_block, shape, node.dtype)
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


def pl_block(pi: Any, lpanel: Any, row_lo: int, row_hi: int, col_lo: int, width: int) -> Any:
    """Block of ``P @ L``: row ``r`` of it is row ``inverse(pi)[r]`` of ``L``."""
    inverse = np.empty_like(pi)
    inverse[pi] = np.arange(len(pi))
    src = inverse[row_lo:row_hi]
    out = np.zeros((row_hi - row_lo, width), dtype=lpanel.dtype)
    hit = src >= col_lo
    out[hit] = lpanel[src[hit] - col_lo]
    return out


def _lu_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    result: np.dtype[Any] = np.dtype(probe_dtype(scipy.linalg.lu, dtype, index=1))
    return result


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


def row_indices(pi: Any, lo: int, hi: int) -> Any:
    """Chunk of SciPy's ``p_indices`` form (``a = l[p] @ u``): the inverse of ``pi``."""
    inverse = np.empty_like(pi, dtype=np.int32)
    inverse[pi] = np.arange(len(pi), dtype=np.int32)
    return inverse[lo:hi]


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
    t = astensor(a)
    assert_stacked_2d(t)
    dtype = _lu_dtype(t.dtype)
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
                    scipy.linalg.lu,
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


# ---- solve, inv ---------------------------------------------------------------------------


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


def _fmt(shape: Sequence[Any]) -> str:
    items = [str(n) for n in shape]
    return "(" + ",".join(items) + ("," if len(items) == 1 else "") + ")"


def _solve_batched(a: Tensor, b: Tensor, dtype: np.dtype[Any]) -> Tensor:
    from jupyter_mars.tensor.products import contract

    vector = b.ndim == 1
    batch_a = a.shape[:-2]
    batch_b = () if vector else b.shape[:-2]
    nbatch = max(len(batch_a), len(batch_b))
    for pos in range(1, nbatch + 1):
        x = batch_a[-pos] if pos <= len(batch_a) else 1
        y = batch_b[-pos] if pos <= len(batch_b) else 1
        if x != 1 and y != 1 and x == x and y == y and x != y:
            remapped = " ".join(
                f"{_fmt(t.shape)}->({','.join(map(str, t.shape[:-2]))},newaxis,newaxis)"
                for t in (a, b)
            )
            raise ValueError(
                "operands could not be broadcast together with remapped shapes "
                f"[original->remapped]: {remapped}  and requested shape {_fmt(b.shape[-2:])}"
            )
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
    return np.linalg.solve(a, b)


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


# ---- det, slogdet -------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class LUDet(Op):
    """``det`` (part 2), or ``slogdet``'s sign (0) or log-determinant (1)."""

    token: str
    part: int

    def label(self) -> str:
        return ("slogdetsign", "slogdetlog", "det")[self.part]


@tile_rule(LUDet)
def _tile_lu_det(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, LUDet)
    (x,) = inputs
    ctx.require_known(x)
    in_dtype = node.inputs[0].dtype
    work = _lu_dtype(in_dtype)
    grid = key_grid(node.key, [])
    out: Key = (node.key,)
    if sum(x.nsplits[0]) == 0:
        value = (1, 0, 1)[op.part]
        ctx.new_task(out, np.asarray, value, node.dtype)
        return Tiled((), grid)
    tasks = emit_lu(op.token, x, in_dtype, work, ctx)
    refs = [Ref(f) for f in tasks.factors]
    if op.part == 2:
        ctx.new_task(out, det_from_factors, node.dtype, *refs)
    else:
        sign_dtype = np.dtype(np.result_type(work, node.dtype)) if op.part == 1 else node.dtype
        ctx.new_task(out, slogdet_part, op.part, sign_dtype, *refs)
    return Tiled((), grid)


def det(a: Any) -> Tensor:
    """Lazy ``numpy.linalg.det``, from the blocked LU (a stack: one matrix per chunk)."""
    t = astensor(a)
    assert_stacked_2d(t)
    assert_stacked_square(t)
    dtype = probe_dtype(np.linalg.det, t.dtype)
    if t.ndim > 2:
        return batch_apply(t, np.linalg.det, 2, no_axes, dtype, "det")
    return new_tensor(LUDet(new_token("det"), 2), [t], (), dtype)


def slogdet(a: Any) -> tuple[Tensor, Tensor]:
    """Lazy ``numpy.linalg.slogdet``: ``(sign, logabsdet)`` from the blocked LU."""
    t = astensor(a)
    assert_stacked_2d(t)
    assert_stacked_square(t)
    sign_dtype = probe_dtype(np.linalg.slogdet, t.dtype, index=0)
    log_dtype = probe_dtype(np.linalg.slogdet, t.dtype, index=1)
    if t.ndim > 2:
        return (
            batch_apply(
                t,
                functools.partial(nth_result, np.linalg.slogdet, 0),
                2,
                no_axes,
                sign_dtype,
                "slogdetsign",
            ),
            batch_apply(
                t,
                functools.partial(nth_result, np.linalg.slogdet, 1),
                2,
                no_axes,
                log_dtype,
                "slogdetlog",
            ),
        )
    token = new_token("slogdet")
    return (
        new_tensor(LUDet(token, 0), [t], (), sign_dtype),
        new_tensor(LUDet(token, 1), [t], (), log_dtype),
    )


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
    splits = _square_splits(a)
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
