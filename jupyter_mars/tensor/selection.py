"""``topk`` and ``argtopk``: the ``k`` largest (or smallest) elements along an axis.

Tiling: each chunk keeps its own best ``min(k, length)`` elements along the axis, with
their global positions (one task per chunk, in parallel); the candidates of a line of
chunks are then merged ``combine_size`` at a time by a tree, each merge keeping the best
``k`` again, so no task holds more than ``combine_size * k`` elements of a line. The
result has the input's chunks on the other axes and one chunk of length ``k`` on ``axis``.

Each chunk first selects its best ``k`` in linear time (a partition finds the ``k``-th best
value, the tie rule below picks among equal ones) when ``k`` is under half its length,
then sorts only those.

Order and ties: the result is sorted, best first (descending for ``largest=True``,
ascending otherwise), in NumPy's sort order, where NaN sorts after every number (so it
counts as the largest). Equal values keep their positions' order: the one at the lower
index comes first, and is the one kept when only some of them fit in ``k``. So
``argtopk(a, k, largest=False)`` is ``np.argsort(a, kind="stable")[..., :k]``, and
``argtopk(a, k)`` is the same for ``-a`` (for numbers without NaN). Each chunk's and each
merge's order is a stable sort, and the tree merges candidates in chunk order, which
keeps this tie order exact whatever the chunking.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.reduction import combine_tree
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape.common import check_axis
from jupyter_mars.tensor.shape.reshape import ravel
from jupyter_mars.tensor.sorting import chunk_indices, known_nsplits

PARALLEL_KINDS = ("auto", "tree", "psrs")
"""Mars's ways of combining the chunks; all are computed by the tree here."""

# ---- kernels ---------------------------------------------------------------------------------


def best_order(values: Any, axis: int, largest: bool, order: Any) -> Any:
    """Positions along ``axis`` that put ``values`` best first, equal values in position
    order (a stable sort; for descending, the stable ascending sort of the flipped line,
    flipped back)."""
    # CuPy's argsort takes no ``order`` (structured arrays are NumPy's only)
    by = {} if order is None else {"order": order}
    if not largest:
        return np.argsort(values, axis=axis, kind="stable", **by)
    n = values.shape[axis]
    flipped = np.argsort(np.flip(values, axis), axis=axis, kind="stable", **by)
    return np.flip(n - 1 - flipped, axis)


def preselect(values: Any, k: int, axis: int, largest: bool) -> Any:
    """Positions along ``axis`` of each line's best ``k`` (``0 < k <= length``), in
    position order, without sorting the line: a partition finds the ``k``-th best value
    ``t``; every value better than ``t`` is kept, and the values equal to ``t`` at the
    lowest positions fill the remaining places (the documented tie order)."""
    n = values.shape[axis]
    kth = n - k if largest else k - 1
    t = np.take(np.partition(values, kth, axis=axis), [kth], axis=axis)
    if values.dtype.kind == "f":
        # NaN sorts after every number, and equals itself here
        nan, t_nan = np.isnan(values), np.isnan(t)
        equal = (values == t) | (nan & t_nan)
        better = (values > t) | (nan & ~t_nan) if largest else (values < t) | (~nan & t_nan)
    else:
        equal = values == t
        better = values > t if largest else values < t
    missing = k - better.sum(axis=axis, keepdims=True)
    keep = np.moveaxis(better | (equal & (np.cumsum(equal, axis=axis) <= missing)), axis, -1)
    # exactly k per line: nonzero lists them line by line, in position order
    columns = np.nonzero(keep.reshape(-1, n))[1]
    return np.moveaxis(columns.reshape(*keep.shape[:-1], k), -1, axis)


def _keep_best(
    values: Any, positions: Any, k: int, axis: int, largest: bool, order: Any
) -> tuple[Any, Any]:
    if order is None and values.dtype.kind in "biuf" and 0 < k < values.shape[axis] // 2:
        # few of many: select in linear time, then sort only those
        chosen = preselect(values, k, axis, largest)
        values = np.take_along_axis(values, chosen, axis)
        positions = np.take_along_axis(positions, chosen, axis)
    best = best_order(values, axis, largest, order)
    best = np.take(best, np.arange(min(k, values.shape[axis])), axis=axis)
    return np.take_along_axis(values, best, axis), np.take_along_axis(positions, best, axis)


def topk_chunk(
    block: Any, k: int, axis: int, largest: bool, order: Any, start: int
) -> tuple[Any, Any]:
    """The best ``k`` of a chunk along ``axis`` and their global positions on that axis."""
    view = [1] * block.ndim
    view[axis] = block.shape[axis]
    xp = array_module(block)
    positions = xp.broadcast_to(
        xp.arange(start, start + block.shape[axis], dtype=np.intp).reshape(view), block.shape
    )
    return _keep_best(block, positions, k, axis, largest, order)


def topk_merge(
    k: int, axis: int, largest: bool, order: Any, *parts: tuple[Any, Any]
) -> tuple[Any, Any]:
    """The best ``k`` of candidates from consecutive chunks (given in chunk order)."""
    values = np.concatenate([p[0] for p in parts], axis=axis)
    positions = np.concatenate([p[1] for p in parts], axis=axis)
    return _keep_best(values, positions, k, axis, largest, order)


