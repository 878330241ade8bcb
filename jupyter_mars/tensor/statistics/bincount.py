"""``bincount``: its length (``max(x) + 1``) depends on the data and is found first by
iterative tiling; each chunk of ``x`` is then counted and the counts summed by a tree."""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import normalize_chunk_size, offsets
from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.sorting import identity, internal, tree_reduce
from jupyter_mars.tensor.statistics.common import align_weights


def bincount_max(block: Any) -> int:
    block = array_module(block).asarray(block)
    if block.size == 0:
        return 0
    low = block.min()
    if low < 0:
        raise ValueError("'list' argument must have no negative elements")
    return int(block.max()) + 1


@dataclass(frozen=True)
class LengthMarker:
    """A chunk that only carries a ``shape``: how iterative tiling learns a data-dependent
    length (``require_known`` fills nsplits from the shapes of computed chunks)."""

    shape: tuple[int, ...]


def bincount_length(minlength: int, *parts: int) -> LengthMarker:
    """The output length of ``bincount``: ``max(x) + 1``, at least ``minlength``."""
    return LengthMarker((max(minlength, *parts) if parts else minlength,))


@dataclass(frozen=True, eq=False)
class BincountLength(Op):
    minlength: int

    def label(self) -> str:
        return "bincount_length"


@tile_rule(BincountLength)
def _tile_bincount_length(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, BincountLength)
    (x,) = inputs
    parts = []
    for n, key in enumerate(x.flat_keys()):
        part = (f"{node.key}-max", n)
        ctx.add_blockwise(part, bincount_max, (Ref(key),), {})
        parts.append(Ref(part))
    grid = key_grid(node.key, (1,))
    ctx.new_task(grid[0], bincount_length, op.minlength, *parts)
    return Tiled(((math.nan,),), grid)


def bincount_part(block: Any, weights: Any, lo: int, hi: int) -> Any:
    xp = array_module(block, weights)
    block = xp.asarray(block)
    if lo == 0 and (block.size == 0 or block.max() < hi):
        return xp.bincount(block, weights, minlength=hi)
    keep = (block >= lo) & (block < hi)
    w = weights[keep] if weights is not None else None
    return xp.bincount(block[keep] - lo, w, minlength=hi - lo)


@dataclass(frozen=True, eq=False)
class Bincount(Op):
    has_weights: bool

    def label(self) -> str:
        return "bincount"


@tile_rule(Bincount)
def _tile_bincount(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Bincount)
    x = inputs[0]
    weights = inputs[1] if op.has_weights else None
    length = inputs[-1]
    ctx.require_known(length)
    total = int(length.nsplits[0][0])
    weights = align_weights(node.key, x, weights, node.dtype, ctx)
    out_splits = normalize_chunk_size((total,), None, node.dtype.itemsize)[0]
    starts = offsets(out_splits)
    grid = key_grid(node.key, (len(out_splits),))
    for j in range(len(out_splits)):
        lo, hi = int(starts[j]), int(starts[j + 1])
        parts: list[Key] = []
        for i in range(x.numblocks[0]):
            key = (f"{node.key}-part", j, i)
            w = Ref(weights.keys[i]) if weights is not None else None
            ctx.add_blockwise(key, bincount_part, (Ref(x.keys[i]), w, lo, hi), {})
            parts.append(key)
        tree_reduce(ctx, f"{node.key}-{j}", parts, np.add, grid[j], identity)
    return Tiled((out_splits,), grid)


def bincount(x: Any, weights: Any = None, minlength: int = 0) -> Tensor:
    """Occurrences of each value in the non-negative int array ``x`` (NumPy's ``bincount``).

    The length (``max(x) + 1``, at least ``minlength``) depends on the data: it is ``nan``
    until executed, and found first (a small task per chunk) by iterative tiling. Each
    chunk of ``x`` is then counted and the counts summed.
    """
    t = astensor(x)
    if t.ndim > 1:
        raise ValueError("object too deep for desired array")
    if t.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    w = astensor(weights) if weights is not None else None
    if w is not None:
        if w.ndim != 1:
            raise ValueError("object too deep for desired array")
        if not isinstance(w.shape[0], float) and w.shape[0] != t.shape[0]:
            raise ValueError("The weights and list don't have the same length.")
    if minlength is None:
        raise TypeError("minlength must be an int, not None")
    meta = np.bincount(
        np.zeros(1, dtype=t.dtype),
        np.ones(1, dtype=w.dtype) if w is not None else None,
        minlength=minlength,
    )
    length = internal(BincountLength(operator.index(minlength)), [t], (math.nan,), np.bool_)
    inputs = [t] + ([w] if w is not None else []) + [length]
    return new_tensor(Bincount(w is not None), inputs, (math.nan,), meta.dtype)
