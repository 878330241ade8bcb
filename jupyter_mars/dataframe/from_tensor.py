"""Mars's ``dataframe_from_tensor`` and ``series_from_tensor``: frames over a tensor's
rows, chunked as the tensor is (``md.DataFrame(tensor)`` under its Mars name).

``index=`` (values in memory, a lazy Index or Series, or a 1-d tensor) labels the rows by
position: row ``r`` gets the ``r``-th value. The index's chunks need not line up with
the tensor's: once both chunkings are known, each chunk of the frame takes the slices of
the index chunks that cover its rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Index, Series, new_frame
from jupyter_mars.dataframe.datasource import from_tensor
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import Tensor

__all__ = ["dataframe_from_tensor", "series_from_tensor"]


@dataclass(frozen=True, eq=False)
class IndexByPosition(Op):
    def label(self) -> str:
        return "index_by_position"


def label_rows(chunk: Any, start: int, starts: tuple[int, ...], *pieces: Any) -> Any:
    """``chunk`` (rows ``start..``) labelled with the index values at those positions;
    ``pieces`` are the index chunks that cover them, beginning at ``starts``."""
    stop = start + len(chunk)
    parts = [
        piece[max(0, start - s) : max(0, min(len(piece), stop - s))]
        for piece, s in zip(pieces, starts)
    ]
    values = parts[0].append(parts[1:]) if len(parts) > 1 else parts[0]
    return chunk.set_axis(values, axis=0)


@tile_rule(IndexByPosition)
def _tile_index_by_position(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    frame, index = inputs
    ctx.require_known(frame, index)
    rows = [int(n) for n in frame.nsplits[0]]
    index_starts = [int(n) for n in offsets(index.nsplits[0])]
    keys = index.flat_keys()
    grid = key_grid(node.key, [len(rows)])
    for i, (start, n) in enumerate(zip(offsets(rows), rows)):
        stop = int(start) + n
        covering = [
            j for j in range(len(keys))
            if index_starts[j] < stop and index_starts[j + 1] > start or (n == 0 and j == 0)
        ]  # fmt: skip
        starts = tuple(index_starts[j] for j in covering)
        ctx.new_task(
            grid[i], label_rows, Ref(frame.keys[i]), int(start), starts,
            *(Ref(keys[j]) for j in covering),
        )  # fmt: skip
    return Tiled(frame.nsplits, grid)


def _as_index(index: Any) -> Index:
    if isinstance(index, Index):
        return index
    if isinstance(index, Series):
        return map_chunks(pd.Index, [index], (Slot(0),), pd.Index(index.meta), name="to_index")  # type: ignore[no-any-return]
    if isinstance(index, Tensor):
        return Index(index)
    if isinstance(index, FrameBase):
        raise TypeError("index must be an Index, a Series, a 1-d tensor or values")
    return Index(pd.Index(index))


def index_by_position(frame: Any, index: Any) -> Any:
    """``frame`` with row ``r`` labelled by the ``r``-th value of ``index`` (None: as is)."""
    if index is None:
        return frame
    labels = _as_index(index)
    n, m = frame.node.shape[0], labels.node.shape[0]
    if not (math.isnan(n) or math.isnan(m)) and n != m:
        shape = tuple(frame.meta.shape[1:])
        raise ValueError(
            f"Shape of passed values is {(int(n), *shape)}, indices imply {(int(m), *shape)}"
        )
    meta = frame.meta.set_axis(labels.meta[:0], axis=0)
    return new_frame(IndexByPosition(), [frame, labels], frame.node.shape[0], meta)


def _check(tensor: Any, gpu: Any, sparse: Any) -> None:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"tensor must be a lazy tensor, got {type(tensor).__name__}")
    if gpu:
        raise NotImplementedError("gpu=True: frames live in host memory")
    if sparse:
        raise NotImplementedError("sparse=True: frames are dense")


def dataframe_from_tensor(
    tensor: Tensor,
    index: Any = None,
    columns: Any = None,
    gpu: Any = None,
    sparse: bool = False,
) -> DataFrame:
    """A lazy DataFrame of a 1-d or 2-d tensor's values (one column per tensor column),
    labelled by ``index`` when given."""
    _check(tensor, gpu, sparse)
    frame = DataFrame(from_tensor(tensor, "frame", None, columns, None, None, None))
    return index_by_position(frame, index)  # type: ignore[no-any-return]


def series_from_tensor(
    tensor: Tensor,
    index: Any = None,
    name: Any = None,
    dtype: Any = None,
    gpu: Any = None,
    sparse: bool = False,
) -> Series:
    """A lazy Series of a 1-d tensor's values, labelled by ``index`` when given."""
    _check(tensor, gpu, sparse)
    series = Series(from_tensor(tensor, "series", None, None, dtype, name, None))
    return index_by_position(series, index)  # type: ignore[no-any-return]
