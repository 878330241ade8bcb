"""The ``Merge`` operator and its tile rule: a broadcast join or a hash-shuffle join.

**Broadcast** (one side small: one chunk, or fewer known rows than
``BROADCAST_MAX_ROWS``): the small side's chunks are gathered into one, and every chunk
of the large side is merged with it, one task per large chunk. This is correct only when
no row of the small side must be emitted once for the whole merge: an inner merge, a left
merge with the small side on the right, a right merge with the small side on the left,
anything when the large side is one chunk. With the large side on the left, the chunks
keep pandas' row order (the left keys' order). A small side with a unique key goes
through a lookup join (``kernels``), which hashes it once rather than once per chunk.

**Hash shuffle** (otherwise, and for outer merges of chunked sides): both sides are split
by a hash of their keys into the same number of parts (keys cast to a common form first:
``keys``), and part ``j`` of the left is merged with part ``j`` of the right. Every key's
rows meet in one part, so ``validate`` holds per part exactly as for the whole. The
result is the parts in order, each in pandas' order for its rows: not pandas' global
order, which a shuffle cannot keep cheaply.

``sort=True`` adds one step that gathers the merged chunks and sorts them stably on the
keys, which gives pandas' order exactly (every chunk is sorted, and rows of equal keys
are in pandas' order across chunks). Where the sort keys cannot be named in the result
(an outer merge on keys of different names, keys mixing columns and index levels), both
sides are gathered into one merge task instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from jupyter_mars.dataframe.joins.bloom import BloomOptions, prune_tasks, sides_to_prune
from jupyter_mars.dataframe.joins.kernels import (
    LookupSpec,
    broadcast_merge,
    concat_parts,
    gather_small,
    merge_pair,
    sort_merged,
)
from jupyter_mars.dataframe.joins.keys import KeySource, split_by_keys
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.shuffle import shuffle_tasks

BROADCAST_MAX_ROWS = 2_000_000
"""A side with fewer known rows than this is broadcast whole to every chunk of the other."""

BROADCAST_RIGHT = "broadcast-right"
BROADCAST_LEFT = "broadcast-left"
SHUFFLE = "shuffle"
GATHER = "gather"

SORT_BY_INDEX = "index"


@dataclass(frozen=True, eq=False)
class Merge(Op):
    kwargs: dict[str, Any]
    """``pd.merge``'s arguments other than the frames."""
    left_keys: tuple[KeySource, ...]
    right_keys: tuple[KeySource, ...]
    forms: tuple[str, ...]
    """How each key pair is hashed for a shuffle (``keys.hash_forms``)."""
    unique_left: bool
    """``validate`` checks the left side's keys are unique: all of a key's rows must meet."""
    unique_right: bool
    lookup_right: LookupSpec | None
    """The lookup join's layout when the right side is broadcast, if it may apply."""
    lookup_left: LookupSpec | None
    sort_by: Any
    """For ``sort=True``: the result's key columns, ``SORT_BY_INDEX``, or None when they
    cannot be named (then the plan gathers)."""
    method: str = "auto"
    """Mars's ``method``: ``"broadcast"`` or ``"shuffle"`` forces that plan where it is
    correct; ``"auto"`` chooses by size."""
    bloom_filter: Any = False
    """Mars's ``bloom_filter`` (True, False, ``"auto"``): prune a shuffle's rows (``bloom``)."""
    bloom_options: BloomOptions = BloomOptions()

    def label(self) -> str:
        return "merge"


def _small(n_chunks: int, rows: float) -> bool:
    return n_chunks == 1 or (not math.isnan(rows) and rows < BROADCAST_MAX_ROWS)


