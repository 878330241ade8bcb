"""Basic indexing: integers, slices, ``None`` and ``...`` (``BasicIndex``).

Each output chunk is cut from the one input chunk it lies in; an output chunk that is a
whole input chunk reuses its key (no task). Integers and slices other than ``:`` need the
chunk lengths along their axis, so they wait for unknown (``nan``) lengths to be computed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.sparse import is_sparse_chunk
from jupyter_mars.tensor.indexing.locate import int_plan, product_of, slice_plan
from jupyter_mars.tensor.indexing.normalize import is_full, known


def getitem_block(block: Any, index: tuple[Any, ...]) -> Any:
    """``block[index]``; copied when it is a small view of a much larger chunk."""
    if is_sparse_chunk(block):
        return block[index]  # slices only: SciPy copies what it keeps
    xp = array_module(block)
    out = xp.asarray(block[index])
    if out.base is not None and out.size * 2 < xp.size(block):
        out = out.copy()
    return out


@dataclass(frozen=True, eq=False)
class BasicIndex(Op):
    items: tuple[tuple[Any, ...], ...]
    """("new",) | ("slice", slice, axis) | ("int", i, axis), one per index entry."""

    def label(self) -> str:
        return "getitem"


@tile_rule(BasicIndex)
def _tile_basic(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, BasicIndex)
    (src,) = inputs
    for item in op.items:
        if item[0] == "int" or (item[0] == "slice" and not is_full(item[1])):
            if not known(src.nsplits[item[2]]):
                ctx.require_known(src)
    # per output dim: list of (input axis or None, input chunk, local index, length)
    out_dims: list[list[tuple[Any, ...]]] = []
    fixed: dict[int, tuple[int, int]] = {}
    for item in op.items:
        if item[0] == "new":
            out_dims.append([(None, 0, None, 1)])
        elif item[0] == "slice":
            lengths = src.nsplits[item[2]]
            if is_full(item[1]):
                out_dims.append([(item[2], j, slice(None), n) for j, n in enumerate(lengths)])
            else:
                out_dims.append(
                    [(item[2], j, loc, n) for j, loc, n in slice_plan(lengths, item[1])]
                )
        else:
            fixed[item[2]] = int_plan(src.nsplits[item[2]], item[1], item[2])
    nsplits = tuple(tuple(e[3] for e in dim) for dim in out_dims)
    grid = key_grid(node.key, [len(d) for d in nsplits])
    ndim_in = src.keys.ndim
    for out_index in product_of(nsplits):
        src_index = [0] * ndim_in
        local: list[Any] = []
        dims = iter(zip(out_dims, out_index))
        identity = True
        for item in op.items:
            if item[0] == "int":
                chunk, loc = fixed[item[2]]
                src_index[item[2]] = chunk
                local.append(loc)
                identity = False
                continue
            dim, i = next(dims)
            axis, chunk, loc, n = dim[i]
            local.append(loc)
            if axis is None:  # a new axis
                identity = False
                continue
            src_index[axis] = chunk
            whole = loc.start == 0 and loc.step == 1 and n == src.nsplits[axis][chunk]
            identity = identity and (loc == slice(None) or whole)
        key = src.keys[tuple(src_index)]
        if identity:
            grid[out_index] = key
        else:
            ctx.add_blockwise(grid[out_index], getitem_block, (Ref(key), tuple(local)), {})
    return Tiled(nsplits, grid)
