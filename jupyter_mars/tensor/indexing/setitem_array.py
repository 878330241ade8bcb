"""``x[index] = value`` with basic indices and integer arrays known at build time
(``SetIndex``); the chunks the selection does not touch keep their keys."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.tensor.indexing.locate import chunk_starts, groups, locate
from jupyter_mars.tensor.indexing.normalize import prod
from jupyter_mars.tensor.indexing.setitem_common import (
    SetLayout,
    SetPlan,
    assign,
    check_value_shape,
    copy_view,
    extract_piece,
    piece_from_chunk,
)

# ---- chunk kernels ---------------------------------------------------------------------------


def set_block(
    block: Any,
    local_basic: tuple[Any, ...],
    fv_axes: tuple[int, ...] | None,
    local: tuple[Any, ...],
    piece: Any,
) -> Any:
    """A copy of ``block`` with ``piece`` assigned to ``block[local_basic][fancy local]``."""
    out, view = copy_view(block, local_basic)
    assign(view, fv_axes, local, piece)
    return out


def set_block_from_chunk(
    block: Any,
    local_basic: tuple[Any, ...],
    fv_axes: tuple[int, ...] | None,
    local: tuple[Any, ...],
    vchunk: Any,
    spec: tuple[Any, ...],
) -> Any:
    """Like ``set_block``, the piece cut from a chunk of a value tensor first: ``spec`` is
    ``piece_from_chunk``'s, then the advanced indices' shape and the flat positions."""
    piece = piece_from_chunk(vchunk, spec[:4], spec[4], spec[5])
    return set_block(block, local_basic, fv_axes, local, piece)


# ---- the operator ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SetIndex(Op):
    """``x[index] = value`` with basic indices and integer arrays known when building.

    Each touched chunk gets one task, given the part of the value it receives. A value
    tensor is rechunked like the selection along the basic dims; along the dims of the
    advanced indices it is kept whole (one chunk), since any chunk may need any element.
    """

    lay: SetLayout
    fancy_axes: tuple[int, ...]
    """Tensor axis each index array indexes."""
    arrays: tuple[np.ndarray[Any, Any], ...]
    """Index arrays broadcast to ``b_shape``."""
    b_shape: tuple[int, ...] | None
    """Broadcast shape of the advanced indices; None without any."""
    value: np.ndarray[Any, Any] | None
    """The value, converted to the tensor's dtype; None when it is the second input."""

    def label(self) -> str:
        return "setitem"


@tile_rule(SetIndex)
def _tile_set_index(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SetIndex)
    x = inputs[0]
    ctx.require_known(x)
    lay = op.lay
    plan = SetPlan(lay, x)
    grid = x.keys.copy()
    b_shape = op.b_shape
    grps: list[tuple[int, Any]] = [(0, None)]
    locs: list[Any] = []
    fancy_grid: tuple[int, ...] = ()
    if b_shape is not None:
        starts = [chunk_starts(x.nsplits[ax]) for ax in op.fancy_axes]
        at = locate(op.arrays, starts, op.fancy_axes, prod(b_shape))
        locs, fancy_grid, grps = at.local, at.grid, groups(at.gid)
    if plan.empty or not grps:
        return Tiled(x.nsplits, grid)
    s_shape = plan.s_shape(b_shape or ())
    fv = lay.fv_axes(op.fancy_axes) if b_shape is not None else None
    if op.value is not None:
        check_value_shape(op.value.shape, s_shape, b_shape is not None)
        whole = np.broadcast_to(op.value, s_shape)
    else:
        vt = plan.value_tiled(
            node.key, inputs[1], len(b_shape or ()), [(n,) for n in b_shape or ()], ctx
        )
    choices = plan.choices()
    for a in op.fancy_axes:
        choices[a] = [0]
    for combo in itertools.product(*choices):
        for g, sel in grps:
            index = list(combo)
            for a, i in zip(op.fancy_axes, np.unravel_index(g, fancy_grid) if fancy_grid else ()):
                index[a] = int(i)
            local_basic = plan.local_basic(index)
            local = tuple(loc[sel] for loc in locs)
            key = (node.key, *index)
            src = Ref(x.keys[tuple(index)])
            if op.value is not None:
                if op.value.ndim == 0:
                    piece: Any = op.value
                else:
                    piece = extract_piece(
                        whole, lay.is_new, lay.place, b_shape, sel, plan.rest(index)
                    )
                ctx.add_blockwise(key, set_block, (src, local_basic, fv, local, piece), {})
            else:
                spec = (plan.layout_local(index), lay.drop, lay.is_new, lay.place, b_shape, sel)
                vkey = plan.value_index(vt, index, (0,) * len(b_shape or ()))
                ctx.add_blockwise(
                    key, set_block_from_chunk, (src, local_basic, fv, local, Ref(vkey), spec), {}
                )
            grid[tuple(index)] = key
    return Tiled(x.nsplits, grid)
