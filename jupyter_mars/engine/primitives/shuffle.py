"""All-to-all exchange of chunks: every input chunk is split into ``n_out`` parts and output
chunk ``j`` merges part ``j`` of every input chunk.

Three kinds of task, added inside a tile rule by ``shuffle_tasks``:

- split ``(key-split, i)``: ``split(chunk_i, n_out, *split_args)`` returns a sequence of
  ``n_out`` parts (a hash or range partitioning of the rows, say);
- take ``(key-part, i, j)``: part ``j`` of split ``i``. It is pinned to its input: graph
  coarsening never inlines it into its reader, so on a cluster it runs where the split's
  result lies and only the part crosses the network, not the whole split;
- merge ``(key, j)``: ``merge(*merge_args, parts)`` with ``parts`` the list of part ``j``
  of every split, in input order.

Output lengths are data-dependent (``nan``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import TileContext, Tiled, key_grid
from jupyter_mars.engine.optimize import pinned_to_input


@pinned_to_input
def take_part(parts: Sequence[Any], index: int) -> Any:
    """Part ``index`` of a split chunk."""
    return parts[index]


def call_merge(merge: Callable[..., Any], args: tuple[Any, ...], parts: list[Any]) -> Any:
    return merge(*args, parts)


def shuffle_tasks(
    ctx: TileContext,
    node_key: str,
    chunks: Sequence[Key],
    n_out: int,
    split: Callable[..., Any],
    split_args: tuple[Any, ...],
    merge: Callable[..., Any],
    merge_args: tuple[Any, ...] = (),
) -> Tiled:
    """Add the tasks of a shuffle of ``chunks`` into ``n_out`` chunks keyed ``(node_key, j)``.

    ``split_args`` and ``merge_args`` may hold ``Ref`` to other tasks (range boundaries
    computed from a sample, say); they are passed to every split or merge.
    """
    if n_out < 1:
        raise ValueError(f"n_out must be at least 1, got {n_out}")
    splits: list[Key] = []
    for i, chunk in enumerate(chunks):
        key = (f"{node_key}-split", i)
        ctx.new_task(key, split, Ref(chunk), n_out, *split_args)
        splits.append(key)
    grid = key_grid(node_key, [n_out])
    for j in range(n_out):
        parts: list[Any] = []
        for i, split_key in enumerate(splits):
            part_key = (f"{node_key}-part", i, j)
            ctx.new_task(part_key, take_part, Ref(split_key), j)
            parts.append(Ref(part_key))
        ctx.new_task(grid[j], call_merge, merge, merge_args, parts)
    return Tiled(((math.nan,) * n_out,), grid)