def choose_plan(op: Merge, left: Tiled, right: Tiled) -> str:
    """Which plan merges these tiled sides (see the module docstring)."""
    how = op.kwargs["how"]
    nl, nr = len(left.nsplits[0]), len(right.nsplits[0])
    if how == "cross":
        return BROADCAST_RIGHT
    sort = op.kwargs["sort"]
    if sort and op.sort_by is None and (nl > 1 or nr > 1):
        return GATHER
    right_ok = (how in ("inner", "left") and not op.unique_left) or nl == 1
    left_ok = (how in ("inner", "right") and not op.unique_right and not sort) or nr == 1
    if op.method == "shuffle":
        return SHUFFLE
    if op.method == "broadcast" and (left_ok or right_ok):
        rows_l, rows_r = sum(left.nsplits[0]), sum(right.nsplits[0])
        left_smaller = rows_l < rows_r if not math.isnan(rows_l + rows_r) else nl < nr
        if left_ok and (left_smaller or not right_ok):
            return BROADCAST_LEFT
        return BROADCAST_RIGHT
    small_right = right_ok and _small(nr, sum(right.nsplits[0]))
    small_left = left_ok and _small(nl, sum(left.nsplits[0]))
    if small_left and (how == "right" or not small_right):
        return BROADCAST_LEFT
    if small_right:
        return BROADCAST_RIGHT
    return SHUFFLE


def _gather(ctx: TileContext, key: Any, meta: Any, tiled: Tiled, lookup: Any) -> Ref:
    ctx.new_task(key, gather_small, meta, lookup, *(Ref(k) for k in tiled.flat_keys()))
    return Ref(key)


def _task_count(plan: str, left: Tiled, right: Tiled) -> int:
    nl, nr = len(left.nsplits[0]), len(right.nsplits[0])
    return {BROADCAST_RIGHT: nl, BROADCAST_LEFT: nr, GATHER: 1}.get(plan, max(nl, nr))


@tile_rule(Merge)
def _tile_merge(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Merge)
    left, right = inputs
    lmeta, rmeta = (n.meta for n in node.inputs)  # type: ignore[attr-defined]
    plan = choose_plan(op, left, right)
    n = _task_count(plan, left, right)
    sorting = op.kwargs["sort"] and n > 1
    grid = key_grid(f"{node.key}-unsorted" if sorting else node.key, [n])
    if plan in (BROADCAST_RIGHT, GATHER):
        spec = op.lookup_right
        small = _gather(ctx, (f"{node.key}-right", 0), rmeta, right, spec and spec.small_key)
        bigs = left.flat_keys()
        if plan == GATHER:
            bigs = [(f"{node.key}-left", 0)]
            ctx.new_task(bigs[0], concat_parts, lmeta, [Ref(k) for k in left.flat_keys()])
        for i, big in enumerate(bigs):
            args = (Ref(big), small, True, op.kwargs, spec)
            ctx.add_blockwise(grid[i], broadcast_merge, args, {})
    elif plan == BROADCAST_LEFT:
        spec = op.lookup_left
        small = _gather(ctx, (f"{node.key}-left", 0), lmeta, left, spec and spec.small_key)
        for i, big in enumerate(right.flat_keys()):
            args = (Ref(big), small, False, op.kwargs, spec)
            ctx.add_blockwise(grid[i], broadcast_merge, args, {})
    else:
        chunks = {"left": left.flat_keys(), "right": right.flat_keys()}
        for side in sides_to_prune(
            op.kwargs["how"], op.bloom_filter, op.bloom_options, left, right
        ):
            pruned, source = (left, right) if side == "left" else (right, left)
            keys = (
                (op.left_keys, op.right_keys) if side == "left" else (op.right_keys, op.left_keys)
            )
            chunks[side] = prune_tasks(
                ctx, f"{node.key}-{side}-bloom", pruned, keys[0], source, keys[1], op.forms,
                op.bloom_options,
            )  # fmt: skip
        sides = [
            shuffle_tasks(
                ctx, f"{node.key}-{name}", chunks[name], n, split_by_keys, (sources, op.forms),
                concat_parts, (meta,),
            ).flat_keys()
            for name, sources, meta in (
                ("left", op.left_keys, lmeta),
                ("right", op.right_keys, rmeta),
            )
        ]  # fmt: skip
        for j in range(n):
            pair = (Ref(sides[0][j]), Ref(sides[1][j]), op.kwargs)
            ctx.add_blockwise(grid[j], merge_pair, pair, {})
    if not sorting:
        return Tiled(((math.nan,) * n,), grid)
    assert isinstance(node, FrameNode)
    by = None if op.sort_by == SORT_BY_INDEX else op.sort_by
    out = key_grid(node.key, [1])
    ctx.new_task(out[0], sort_merged, node.meta, by, [Ref(k) for k in grid])
    return Tiled(((math.nan,),), out)
