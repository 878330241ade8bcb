"""``partition`` and ``argpartition``.

Along an axis held in one chunk each chunk is partitioned by NumPy (same result as NumPy);
along a split axis (and for ``axis=None``) the result is the parallel sort of ``sort``,
which has the partition property.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape.common import check_axis
from jupyter_mars.tensor.sorting._common import INTP, check_known, chunk_indices
from jupyter_mars.tensor.sorting.sort import sort_node, sort_tiled


def _check_kth(kth: Any, length: int) -> tuple[int, ...]:
    if isinstance(kth, Tensor):
        raise TypeError("kth must be an int or a sequence of ints, not a tensor")
    values = np.asarray(kth)
    if values.dtype.kind not in "iu":
        raise TypeError(f"kth must be an int or a sequence of ints, got {kth!r}")
    if values.ndim > 1:
        raise ValueError("kth array must have dimension <= 1")
    out = []
    for k in values.ravel():
        if not -length <= k < length:
            raise ValueError(f"kth(={int(k)}) out of bounds ({length})")
        out.append(int(k) % length)
    return tuple(out)


@dataclass(frozen=True, eq=False)
class Partition(Op):
    """Per chunk with NumPy when ``axis`` is one chunk, else the parallel sort."""

    axis: int
    kth: tuple[int, ...]
    arg: bool

    def label(self) -> str:
        return "argpartition" if self.arg else "partition"


def partition_block(block: Any, kth: tuple[int, ...], axis: int, arg: bool) -> Any:
    func = np.argpartition if arg else np.partition
    return func(block, list(kth), axis=axis)


@tile_rule(Partition)
def _tile_partition(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Partition)
    (x,) = inputs
    if x.numblocks[op.axis] != 1:
        return sort_tiled(node.key, x, op.axis, op.arg, node.dtype, ctx)
    grid = key_grid(node.key, x.numblocks)
    for index in chunk_indices(x.numblocks):
        ctx.add_blockwise(
            grid[index], partition_block, (Ref(x.keys[index]), op.kth, op.axis, op.arg), {}
        )
    return Tiled(x.nsplits, grid)


def _partition(a: Any, kth: Any, axis: Any, kind: str, order: Any, arg: bool) -> Tensor:
    x = astensor(a)
    name = "argpartition" if arg else "partition"
    if kind != "introselect":
        raise ValueError(f"{name}(): kind must be 'introselect', got {kind!r}")
    if order is not None:
        raise ValueError(f"{name}(): 'order' (structured arrays) is not supported on tensors")
    if axis is None:
        check_known(x, name)
        _check_kth(kth, int(x.size))
        return sort_node(x, None, arg, name)
    ax = check_axis(axis, x.ndim, expected="an int or None")
    length = x.shape[ax]
    if isinstance(length, float):
        raise ValueError(f"{name}() needs the length of axis {ax}, unknown until executed")
    ks = _check_kth(kth, int(length))
    return new_tensor(Partition(ax, ks, arg), [x], x.shape, INTP if arg else x.dtype)


def partition(
    a: Any, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None
) -> Tensor:
    """A copy of ``a`` with the ``kth`` elements where a sort would put them, smaller ones
    before and larger ones after.

    Along an axis held in one chunk each chunk is partitioned by NumPy (same result as
    NumPy); along a split axis (and for ``axis=None``) the result is the parallel sort,
    which has the partition property (other positions may differ from NumPy's, whose order
    there is implementation-defined).
    """
    return _partition(a, kth, axis, kind, order, False)


def argpartition(
    a: Any, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None
) -> Tensor:
    """Global indices that partition ``a`` (see ``partition``)."""
    return _partition(a, kth, axis, kind, order, True)
