"""``x[index] = value`` with integer tensors among the indices (``SetShuffle``).

The index tensors are bucketed by chunk as for ``x[tensor]`` (``tensor_index``); every
touched chunk of ``x`` gets one task that reads all the buckets and assigns what they send
it, in index-chunk order. A value that varies along the advanced-index dims is rechunked
like the index chunks, so that each bucket's values come from one value chunk.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.tensor.indexing.setitem_common import (
    SetLayout,
    SetPlan,
    assign,
    check_value_shape,
    copy_view,
    extract_piece,
    piece_from_chunk,
)
from jupyter_mars.tensor.indexing.tensor_index import bucket_tasks


def set_shuffle_block(
    block: Any,
    local_basic: tuple[Any, ...],
    fv_axes: tuple[int, ...],
    g: int,
    spec: tuple[Any, ...],
    buckets: list[Any],
    values: list[Any],
) -> Any:
    """Assign, in index-chunk order, what every bucket sends to this chunk (flat number g).

    ``spec[0]`` is the value mode: "const" (``values[0]`` is the piece), "bcast" (a value
    chunk broadcast over the index dims) or "full" (one value chunk per index chunk); then
    ``piece_from_chunk``'s spec and the number of advanced-index dims.
    """
    mode, chunk_spec, nb = spec[0], spec[1:5], spec[5]
    out, view = copy_view(block, local_basic)
    const = None
    if mode == "const":
        const = values[0]
    elif mode == "bcast":
        const = piece_from_chunk(values[0], chunk_spec, (1,) * nb, [0])
    for c, (shape, grps) in enumerate(buckets):
        grp = grps.get(g)
        if grp is None:
            continue
        positions, local = grp
        if const is not None:
            piece = const
        else:
            piece = piece_from_chunk(values[c], chunk_spec, tuple(shape), positions)
        assign(view, fv_axes, local, piece)
    return out


@dataclass(frozen=True, eq=False)
class SetShuffle(Op):
    """``x[index] = value`` with integer tensors among the indices. Inputs: the tensor, the
    index tensors, then the value when it is a tensor."""

    lay: SetLayout
    index_axes: tuple[int, ...]
    """Tensor axis of each index tensor; -1 for one that only takes part in broadcasting."""
    b_shape: tuple[float, ...]
    value: np.ndarray[Any, Any] | None
    per_element: bool
    """The value varies along the advanced-index dims."""

    def label(self) -> str:
        return "setitem"


@tile_rule(SetShuffle)
def _tile_set_shuffle(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SetShuffle)
    n_idx = len(op.index_axes)
    x, idx = inputs[0], inputs[1 : 1 + n_idx]
    v = inputs[1 + n_idx] if op.value is None else None
    if op.per_element:
        ctx.require_known(x, *idx)
    else:
        ctx.require_known(x)
    lay = op.lay
    plan = SetPlan(lay, x)
    grid = x.keys.copy()
    if plan.empty:
        return Tiled(x.nsplits, grid)
    bk = bucket_tasks(node.key, x, idx, op.index_axes, op.index_axes, op.b_shape, ctx)
    nb = len(bk.b_nsplits)
    p = lay.place
    b_full = tuple(int(sum(d)) for d in bk.b_nsplits) if op.per_element else (1,) * nb
    s_shape = plan.s_shape(b_full)
    if op.value is not None:
        check_value_shape(op.value.shape, s_shape, True)
        whole = np.broadcast_to(op.value, s_shape)
    else:
        wanted = bk.b_nsplits if op.per_element else [(1,)] * nb
        assert v is not None
        vt = plan.value_tiled(node.key, v, nb, wanted, ctx)
    b_starts = [offsets(d) for d in bk.b_nsplits]
    fv = lay.fv_axes(bk.fancy_axes)
    for index in itertools.product(*plan.choices()):
        g = int(np.ravel_multi_index(tuple(index[a] for a in bk.fancy_axes), bk.fancy_grid))
        src = Ref(x.keys[index])
        local_basic = plan.local_basic(index)
        values: list[Any]
        if op.value is not None and not op.per_element:
            mode = "const"
            piece: Any = op.value
            if op.value.ndim:
                piece = extract_piece(whole, lay.is_new, p, (1,) * nb, [0], plan.rest(index))
            values = [piece]
        elif op.value is not None:
            mode = "full"
            values = []
            for c in bk.b_grid:
                region = list(plan.rest(index))
                region[p:p] = [slice(int(s[j]), int(s[j + 1])) for s, j in zip(b_starts, c)]
                values.append(whole[tuple(region)])
        elif not op.per_element:
            mode = "bcast"
            values = [Ref(plan.value_index(vt, index, (0,) * nb))]
        else:
            mode = "full"
            values = [Ref(plan.value_index(vt, index, c)) for c in bk.b_grid]
        drop = 0 if op.value is not None else lay.drop
        spec = (mode, plan.layout_local(index), drop, lay.is_new, p, nb)
        key = (node.key, *index)
        ctx.new_task(key, set_shuffle_block, src, local_basic, fv, g, spec, bk.refs, values)
        grid[index] = key
    return Tiled(x.nsplits, grid)
