"""Tiling helpers shared by the statistics modules (and ``fft``): NumPy on blocks whose
given axes are whole, and weights chunked like the data."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.sorting import chunk_indices

# ---- NumPy on blocks whose given axes are whole -----------------------------------------------


@dataclass(frozen=True, eq=False)
class WholeAxesApply(Op):
    """``func(block)`` on each chunk of the input rechunked so that ``axes`` are one chunk.

    ``out_axes`` describes the result's axes: an input axis number (the output axis has
    that axis's chunks) or None (one chunk, its length taken from the node's shape). Every
    input axis not in ``axes`` must appear in ``out_axes``, so chunks map one to one.
    """

    func: Callable[..., Any]
    axes: tuple[int, ...]
    out_axes: tuple[int | None, ...]
    name: str

    def label(self) -> str:
        return self.name


@tile_rule(WholeAxesApply)
def _tile_whole_axes(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, WholeAxesApply)
    (x,) = inputs
    if any(len(x.nsplits[a]) != 1 for a in op.axes):
        ctx.require_known(x)
        wanted = tuple(
            (sum(lengths),) if a in op.axes else lengths for a, lengths in enumerate(x.nsplits)
        )
        x = rechunk_tiled(f"{node.key}-whole", x, wanted, node.dtype, ctx)
    nsplits = tuple(
        x.nsplits[a] if a is not None else (node.shape[i],) for i, a in enumerate(op.out_axes)
    )
    grid = key_grid(node.key, [len(lengths) for lengths in nsplits])
    for index in chunk_indices(x.numblocks):
        out_index = tuple(index[a] if a is not None else 0 for a in op.out_axes)
        ctx.add_blockwise(grid[out_index], op.func, (Ref(x.keys[index]),), {})
    return Tiled(nsplits, grid)


def apply_whole_axes(
    x: Tensor,
    func: Callable[..., Any],
    axes: tuple[int, ...],
    out_axes: tuple[int | None, ...],
    shape: tuple[Any, ...],
    dtype: Any,
    name: str,
) -> Tensor:
    """``func`` on every chunk of ``x`` rechunked so that ``axes`` are whole (see
    ``WholeAxesApply`` for ``out_axes``); ``shape`` and ``dtype`` are the result's."""
    kept = {a for a in range(x.ndim) if a not in axes}
    assert kept <= {a for a in out_axes if a is not None}
    return new_tensor(WholeAxesApply(func, axes, out_axes, name), [x], shape, dtype)


def align_weights(
    key: str, x: Tiled, weights: Tiled | None, dtype: np.dtype[Any], ctx: TileContext
) -> Tiled | None:
    """``weights`` chunked like the data ``x`` (rechunked, once lengths are known, if not)."""
    if weights is not None and weights.nsplits != x.nsplits:
        ctx.require_known(x, weights)
        weights = rechunk_tiled(f"{key}-w", weights, x.nsplits, dtype, ctx)
    return weights
