"""``eye``, ``identity``, ``tri``, ``diag``, ``tril`` and ``triu``: matrices built around
a diagonal.

The sources (``eye``, ``tri``) make each chunk from its offset; ``diag``, ``tril`` and
``triu`` of a tensor keep its chunking and only compute the chunks the diagonal crosses,
the others being zeros made without reading the input, or the input chunks themselves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import NSplits, auto_chunk_sizes, offsets, split_evenly
from jupyter_mars.engine.devices import GPU, array_module, cupy_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.recipes import regenerable
from jupyter_mars.engine.sparse import SparseNode, empty_sparse, is_sparse_chunk, scipy_sparse
from jupyter_mars.tensor import datasource
from jupyter_mars.tensor.core import Tensor, new_tensor, unknown_shape
from jupyter_mars.tensor.creation.common import (
    array_module_named,
    as_dtype,
    block_indices,
    check_int,
    check_order,
    chunk_shape,
    device_args,
    normalize_shape,
    nsplits_for,
    numblocks,
    rechunked,
)
from jupyter_mars.tensor.gpu_keyword import check_gpu
from jupyter_mars.tensor.sparse.convert import sparse_flag, sparse_like, tosparse


@regenerable
def zeros_chunk(shape: tuple[int, ...], dtype: np.dtype[Any], xp: str = "numpy") -> Any:
    """A chunk off the diagonal: zeros, made without reading the input (on the GPU for
    ``xp="cupy"``)."""
    return array_module_named(xp, "a GPU tensor's zero chunk").zeros(shape, dtype=dtype)


# ---- eye, identity, tri ----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Eye(Op):
    k: int
    nsplits: NSplits
    order: str = "C"
    kind: str = "eye"
    """``eye`` (ones on the diagonal) or ``tri`` (ones on and below it)."""

    def label(self) -> str:
        return self.kind


def sparse_eye_chunk(n: int, m: int, k: int, dtype: np.dtype[Any]) -> Any:
    if not -n < k < m:  # the diagonal misses this chunk (SciPy refuses such an offset)
        return empty_sparse((n, m), dtype)
    return scipy_sparse().eye(n, m, k, dtype=dtype, format="csr")


@regenerable
def tri_chunk(n: int, m: int, k: int, dtype: np.dtype[Any], xp: str = "numpy") -> Any:
    return array_module_named(xp, "tri(gpu=True)").tri(n, m, k, dtype=dtype)


@regenerable
def eye_gpu(n: int, m: int, k: int, dtype: np.dtype[Any], order: str) -> Any:
    """``eye``'s chunk made on the GPU (``numpy.eye`` itself is the CPU kernel)."""
    return cupy_module("eye(gpu=True)").eye(n, m, k, dtype=dtype, order=order)


@tile_rule(Eye)
def _tile_eye(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Eye)
    nsplits = op.nsplits
    grid = key_grid(node.key, numblocks(nsplits))
    rows, cols = offsets(nsplits[0]), offsets(nsplits[1])
    for i, j in block_indices(nsplits):
        n, m = int(nsplits[0][i]), int(nsplits[1][j])
        # the diagonal k of the whole matrix is diagonal k + r0 - c0 of this chunk
        local_k = op.k + int(rows[i]) - int(cols[j])
        if op.kind == "tri":
            ctx.new_task(grid[i, j], tri_chunk, n, m, local_k, node.dtype, *device_args(ctx))
        elif isinstance(node, SparseNode):
            ctx.new_task(grid[i, j], sparse_eye_chunk, n, m, local_k, node.dtype)
        else:
            kernel = eye_gpu if ctx.device == GPU else np.eye
            ctx.new_task(grid[i, j], kernel, n, m, local_k, node.dtype, op.order)
    return Tiled(nsplits, grid)


def _matrix_args(N: Any, M: Any, k: Any, dtype: Any) -> tuple[tuple[int, ...], int, np.dtype[Any]]:
    """The shape, diagonal and dtype of an ``N`` x ``M`` matrix (``M`` None: square)."""
    n = check_int(N, "N")
    m = n if M is None else check_int(M, "M")
    shape = normalize_shape((n, m))
    return shape, check_int(k, "k"), as_dtype(dtype)


