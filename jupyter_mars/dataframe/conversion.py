"""DataFrame and Series to tensors: ``to_tensor()``, ``.values``, ``to_numpy()``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from pandas.api.extensions import no_default

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import Tensor, new_tensor


@dataclass(frozen=True, eq=False)
class ToTensor(Op):
    def label(self) -> str:
        return "to_tensor"


def chunk_to_numpy(chunk: Any, dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    out: np.ndarray[Any, Any] = chunk.to_numpy(dtype=dtype)
    return out


@tile_rule(ToTensor)
def _tile_to_tensor(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (t,) = inputs
    rows = t.nsplits[0]
    numblocks = [len(rows)] + [1] * (node.ndim - 1)
    grid = key_grid(node.key, numblocks)
    for i in range(len(rows)):
        index = (i,) + (0,) * (node.ndim - 1)
        ctx.new_task(grid[index], chunk_to_numpy, Ref(t.keys[i]), node.dtype)
    return Tiled((rows, *((int(n),) for n in node.shape[1:])), grid)


def to_tensor(frame: FrameBase) -> Tensor:
    """The values as a tensor, chunked by the same rows (all columns in each chunk), of
    pandas' dtype for them: objects where the columns have no common NumPy dtype (mixed
    columns, strings), as pandas' ``values`` and Mars's ``to_tensor`` give."""
    dtype = frame.meta.to_numpy().dtype
    shape = tuple(frame.node.shape) + tuple(frame.meta.shape[1:])
    return new_tensor(ToTensor(), [frame], shape, dtype)  # type: ignore[list-item]


def to_numpy(
    frame: FrameBase, dtype: Any = None, copy: bool = False, na_value: Any = no_default
) -> Any:
    """The values fetched as a NumPy array, with pandas' ``dtype``, ``copy`` and
    ``na_value`` (pandas converts the fetched object, mixed dtypes giving objects)."""
    return frame.to_pandas().to_numpy(dtype=dtype, copy=copy, na_value=na_value)


def _attach() -> None:
    for cls in (DataFrame, Series):
        methods: dict[str, Any] = {
            "to_tensor": to_tensor,
            "values": property(to_tensor),
            "to_numpy": to_numpy,
        }
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
