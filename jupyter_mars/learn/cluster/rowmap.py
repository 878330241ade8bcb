"""``map_rows``: a kernel applied to each block of rows of its inputs, giving a block of
rows of a new width (what ``elemwise`` cannot: its results keep the inputs' shape).

The inputs are aligned on the row chunks of the first, each chunk holding all its
columns; the kernel is called once per block of rows, as ``func(*blocks, *args)``, and
returns that block's rows of the result. Elkan's k-means keeps its per-row bounds this
way between iterations (``elkan.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor


@dataclass(frozen=True, eq=False)
class RowMap(Op):
    """``func`` on each block of rows of the inputs."""

    func: Callable[..., Any]
    args: tuple[Any, ...]
    """Passed to ``func`` after the blocks, as they are (small arrays, numbers)."""
    width: int | None
    """Columns of the result; None for one value per row."""
    name: str

    def label(self) -> str:
        return self.name


def map_rows(
    func: Callable[..., Any],
    inputs: list[Tensor],
    *args: Any,
    width: int | None,
    dtype: Any,
    name: str,
) -> Tensor:
    """The rows ``func(*blocks, *args)`` gives for each block of rows of ``inputs``."""
    rows = inputs[0].shape[0]
    shape = (rows,) if width is None else (rows, width)
    return new_tensor(RowMap(func, args, width, name), inputs, shape, dtype)


@tile_rule(RowMap)
def _tile_row_map(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, RowMap)
    ctx.require_known(*inputs)
    rows = inputs[0].nsplits[0]
    aligned = []
    for i, (t, source) in enumerate(zip(inputs, node.inputs)):
        wanted = (rows, *((sum(axis),) for axis in t.nsplits[1:]))
        aligned.append(rechunk_tiled(f"{node.key}-in{i}", t, wanted, source.dtype, ctx))
    one_column = op.width is None
    grid = key_grid(node.key, (len(rows),) if one_column else (len(rows), 1))
    for block in range(len(rows)):
        refs = [Ref(t.keys[(block,) + (0,) * (t.keys.ndim - 1)]) for t in aligned]
        out = grid[block] if one_column else grid[block, 0]
        ctx.add_blockwise(out, op.func, (*refs, *op.args), {})
    if op.width is None:
        return Tiled((rows,), grid)
    return Tiled((rows, (op.width,)), grid)
