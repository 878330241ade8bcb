"""Each chunk of one operand against every chunk of the other, the partial results combined
by a tree: the tiling shared by ``searchsorted`` and ``isin``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.sorting._common import chunk_indices, tree_reduce


@dataclass(frozen=True, eq=False)
class OuterReduce(Op):
    """``finalize(combine(kernel(x_i, y_0), kernel(x_i, y_1), ...))`` for each chunk ``x_i``.

    Partial results are combined ``combine_size`` at a time, so memory stays that of a few
    chunks of ``x`` however many chunks ``y`` has.
    """

    kernel: Callable[..., Any]
    combine: Callable[..., Any]
    finalize: Callable[..., Any]
    name: str

    def label(self) -> str:
        return self.name


def kernel_finalize(
    kernel: Callable[..., Any], finalize: Callable[..., Any], x: Any, y: Any
) -> Any:
    return finalize(kernel(x, y))


@tile_rule(OuterReduce)
def _tile_outer_reduce(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, OuterReduce)
    x, y = inputs
    y_keys = y.flat_keys()
    grid = key_grid(node.key, x.numblocks)
    for index in chunk_indices(x.numblocks):
        xk = Ref(x.keys[index])
        if len(y_keys) == 1:
            ctx.add_blockwise(
                grid[index], kernel_finalize, (op.kernel, op.finalize, xk, Ref(y_keys[0])), {}
            )
            continue
        keys: list[Key] = []
        for j, yk in enumerate(y_keys):
            key = (f"{node.key}-part", *index, j)
            ctx.new_task(key, op.kernel, xk, Ref(yk))
            keys.append(key)
        prefix = "-".join([node.key, *map(str, index)])
        tree_reduce(ctx, prefix, keys, op.combine, grid[index], op.finalize)
    return Tiled(x.nsplits, grid)
