"""``x[..., mask, ...] = value`` with a boolean tensor mask (``SetMask``).

The mask is rechunked like the tensor. A value broadcast over the masked elements goes to
every touched chunk whole. A value with one entry per True element needs the rank of each
True element: ``MaskRanks`` gives the sorted flat positions of the True elements of each
strip of chunks, and a chunk takes the values at the ranks of its own True elements. The
number of values is checked against the number of True elements once that is known.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.tensor.indexing.mask import align_mask
from jupyter_mars.tensor.indexing.nonzero import mask_flat_block
from jupyter_mars.tensor.indexing.setitem_common import (
    SetLayout,
    SetPlan,
    as_piece,
    check_value_shape,
    copy_view,
    extract_piece,
    piece_from_chunk,
)

# ---- chunk kernels ---------------------------------------------------------------------------


def set_mask_block(
    block: Any, local_basic: tuple[Any, ...], axis: int, mask: Any, piece: Any
) -> Any:
    """A copy of ``block`` with ``piece`` (``(1 or k, *rest)`` or scalar) assigned where the
    mask chunk holds, over the view's axes from ``axis``."""
    out, view = copy_view(block, local_basic)
    piece = as_piece(piece, view)
    if piece.ndim and axis:
        piece = np.moveaxis(piece, 0, axis)
    mask = array_module(view, mask).asarray(mask, dtype=bool)
    view[(slice(None),) * axis + (mask,)] = piece
    return out


def set_mask_block_from_chunk(
    block: Any,
    local_basic: tuple[Any, ...],
    axis: int,
    mask: Any,
    vchunk: Any,
    spec: tuple[Any, ...],
    ranks: Any = None,
) -> Any:
    """``set_mask_block`` with the piece cut from a value chunk (``spec``: see
    ``piece_from_chunk``); with ``ranks``
    (``(mask starts, mask shape, sorted flat positions of the strip)``) the value chunk holds
    one entry per True element of the strip, else it is broadcast."""
    if ranks is None:
        positions = np.zeros(1, np.intp)
        b_shape: tuple[int, ...] = (1,)
    else:
        starts, mshape, strip = ranks
        flat = mask_flat_block(mask, starts, mshape)
        xp = array_module(strip, flat)
        positions = xp.searchsorted(xp.asarray(strip), flat)
        b_shape = (len(strip),)
    piece = piece_from_chunk(vchunk, spec, b_shape, positions)
    return set_mask_block(block, local_basic, axis, mask, piece)


# ---- the operator ----------------------------------------------------------------------------


def _mask_count_error(given: Any, total: Any) -> ValueError:
    return ValueError(
        f"NumPy boolean array indexing assignment cannot assign {given} input values to the "
        f"{total} output values where the mask is true"
    )


@dataclass(frozen=True, eq=False)
class SetMask(Op):
    """``x[..., mask, ...] = value`` with a boolean tensor mask. Inputs: the tensor, the mask,
    the value when it is a tensor, and ``MaskRanks`` when the value has one entry per True."""

    lay: SetLayout
    mask_axes: tuple[int, ...]
    value: np.ndarray[Any, Any] | None
    per_element: bool
    """The value runs along the masked elements (else it is broadcast over them)."""

    def label(self) -> str:
        return "setitem"


@tile_rule(SetMask)
def _tile_set_mask(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, SetMask)
    x, mask = inputs[:2]
    v = inputs[2] if op.value is None else None
    ranks = inputs[-1] if op.per_element else None
    ctx.require_known(*(t for t in (x, mask, ranks, v) if t is not None))
    lay = op.lay
    mask = align_mask(node.key, x, mask, op.mask_axes, op.mask_axes[0], ctx)
    plan = SetPlan(lay, x)
    grid = x.keys.copy()
    if plan.empty:
        return Tiled(x.nsplits, grid)
    p = lay.place
    counts: tuple[int, ...] = (1,)
    per_element = op.per_element
    total = 1
    if ranks is not None:
        counts = tuple(int(n) for n in ranks.nsplits[0])
        total = sum(counts)
        if op.value is not None:
            given_shape = op.value.shape
        else:
            assert v is not None
            given_shape = tuple(int(sum(a)) for a in v.nsplits)
        b_dim = len(given_shape) - (len(lay.layout) + 1 - p)
        given = given_shape[b_dim] if b_dim >= 0 else 1
        if given == 1:
            per_element = False
        elif given != total:
            raise _mask_count_error(given, total)
    b_len = total if per_element else 1
    s_shape = plan.s_shape((b_len,))
    if op.value is not None:
        check_value_shape(op.value.shape, s_shape, True)
        whole = np.broadcast_to(op.value, s_shape)
    else:
        assert v is not None
        vt = plan.value_tiled(node.key, v, 1, [counts if per_element else (1,)], ctx)
    cum = offsets(counts)
    mshape = tuple(int(sum(x.nsplits[a])) for a in op.mask_axes)
    mstarts = [offsets(x.nsplits[a]) for a in op.mask_axes]
    axis = lay.fv_axes(op.mask_axes[:1])[0]
    for index in itertools.product(*plan.choices()):
        m_index = tuple(index[a] for a in op.mask_axes)
        i = m_index[0]
        src, mref = Ref(x.keys[index]), Ref(mask.keys[m_index])
        local_basic = plan.local_basic(index)
        key = (node.key, *index)
        grid[index] = key
        spec = (plan.layout_local(index), 0, lay.is_new, p)
        rank_args = None
        if per_element:
            assert ranks is not None
            starts = tuple(int(s[j]) for s, j in zip(mstarts, m_index))
            rank_args = (starts, mshape, Ref(ranks.keys[(i,)]))
        if op.value is not None and not per_element:
            piece: Any = op.value
            if op.value.ndim:
                piece = extract_piece(whole, lay.is_new, p, (1,), [0], plan.rest(index))
            ctx.add_blockwise(key, set_mask_block, (src, local_basic, axis, mref, piece), {})
            continue
        if op.value is not None:
            region = list(plan.rest(index))
            region.insert(p, slice(int(cum[i]), int(cum[i + 1])))
            vchunk: Any = whole[tuple(region)]
        else:
            vchunk = Ref(plan.value_index(vt, index, (i if per_element else 0,)))
            spec = (spec[0], lay.drop, lay.is_new, p)
        ctx.add_blockwise(
            key,
            set_mask_block_from_chunk,
            (src, local_basic, axis, mref, vchunk, spec, rank_args),
            {},
        )
    return Tiled(x.nsplits, grid)
