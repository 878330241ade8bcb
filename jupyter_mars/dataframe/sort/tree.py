"""Tree reductions whose result is a frame of data-dependent length, or a tensor.

The engine's ``Reduction`` merges per-chunk partial results ``options.combine_size`` at a
time, in chunk order. ``Tree`` reuses its tiling and labels the single output chunk with
the result's length: a number of rows (``nan`` when data-dependent: top-n rows, value
counts) for a frame, any shape for a tensor (``Series.unique``, a scalar quantile).

``kernels`` is an object with the three methods of a reduction: ``chunk(block)``,
``combine(parts)`` (a list of partial results in chunk order) and ``aggregate(part)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.config import options
from jupyter_mars.dataframe.core import new_frame
from jupyter_mars.engine.node import TILE_RULES, Node, TileContext, Tiled, tile_rule
from jupyter_mars.engine.primitives.reduction import Reduction
from jupyter_mars.tensor.core import Tensor


@dataclass(frozen=True, eq=False)
class Tree(Reduction):
    """A row reduction with one output chunk of ``out_shape``."""

    out_shape: tuple[float, ...] = ()


@tile_rule(Tree)
def _tile_tree(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    tiled = TILE_RULES[Reduction](node, inputs, ctx)  # keepdims: one chunk, grid (1,)
    op = node.op
    assert isinstance(op, Tree)
    shape = op.out_shape
    return Tiled(tuple((n,) for n in shape), tiled.keys.reshape((1,) * len(shape)))


@dataclass(frozen=True)
class _Calls:
    """Adapts ``kernels`` to the keyword arguments the engine passes."""

    kernels: Any

    def chunk(self, block: Any, axis: Any = None, keepdims: bool = True) -> Any:
        return self.kernels.chunk(block)

    def combine(self, parts: list[Any], axis: Any = None) -> Any:
        return self.kernels.combine(parts)

    def aggregate(self, part: Any, axis: Any = None, keepdims: bool = False) -> Any:
        return self.kernels.aggregate(part)


def _tree(kernels: Any, name: str, shape: tuple[float, ...]) -> Tree:
    calls = _Calls(kernels)
    return Tree(
        chunk=calls.chunk,
        combine=calls.combine,
        aggregate=calls.aggregate,
        axis=(0,),
        keepdims=True,
        combine_size=options.combine_size,
        name=name,
        out_shape=shape,
    )


def tree_frame(frame: Any, kernels: Any, name: str, meta: Any, nrows: float = math.nan) -> Any:
    """A lazy DataFrame or Series (by ``meta``) reduced from ``frame``'s chunks."""
    return new_frame(_tree(kernels, name, (nrows,)), [frame], nrows, meta)


def tree_tensor(frame: Any, kernels: Any, name: str, shape: tuple[float, ...], dtype: Any) -> Any:
    """A lazy tensor of ``shape`` reduced from ``frame``'s chunks."""
    node = Node(_tree(kernels, name, shape), [frame.node], shape, np.dtype(dtype))
    out = Tensor(node)
    if options.eager_mode:
        out.execute()
    return out


@dataclass(frozen=True)
class Gather:
    """Brings ``columns`` of every chunk (all columns when None) into one pandas object,
    in row order, and calls its method ``how`` with ``kwargs`` there: the exact pandas
    result, at the cost of holding those columns in one task."""

    how: str
    kwargs: dict[str, Any]
    columns: tuple[Any, ...] | None = None

    def chunk(self, block: Any) -> Any:
        return block if self.columns is None else block[list(self.columns)]

    def combine(self, parts: list[Any]) -> Any:
        return pd.concat(parts)

    def aggregate(self, part: Any) -> Any:
        return getattr(part, self.how)(**self.kwargs)