def eye(
    N: Any,
    M: Any = None,
    k: Any = 0,
    dtype: Any = float,
    order: str = "C",
    chunk_size: Any = None,
    sparse: bool = False,
    gpu: Any = None,
) -> Tensor:
    """Ones on diagonal ``k`` of an ``N`` x ``M`` matrix, zeros elsewhere (``numpy.eye``);
    ``sparse=True``: a sparse tensor; ``gpu=True``: chunks made on a GPU."""
    on_gpu = check_gpu(gpu, "eye")
    shape, kk, dt = _matrix_args(N, M, k, dtype)
    order = check_order(order, "CF", "eye")
    op = Eye(kk, nsplits_for(shape, chunk_size, dt), order)
    is_sparse = sparse_flag(sparse, shape, "eye")
    return new_tensor(op, [], shape, dt, sparse=is_sparse, gpu=on_gpu)


def identity(
    n: Any, dtype: Any = None, chunk_size: Any = None, sparse: bool = False, gpu: Any = None
) -> Tensor:
    """The ``n`` x ``n`` identity matrix (``numpy.identity``); float64 by default."""
    check_gpu(gpu, "identity")
    dt = dtype if dtype is not None else float
    return eye(n, dtype=dt, chunk_size=chunk_size, sparse=sparse, gpu=gpu)


def tri(
    N: Any,
    M: Any = None,
    k: Any = 0,
    dtype: Any = float,
    chunk_size: Any = None,
    gpu: Any = None,
) -> Tensor:
    """Ones at and below diagonal ``k``, zeros elsewhere (``numpy.tri``); ``gpu=True``:
    chunks made on a GPU."""
    on_gpu = check_gpu(gpu, "tri")
    shape, kk, dt = _matrix_args(N, M, k, dtype)
    op = Eye(kk, nsplits_for(shape, chunk_size, dt), "C", "tri")
    return new_tensor(op, [], shape, dt, gpu=on_gpu)


# ---- diag ------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Diag(Op):
    k: int

    def label(self) -> str:
        return "diag"


def diag_block(v: Any) -> Any:
    return np.diag(v)


def diag_pieces(pieces: list[tuple[int, int, int]], *blocks: Any) -> Any:
    """The diagonal elements ``block[r + t, c + t]`` for ``t < n`` of each ``(r, c, n)``."""
    parts = []
    xp = array_module(*blocks)
    for (r, c, n), block in zip(pieces, blocks):
        t = xp.arange(n)
        parts.append(block[r + t, c + t])
    return parts[0] if len(parts) == 1 else xp.concatenate(parts)


def _band(length: int, size: int) -> tuple[int, ...]:
    return split_evenly(length, max(size, 1)) if length else ()


def _tile_diag_1d(node: Node, v: Tiled, k: int, ctx: TileContext) -> Tiled:
    vs = tuple(int(n) for n in v.nsplits[0])
    if sum(vs) == 0:
        vs = ()
    band = _band(abs(k), max(vs, default=abs(k)))
    if k >= 0:
        rows, cols, row_shift, col_shift = vs + band, band + vs, 0, len(band)
    else:
        rows, cols, row_shift, col_shift = band + vs, vs + band, len(band), 0
    rows = rows or (0,)
    cols = cols or (0,)
    nsplits: NSplits = (rows, cols)
    grid = key_grid(node.key, (len(rows), len(cols)))
    diagonal = {(i + row_shift, i + col_shift): i for i in range(len(vs))}
    for i, j in block_indices(nsplits):
        src = diagonal.get((i, j))
        if src is not None:
            ctx.add_blockwise(grid[i, j], diag_block, (Ref(v.keys[src]),), {})
        else:
            shape = (rows[i], cols[j])
            ctx.new_task(grid[i, j], zeros_chunk, shape, node.dtype, *device_args(ctx))
    return Tiled(nsplits, grid)


