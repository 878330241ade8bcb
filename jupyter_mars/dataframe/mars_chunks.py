"""Mars's own chunk-level methods of DataFrame and Series: ``rebalance`` and
``cartesian_chunk``.

- ``rebalance(factor=None, axis=0, num_partitions=None, reassign_worker=True)`` cuts the
  rows anew into chunks of even length: ``num_partitions`` chunks, or the runtime's cores
  times ``factor`` (1.2 when neither is given), as Mars does. The chunks' lengths are
  computed first; the cut is ``rechunk``'s. Workers are chosen by the scheduler, so
  ``reassign_worker`` is accepted and has no further effect.
- ``cartesian_chunk(right, func, args=(), **kwargs)`` calls ``func(left_chunk,
  right_chunk, *args, **kwargs)`` for every pair of a row chunk of the left and one of the
  right (a frame split by columns too gives full-width chunks), in the left's order, then
  the right's; the results are the new chunks. The result's meta is found on made-up
  rows, or given with ``output_type=`` and ``dtypes=`` (or ``meta=``); ``index=`` names
  its index.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.apply import check_callable, given_meta, infer_meta
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Index, Series, new_frame
from jupyter_mars.dataframe.node import FrameNode, empty_like
from jupyter_mars.dataframe.rechunk_tiling import Rechunk, row_tasks
from jupyter_mars.dataframe.structure.common import sample_like
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

DEFAULT_FACTOR = 1.2
"""Chunks per core after ``rebalance()`` with neither ``factor`` nor ``num_partitions``."""


@dataclass(frozen=True, eq=False)
class Rebalance(Op):
    factor: float | None
    num_partitions: int | None

    def label(self) -> str:
        return "rebalance"


@tile_rule(Rebalance)
def _tile_rebalance(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Rebalance)
    (t,) = inputs
    ctx.require_known(t)
    if op.num_partitions is not None:
        wanted = op.num_partitions
    else:
        wanted = max(1, int(ctx.n_cpu * (op.factor or DEFAULT_FACTOR)))
    size = int(sum(t.nsplits[0]))
    rows = max(1, -(-size // wanted))
    return row_tasks(node, Rechunk(rows, None), t, ctx)


def _node(obj: FrameBase) -> FrameNode:
    node = obj.node
    assert isinstance(node, FrameNode)
    return node


def rebalance(
    frame: FrameBase,
    factor: float | None = None,
    axis: Any = 0,
    num_partitions: int | None = None,
    reassign_worker: bool = True,
) -> Any:
    """The same rows in chunks of even length across the runtime's cores (Mars's
    ``rebalance``): ``num_partitions`` chunks, or cores times ``factor``."""
    if axis not in (0, "index", "rows"):
        if isinstance(frame, Index):
            raise ValueError(f"No axis named {axis!r} for object type Index")
        frame.meta._get_axis_number(axis)  # pandas' ValueError for an axis it lacks
        raise NotImplementedError("rebalance: only axis=0 (rows) is supported")
    if num_partitions is not None:
        if isinstance(num_partitions, bool) or not isinstance(num_partitions, int):
            raise TypeError(f"num_partitions must be an int, got {num_partitions!r}")
        if num_partitions < 1:
            raise ValueError(f"num_partitions must be at least 1, got {num_partitions}")
    if factor is not None and not (isinstance(factor, (int, float)) and factor > 0):
        raise ValueError(f"factor must be a positive number, got {factor!r}")
    op = Rebalance(None if factor is None else float(factor), num_partitions)
    return new_frame(op, [frame], _node(frame).shape[0], _node(frame).meta)


# ---- cartesian_chunk -----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CartesianChunk(Op):
    func: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]

    def label(self) -> str:
        return "cartesian_chunk"


def call_pair(
    func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], left: Any, right: Any
) -> Any:
    return func(left, right, *args, **kwargs)


@tile_rule(CartesianChunk)
def _tile_cartesian(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, CartesianChunk)
    left, right = inputs
    pairs = [(i, j) for i in range(len(left.nsplits[0])) for j in range(len(right.nsplits[0]))]
    grid = key_grid(node.key, [len(pairs)])
    for n, (i, j) in enumerate(pairs):
        refs = (Ref(left.keys[i]), Ref(right.keys[j]))
        ctx.new_task(grid[n], call_pair, op.func, op.args, op.kwargs, *refs)
    return Tiled(((math.nan,) * len(pairs),), grid)


def cartesian_chunk(
    left: FrameBase,
    right: FrameBase,
    func: Callable[..., Any],
    args: tuple[Any, ...] = (),
    *,
    output_type: str | None = None,
    output_types: Any = None,
    dtypes: Any = None,
    index: Any = None,
    meta: Any = None,
    skip_infer: bool = False,
    memory_scale: Any = None,
    **kwargs: Any,
) -> Any:
    """``func(left_chunk, right_chunk, *args, **kwargs)`` for every pair of row chunks
    (Mars's ``cartesian_chunk``): a DataFrame or Series of unknown length."""
    check_callable("cartesian_chunk", func)
    if not isinstance(right, (DataFrame, Series)):
        raise TypeError(
            f"cartesian_chunk: right must be a DataFrame or Series, got {type(right).__name__}"
        )
    if output_type is None and output_types:
        (output_type,) = output_types
    out = given_meta(meta, dtypes, output_type, left.meta, "cartesian_chunk")
    call = functools.partial(call_pair, func, tuple(args), dict(kwargs))
    if out is None:
        if skip_infer:
            raise TypeError(
                "cartesian_chunk: with skip_infer=True, pass output_type= and dtypes= (or meta=)"
            )
        sample = sample_like(right.meta)
        out = infer_meta("cartesian_chunk", functools.partial(_with_right, call, sample), left.meta)
    if not isinstance(out, (pd.DataFrame, pd.Series)):
        raise TypeError(
            f"cartesian_chunk: the function must return a DataFrame or Series per pair, got "
            f"{type(out).__name__}; pass output_type= and dtypes= to say what it returns"
        )
    if index is not None:
        out = out.set_axis(pd.Index(index)[:0], axis=0)
    op = CartesianChunk(func, tuple(args), dict(kwargs))
    return new_frame(op, [left, right], math.nan, empty_like(out))


def _with_right(call: Callable[..., Any], right: Any, left: Any) -> Any:
    return call(left, right)


def _attach() -> None:
    for cls in (DataFrame, Series):
        cls.cartesian_chunk = cartesian_chunk  # type: ignore[union-attr]
    for kind in (DataFrame, Series, Index):
        kind.rebalance = rebalance  # type: ignore[union-attr]


_attach()
