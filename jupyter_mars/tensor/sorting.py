"""Sorting and searching: ``sort``, ``argsort``, ``partition``, ``argpartition``, ``unique``,
``searchsorted``, ``isin`` and ``in1d``.

Sorting along an axis split into several chunks is a parallel sort by regular sampling
(PSRS) with a final rebalancing step, so that no task ever holds a whole axis:

1. every chunk is sorted on its own (``local``);
2. regularly spaced samples are taken from the sorted chunks and gathered, per line along
   the axis, into one small task that picks ``p - 1`` pivots (``p`` = chunks on the axis);
3. each sorted chunk is cut at the pivots into ``p`` pieces (``piece``), and piece ``k`` of
   every chunk is merged into bucket ``k`` (``bucket``): buckets hold consecutive value
   ranges, so the concatenated buckets are the sorted axis. Ties are broken by a distinct
   key (the element's global index for ``argsort``) so that duplicated values still spread
   over the buckets;
4. buckets have data-dependent lengths that differ from line to line, so they are cut again
   at the ranks where the input chunks start (``out-piece``) and reassembled
   (``out``): **the result has exactly the chunks of the input** (known lengths, no ``nan``),
   which keeps it aligned with the input for later element-wise work.

Along an axis held in one chunk, each chunk is sorted by NumPy directly. ``argsort`` is
always stable (it equals NumPy's ``kind='stable'`` result, a valid answer for every kind).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor

__all__ = [
    "argpartition",
    "argsort",
    "in1d",
    "isin",
    "partition",
    "searchsorted",
    "sort",
    "unique",
]

_INTP = np.dtype(np.intp)
_MAX_OVERSAMPLE = 16
"""Samples taken per chunk and per bucket when choosing pivots (at most)."""


# ---- argument checks --------------------------------------------------------------------------


def check_axis(axis: Any, ndim: int, argname: str = "axis") -> int:
    """One axis as a non-negative int; ``AxisError`` when out of range."""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{argname} must be an int or None, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(int(axis), ndim)
    return int(axis) % ndim


def _check_known(t: Tensor, what: str) -> None:
    if any(isinstance(n, float) and math.isnan(n) for n in t.shape):
        raise ValueError(
            f"{what} needs the shape of its input, which is unknown until it is executed; "
            "call .execute() on the input first"
        )


def _probe_sort(func: Callable[..., Any], dtype: np.dtype[Any], **kwargs: Any) -> None:
    """Let NumPy validate ``kind``/``order``/``stable`` on a one-element array."""
    func(np.zeros(1, dtype=dtype), **kwargs)


def _sort_kwargs(kind: Any, order: Any, stable: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if kind is not None:
        out["kind"] = kind
    if order is not None:
        out["order"] = order
    if stable is not None:
        out["stable"] = stable
    return out


def chunk_indices(numblocks: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every chunk index of a grid, in C order."""
    return itertools.product(*(range(n) for n in numblocks))


# ---- small array helpers used by the kernels --------------------------------------------------


