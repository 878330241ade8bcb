"""Work on the row blocks of a data set: one task per block of rows, each 2-d input with
its columns whole, so that a kernel sees samples with all their features.

``map_rows`` gives a tensor whose rows are computed block by block, of any width
(predictions, probabilities, transformed rows, the bounds Elkan's k-means keeps per
row): what ``elemwise`` cannot give, as its results keep the inputs' shape.
``per_block`` gives one Python object per block (an estimator fitted on it, a partial
sum), a 1-d object tensor as long as the number of blocks. Both are ``RowBlocks`` nodes:
the inputs after the first are rechunked to the first one's row blocks where theirs
differ, so ``X`` and ``y`` may be chunked apart. A kernel that needs more than the
blocks (centres, a fitted estimator) gets them bound by ``functools.partial``. An input
named in ``paired`` is a ``per_block`` result over the same row blocks: the kernel gets
its item for the block (state an iterative fit carries from one pass to the next), not
rows.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.learn.utils.validation import to_tensor
from jupyter_mars.tensor.core import Tensor, new_tensor

__all__ = [
    "RowBlocks",
    "as_object",
    "map_rows",
    "per_block",
    "row_blocks",
    "whole_columns",
]


@dataclass(frozen=True, eq=False)
class RowBlocks(Op):
    """``func(*blocks)`` once per row block, each input's block of the same rows."""

    func: Callable[..., Any]
    """Kernel (module-level, or a ``functools.partial`` of one): the blocks in, a block of
    the result's rows (or one object, with ``per_block``) out."""
    per_block: bool
    """True: each call's result is one item of a 1-d object result; False: it is the
    result's rows for that block."""
    name: str
    """The operator's name in keys and on the dashboard."""
    paired: tuple[int, ...] = ()
    """The positions of the inputs given one item per row block."""

    def label(self) -> str:
        return self.name


def whole_columns(key: str, tiled: Tiled, dtype: np.dtype[Any], ctx: TileContext) -> Tiled:
    """``tiled`` with its second axis (if any) in one chunk."""
    if len(tiled.nsplits) < 2 or all(len(lengths) == 1 for lengths in tiled.nsplits[1:]):
        return tiled
    ctx.require_known(tiled)
    wanted = (tiled.nsplits[0], *((sum(lengths),) for lengths in tiled.nsplits[1:]))
    return rechunk_tiled(key, tiled, wanted, dtype, ctx)


def row_blocks(
    node: Node, inputs: list[Tiled], ctx: TileContext, paired: tuple[int, ...] = ()
) -> list[Tiled]:
    """The inputs of ``node`` tiled alike: whole columns, the first one's row blocks;
    those in ``paired`` as they are, one chunk per block."""
    first = whole_columns(f"{node.key}-in0", inputs[0], node.inputs[0].dtype, ctx)
    rows = first.nsplits[0]
    out = [first]
    for i, tiled in enumerate(inputs[1:], start=1):
        if i in paired:
            if len(tiled.nsplits[0]) != len(rows):
                raise ValueError(
                    f"input {i} of {node.op.label()} has {len(tiled.nsplits[0])} items, "
                    f"one per block of {len(rows)} row blocks expected"
                )
            out.append(tiled)
            continue
        dtype = node.inputs[i].dtype
        t = whole_columns(f"{node.key}-cols{i}", tiled, dtype, ctx)
        if t.nsplits[0] != rows or any(math.isnan(n) for n in rows):
            ctx.require_known(first, t)
            rows = first.nsplits[0]
            wanted = (rows, *t.nsplits[1:])
            t = rechunk_tiled(f"{node.key}-in{i}", t, wanted, dtype, ctx)
        out.append(t)
    return out


def call_per_block(func: Callable[..., Any], *blocks: Any) -> np.ndarray[Any, Any]:
    """``func(*blocks)`` as the one item of a 1-d object array (a chunk of ``per_block``)."""
    return as_object([func(*blocks)])


def call_paired(func: Callable[..., Any], paired: tuple[int, ...], *blocks: Any) -> Any:
    """``func`` on the blocks, each input in ``paired`` unwrapped to its block's item."""
    return func(*(block[0] if i in paired else block for i, block in enumerate(blocks)))


def as_object(items: list[Any]) -> np.ndarray[Any, Any]:
    """``items`` in a 1-d object array, each kept whole (NumPy would unpack arrays)."""
    out = np.empty(len(items), dtype=object)
    for i, item in enumerate(items):
        out[i] = item
    return out


@tile_rule(RowBlocks)
def _tile_row_blocks(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, RowBlocks)
    aligned = row_blocks(node, inputs, ctx, op.paired)
    n_blocks = len(aligned[0].nsplits[0])
    func = functools.partial(call_paired, op.func, op.paired) if op.paired else op.func
    if op.per_block:
        grid = key_grid(node.key, [n_blocks])
        for i in range(n_blocks):
            refs = tuple(Ref(t.keys[(i,) + (0,) * (t.keys.ndim - 1)]) for t in aligned)
            ctx.add_blockwise(grid[i], call_per_block, (func, *refs), {})
        return Tiled(((1,) * n_blocks,), grid)
    trailing = tuple((n,) for n in node.shape[1:])
    grid = key_grid(node.key, [n_blocks, *(1 for _ in trailing)])
    for i in range(n_blocks):
        refs = tuple(Ref(t.keys[(i,) + (0,) * (t.keys.ndim - 1)]) for t in aligned)
        ctx.add_blockwise(grid[(i,) + (0,) * len(trailing)], func, refs, {})
    return Tiled((aligned[0].nsplits[0], *trailing), grid)


def map_rows(
    func: Callable[..., Any],
    *data: Any,
    trailing: tuple[int, ...] = (),
    dtype: Any = np.float64,
    name: str = "map_rows",
    paired: tuple[int, ...] = (),
) -> Tensor:
    """A tensor of shape ``(n_rows, *trailing)`` whose rows are ``func(*blocks)`` on each
    row block of ``data`` (arrays, tensors or frames, the first one's rows; the inputs
    at the positions in ``paired`` are ``per_block`` results, one item per block)."""
    tensors = [to_tensor(d) for d in data]
    shape = (tensors[0].shape[0], *trailing)
    op = RowBlocks(func, False, name, tuple(paired))
    return new_tensor(op, tensors, shape, dtype, gpu=False)


def per_block(
    func: Callable[..., Any], *data: Any, name: str = "per_block", paired: tuple[int, ...] = ()
) -> Tensor:
    """A 1-d object tensor holding ``func(*blocks)`` for each row block of ``data``, in
    order (its length, the number of blocks, is known once it is computed); ``paired``
    as ``map_rows`` takes it."""
    tensors = [to_tensor(d) for d in data]
    op = RowBlocks(func, True, name, tuple(paired))
    return new_tensor(op, tensors, (math.nan,), object, gpu=False)