def topk_finish(
    arg: bool, k: int, axis: int, largest: bool, order: Any, *parts: tuple[Any, Any]
) -> Any:
    values, positions = topk_merge(k, axis, largest, order, *parts)
    return np.ascontiguousarray(positions if arg else values)


# ---- the operator ------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class TopK(Op):
    """The best ``k`` elements (``arg``: their indices) along ``axis``, best first."""

    k: int
    axis: int
    largest: bool
    order: Any
    arg: bool

    def label(self) -> str:
        return "argtopk" if self.arg else "topk"


@tile_rule(TopK)
def _tile_topk(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, TopK)
    (x,) = inputs
    nsplits = known_nsplits(x, ctx)
    axis = op.axis
    starts = offsets(nsplits[axis])
    out_blocks = list(x.numblocks)
    out_blocks[axis] = 1
    grid = key_grid(node.key, out_blocks)
    leading = (op.k, axis, op.largest, op.order)
    for out_index in chunk_indices(out_blocks):
        keys: list[Key] = []
        for j in range(x.numblocks[axis]):
            index = list(out_index)
            index[axis] = j
            key = (f"{node.key}-local", *index)
            ctx.add_blockwise(
                key,
                topk_chunk,
                (Ref(x.keys[tuple(index)]), *leading, int(starts[j])),
                {},
            )
            keys.append(key)
        keys = combine_tree(
            ctx, node.key, keys, options.combine_size, topk_merge, leading, out_index
        )
        ctx.new_task(grid[out_index], topk_finish, op.arg, *leading, *(Ref(part) for part in keys))
    out_nsplits = list(nsplits)
    out_nsplits[axis] = (op.k,)
    return Tiled(tuple(out_nsplits), grid)


# ---- the functions -----------------------------------------------------------------------------


def _check_k(k: Any, length: Any, axis: int) -> int:
    if isinstance(k, Tensor):
        raise TypeError("k must be an int, not a tensor")
    try:
        value = operator.index(k)
    except TypeError:
        raise TypeError(f"k must be an int, got {type(k).__name__} {k!r}") from None
    if isinstance(length, float):
        raise ValueError(
            f"k needs the length of axis {axis}, which is unknown until the input is "
            "executed; call .execute() on it first"
        )
    if not 0 <= value <= length:
        raise ValueError(f"k (={value}) must be between 0 and the length of axis {axis} ({length})")
    return value


def _topk(
    a: Any,
    k: Any,
    axis: Any,
    largest: Any,
    sorted: Any,
    order: Any,
    parallel_kind: Any,
    psrs_kinds: Any,
    arg: bool,
) -> Tensor:
    x = astensor(a)
    if parallel_kind not in PARALLEL_KINDS:
        raise ValueError(
            f"parallel_kind must be one of {', '.join(map(repr, PARALLEL_KINDS))}, "
            f"got {parallel_kind!r}"
        )
    if psrs_kinds is not None and (
        not isinstance(psrs_kinds, (list, tuple)) or len(psrs_kinds) != 3
    ):
        raise ValueError(f"psrs_kinds must be a list of 3 sort kinds or None, got {psrs_kinds!r}")
    for name, flag in (("largest", largest), ("sorted", sorted)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be a bool, got {flag!r}")
    # NumPy checks ``order`` against the dtype (no fields: ValueError)
    np.sort(np.zeros(1, dtype=x.dtype), order=order)
    if axis is None:
        x = ravel(x)
        axis = 0
    ax = check_axis(axis, x.ndim, expected="an int or None")
    kk = _check_k(k, x.shape[ax], ax)
    shape = list(x.shape)
    shape[ax] = kk
    op = TopK(kk, ax, bool(largest), order, arg)
    return new_tensor(op, [x], tuple(shape), np.intp if arg else x.dtype)


def topk(
    a: Any,
    k: int,
    axis: int | None = -1,
    largest: bool = True,
    sorted: bool = True,
    order: Any = None,
    parallel_kind: str = "auto",
    psrs_kinds: Any = None,
) -> Tensor:
    """The ``k`` largest elements of ``a`` along ``axis`` (the smallest for
    ``largest=False``), best first (flattened when ``axis`` is None).

    Each chunk keeps its best ``k``, then a tree merges them (see the module docstring,
    which also says how ties are ordered). The result is always sorted: ``sorted=False``
    allows any order, and sorted is one. ``parallel_kind`` (``'auto'``, ``'tree'``,
    ``'psrs'``) and ``psrs_kinds`` are accepted as Mars's and checked; the tree is used
    for all of them.
    """
    return _topk(a, k, axis, largest, sorted, order, parallel_kind, psrs_kinds, False)


def argtopk(
    a: Any,
    k: int,
    axis: int | None = -1,
    largest: bool = True,
    sorted: bool = True,
    order: Any = None,
    parallel_kind: str = "auto",
    psrs_kinds: Any = None,
) -> Tensor:
    """The indices along ``axis`` of ``topk(a, k, ...)``'s elements, in the same order
    (flat indices when ``axis`` is None); of equal values, the lower index comes first."""
    return _topk(a, k, axis, largest, sorted, order, parallel_kind, psrs_kinds, True)


__all__ = ["argtopk", "topk"]