def _tile_diag_2d(node: Node, v: Tiled, k: int, ctx: TileContext) -> Tiled:
    rs = [int(n) for n in v.nsplits[0]]
    cs = [int(n) for n in v.nsplits[1]]
    r_starts, c_starts = offsets(rs), offsets(cs)
    nrows, ncols = int(r_starts[-1]), int(c_starts[-1])
    r_off, c_off = max(-k, 0), max(k, 0)
    length = max(0, min(nrows - r_off, ncols - c_off))
    if length == 0:
        grid = key_grid(node.key, (1,))
        ctx.new_task(grid[0], zeros_chunk, (0,), node.dtype, *device_args(ctx))
        return Tiled(((0,),), grid)
    # one output chunk per row block the diagonal crosses
    bounds = sorted({min(max(int(b) - r_off, 0), length) for b in r_starts})
    lengths = tuple(b - a for a, b in zip(bounds[:-1], bounds[1:]) if b > a)
    grid = key_grid(node.key, (len(lengths),))
    t0 = 0
    for out_i, n in enumerate(lengths):
        t1 = t0 + n
        pieces: list[tuple[int, int, int]] = []
        refs = []
        t = t0
        while t < t1:
            r, c = t + r_off, t + c_off
            bi = int(np.searchsorted(r_starts, r, side="right")) - 1
            bj = int(np.searchsorted(c_starts, c, side="right")) - 1
            step = min(t1 - t, int(r_starts[bi + 1]) - r, int(c_starts[bj + 1]) - c)
            pieces.append((r - int(r_starts[bi]), c - int(c_starts[bj]), step))
            refs.append(Ref(v.keys[bi, bj]))
            t += step
        ctx.new_task(grid[out_i], diag_pieces, pieces, *refs)
        t0 = t1
    return Tiled((lengths,), grid)


@tile_rule(Diag)
def _tile_diag(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Diag)
    (v,) = inputs
    ctx.require_known(v)
    if len(v.nsplits) == 1:
        return _tile_diag_1d(node, v, op.k, ctx)
    return _tile_diag_2d(node, v, op.k, ctx)


def diag(v: Any, k: Any = 0, chunk_size: Any = None, sparse: Any = None, gpu: Any = None) -> Tensor:
    """The diagonal ``k`` of a 2-D tensor, or a 2-D tensor with ``v`` on diagonal ``k``.

    As ``numpy.diag``. A 1-D ``v`` gives a square matrix whose row and column chunks are
    ``v``'s chunks (plus a band of ``|k|``); only the chunks on the diagonal read ``v``.
    A 2-D ``v`` gives one chunk per row block that the diagonal crosses, each read from
    the blocks it passes through. ``chunk_size`` chunks ``v`` (the input); when ``v`` is an
    array and ``chunk_size`` is None, a 1-D ``v`` is split so that the square output
    chunks stay within ``options.chunk_store_limit`` bytes. ``sparse=True`` makes the
    matrix built from a 1-D ``v`` sparse (the diagonal of a sparse matrix is dense).
    ``gpu=True``: computed on a GPU (by default, where ``v`` is).
    """
    on_gpu = check_gpu(gpu, "diag")
    kk = check_int(k, "k")
    if isinstance(v, Tensor):
        t = rechunked(v, chunk_size)
    elif is_sparse_chunk(v):
        t = datasource.tensor(v, chunk_size=chunk_size)
    else:
        arr = np.asarray(v)
        if arr.ndim == 1 and chunk_size is None:
            side = auto_chunk_sizes(
                (arr.shape[0], arr.shape[0]), arr.dtype.itemsize, options.chunk_store_limit
            )
            chunk_size = max(side[0], 1)
        t = datasource.tensor(arr, chunk_size=chunk_size, gpu=on_gpu)
    if t.ndim == 1:
        n = t.shape[0] + abs(kk)
        out = new_tensor(Diag(kk), [t], (n, n), t.dtype, gpu=on_gpu)
        return tosparse(out) if sparse else out
    if t.ndim == 2:
        rows, cols = t.shape
        if unknown_shape(t.shape):
            length: Any = math.nan
        else:
            length = max(0, min(rows - max(-kk, 0), cols - max(kk, 0)))
        return new_tensor(Diag(kk), [t], (length,), t.dtype, gpu=on_gpu)
    raise ValueError(f"diag(): input must be 1- or 2-d, got {t.ndim} dimensions")


