"""``qr`` and ``svd`` of tall-and-skinny matrices by TSQR, and ``lstsq`` built on them.

TSQR (for an ``m x n`` matrix chunked along its rows, ``m >= n``): the columns are
gathered into one chunk; each row block ``A_i`` is factored ``A_i = Q_i R_i`` (one task
each, in parallel); the small ``R_i`` are stacked and factored once more,
``[R_0; R_1; ...] = Q_s R``; then ``Q = diag(Q_i) Q_s``, i.e. ``Q`` chunk ``i`` is
``Q_i @ Q_s[rows of block i]``. ``R`` is one ``n x n`` chunk.

The SVD follows: ``R = U_r S V^H`` (one small task), ``U = Q U_r`` chunk by chunk. A wide
matrix (``m < n``) is factored through its conjugate transpose, chunked along columns.

When TSQR would not shrink anything (one row block, or row blocks shorter than ``n``), or
for ``qr`` of a wide matrix, the matrix is gathered into one chunk and factored by NumPy.
Stacks of matrices (``ndim > 2``), ``qr`` modes ``'complete'``/``'raw'`` and
``svd(full_matrices=True)`` gather each matrix into one chunk too (and compute each result
separately).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.linalg._core import (
    assert_stacked_2d,
    batch_apply,
    conj_transpose,
    new_token,
    nth_result,
    probe_dtype,
    take,
)

# ---- kernels ------------------------------------------------------------------------------


def block_qr(block: Any, conj: bool, r_only: bool = False) -> tuple[Any, Any]:
    """Reduced QR of a row block (of the conjugate transpose of a column block)."""
    x = conj_transpose(block) if conj else block
    if r_only:
        return None, np.linalg.qr(x, mode="r")
    q, r = np.linalg.qr(x)
    return q, r


def stacked_qr(r_only: bool, *factors: Any) -> tuple[Any, Any]:
    """QR of the stacked R factors of the blocks."""
    stacked = array_module(*(f[1] for f in factors)).concatenate([f[1] for f in factors], axis=0)
    if r_only:
        return None, np.linalg.qr(stacked, mode="r")
    q, r = np.linalg.qr(stacked)
    return q, r


def small_svdvals(stack: Any) -> tuple[None, Any, None]:
    return None, np.linalg.svd(stack[1], compute_uv=False), None


def whole_svdvals(block: Any) -> tuple[None, Any, None]:
    return None, np.linalg.svd(block, compute_uv=False), None


def small_svd(stack: Any) -> tuple[Any, Any, Any]:
    """SVD of the final R; the left factor is returned already multiplied by ``Q_s``."""
    q_s, r = stack
    u, s, vh = np.linalg.svd(r, full_matrices=False)
    return q_s @ u, s, vh


def q_chunk(factor: Any, small: Any, lo: int, hi: int, conj: bool) -> Any:
    q = factor[0] @ small[0][lo:hi]
    return conj_transpose(q) if conj else q


def take_conj_transpose(obj: Any, index: int) -> Any:
    return np.ascontiguousarray(conj_transpose(obj[index]))


def whole_qr(block: Any) -> tuple[Any, Any]:
    q, r = np.linalg.qr(block)
    return q, r


def whole_svd(block: Any) -> tuple[Any, Any, Any]:
    u, s, vh = np.linalg.svd(block, full_matrices=False)
    return u, s, vh


# ---- the operator -------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class TSQR(Op):
    """One result (``part``) of a TSQR-based factorisation shared under ``token``."""

    token: str
    method: str
    """``"qr"`` (parts ``q``, ``r``), ``"svd"`` (parts ``u``, ``s``, ``vh``) or ``"svdvals"``
    (part ``s`` alone: no ``Q`` or ``U`` is formed)."""
    part: str

    def label(self) -> str:
        return self.method if self.method == "svdvals" else f"{self.method}{self.part}"


def _use_tsqr(lengths: list[int], rows: int, width: int) -> bool:
    return len(lengths) > 1 and width > 0 and sum(min(n, width) for n in lengths) < rows


@tile_rule(TSQR)
def _tile_tsqr(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, TSQR)
    (x,) = inputs
    ctx.require_known(x)
    tok = op.token
    in_dtype = node.inputs[0].dtype
    m, n = (int(sum(s)) for s in x.nsplits)
    k = min(m, n)
    wide = op.method != "qr" and m < n
    r_only = op.method == "svdvals"
    axis = 1 if wide else 0
    split = [int(v) for v in x.nsplits[axis]]
    rows, width = (n, m) if wide else (m, n)
    key = (node.key,)

    if not (m >= n or wide) or not _use_tsqr(split, rows, width):
        rx = rechunk_tiled(f"{tok}-whole", x, ((m,), (n,)), in_dtype, ctx)
        single = (tok, "single")
        kernel = {"qr": whole_qr, "svd": whole_svd, "svdvals": whole_svdvals}[op.method]
        ctx.new_task(single, kernel, Ref(rx.keys[0, 0]))
        index, nsplits = {
            "q": (0, ((m,), (k,))),
            "r": (1, ((k,), (n,))),
            "u": (0, ((m,), (k,))),
            "s": (1, ((k,),)),
            "vh": (2, ((k,), (n,))),
        }[op.part]
        return _one_chunk(node, ctx, nsplits, take, Ref(single), index)

    target = ((m,), x.nsplits[1]) if wide else (x.nsplits[0], (n,))
    rx = rechunk_tiled(f"{tok}-in", x, target, in_dtype, ctx)
    factors = []
    for i in range(len(split)):
        fkey = (tok, "qr", i)
        ctx.new_task(fkey, block_qr, Ref(rx.keys[(0, i) if wide else (i, 0)]), wide, r_only)
        factors.append(fkey)
    stack = (tok, "stack")
    ctx.new_task(stack, stacked_qr, r_only, *(Ref(f) for f in factors))
    small = stack
    if op.method != "qr":
        small = (tok, "svd")
        ctx.new_task(small, small_svdvals if r_only else small_svd, Ref(stack))
    offsets = np.cumsum([0] + [min(v, width) for v in split]).tolist()

    if op.part in ("q", "u") and not wide or op.part == "vh" and wide:
        grid = np.empty((1, len(split)) if wide else (len(split), 1), dtype=object)
        for i, fkey in enumerate(factors):
            where = (0, i) if wide else (i, 0)
            grid[where] = key + where
            lo, hi = int(offsets[i]), int(offsets[i + 1])
            ctx.new_task(grid[where], q_chunk, Ref(fkey), Ref(small), lo, hi, wide)
        chunks = tuple(split)
        out_splits: Any = ((k,), chunks) if wide else (chunks, (k,))
        return Tiled(out_splits, grid)
    if op.part == "r":
        return _one_chunk(node, ctx, ((k,), (n,)), take, Ref(stack), 1)
    if op.part == "s":
        return _one_chunk(node, ctx, ((k,),), take, Ref(small), 1)
    if op.part == "u":  # wide: U = (V'^H)^H
        return _one_chunk(node, ctx, ((m,), (k,)), take_conj_transpose, Ref(small), 2)
    return _one_chunk(node, ctx, ((k,), (n,)), take, Ref(small), 2)


def _one_chunk(node: Node, ctx: TileContext, nsplits: Any, func: Any, *args: Any) -> Tiled:
    grid = np.empty((1,) * len(nsplits), dtype=object)
    key = (node.key,) + (0,) * len(nsplits)
    grid[(0,) * len(nsplits)] = key
    ctx.new_task(key, func, *args)
    return Tiled(nsplits, grid)


def _k(m: Any, n: Any) -> Any:
    if m != m or n != n:
        return math.nan
    return min(m, n)


def _tsqr_parts(a: Tensor, method: str, parts: list[str], dtypes: list[Any]) -> list[Tensor]:
    token = new_token(method)
    m, n = a.shape
    k = _k(m, n)
    shapes = {"q": (m, k), "r": (k, n), "u": (m, k), "s": (k,), "vh": (k, n)}
    return [
        new_tensor(TSQR(token, method, part), [a], shapes[part], dt)
        for part, dt in zip(parts, dtypes)
    ]


# ---- core shapes for the one-chunk-per-matrix path ---------------------------------------


def _qr_shape(core: tuple[int, ...], part: int, mode: str) -> tuple[int, ...]:
    m, n = core
    k = min(m, n)
    if mode == "raw":
        return (n, m) if part == 0 else (k,)
    rows = m if mode == "complete" else k
    return (m, rows) if part == 0 else (rows, n)


def _svd_shape(core: tuple[int, ...], part: int, full: bool, compute_uv: bool) -> tuple[int, ...]:
    m, n = core
    k = min(m, n)
    if not compute_uv:
        return (k,)
    if part == 1:
        return (k,)
    if part == 0:
        return (m, m if full else k)
    return (n if full else k, n)


# ---- public functions ---------------------------------------------------------------------


def qr(a: Any, mode: str = "reduced", method: str = "tsqr") -> Any:
    """Lazy ``numpy.linalg.qr`` by TSQR: ``(q, r)``, or ``r`` alone with ``mode='r'``.

    A matrix chunked along its rows gets TSQR (see the module docstring). Modes
    ``'complete'`` and ``'raw'``, wide matrices and stacks of matrices gather each matrix
    into one chunk. ``q`` and ``r`` of one call share their work when executed together.
    """
    if mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"Unrecognized mode '{mode}'")
    if method != "tsqr":
        raise ValueError(f"qr: unknown method {method!r}; 'tsqr' is the one supported")
    t = astensor(a)
    assert_stacked_2d(t)
    dtype = probe_dtype(np.linalg.qr, t.dtype, index=0)
    if t.ndim > 2 or mode in ("complete", "raw"):
        results = []
        npmode = "reduced" if mode == "r" else mode
        for part in (0, 1):
            func = functools.partial(nth_result, np.linalg.qr, part, mode=npmode)
            shape_fn = functools.partial(_qr_shape, part=part, mode=npmode)
            dt = np.dtype(np.float64) if mode == "raw" else dtype
            results.append(batch_apply(t, func, 2, shape_fn, dt, f"qr{'qr'[part]}"))
        return results[1] if mode == "r" else tuple(results)
    if mode == "r":
        return _tsqr_parts(t, "qr", ["r"], [dtype])[0]
    q, r = _tsqr_parts(t, "qr", ["q", "r"], [dtype, dtype])
    return q, r


def svd(
    a: Any,
    full_matrices: bool = False,
    compute_uv: bool = True,
    hermitian: bool = False,
    method: str = "tsqr",
) -> Any:
    """Lazy ``numpy.linalg.svd``: ``(u, s, vh)`` such that ``a = u @ diag(s) @ vh``.

    ``full_matrices`` defaults to False (as in Mars): ``u`` is ``m x k`` and ``vh``
    ``k x n`` with ``k = min(m, n)``, computed by TSQR (see the module docstring).
    ``full_matrices=True`` and stacks of matrices gather each matrix into one chunk.
    With ``compute_uv=False`` only ``s`` is returned. ``hermitian`` is accepted for
    NumPy compatibility; the singular values are the same either way.
    """
    if method != "tsqr":
        raise ValueError(f"svd: unknown method {method!r}; 'tsqr' is the one supported")
    t = astensor(a)
    assert_stacked_2d(t)
    u_dtype = probe_dtype(np.linalg.svd, t.dtype, index=0)
    s_dtype = probe_dtype(functools.partial(np.linalg.svd, compute_uv=False), t.dtype)
    if t.ndim > 2 or full_matrices:
        n_parts = 3 if compute_uv else 1
        results = []
        for part in range(n_parts):
            if compute_uv:
                func: Any = functools.partial(
                    nth_result, np.linalg.svd, part, full_matrices=bool(full_matrices)
                )
            else:
                func = functools.partial(np.linalg.svd, compute_uv=False)
            shape_fn = functools.partial(
                _svd_shape, part=part, full=bool(full_matrices), compute_uv=bool(compute_uv)
            )
            dt = s_dtype if part == 1 or not compute_uv else u_dtype
            results.append(batch_apply(t, func, 2, shape_fn, dt, f"svd{('u', 's', 'vh')[part]}"))
        return tuple(results) if compute_uv else results[0]
    if not compute_uv:
        return _tsqr_parts(t, "svdvals", ["s"], [s_dtype])[0]
    u, s, vh = _tsqr_parts(t, "svd", ["u", "s", "vh"], [u_dtype, s_dtype, u_dtype])
    return u, s, vh