def _exclusive_cumsum(lengths: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    out = np.zeros(len(lengths), dtype=np.intp)
    if len(lengths) > 1:
        np.cumsum(lengths[:-1], out=out[1:])
    return out


def _ragged_take(
    starts: np.ndarray[Any, Any], lengths: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """Flat positions ``[starts[l], starts[l] + lengths[l])`` for every line ``l`` in order."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.intp)
    base = np.repeat(starts.astype(np.intp) - _exclusive_cumsum(lengths), lengths)
    return base + np.arange(total, dtype=np.intp)


def _line_ids(lengths: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return np.repeat(np.arange(len(lengths), dtype=np.intp), lengths)


def flat_index(
    chunk_shape: tuple[int, ...], chunk_offset: tuple[int, ...], shape: tuple[int, ...]
) -> np.ndarray[Any, Any]:
    """Global C-order flat index of every element of a chunk, shaped like the chunk."""
    out = np.zeros(chunk_shape, dtype=np.intp)
    stride = 1
    for axis in range(len(shape) - 1, -1, -1):
        view = [1] * len(shape)
        view[axis] = chunk_shape[axis]
        positions = np.arange(chunk_offset[axis], chunk_offset[axis] + chunk_shape[axis])
        out += (positions * stride).astype(np.intp).reshape(view)
        stride *= shape[axis]
    return out


# ---- kernels: one chunk along the axis --------------------------------------------------------


def sort_block(block: Any, axis: int, arg: bool) -> Any:
    if arg:
        return np.argsort(block, axis=axis, kind="stable")
    return np.sort(block, axis=axis)


def sort_flat_block(block: Any, arg: bool) -> Any:
    flat = np.asarray(block).ravel()
    return np.argsort(flat, kind="stable") if arg else np.sort(flat)


def empty_result(dtype: np.dtype[Any]) -> Any:
    return np.empty(0, dtype=dtype)


# ---- kernels: PSRS ----------------------------------------------------------------------------
# A "local" result is (values (L, n), keys (L, n) or None, base): L lines along the axis, each
# sorted; keys are the global indices (argsort) or None, in which case the tie-break key of
# the element in column u is ``base + u``. A "ragged" result is (values, keys, lengths):
# lines one after another in ``values``, ``lengths[l]`` elements for line l.


def psrs_local_flat(
    block: Any, chunk_offset: tuple[int, ...], shape: tuple[int, ...], base: int, arg: bool
) -> tuple[Any, Any, int]:
    """``psrs_local`` for ``axis=None``: the chunk raveled, keys are global flat indices."""
    block = np.asarray(block)
    lines = block.reshape(1, -1)
    if not arg:
        return np.sort(lines, axis=-1), None, base
    order = np.argsort(lines, axis=-1, kind="stable")
    values = np.take_along_axis(lines, order, axis=-1)
    index = flat_index(block.shape, chunk_offset, shape).reshape(1, -1)
    return values, np.take_along_axis(index, order, axis=-1), base


def psrs_sample(local: tuple[Any, Any, int], step: int) -> tuple[Any, Any]:
    """Every ``step``-th element of each sorted line, with its tie-break key."""
    values, keys, base = local
    n = values.shape[1]
    cols = np.arange(min(step // 2, max(n - 1, 0)), n, step) if n else np.zeros(0, np.intp)
    sample = values[:, cols]
    if keys is None:
        sample_keys = np.broadcast_to(base + cols.astype(np.intp), sample.shape).copy()
    else:
        sample_keys = keys[:, cols]
    return sample, sample_keys


def psrs_pivots(nbuckets: int, *samples: tuple[Any, Any]) -> tuple[Any, Any]:
    """``nbuckets - 1`` pivots per line, (value, key) pairs at regular sample ranks."""
    values = np.concatenate([s[0] for s in samples], axis=1)
    keys = np.concatenate([s[1] for s in samples], axis=1)
    m = values.shape[1]
    order = np.lexsort((keys, values), axis=-1)
    values = np.take_along_axis(values, order, axis=-1)
    keys = np.take_along_axis(keys, order, axis=-1)
    ranks = np.array([(r * m) // nbuckets for r in range(1, nbuckets)], dtype=np.intp)
    ranks = np.minimum(ranks, max(m - 1, 0))
    if m == 0:
        shape = (values.shape[0], nbuckets - 1)
        return np.zeros(shape, dtype=values.dtype), np.zeros(shape, dtype=np.intp)
    return values[:, ranks], keys[:, ranks]


def psrs_cuts(local: tuple[Any, Any, int], pivots: tuple[Any, Any]) -> np.ndarray[Any, Any]:
    """Per line, where each bucket starts in the sorted chunk: shape (L, nbuckets + 1)."""
    values, keys, base = local
    pv, pk = pivots
    nlines, n = values.shape
    nb = pv.shape[1] + 1
    cuts = np.empty((nlines, nb + 1), dtype=np.intp)
    cuts[:, 0] = 0
    cuts[:, -1] = n
    for line in range(nlines):
        row = values[line]
        lo = np.searchsorted(row, pv[line], side="left")
        hi = np.searchsorted(row, pv[line], side="right")
        if keys is None:
            cut = np.clip(pk[line] - base, lo, hi)
        else:
            cut = lo.copy()
            for r in np.flatnonzero(hi > lo):
                run = keys[line, lo[r] : hi[r]]
                cut[r] = lo[r] + np.searchsorted(run, pk[line, r])
        cuts[line, 1:-1] = cut
    return cuts


def psrs_piece(
    local: tuple[Any, Any, int], cuts: np.ndarray[Any, Any], k: int
) -> tuple[Any, Any, Any]:
    """Bucket ``k``'s part of one sorted chunk, as a ragged array."""
    values, keys, _ = local
    lengths = (cuts[:, k + 1] - cuts[:, k]).astype(np.intp)
    n = values.shape[1]
    positions = _ragged_take(cuts[:, k] + np.arange(len(lengths), dtype=np.intp) * n, lengths)
    flat_values = values.reshape(-1)[positions]
    flat_keys = keys.reshape(-1)[positions] if keys is not None else None
    return flat_values, flat_keys, lengths


def psrs_offsets(*cuts: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Global rank where each bucket starts, per line: shape (L, nbuckets + 1)."""
    sizes = functools.reduce(np.add, (np.diff(c, axis=1) for c in cuts))
    out = np.zeros((sizes.shape[0], sizes.shape[1] + 1), dtype=np.intp)
    np.cumsum(sizes, axis=1, out=out[:, 1:])
    return out


def psrs_merge(*pieces: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
    """Bucket ``k`` from its pieces: every line sorted by (value, key)."""
    values = np.concatenate([p[0] for p in pieces])
    has_keys = pieces[0][1] is not None
    keys = np.concatenate([p[1] for p in pieces]) if has_keys else None
    lengths = functools.reduce(np.add, (p[2] for p in pieces))
    nlines = len(lengths)
    if nlines == 1:
        if keys is None:
            return np.sort(values), None, lengths
        order = np.lexsort((keys, values))
    else:
        lines = np.concatenate([_line_ids(p[2]) for p in pieces])
        order = (
            np.lexsort((keys, values, lines)) if keys is not None else np.lexsort((values, lines))
        )
    return values[order], (keys[order] if keys is not None else None), lengths


def psrs_out_piece(
    bucket: tuple[Any, Any, Any], starts: np.ndarray[Any, Any], k: int, lo: int, hi: int
) -> tuple[Any, Any, Any]:
    """The part of bucket ``k`` whose global ranks fall in ``[lo, hi)``, per line."""
    values, keys, lengths = bucket
    first = starts[:, k]
    begin = np.clip(lo - first, 0, lengths)
    end = np.clip(hi - first, 0, lengths)
    take = (end - begin).astype(np.intp)
    positions = _ragged_take(_exclusive_cumsum(lengths) + begin, take)
    return values[positions], (keys[positions] if keys is not None else None), take


def psrs_out(
    length: int,
    arg: bool,
    axis: int | None,
    other_shape: tuple[int, ...],
    *pieces: tuple[Any, Any, Any],
) -> Any:
    """One output chunk: each line's pieces, bucket after bucket, as a rectangular block."""
    nlines = len(pieces[0][2])
    source = 1 if arg else 0
    first = pieces[0][source]
    out = np.empty(nlines * length, dtype=first.dtype)
    filled = np.zeros(nlines, dtype=np.intp)
    for piece in pieces:
        lengths = piece[2]
        total = int(lengths.sum())
        if total == 0:
            continue
        lines = _line_ids(lengths)
        within = np.arange(total, dtype=np.intp) - np.repeat(_exclusive_cumsum(lengths), lengths)
        out[lines * length + filled[lines] + within] = piece[source]
        filled += lengths
    if axis is None:
        return out
    return np.moveaxis(out.reshape((*other_shape, length)), -1, axis)


# ---- the sort operator ------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Sort(Op):
    axis: int | None
    """Sorted axis; None sorts the flattened array."""
    arg: bool
    """True for ``argsort``: the result holds global indices."""
    name: str = "sort"

    def label(self) -> str:
        return self.name


def _psrs(
    prefix: str,
    ctx: TileContext,
    sources: list[Key],
    lengths: list[int],
    local_args: list[tuple[Callable[..., Any], tuple[Any, ...]]],
    arg: bool,
    axis: int | None,
    other_shape: tuple[int, ...],
) -> list[Key]:
    """Tasks sorting one group of chunks that share their lines; returns the output keys.

    ``local_args[i]`` is ``(kernel, extra args)`` turning chunk ``i`` into a local result.
    """
    key: Key
    out_keys: list[Key] = []
    p = len(sources)
    total = sum(lengths)
    # about p * oversample samples per line, at most as many as the largest chunk holds
    oversample = max(1, min(p, _MAX_OVERSAMPLE, max(lengths) // p))
    step = max(1, total // (p * oversample))
    local_keys = []
    for i, (source, (kernel, extra)) in enumerate(zip(sources, local_args)):
        key = (f"{prefix}-local", i)
        ctx.new_task(key, kernel, Ref(source), *extra)
        local_keys.append(key)
    sample_keys = []
    for i, local in enumerate(local_keys):
        key = (f"{prefix}-sample", i)
        ctx.new_task(key, psrs_sample, Ref(local), step)
        sample_keys.append(key)
    pivots = (f"{prefix}-pivots",)
    ctx.new_task(pivots, psrs_pivots, p, *(Ref(k) for k in sample_keys))
    cut_keys = []
    for i, local in enumerate(local_keys):
        key = (f"{prefix}-cuts", i)
        ctx.new_task(key, psrs_cuts, Ref(local), Ref(pivots))
        cut_keys.append(key)
    starts = (f"{prefix}-offsets",)
    ctx.new_task(starts, psrs_offsets, *(Ref(k) for k in cut_keys))
    bucket_keys = []
    for k in range(p):
        piece_keys = []
        for i in range(p):
            key = (f"{prefix}-piece", i, k)
            ctx.new_task(key, psrs_piece, Ref(local_keys[i]), Ref(cut_keys[i]), k)
            piece_keys.append(key)
        bucket = (f"{prefix}-bucket", k)
        ctx.new_task(bucket, psrs_merge, *(Ref(k2) for k2 in piece_keys))
        bucket_keys.append(bucket)
    rank_starts = offsets(lengths)
    for j in range(p):
        lo, hi = int(rank_starts[j]), int(rank_starts[j + 1])
        parts = []
        for k, bucket in enumerate(bucket_keys):
            key = (f"{prefix}-outpiece", k, j)
            ctx.new_task(key, psrs_out_piece, Ref(bucket), Ref(starts), k, lo, hi)
            parts.append(key)
        out = (f"{prefix}-out", j)
        ctx.new_task(out, psrs_out, hi - lo, arg, axis, other_shape, *(Ref(k) for k in parts))
        out_keys.append(out)
    return out_keys


def _known_nsplits(x: Tiled, ctx: TileContext) -> tuple[tuple[int, ...], ...]:
    ctx.require_known(x)
    return tuple(tuple(int(n) for n in axis) for axis in x.nsplits)


def sort_tiled(
    node_key: str, x: Tiled, axis: int | None, arg: bool, dtype: np.dtype[Any], ctx: TileContext
) -> Tiled:
    """Tile a sort (or argsort) of ``x`` along ``axis`` (None: flattened)."""
    nsplits = _known_nsplits(x, ctx)
    shape = tuple(sum(lengths) for lengths in nsplits)
    size = math.prod(shape)
    if axis is None:
        return _sort_flat_tiled(node_key, x, nsplits, shape, size, arg, dtype, ctx)
    grid = key_grid(node_key, x.numblocks)
    if x.numblocks[axis] == 1 or size == 0:
        for index in chunk_indices(x.numblocks):
            ctx.add_blockwise(grid[index], sort_block, (Ref(x.keys[index]), axis, arg), {})
        return Tiled(nsplits, grid)
    starts = offsets(nsplits[axis])
    others = [a for a in range(len(shape)) if a != axis]
    for group in itertools.product(*(range(x.numblocks[a]) for a in others)):
        sources: list[Key] = []
        local_args: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        for i in range(x.numblocks[axis]):
            sources.append(x.keys[_with_axis(group, others, axis, i)])
            local_args.append((psrs_local_axis, (axis, int(starts[i]), arg)))
        other_shape = tuple(nsplits[a][g] for a, g in zip(others, group))
        prefix = "-".join([node_key, *map(str, group)])
        outs = _psrs(prefix, ctx, sources, list(nsplits[axis]), local_args, arg, axis, other_shape)
        for i, key in enumerate(outs):
            grid[_with_axis(group, others, axis, i)] = key
    return Tiled(nsplits, grid)


@tile_rule(Sort)
def _tile_sort(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Sort)
    return sort_tiled(node.key, inputs[0], op.axis, op.arg, node.dtype, ctx)


def _with_axis(group: tuple[int, ...], others: list[int], axis: int, i: int) -> tuple[int, ...]:
    index = [0] * (len(others) + 1)
    for a, g in zip(others, group):
        index[a] = g
    index[axis] = i
    return tuple(index)


def psrs_local_axis(block: Any, axis: int, offset: int, arg: bool) -> tuple[Any, Any, int]:
    """Sort one chunk along ``axis`` as (L, n) lines; keys are positions along the axis."""
    block = np.asarray(block)
    lines = np.moveaxis(block, axis, -1).reshape(-1, block.shape[axis])
    if not arg:
        return np.sort(lines, axis=-1), None, offset
    order = np.argsort(lines, axis=-1, kind="stable")
    values = np.take_along_axis(lines, order, axis=-1)
    return values, order.astype(np.intp) + offset, offset


def _sort_flat_tiled(
    node_key: str,
    x: Tiled,
    nsplits: tuple[tuple[int, ...], ...],
    shape: tuple[int, ...],
    size: int,
    arg: bool,
    dtype: np.dtype[Any],
    ctx: TileContext,
) -> Tiled:
    indices = list(chunk_indices(x.numblocks))
    if len(indices) == 1 or size == 0:
        grid = key_grid(node_key, (1,))
        if size == 0:
            ctx.new_task(grid[0], empty_result, dtype)
        else:
            ctx.add_blockwise(grid[0], sort_flat_block, (Ref(x.keys[indices[0]]), arg), {})
        return Tiled(((size,),), grid)
    starts = [offsets(lengths) for lengths in nsplits]
    lengths = [math.prod(nsplits[a][i] for a, i in enumerate(index)) for index in indices]
    bases = offsets(lengths)
    local_args: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    for n, index in enumerate(indices):
        chunk_offset = tuple(int(starts[a][i]) for a, i in enumerate(index))
        local_args.append((psrs_local_flat, (chunk_offset, shape, int(bases[n]), arg)))
    sources = [x.keys[index] for index in indices]
    outs = _psrs(node_key, ctx, sources, lengths, local_args, arg, None, ())
    grid = key_grid(node_key, (len(outs),))
    for i, key in enumerate(outs):
        grid[i] = key
    return Tiled((tuple(lengths),), grid)


def _sort_node(x: Tensor, axis: Any, arg: bool, name: str) -> Tensor:
    dtype = _INTP if arg else x.dtype
    if axis is None:
        size = math.nan if isinstance(x.size, float) else x.size
        return new_tensor(Sort(None, arg, name), [x], (size,), dtype)
    ax = check_axis(axis, x.ndim)
    return new_tensor(Sort(ax, arg, name), [x], x.shape, dtype)


def sort(
    a: Any,
    axis: int | None = -1,
    kind: str | None = None,
    order: Any = None,
    *,
    stable: bool | None = None,
) -> Tensor:
    """A sorted copy of ``a`` along ``axis`` (flattened when ``axis`` is None).

    ``kind``/``stable`` are validated as NumPy does and otherwise ignored: along a split
    axis the sort is a parallel sort by regular sampling whose result keeps the input's
    chunks (see the module docstring). With ``axis=None`` the result is 1-d with one chunk
    per input chunk (same sizes, in grid order). ``order`` (structured arrays) is not
    supported.
    """
    x = astensor(a)
    _probe_sort(np.sort, x.dtype, **_sort_kwargs(kind, order, stable))
    return _sort_node(x, axis, False, "sort")


def argsort(
    a: Any,
    axis: int | None = -1,
    kind: str | None = None,
    order: Any = None,
    *,
    stable: bool | None = None,
) -> Tensor:
    """Global indices that sort ``a`` along ``axis`` (flat indices when ``axis`` is None).

    Always a stable order (NumPy's ``kind='stable'`` result), computed like ``sort``.
    """
    x = astensor(a)
    _probe_sort(np.argsort, x.dtype, **_sort_kwargs(kind, order, stable))
    return _sort_node(x, axis, True, "argsort")


def _check_kth(kth: Any, length: int) -> tuple[int, ...]:
    if isinstance(kth, Tensor):
        raise TypeError("kth must be an int or a sequence of ints, not a tensor")
    values = np.asarray(kth)
    if values.dtype.kind not in "iu":
        raise TypeError(f"kth must be an int or a sequence of ints, got {kth!r}")
    if values.ndim > 1:
        raise ValueError("kth array must have dimension <= 1")
    out = []
    for k in values.ravel():
        if not -length <= k < length:
            raise ValueError(f"kth(={int(k)}) out of bounds ({length})")
        out.append(int(k) % length)
    return tuple(out)


@dataclass(frozen=True, eq=False)
class Partition(Op):
    """Per chunk with NumPy when ``axis`` is one chunk, else the parallel sort."""

    axis: int
    kth: tuple[int, ...]
    arg: bool

    def label(self) -> str:
        return "argpartition" if self.arg else "partition"


def partition_block(block: Any, kth: tuple[int, ...], axis: int, arg: bool) -> Any:
    func = np.argpartition if arg else np.partition
    return func(block, list(kth), axis=axis)


@tile_rule(Partition)
def _tile_partition(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Partition)
    (x,) = inputs
    if x.numblocks[op.axis] != 1:
        return sort_tiled(node.key, x, op.axis, op.arg, node.dtype, ctx)
    grid = key_grid(node.key, x.numblocks)
    for index in chunk_indices(x.numblocks):
        ctx.add_blockwise(
            grid[index], partition_block, (Ref(x.keys[index]), op.kth, op.axis, op.arg), {}
        )
    return Tiled(x.nsplits, grid)


def _partition(a: Any, kth: Any, axis: Any, kind: str, order: Any, arg: bool) -> Tensor:
    x = astensor(a)
    name = "argpartition" if arg else "partition"
    if kind != "introselect":
        raise ValueError(f"{name}(): kind must be 'introselect', got {kind!r}")
    if order is not None:
        raise ValueError(f"{name}(): 'order' (structured arrays) is not supported on tensors")
    if axis is None:
        _check_known(x, name)
        _check_kth(kth, int(x.size))
        return _sort_node(x, None, arg, name)
    ax = check_axis(axis, x.ndim)
    length = x.shape[ax]
    if isinstance(length, float):
        raise ValueError(f"{name}() needs the length of axis {ax}, unknown until executed")
    ks = _check_kth(kth, int(length))
    return new_tensor(Partition(ax, ks, arg), [x], x.shape, _INTP if arg else x.dtype)


def partition(
    a: Any, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None
) -> Tensor:
    """A copy of ``a`` with the ``kth`` elements where a sort would put them, smaller ones
    before and larger ones after.

    Along an axis held in one chunk each chunk is partitioned by NumPy (same result as
    NumPy); along a split axis (and for ``axis=None``) the result is the parallel sort,
    which has the partition property (other positions may differ from NumPy's, whose order
    there is implementation-defined).
    """
    return _partition(a, kth, axis, kind, order, False)


def argpartition(
    a: Any, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None
) -> Tensor:
    """Global indices that partition ``a`` (see ``partition``)."""
    return _partition(a, kth, axis, kind, order, True)


# ---- unique -----------------------------------------------------------------------------------


def unique_local(
    block: Any, chunk_offset: tuple[int, ...], shape: tuple[int, ...], want_inverse: bool
) -> tuple[Any, Any, Any, Any]:
    """Sorted unique values of one chunk, their first global flat index, counts, inverse."""
    block = np.asarray(block)
    flat = block.reshape(-1)
    values, first, inverse, counts = np.unique(
        flat, return_index=True, return_inverse=True, return_counts=True
    )
    index = flat_index(block.shape, chunk_offset, shape).reshape(-1)[first]
    inv = inverse.reshape(block.shape) if want_inverse else None
    return values, index, counts.astype(np.intp), inv


def unique_sample(local: tuple[Any, ...], nsamples: int) -> Any:
    values = local[0]
    n = len(values)
    if n <= nsamples:
        return values
    return values[(np.arange(nsamples) * n) // nsamples]


def unique_pivots(nbuckets: int, *samples: Any) -> Any:
    values = np.sort(np.concatenate(samples))
    m = len(values)
    if m == 0:  # no data at all: any pivots do
        return np.zeros(nbuckets - 1, dtype=values.dtype)
    return values[[min((r * m) // nbuckets, m - 1) for r in range(1, nbuckets)]]


def unique_piece(local: tuple[Any, ...], pivots: Any, k: int) -> tuple[Any, Any, Any]:
    values, index, counts, _ = local
    bounds = np.searchsorted(values, pivots, side="left")
    lo = int(bounds[k - 1]) if k > 0 else 0
    hi = int(bounds[k]) if k < len(bounds) else len(values)
    return values[lo:hi], index[lo:hi], counts[lo:hi]


def unique_merge(*pieces: tuple[Any, Any, Any]) -> tuple[Any, Any, Any, list[Any]]:
    """Unique values of one bucket, first index, counts, and where each piece's values are."""
    if len(pieces) == 1:  # already unique and sorted
        values, index, counts = pieces[0]
        return values, index.astype(np.intp), counts, [np.arange(len(values), dtype=np.intp)]
    values = np.concatenate([p[0] for p in pieces])
    index = np.concatenate([p[1] for p in pieces])
    counts = np.concatenate([p[2] for p in pieces])
    by_index = np.argsort(index, kind="stable")
    order = by_index[np.argsort(values[by_index], kind="stable")]
    values, index, counts = values[order], index[order], counts[order]
    uniq, starts = np.unique(values, return_index=True)
    if len(uniq):
        total = np.add.reduceat(counts, starts).astype(np.intp)
    else:
        total = np.zeros(0, dtype=np.intp)
    where = [np.searchsorted(uniq, p[0]).astype(np.intp) for p in pieces]
    return uniq, index[starts].astype(np.intp), total, where


def unique_field(bucket: tuple[Any, ...], field: int) -> Any:
    return bucket[field]


def unique_where(bucket: tuple[Any, ...], i: int) -> tuple[Any, int]:
    return bucket[3][i], len(bucket[0])


def unique_inverse(local: tuple[Any, ...], *wheres: tuple[Any, int]) -> Any:
    starts = offsets([n for _, n in wheres])
    mapping = np.concatenate([w + int(s) for (w, _), s in zip(wheres, starts)])
    return mapping.astype(np.intp)[local[3]]


@dataclass(frozen=True, eq=False)
class UniqueLocal(Op):
    """Internal: each chunk's unique values (a tuple per chunk, chunks like the input)."""

    want_inverse: bool

    def label(self) -> str:
        return "unique_local"


@tile_rule(UniqueLocal)
def _tile_unique_local(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, UniqueLocal)
    (x,) = inputs
    nsplits = _known_nsplits(x, ctx)
    shape = tuple(sum(lengths) for lengths in nsplits)
    starts = [offsets(lengths) for lengths in nsplits]
    grid = key_grid(node.key, x.numblocks)
    for index in chunk_indices(x.numblocks):
        chunk_offset = tuple(int(starts[a][i]) for a, i in enumerate(index))
        ctx.new_task(
            grid[index], unique_local, Ref(x.keys[index]), chunk_offset, shape, op.want_inverse
        )
    return Tiled(nsplits, grid)


@dataclass(frozen=True, eq=False)
class UniqueBuckets(Op):
    """Internal: the unique values of the flattened input, split into value-range buckets.

    Pivots from regular samples of every chunk's unique values cut them into
    ``ceil(chunks / combine_size)`` ranges; each range is merged by one task (a tuple of
    values, first indices, counts and positions for the inverse).
    """

    def label(self) -> str:
        return "unique_buckets"


@tile_rule(UniqueBuckets)
def _tile_unique_buckets(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (local,) = inputs
    local_keys = local.flat_keys()
    nb = max(1, -(-len(local_keys) // options.combine_size))
    pivots_arg: Any
    if nb > 1:
        nsamples = nb * min(nb, _MAX_OVERSAMPLE)
        sample_keys = []
        for n, key in enumerate(local_keys):
            sample = (f"{node.key}-sample", n)
            ctx.new_task(sample, unique_sample, Ref(key), nsamples)
            sample_keys.append(sample)
        pivots_key = (f"{node.key}-pivots",)
        ctx.new_task(pivots_key, unique_pivots, nb, *(Ref(k) for k in sample_keys))
        pivots_arg = Ref(pivots_key)
    else:
        pivots_arg = np.zeros(0, dtype=node.dtype)
    grid = key_grid(node.key, (nb,))
    for k in range(nb):
        piece_keys = []
        for n, key in enumerate(local_keys):
            piece = (f"{node.key}-piece", n, k)
            ctx.new_task(piece, unique_piece, Ref(key), pivots_arg, k)
            piece_keys.append(piece)
        ctx.new_task(grid[k], unique_merge, *(Ref(p) for p in piece_keys))
    return Tiled(((math.nan,) * nb,), grid)


@dataclass(frozen=True, eq=False)
class UniqueField(Op):
    field: str
    """``values``, ``index``, ``counts`` or ``inverse``."""

    def label(self) -> str:
        return "unique" if self.field == "values" else f"unique_{self.field}"


_FIELDS = {"values": 0, "index": 1, "counts": 2}


@tile_rule(UniqueField)
def _tile_unique_field(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, UniqueField)
    buckets = inputs[0]
    nb = buckets.numblocks[0]
    if op.field != "inverse":
        grid = key_grid(node.key, (nb,))
        for k in range(nb):
            ctx.new_task(grid[k], unique_field, Ref(buckets.keys[k]), _FIELDS[op.field])
        return Tiled(buckets.nsplits, grid)
    local = inputs[1]
    grid = key_grid(node.key, local.numblocks)
    for n, index in enumerate(chunk_indices(local.numblocks)):
        wheres = []
        for k in range(nb):
            key = (f"{node.key}-where", n, k)
            ctx.new_task(key, unique_where, Ref(buckets.keys[k]), n)
            wheres.append(Ref(key))
        ctx.new_task(grid[index], unique_inverse, Ref(local.keys[index]), *wheres)
    return Tiled(local.nsplits, grid)


def unique(
    ar: Any,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    *,
    equal_nan: bool = True,
    sorted: bool = True,  # noqa: A002 - NumPy's name
) -> Any:
    """Sorted unique elements of ``ar`` (flattened), as NumPy's ``unique``.

    The number of unique values depends on the data: the result's length is ``nan`` until
    executed. With ``axis=None`` the work is spread: every chunk is reduced to its unique
    values, which are split by value ranges (pivots from samples) into a few buckets, one
    output chunk each (``ceil(chunks / combine_size)`` chunks of unknown length).
    ``return_inverse`` is shaped and chunked like ``ar`` (NumPy 2). With an ``axis``, the
    whole array is gathered into one chunk and NumPy's ``unique`` runs there.
    """
    x = astensor(ar)
    if not equal_nan:
        raise ValueError("unique(): equal_nan=False is not supported on tensors")
    del sorted  # the result is always sorted, a valid answer for sorted=False too
    if axis is not None:
        return _unique_axis(x, axis, bool(return_index), bool(return_inverse), bool(return_counts))
    dtype = np.unique(np.zeros(1, dtype=x.dtype)).dtype
    local = _internal(UniqueLocal(bool(return_inverse)), [x], x.shape, np.dtype(object))
    buckets = _internal(UniqueBuckets(), [local], (math.nan,), dtype)
    values = new_tensor(UniqueField("values"), [buckets], (math.nan,), dtype)
    if not (return_index or return_inverse or return_counts):
        return values
    out: list[Tensor] = [values]
    if return_index:
        out.append(new_tensor(UniqueField("index"), [buckets], (math.nan,), _INTP))
    if return_inverse:
        out.append(new_tensor(UniqueField("inverse"), [buckets, local], x.shape, _INTP))
    if return_counts:
        out.append(new_tensor(UniqueField("counts"), [buckets], (math.nan,), _INTP))
    return tuple(out)


@dataclass(frozen=True, eq=False)
class Gather(Op):
    """The whole input in one chunk."""

    def label(self) -> str:
        return "gather"


@tile_rule(Gather)
def _tile_gather(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    nsplits = _known_nsplits(x, ctx)
    return rechunk_tiled(node.key, x, tuple((sum(n),) for n in nsplits), node.dtype, ctx)


def gather(x: Tensor) -> Tensor:
    """``x`` as one chunk (for operations that need all of it at once)."""
    return _internal(Gather(), [x], x.shape, x.dtype)


def _internal(op: Op, inputs: list[Tensor], shape: tuple[Any, ...], dtype: Any) -> Tensor:
    """A step inside one function's graph: never executed on its own, even when eager."""
    return Tensor(Node(op, [t.node for t in inputs], shape, np.dtype(dtype)))


def unique_axis_kernel(block: Any, axis: int, flags: tuple[bool, bool, bool], field: int) -> Any:
    result = np.unique(  # type: ignore[call-overload]
        block, return_index=flags[0], return_inverse=flags[1], return_counts=flags[2], axis=axis
    )
    return result[field] if any(flags) else result


@dataclass(frozen=True, eq=False)
class UniqueAxisField(Op):
    axis: int
    flags: tuple[bool, bool, bool]
    field: int

    def label(self) -> str:
        return "unique"


@tile_rule(UniqueAxisField)
def _tile_unique_axis_field(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, UniqueAxisField)
    (x,) = inputs
    grid = key_grid(node.key, (1,) * node.ndim)
    key = grid[(0,) * node.ndim]
    ctx.new_task(key, unique_axis_kernel, Ref(x.keys.ravel()[0]), op.axis, op.flags, op.field)
    return Tiled(tuple((n,) for n in node.shape), grid)


def _unique_axis(x: Tensor, axis: Any, *flags: bool) -> Any:
    ax = check_axis(axis, x.ndim)
    _check_known(x, "unique")
    flag_t = (flags[0], flags[1], flags[2])
    probe = np.unique(  # type: ignore[call-overload]
        np.zeros((1,) * x.ndim, dtype=x.dtype),
        axis=ax,
        return_index=flag_t[0],
        return_inverse=flag_t[1],
        return_counts=flag_t[2],
    )
    parts = probe if isinstance(probe, tuple) else (probe,)
    shapes: list[tuple[Any, ...]] = [
        tuple(math.nan if a == ax else n for a, n in enumerate(x.shape))
    ]
    if flag_t[0]:
        shapes.append((math.nan,))
    if flag_t[1]:
        shapes.append((x.shape[ax],) + (1,) * (parts[len(shapes)].ndim - 1))
    if flag_t[2]:
        shapes.append((math.nan,))
    whole = gather(x)
    out = [
        new_tensor(UniqueAxisField(ax, flag_t, i), [whole], shape, part.dtype)
        for i, (shape, part) in enumerate(zip(shapes, parts))
    ]
    return tuple(out) if any(flag_t) else out[0]


# ---- searchsorted / isin: each chunk of one operand against every chunk of the other ----------


@dataclass(frozen=True, eq=False)
class OuterReduce(Op):
    """``finalize(combine(kernel(x_i, y_0), kernel(x_i, y_1), ...))`` for each chunk ``x_i``.

    Partial results are combined ``combine_size`` at a time, so memory stays that of a few
    chunks of ``x`` however many chunks ``y`` has.
    """

    kernel: Callable[..., Any]
    combine: Callable[..., Any]
    finalize: Callable[..., Any]
    name: str

    def label(self) -> str:
        return self.name


def combine_all(combine: Callable[..., Any], *parts: Any) -> Any:
    return functools.reduce(combine, parts)


def combine_finalize(combine: Callable[..., Any], finalize: Callable[..., Any], *parts: Any) -> Any:
    return finalize(functools.reduce(combine, parts))


def kernel_finalize(
    kernel: Callable[..., Any], finalize: Callable[..., Any], x: Any, y: Any
) -> Any:
    return finalize(kernel(x, y))


def tree_reduce(
    ctx: TileContext,
    prefix: str,
    keys: list[Key],
    combine: Callable[..., Any],
    out_key: Key,
    finalize: Callable[..., Any],
) -> None:
    """``out_key = finalize(combine(...))`` of ``keys``, merging ``combine_size`` at a time.

    ``combine`` is a binary function (``np.add``): each step folds a group with it.
    """
    size = options.combine_size
    level = 0
    while len(keys) > size:
        next_keys: list[Key] = []
        for g in range(0, len(keys), size):
            group = keys[g : g + size]
            if len(group) == 1:
                next_keys.append(group[0])
                continue
            key = (f"{prefix}-combine{level}", g // size)
            ctx.new_task(key, combine_all, combine, *(Ref(k) for k in group))
            next_keys.append(key)
        keys = next_keys
        level += 1
    ctx.new_task(out_key, combine_finalize, combine, finalize, *(Ref(k) for k in keys))


@tile_rule(OuterReduce)
def _tile_outer_reduce(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, OuterReduce)
    x, y = inputs
    y_keys = y.flat_keys()
    grid = key_grid(node.key, x.numblocks)
    for index in chunk_indices(x.numblocks):
        xk = Ref(x.keys[index])
        if len(y_keys) == 1:
            ctx.add_blockwise(
                grid[index], kernel_finalize, (op.kernel, op.finalize, xk, Ref(y_keys[0])), {}
            )
            continue
        keys: list[Key] = []
        for j, yk in enumerate(y_keys):
            key = (f"{node.key}-part", *index, j)
            ctx.new_task(key, op.kernel, xk, Ref(yk))
            keys.append(key)
        prefix = "-".join([node.key, *map(str, index)])
        tree_reduce(ctx, prefix, keys, op.combine, grid[index], op.finalize)
    return Tiled(x.nsplits, grid)


def searchsorted_part(v: Any, a: Any, side: str) -> Any:
    return np.asarray(np.searchsorted(a, v, side=side), dtype=np.intp)  # type: ignore[call-overload]


def as_intp_array(x: Any) -> Any:
    return np.asarray(x, dtype=np.intp)


@dataclass(frozen=True, eq=False)
class TakeGathered(Op):
    """``a[indices]`` for a 1-d ``a`` gathered into one chunk; chunks follow ``indices``."""

    def label(self) -> str:
        return "take"


def take_checked(a: Any, indices: Any) -> Any:
    if indices.size and (indices.min() < -len(a) or indices.max() >= len(a)):
        raise ValueError("Sorter index out of range.")
    return a[indices]


@tile_rule(TakeGathered)
def _tile_take_gathered(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    a, indices = inputs
    ctx.require_known(a)
    whole = rechunk_tiled(f"{node.key}-a", a, ((sum(a.nsplits[0]),),), node.dtype, ctx)
    grid = key_grid(node.key, indices.numblocks)
    for index in chunk_indices(indices.numblocks):
        ctx.add_blockwise(
            grid[index], take_checked, (Ref(whole.keys[0]), Ref(indices.keys[index])), {}
        )
    return Tiled(indices.nsplits, grid)


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    """Global positions in the sorted 1-d ``a`` where ``v`` would be inserted.

    ``a`` may be split into chunks: each chunk of ``v`` is searched in every chunk of ``a``
    and the counts are added (a tree of ``combine_size``). With ``sorter``, ``a[sorter]``
    is built by gathering ``a`` into one chunk.
    """
    at = astensor(a)
    vt = astensor(v)
    if at.ndim != 1:
        raise ValueError(f"searchsorted(): a must be 1-dimensional, got {at.ndim} dimensions")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    np.searchsorted(np.zeros(1, dtype=at.dtype), np.zeros(1, dtype=vt.dtype), side=side)  # type: ignore[call-overload]
    if sorter is not None:
        st = astensor(sorter)
        if st.dtype.kind not in "iu":
            raise TypeError(f"sorter must hold integers, got dtype {st.dtype}")
        if st.ndim != 1 or (
            not isinstance(st.shape[0], float)
            and not isinstance(at.shape[0], float)
            and st.shape[0] != at.shape[0]
        ):
            raise ValueError("sorter.size must equal a.size")
        at = new_tensor(TakeGathered(), [at, st], st.shape, at.dtype)
    op = OuterReduce(
        functools.partial(searchsorted_part, side=side), np.add, as_intp_array, "searchsorted"
    )
    return new_tensor(op, [vt, at], vt.shape, _INTP)


def isin_part(element: Any, test: Any, kind: str | None) -> Any:
    return np.asarray(np.isin(element, test, kind=kind))  # type: ignore[arg-type]


def identity(x: Any) -> Any:
    return x


def isin(
    element: Any,
    test_elements: Any,
    assume_unique: bool = False,
    invert: bool = False,
    *,
    kind: str | None = None,
) -> Tensor:
    """Whether each element of ``element`` is in ``test_elements``, shaped like ``element``.

    Each chunk of ``element`` is tested against every chunk of ``test_elements`` and the
    answers are or-ed together (a tree of ``combine_size``).
    """
    et = astensor(element)
    tt = astensor(test_elements)
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    np.isin(np.zeros(1, dtype=et.dtype), np.zeros(1, dtype=tt.dtype), kind=kind)  # type: ignore[arg-type]
    op = OuterReduce(
        functools.partial(isin_part, kind=kind),
        np.logical_or,
        np.logical_not if invert else identity,
        "isin",
    )
    return new_tensor(op, [et, tt], et.shape, np.bool_)


@dataclass(frozen=True, eq=False)
class Ravel(Op):
    """C-order flattening: trailing axes are made whole, then each chunk is raveled."""

    def label(self) -> str:
        return "ravel"


def ravel_block(block: Any) -> Any:
    return np.asarray(block).reshape(-1)


@tile_rule(Ravel)
def _tile_ravel(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    ctx.require_known(x)
    if x.keys.ndim == 0:
        grid = key_grid(node.key, (1,))
        ctx.add_blockwise(grid[0], ravel_block, (Ref(x.keys.ravel()[0]),), {})
        return Tiled(((1,),), grid)
    wanted = (x.nsplits[0],) + tuple((sum(axis),) for axis in x.nsplits[1:])
    rows = rechunk_tiled(f"{node.key}-rows", x, wanted, node.dtype, ctx)
    inner = math.prod(int(axis[0]) for axis in wanted[1:])
    grid = key_grid(node.key, (rows.numblocks[0],))
    for i in range(rows.numblocks[0]):
        ctx.add_blockwise(
            grid[i], ravel_block, (Ref(rows.keys[(i,) + (0,) * (x.keys.ndim - 1)]),), {}
        )
    return Tiled((tuple(int(n) * inner for n in wanted[0]),), grid)


def ravel(x: Tensor) -> Tensor:
    if x.ndim == 1:
        return x
    return new_tensor(Ravel(), [x], (x.size,), x.dtype)


def in1d(
    ar1: Any,
    ar2: Any,
    assume_unique: bool = False,
    invert: bool = False,
    *,
    kind: str | None = None,
) -> Tensor:
    """``isin(ar1, ar2).ravel()``: NumPy's ``in1d`` (removed from NumPy 2.4, kept here)."""
    return ravel(isin(ar1, ar2, assume_unique=assume_unique, invert=invert, kind=kind))


# ---- Tensor methods ---------------------------------------------------------------------------


def _sort_method(
    self: Tensor,
    axis: int = -1,
    kind: str | None = None,
    order: Any = None,
    *,
    stable: bool | None = None,
) -> None:
    """Sort in place: the tensor is rebound to the sorted expression (as in Mars)."""
    result = sort(self, axis=axis, kind=kind, order=order, stable=stable)
    self._node = result.node


def _argsort_method(
    self: Tensor,
    axis: int = -1,
    kind: str | None = None,
    order: Any = None,
    *,
    stable: bool | None = None,
) -> Tensor:
    return argsort(self, axis=axis, kind=kind, order=order, stable=stable)


def _partition_method(
    self: Tensor, kth: Any, axis: int = -1, kind: str = "introselect", order: Any = None
) -> None:
    """Partition in place: the tensor is rebound to the partitioned expression."""
    self._node = partition(self, kth, axis=axis, kind=kind, order=order).node


def _argpartition_method(
    self: Tensor, kth: Any, axis: int = -1, kind: str = "introselect", order: Any = None
) -> Tensor:
    return argpartition(self, kth, axis=axis, kind=kind, order=order)


def _searchsorted_method(self: Tensor, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    return searchsorted(self, v, side=side, sorter=sorter)


def _attach() -> None:
    Tensor.sort = _sort_method  # type: ignore[attr-defined]
    Tensor.argsort = _argsort_method  # type: ignore[attr-defined]
    Tensor.partition = _partition_method  # type: ignore[attr-defined]
    Tensor.argpartition = _argpartition_method  # type: ignore[attr-defined]
    Tensor.searchsorted = _searchsorted_method  # type: ignore[attr-defined]


_attach()
