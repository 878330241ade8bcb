"""``searchsorted``: each chunk of ``v`` searched in every chunk of the sorted 1-d ``a``,
the positions added (see ``_outer``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import array_module
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.rechunk import rechunk_tiled
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.sorting._common import INTP, chunk_indices
from jupyter_mars.tensor.sorting._outer import OuterReduce


def searchsorted_part(v: Any, a: Any, side: str) -> Any:
    xp = array_module(v, a)
    return xp.asarray(xp.searchsorted(a, v, side=side), dtype=np.intp)


def as_intp_array(x: Any) -> Any:
    return array_module(x).asarray(x, dtype=np.intp)


@dataclass(frozen=True, eq=False)
class TakeGathered(Op):
    """``a[indices]`` for a 1-d ``a`` gathered into one chunk; chunks follow ``indices``."""

    def label(self) -> str:
        return "take"


def take_checked(a: Any, indices: Any) -> Any:
    if indices.size and (indices.min() < -len(a) or indices.max() >= len(a)):
        raise ValueError("Sorter index out of range.")
    return a[indices]


@tile_rule(TakeGathered)
def _tile_take_gathered(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    a, indices = inputs
    ctx.require_known(a)
    whole = rechunk_tiled(f"{node.key}-a", a, ((sum(a.nsplits[0]),),), node.dtype, ctx)
    grid = key_grid(node.key, indices.numblocks)
    for index in chunk_indices(indices.numblocks):
        ctx.add_blockwise(
            grid[index], take_checked, (Ref(whole.keys[0]), Ref(indices.keys[index])), {}
        )
    return Tiled(indices.nsplits, grid)


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    """Global positions in the sorted 1-d ``a`` where ``v`` would be inserted.

    ``a`` may be split into chunks: each chunk of ``v`` is searched in every chunk of ``a``
    and the counts are added (a tree of ``combine_size``). With ``sorter``, ``a[sorter]``
    is built by gathering ``a`` into one chunk.
    """
    at = astensor(a)
    vt = astensor(v)
    if at.ndim != 1:
        raise ValueError(f"searchsorted(): a must be 1-dimensional, got {at.ndim} dimensions")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    np.searchsorted(np.zeros(1, dtype=at.dtype), np.zeros(1, dtype=vt.dtype), side=side)  # type: ignore[call-overload]
    if sorter is not None:
        st = astensor(sorter)
        if st.dtype.kind not in "iu":
            raise TypeError(f"sorter must hold integers, got dtype {st.dtype}")
        if st.ndim != 1 or (
            not isinstance(st.shape[0], float)
            and not isinstance(at.shape[0], float)
            and st.shape[0] != at.shape[0]
        ):
            raise ValueError("sorter.size must equal a.size")
        at = new_tensor(TakeGathered(), [at, st], st.shape, at.dtype)
    op = OuterReduce(
        functools.partial(searchsorted_part, side=side), np.add, as_intp_array, "searchsorted"
    )
    return new_tensor(op, [vt, at], vt.shape, INTP)