# ---- tril, triu ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Triangle(Op):
    k: int
    lower: bool

    def label(self) -> str:
        return "tril" if self.lower else "triu"


def triangle_chunk(block: Any, k: int, lower: bool, shape: tuple[int, ...] | None) -> Any:
    """``tril``/``triu`` of one chunk (``k`` relative to the chunk's corner).

    ``shape`` is given for a 1-D input, which is broadcast to rows as NumPy does.
    """
    if shape is not None:
        block = np.broadcast_to(block, shape)
    if is_sparse_chunk(block):
        return (
            scipy_sparse().tril(block, k, format="csr")
            if lower
            else scipy_sparse().triu(block, k, format="csr")
        )
    return np.tril(block, k) if lower else np.triu(block, k)


@tile_rule(Triangle)
def _tile_triangle(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Triangle)
    (x,) = inputs
    ctx.require_known(x)
    one_d = len(x.nsplits) == 1
    nsplits: NSplits = (x.nsplits[0], x.nsplits[0]) if one_d else x.nsplits
    ra, ca = len(nsplits) - 2, len(nsplits) - 1
    rows, cols = offsets(nsplits[ra]), offsets(nsplits[ca])
    grid = key_grid(node.key, numblocks(nsplits))
    for index in block_indices(nsplits):
        shape = chunk_shape(nsplits, index)
        i, j = index[ra], index[ca]
        n, m = shape[ra], shape[ca]
        # element (r, c) of the chunk is kept by tril when c - r <= local_k
        local_k = op.k + int(rows[i]) - int(cols[j])
        lo, hi = -(n - 1), m - 1  # range of c - r inside the chunk
        src = x.keys[(j,)] if one_d else x.keys[index]
        if n == 0 or m == 0:
            keep_all, keep_none = not one_d, False
        elif op.lower:
            keep_all, keep_none = hi <= local_k, lo > local_k
        else:
            keep_all, keep_none = lo >= local_k, hi < local_k
        if keep_none and isinstance(node, SparseNode):
            ctx.new_task(grid[index], empty_sparse, shape, node.dtype)
        elif keep_none:
            ctx.new_task(grid[index], zeros_chunk, shape, node.dtype, *device_args(ctx))
        elif keep_all and not one_d:
            grid[index] = src
        else:
            args = (Ref(src), local_k, op.lower, shape if one_d else None)
            ctx.add_blockwise(grid[index], triangle_chunk, args, {})
    return Tiled(tuple(tuple(a) for a in nsplits), grid)


def _triangle(m: Any, k: Any, lower: bool, gpu: Any) -> Tensor:
    name = "tril" if lower else "triu"
    on_gpu = check_gpu(gpu, name)
    kk = check_int(k, "k")
    t = datasource.astensor(m)
    if t.ndim == 0:
        raise ValueError(f"{name}(): input must be at least 1-d, got a 0-d tensor")
    shape = (t.shape[0], t.shape[0]) if t.ndim == 1 else t.shape
    # a sparse matrix keeps its storage (a sparse tensor is always 2-d)
    op = Triangle(kk, lower)
    return new_tensor(op, [t], shape, t.dtype, sparse=sparse_like(t), gpu=on_gpu)


def tril(m: Any, k: Any = 0, gpu: Any = None) -> Tensor:
    """The lower triangle of the last two axes (``numpy.tril``); chunks above diagonal
    ``k`` become zeros without reading ``m``, chunks below it are ``m``'s own.
    ``gpu=True``: on a GPU (by default, where ``m`` is)."""
    return _triangle(m, k, True, gpu)


def triu(m: Any, k: Any = 0, gpu: Any = None) -> Tensor:
    """The upper triangle of the last two axes (``numpy.triu``); chunks below diagonal
    ``k`` become zeros without reading ``m``, chunks above it are ``m``'s own.
    ``gpu=True``: on a GPU (by default, where ``m`` is)."""
    return _triangle(m, k, False, gpu)
