"""``unique``: sorted unique elements, with first indices, inverse and counts.

With ``axis=None`` every chunk is reduced to its unique values, which are split by value
ranges (pivots from regular samples) into a few buckets merged by one task each. With an
``axis`` the whole array is gathered into one chunk and NumPy's ``unique`` runs there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.devices import GPU, to_device, to_host
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape.common import check_axis
from jupyter_mars.tensor.sorting._common import (
    INTP,
    MAX_OVERSAMPLE,
    check_known,
    chunk_indices,
    chunk_origins,
    flat_index,
    gather,
    internal,
    known_nsplits,
)

# ---- axis=None: per-chunk unique values merged by value-range buckets ---------------------------


def unique_local(
    block: Any, chunk_offset: tuple[int, ...], shape: tuple[int, ...], want_inverse: bool
) -> tuple[Any, Any, Any, Any]:
    """Sorted unique values of one chunk, their first global flat index, counts, inverse.
    A GPU chunk is copied to the host: the buckets are merged there, with NumPy's
    ``add.reduceat``, and each result chunk is copied back (``unique_field``)."""
    block = np.asarray(to_host(block))
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


def unique_field(bucket: tuple[Any, ...], field: int, device: str | None = None) -> Any:
    """One result of a bucket, on ``device`` (``TileContext.device``)."""
    return to_device(bucket[field]) if device == GPU else bucket[field]


def unique_where(bucket: tuple[Any, ...], i: int) -> tuple[Any, int]:
    return bucket[3][i], len(bucket[0])


def unique_inverse(local: tuple[Any, ...], device: str | None, *wheres: tuple[Any, int]) -> Any:
    starts = offsets([n for _, n in wheres])
    mapping = np.concatenate([w + int(s) for (w, _), s in zip(wheres, starts)])
    inverse = mapping.astype(np.intp)[local[3]]
    return to_device(inverse) if device == GPU else inverse


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
    nsplits = known_nsplits(x, ctx)
    shape = tuple(sum(lengths) for lengths in nsplits)
    grid = key_grid(node.key, x.numblocks)
    for index, chunk_offset in chunk_origins(nsplits).items():
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
        nsamples = nb * min(nb, MAX_OVERSAMPLE)
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
            ctx.new_task(grid[k], unique_field, Ref(buckets.keys[k]), _FIELDS[op.field], ctx.device)
        return Tiled(buckets.nsplits, grid)
    local = inputs[1]
    grid = key_grid(node.key, local.numblocks)
    for n, index in enumerate(chunk_indices(local.numblocks)):
        wheres = []
        for k in range(nb):
            key = (f"{node.key}-where", n, k)
            ctx.new_task(key, unique_where, Ref(buckets.keys[k]), n)
            wheres.append(Ref(key))
        ctx.new_task(grid[index], unique_inverse, Ref(local.keys[index]), ctx.device, *wheres)
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
    local = internal(UniqueLocal(bool(return_inverse)), [x], x.shape, np.dtype(object))
    buckets = internal(UniqueBuckets(), [local], (math.nan,), dtype)
    values = new_tensor(UniqueField("values"), [buckets], (math.nan,), dtype)
    if not (return_index or return_inverse or return_counts):
        return values
    out: list[Tensor] = [values]
    if return_index:
        out.append(new_tensor(UniqueField("index"), [buckets], (math.nan,), INTP))
    if return_inverse:
        out.append(new_tensor(UniqueField("inverse"), [buckets, local], x.shape, INTP))
    if return_counts:
        out.append(new_tensor(UniqueField("counts"), [buckets], (math.nan,), INTP))
    return tuple(out)


# ---- with an axis: NumPy on the gathered array ------------------------------------------------


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
    ax = check_axis(axis, x.ndim, expected="an int or None")
    check_known(x, "unique")
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
