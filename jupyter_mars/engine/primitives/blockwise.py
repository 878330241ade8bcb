"""Blockwise: one kernel call per output chunk, reading the matching chunk of each input.

Inputs are broadcast NumPy-style: axes are aligned from the right, and an input of
length 1 on an axis reads its single chunk for every output chunk along that axis.
Inputs whose chunk boundaries differ are rechunked to the union of the boundaries first,
so no chunk grows beyond the largest input chunk.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jupyter_mars.engine.chunks import NSplits, offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled


@dataclass(frozen=True)
class Slot:
    """Placeholder in ``Blockwise.args`` for the chunk of input number ``index``."""

    index: int


@dataclass(frozen=True, eq=False)
class Blockwise(Op):
    func: Callable[..., Any]
    """Kernel, called as ``func(*args, **kwargs)`` with each ``Slot`` replaced by a chunk."""
    args: tuple[Any, ...]
    """Arguments: ``Slot(i)`` for input i, anything else passed as is."""
    kwargs: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    """Label of the operator; the kernel's name when empty."""

    def label(self) -> str:
        return self.name or getattr(self.func, "__name__", "blockwise")


def _common_axis(lengths: list[tuple[float, ...]]) -> tuple[float, ...] | None:
    """Chunk lengths all inputs can share along one axis (None when sizes are unknown)."""
    first = lengths[0]
    if all(other == first for other in lengths[1:]) and not any(math.isnan(n) for n in first):
        return first
    if any(math.isnan(n) for axis in lengths for n in axis):
        if all(len(a) == len(first) for a in lengths) and all(a is first for a in lengths):
            return first
        return None
    bounds = sorted({int(b) for axis in lengths for b in offsets(axis)})
    return tuple(b - a for a, b in zip(bounds[:-1], bounds[1:])) or (0,)


def unify_chunks(
    node_key: str, out_shape: tuple[float, ...], inputs: Sequence[Tiled], ctx: TileContext
) -> tuple[NSplits, list[Tiled]]:
    """Output nsplits for broadcasting ``inputs`` to ``out_shape``, and the inputs rechunked."""
    ndim = len(out_shape)
    out_nsplits: list[tuple[float, ...]] = []
    for axis in range(ndim):
        candidates: list[tuple[float, ...]] = []
        for t in inputs:
            in_axis = axis - (ndim - len(t.nsplits))
            if in_axis < 0:
                continue
            lengths = t.nsplits[in_axis]
            if len(lengths) == 1 and lengths[0] == 1 and out_shape[axis] != 1:
                continue  # broadcast
            candidates.append(lengths)
        if not candidates:
            out_nsplits.append((1,) if out_shape[axis] == 1 else (out_shape[axis],))
            continue
        if all(c is candidates[0] for c in candidates):
            out_nsplits.append(candidates[0])
            continue
        common = _common_axis(candidates)
        if common is None:
            ctx.require_known(*inputs)
            common = _common_axis(candidates)
            assert common is not None
        out_nsplits.append(common)
    aligned = []
    for i, t in enumerate(inputs):
        offset = ndim - len(t.nsplits)
        wanted = tuple(
            t.nsplits[a]
            if (len(t.nsplits[a]) == 1 and t.nsplits[a][0] == 1)
            else out_nsplits[a + offset]
            for a in range(len(t.nsplits))
        )
        if all(w is h or w == h for w, h in zip(wanted, t.nsplits)):
            aligned.append(t)
        else:
            aligned.append(rechunk_tiled(f"{node_key}-in{i}", t, wanted, np.dtype(float), ctx))
    return tuple(out_nsplits), aligned


def _input_index(t: Tiled, out_index: tuple[int, ...]) -> tuple[int, ...]:
    offset = len(out_index) - t.keys.ndim
    return tuple(0 if t.keys.shape[a] == 1 else out_index[a + offset] for a in range(t.keys.ndim))


@tile_rule(Blockwise)
def _tile_blockwise(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Blockwise)
    nsplits, aligned = unify_chunks(node.key, node.shape, inputs, ctx)
    grid = key_grid(node.key, [len(axis) for axis in nsplits])
    func, template, kwargs = op.func, op.args, op.kwargs
    for index in itertools.product(*(range(len(axis)) for axis in nsplits)):
        args = tuple(
            Ref(aligned[a.index].keys[_input_index(aligned[a.index], index)])
            if type(a) is Slot
            else a
            for a in template
        )
        ctx.add_blockwise(grid[index], func, args, kwargs)
    return Tiled(nsplits, grid)
