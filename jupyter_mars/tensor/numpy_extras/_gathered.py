"""Two operators for functions that need some inputs whole:

- ``BesideWhole``: ``func(chunk, *whole others)`` for each chunk of the first input, the
  result chunked like it (``interp`` reads every chunk of ``x`` beside all of ``xp``
  and ``fp``);
- ``WholeCall``: ``func(*whole inputs)`` in one task, one output chunk (a window of a
  convolution).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor


@dataclass(frozen=True, eq=False)
class BesideWhole(Op):
    """``func(chunk of input 0, *inputs 1.. whole)``; chunks follow input 0."""

    func: Callable[..., Any]
    name: str

    def label(self) -> str:
        return self.name


@dataclass(frozen=True, eq=False)
class WholeCall(Op):
    """``func(*inputs whole)`` in one task."""

    func: Callable[..., Any]
    name: str

    def label(self) -> str:
        return self.name


def _whole(node: Node, n: int, t: Tiled, ctx: TileContext) -> Ref:
    """The key of ``t`` rechunked into one chunk."""
    if t.keys.size != 1:
        ctx.require_known(t)
        wanted = tuple((int(sum(lengths)),) for lengths in t.nsplits)
        t = rechunk_tiled(f"{node.key}-whole{n}", t, wanted, node.dtype, ctx)
    return Ref(t.keys.ravel()[0])


@tile_rule(BesideWhole)
def _tile_beside_whole(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, BesideWhole)
    first, *others = inputs
    wholes = [_whole(node, n, t, ctx) for n, t in enumerate(others, start=1)]
    grid = key_grid(node.key, first.keys.shape)
    for index in itertools.product(*(range(n) for n in first.keys.shape)):
        ctx.add_blockwise(grid[index], op.func, (Ref(first.keys[index]), *wholes), {})
    return Tiled(first.nsplits, grid)


@tile_rule(WholeCall)
def _tile_whole_call(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, WholeCall)
    wholes = [_whole(node, n, t, ctx) for n, t in enumerate(inputs)]
    grid = key_grid(node.key, (1,) * len(node.shape))
    ctx.new_task(grid[(0,) * len(node.shape)], op.func, *wholes)
    return Tiled(tuple((int(n),) for n in node.shape), grid)


def beside_whole(
    func: Callable[..., Any], x: Tensor, others: list[Tensor], dtype: Any, name: str
) -> Tensor:
    """``func(chunk, *others)`` on each chunk of ``x``; ``x``'s shape, ``dtype``."""
    return new_tensor(BesideWhole(func, name), [x, *others], x.shape, dtype)


def whole_call(
    func: Callable[..., Any], inputs: list[Tensor], shape: tuple[int, ...], dtype: Any, name: str
) -> Tensor:
    """``func(*inputs)`` on the whole inputs, one chunk of ``shape`` and ``dtype``."""
    return new_tensor(WholeCall(func, name), inputs, shape, dtype)
