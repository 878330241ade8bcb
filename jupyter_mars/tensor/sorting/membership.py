"""``isin`` and ``in1d``: each chunk of the elements tested against every chunk of the test
elements, the answers or-ed together (see ``_outer``)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.sorting._common import identity
from jupyter_mars.tensor.sorting._outer import OuterReduce


def isin_part(element: Any, test: Any, kind: str | None) -> Any:
    xp = array_module(element, test)
    if xp is np:
        return np.asarray(np.isin(element, test, kind=kind))  # type: ignore[arg-type]
    # CuPy's isin has one method: ``kind`` chooses NumPy's, never the answer
    return xp.asarray(xp.isin(element, test))


def isin(
    element: Any,
    test_elements: Any,
    assume_unique: bool = False,
    invert: bool = False,
    *,
    kind: str | None = None,
) -> Tensor:
    """Whether each element of ``element`` is in ``test_elements``, shaped like ``element``.

    Each chunk of ``element`` is tested against every chunk of ``test_elements`` and the
    answers are or-ed together (a tree of ``combine_size``).
    """
    et = astensor(element)
    tt = astensor(test_elements)
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    np.isin(np.zeros(1, dtype=et.dtype), np.zeros(1, dtype=tt.dtype), kind=kind)  # type: ignore[arg-type]
    op = OuterReduce(
        functools.partial(isin_part, kind=kind),
        np.logical_or,
        np.logical_not if invert else identity,
        "isin",
    )
    return new_tensor(op, [et, tt], et.shape, np.bool_)


@dataclass(frozen=True, eq=False)
class Ravel(Op):
    """C-order flattening: trailing axes are made whole, then each chunk is raveled."""

    def label(self) -> str:
        return "ravel"


def ravel_block(block: Any) -> Any:
    return array_module(block).asarray(block).reshape(-1)


@tile_rule(Ravel)
def _tile_ravel(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    ctx.require_known(x)
    if x.keys.ndim == 0:
        grid = key_grid(node.key, (1,))
        ctx.add_blockwise(grid[0], ravel_block, (Ref(x.keys.ravel()[0]),), {})
        return Tiled(((1,),), grid)
    wanted = (x.nsplits[0],) + tuple((sum(axis),) for axis in x.nsplits[1:])
    rows = rechunk_tiled(f"{node.key}-rows", x, wanted, node.dtype, ctx)
    inner = math.prod(int(axis[0]) for axis in wanted[1:])
    grid = key_grid(node.key, (rows.numblocks[0],))
    for i in range(rows.numblocks[0]):
        ctx.add_blockwise(
            grid[i], ravel_block, (Ref(rows.keys[(i,) + (0,) * (x.keys.ndim - 1)]),), {}
        )
    return Tiled((tuple(int(n) * inner for n in wanted[0]),), grid)


def ravel(x: Tensor) -> Tensor:
    if x.ndim == 1:
        return x
    return new_tensor(Ravel(), [x], (x.size,), x.dtype)


def in1d(
    ar1: Any,
    ar2: Any,
    assume_unique: bool = False,
    invert: bool = False,
    *,
    kind: str | None = None,
) -> Tensor:
    """``isin(ar1, ar2).ravel()``: NumPy's ``in1d`` (removed from NumPy 2.4, kept here)."""
    return ravel(isin(ar1, ar2, assume_unique=assume_unique, invert=invert, kind=kind))
