"""Slicing and joining chunk grids along one axis, shared by split, roll, tile and concatenate.

Both helpers reuse input chunks where they can: joining grids only lays the chunk keys side
by side (no task), and slicing adds a task only for the (at most two) chunks cut at the ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import TileContext, Tiled
from jupyter_mars.tensor.shape.common import tiled_keys


def _slice_chunk(block: Any, axis: int, sl: slice) -> Any:
    return block[(slice(None),) * axis + (sl,)]


def slice_axis_tiled(
    prefix: str, t: Tiled, axis: int, start: int, stop: int, ctx: TileContext
) -> Tiled:
    """``t[..., start:stop, ...]`` along ``axis`` (lengths known there, 0 <= start <= stop).

    Chunks inside the range are reused; the chunks cut at its ends are sliced.
    """
    lengths = [int(n) for n in t.nsplits[axis]]
    starts = offsets(lengths)
    picks: list[tuple[int, slice | None, int]] = []
    for i in range(len(lengths)):
        lo, hi = max(start, int(starts[i])), min(stop, int(starts[i + 1]))
        if hi > lo:
            whole = lo == starts[i] and hi == starts[i + 1]
            sl = None if whole else slice(lo - int(starts[i]), hi - int(starts[i]))
            picks.append((i, sl, hi - lo))
    if not picks:
        picks = [(0, slice(0, 0), 0)]
    nsplits = list(t.nsplits)
    nsplits[axis] = tuple(n for _, _, n in picks)
    shape = list(t.keys.shape)
    shape[axis] = len(picks)
    grid = np.empty(tuple(shape), dtype=object)
    for index in np.ndindex(*shape):
        i, sl, _ = picks[index[axis]]
        src = tiled_keys(t)[index[:axis] + (i,) + index[axis + 1 :]]
        if sl is None:
            grid[index] = src
        else:
            key = (prefix, *index)
            ctx.add_blockwise(key, _slice_chunk, (Ref(src),), {"axis": axis, "sl": sl})
            grid[index] = key
    return Tiled(tuple(nsplits), grid)


def concat_tiled(parts: Sequence[Tiled], axis: int) -> Tiled:
    """Chunk grids side by side along ``axis`` (the other axes already share boundaries)."""
    if len(parts) == 1:
        return parts[0]
    nsplits = list(parts[0].nsplits)
    nsplits[axis] = tuple(n for p in parts for n in p.nsplits[axis])
    keys = np.concatenate([p.keys for p in parts], axis=axis)
    return Tiled(tuple(nsplits), keys)
