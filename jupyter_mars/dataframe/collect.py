"""One task that builds a pandas object from several small lazy results.

``df.agg(["sum", "mean"])`` computes each reduction as its own tree (a Series per
function, a 0-d tensor per Series statistic); their results are small, so one task takes
them all and lays them out as pandas does. ``collect(build, parts, meta, nrows)`` runs
``build(values)`` on the computed ``parts`` (lazy frames and tensors, concatenated when
they have several chunks; anything else passed as it is).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import new_frame
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.executable import Executable


@dataclass(frozen=True, eq=False)
class Collect(Op):
    build: Callable[[list[Any]], Any]
    """Makes the result from the computed values of the parts, in order."""
    lazy: tuple[bool, ...]
    """Which parts are lazy inputs of the node (the others are ``constants``)."""
    constants: tuple[Any, ...]
    name: str = "collect"

    def label(self) -> str:
        return self.name


def _whole(chunks: list[Any]) -> Any:
    """A lazy input's value from its chunks, in order."""
    if len(chunks) == 1:
        return chunks[0]
    if isinstance(chunks[0], (pd.DataFrame, pd.Series, pd.Index)):
        return (
            pd.concat(chunks)
            if not isinstance(chunks[0], pd.Index)
            else chunks[0].append(chunks[1:])
        )
    return np.concatenate([np.atleast_1d(c) for c in chunks])


def run_collect(op: Collect, *inputs: list[Any]) -> Any:
    lazy = iter(inputs)
    constants = iter(op.constants)
    values = [_whole(next(lazy)) if is_lazy else next(constants) for is_lazy in op.lazy]
    return op.build(values)


@tile_rule(Collect)
def _tile_collect(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Collect)
    key = key_grid(node.key, [1])
    refs = [[Ref(k) for k in t.flat_keys()] for t in inputs]
    ctx.new_task(key[0], run_collect, op, *refs)
    return Tiled(((node.shape[0],),), key)


def collect(
    build: Callable[[list[Any]], Any], parts: list[Any], meta: Any, nrows: float, name: str
) -> Any:
    """A lazy DataFrame or Series (by ``meta``) of one chunk: ``build`` of the parts."""
    lazy = tuple(isinstance(p, Executable) for p in parts)
    constants = tuple(p for p in parts if not isinstance(p, Executable))
    op = Collect(build, lazy, constants, name)
    return new_frame(op, [p for p in parts if isinstance(p, Executable)], nrows, meta)
