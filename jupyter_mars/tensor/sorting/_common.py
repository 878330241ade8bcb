"""Argument checks and tiling helpers shared by the sorting modules, ``statistics`` and ``fft``.

- checks: a shape known before execution (``check_known``);
- chunk grids: chunk indices in C order, integer ``nsplits``, where each chunk starts, and the
  global flat index of a chunk's elements;
- graph building: internal nodes, gathering a tensor into one chunk, and a tree reduction of
  per-chunk partial results (``combine_size`` at a time).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.config import options
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.devices import GPU
from jupyter_mars.engine.graph import Key, Ref
from jupyter_mars.engine.node import GpuNode, Node, Op, TileContext, Tiled, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.engine.primitives.reduction import combine_tree
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.sparse.convert import todense

INTP = np.dtype(np.intp)
MAX_OVERSAMPLE = 16
"""Samples taken per chunk and per bucket when choosing pivots (at most)."""


# ---- argument checks --------------------------------------------------------------------------


def check_known(t: Tensor, what: str) -> None:
    """``ValueError`` when ``what`` needs the shape of ``t`` and part of it is unknown."""
    if any(isinstance(n, float) and math.isnan(n) for n in t.shape):
        raise ValueError(
            f"{what} needs the shape of its input, which is unknown until it is executed; "
            "call .execute() on the input first"
        )


# ---- chunk grids ------------------------------------------------------------------------------


def chunk_indices(numblocks: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every chunk index of a grid, in C order."""
    return itertools.product(*(range(n) for n in numblocks))


def int_nsplits(nsplits: tuple[tuple[float, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Known chunk lengths as ints."""
    return tuple(tuple(int(n) for n in axis) for axis in nsplits)


def known_nsplits(x: Tiled, ctx: TileContext) -> tuple[tuple[int, ...], ...]:
    """The chunk lengths of ``x`` as ints, once they are known (iterative tiling)."""
    ctx.require_known(x)
    return int_nsplits(x.nsplits)


def chunk_origins(nsplits: tuple[tuple[int, ...], ...]) -> dict[tuple[int, ...], tuple[int, ...]]:
    """Where each chunk starts along every axis, by chunk index (in C order)."""
    starts = [offsets(lengths) for lengths in nsplits]
    return {
        index: tuple(int(starts[a][i]) for a, i in enumerate(index))
        for index in chunk_indices([len(lengths) for lengths in nsplits])
    }


def flat_index(
    chunk_shape: tuple[int, ...], chunk_offset: tuple[int, ...], shape: tuple[int, ...]
) -> np.ndarray[Any, Any]:
    """Global C-order flat index of every element of a chunk, shaped like the chunk."""
    out = np.zeros(chunk_shape, dtype=np.intp)
    stride = 1
    for axis in range(len(shape) - 1, -1, -1):
        view = [1] * len(shape)
        view[axis] = chunk_shape[axis]
        positions = np.arange(chunk_offset[axis], chunk_offset[axis] + chunk_shape[axis])
        out += (positions * stride).astype(np.intp).reshape(view)
        stride *= shape[axis]
    return out


# ---- graph building ---------------------------------------------------------------------------


def internal(op: Op, inputs: list[Tensor], shape: tuple[Any, ...], dtype: Any) -> Tensor:
    """A step inside one function's graph: never executed on its own, even when eager.
    Its kernels read dense chunks (a sparse input is made dense); it runs on the GPU where
    an input is there, as every operation does."""
    nodes = [todense(t).node for t in inputs]
    node_type = GpuNode if any(n.device == GPU for n in nodes) else Node
    return Tensor(node_type(op, nodes, shape, np.dtype(dtype)))


def identity(x: Any) -> Any:
    return x


@dataclass(frozen=True, eq=False)
class Gather(Op):
    """The whole input in one chunk."""

    def label(self) -> str:
        return "gather"


@tile_rule(Gather)
def _tile_gather(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    nsplits = known_nsplits(x, ctx)
    return rechunk_tiled(node.key, x, tuple((sum(n),) for n in nsplits), node.dtype, ctx)


def gather(x: Tensor) -> Tensor:
    """``x`` as one chunk (for operations that need all of it at once)."""
    return internal(Gather(), [x], x.shape, x.dtype)


def combine_all(combine: Callable[..., Any], *parts: Any) -> Any:
    return functools.reduce(combine, parts)


def combine_finalize(combine: Callable[..., Any], finalize: Callable[..., Any], *parts: Any) -> Any:
    return finalize(functools.reduce(combine, parts))


def tree_reduce(
    ctx: TileContext,
    prefix: str,
    keys: list[Key],
    combine: Callable[..., Any],
    out_key: Key,
    finalize: Callable[..., Any],
) -> None:
    """``out_key = finalize(combine(...))`` of ``keys``, merging ``combine_size`` at a time.

    ``combine`` is a binary function (``np.add``): each step folds a group with it.
    """
    keys = combine_tree(ctx, prefix, keys, options.combine_size, combine_all, (combine,))
    ctx.new_task(out_key, combine_finalize, combine, finalize, *(Ref(k) for k in keys))
