"""How a grouped aggregation is tiled: a tree combine or a hash shuffle, chosen from the
sizes of the partials.

The first stage (``partials``) maps each input chunk to its partial states, one row per
group found in the chunk (``AggSpec.partial``). The tile rule of the second stage calls
``ctx.require_known`` on those partials, so the engine computes them first and tiling
resumes with their real lengths. Then:

- tree, when the partials hold at most ``TREE_MAX_PARTIAL_ROWS`` rows in all (few groups,
  a strong reduction): they are merged ``options.combine_size`` at a time, level by level,
  and the root finishes the groups into ONE output chunk;
- shuffle, otherwise (many groups: one task could not hold them): the partials are split
  by a hash of the group keys into as many parts as there are input chunks, and output
  chunk ``j`` merges part ``j`` of every partial and finishes its own groups. With
  ``sort=True`` (or ``as_index=False``, whose 0..n-1 index spans all groups) the finished
  chunks are then gathered into one chunk and sorted by key; with ``sort=False`` the output
  stays in several chunks and groups come in hash-partition order, not first-seen order.

A holistic aggregation (``median``, ``nunique``, a function) has nothing to reduce per
chunk: its partials are the rows themselves, and the same rule applies to their count.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jupyter_mars.config import options
from jupyter_mars.dataframe.core import new_frame
from jupyter_mars.dataframe.groupby.aggregate import AggSpec
from jupyter_mars.dataframe.groupby.titles import agg_title
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import FrameNode, empty_like
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.reduction import combine_tree
from jupyter_mars.engine.primitives.shuffle import shuffle_tasks

TREE_MAX_PARTIAL_ROWS = 1_000_000
"""At most this many partial rows in all are merged by a tree into one chunk; more go
through a shuffle. A combine task then handles up to ``combine_size`` times this many
rows' worth of small frames, a comfortable load for one worker, while a heavy partial
(many groups per chunk) is spread over as many tasks as there were input chunks."""

METHODS = ("auto", "tree", "shuffle")


def choose_path(partial_rows: list[int], method: str) -> str:
    """``"tree"`` or ``"shuffle"`` for partials of these lengths (see the module docs)."""
    if method != "auto":
        return method
    if len(partial_rows) <= 1 or sum(partial_rows) <= TREE_MAX_PARTIAL_ROWS:
        return "tree"
    return "shuffle"


@dataclass(frozen=True, eq=False)
class GroupbyAgg(Op):
    spec: AggSpec
    method: str
    """``"auto"`` (by the partials' sizes), ``"tree"`` or ``"shuffle"``."""

    def label(self) -> str:
        return "groupby_agg"

    def title(self, inner: str) -> str:
        return agg_title(self.spec)  # what it reads is in it: groupby(k)


def _tree(node: Node, keys: list[Key], spec: AggSpec, ctx: TileContext) -> Tiled:
    keys = combine_tree(ctx, node.key, keys, options.combine_size, spec.combine_parts)
    grid = key_grid(node.key, [1])
    ctx.new_task(grid[0], spec.finish_parts, *(Ref(k) for k in keys))
    return Tiled(((math.nan,),), grid)


def _shuffle(node: Node, keys: list[Key], spec: AggSpec, ctx: TileContext) -> Tiled:
    n_out = len(keys)
    if not spec.sort and spec.as_index:
        return shuffle_tasks(ctx, node.key, keys, n_out, spec.split, (), spec.merge_present)
    mid = shuffle_tasks(
        ctx, f"{node.key}-shuffle", keys, n_out, spec.split, (), spec.finish_unsorted
    )
    grid = key_grid(node.key, [1])
    ctx.new_task(grid[0], spec.gather, *(Ref(k) for k in mid.flat_keys()))
    return Tiled(((math.nan,),), grid)


@tile_rule(GroupbyAgg)
def _tile_groupby_agg(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, GroupbyAgg)
    (partials,) = inputs
    ctx.require_known(partials)
    rows = [int(n) for n in partials.nsplits[0]]
    keys = partials.flat_keys()
    if choose_path(rows, op.method) == "tree":
        return _tree(node, keys, op.spec, ctx)
    return _shuffle(node, keys, op.spec, ctx)


def map_to_unknown(
    func: Callable[..., Any], frames: list[Any], args: tuple[Any, ...], meta: Any, name: str
) -> Any:
    """``func(*args, *chunks)`` per row chunk of the aligned ``frames``; lengths unknown."""
    slots = tuple(Slot(i) for i in range(len(frames)))
    return map_chunks(func, list(frames), (*args, *slots), meta, name=name, keeps_rows=False)


def partials(spec: AggSpec, frames: list[Any]) -> Any:
    """The first stage: each chunk's partial states (or keyed rows), one per input chunk."""
    meta = empty_like(spec.partial(frames[0].meta, *(f.meta for f in frames[1:])))
    return map_to_unknown(spec.partial, frames, (), meta, "groupby_partial")


def aggregate(spec: AggSpec, frames: list[Any], method: str = "auto") -> Any:
    """The lazy result of ``spec`` over ``frames`` (the grouped object, then key Series)."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    parts = partials(spec, frames)
    node = parts.node
    assert isinstance(node, FrameNode)
    return new_frame(GroupbyAgg(spec, method), [parts], math.nan, spec.meta)
