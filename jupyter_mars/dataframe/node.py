"""Frame nodes: lazy pandas objects on the engine, chunked by rows.

A ``FrameNode`` is an engine ``Node`` whose shape, as the engine sees it, is the number of
rows only (``nan`` when data-dependent) and whose chunks are pandas objects: row slices of
a DataFrame, Series or Index, in order. Its ``meta`` is an empty pandas object of the
same kind, columns, dtypes, index type and names; the result's columns are never
data-dependent. Because the engine sees one axis, its primitives (blockwise maps, tree
reductions along rows, iterative tiling of unknown lengths) serve frames unchanged. A
frame may also be split by columns (see ``column_split``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.column_split import assemble_grid, tiled_for
from jupyter_mars.dataframe.gather import parallel_concat
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled

FRAME_DTYPE = np.dtype(object)
"""What the engine's ``dtype`` slot holds for frames: their dtypes live in ``meta``."""


class FrameNode(Node):
    """A lazy DataFrame, Series or Index: rows in order, split into row chunks."""

    __slots__ = ("meta", "index_key")

    def __init__(
        self,
        op: Op,
        inputs: Sequence[Node],
        nrows: float,
        meta: Any,
        index_key: str | None = None,
    ) -> None:
        super().__init__(op, inputs, (nrows,), FRAME_DTYPE)
        self.meta = meta
        """An empty object of the result's kind with its columns, dtypes and index type."""
        self.index_key = index_key or self.key
        """Names the row index and its chunking: nodes that keep both (element-wise
        operations, column selections) share it with their input, so their chunks line up
        row for row without aligning labels."""

    def tiled_for(self, reader: Node, tiled: Tiled, ctx: TileContext) -> Tiled:
        return tiled_for(self, reader, tiled, ctx)

    def assemble(self, tiled: Tiled, chunks: list[Any], threads: int = 1) -> Any:
        return concat_chunks(assemble_grid(chunks, tiled.numblocks), self.meta, threads)


def concat_chunks(chunks: list[Any], meta: Any, threads: int = 1) -> Any:
    """One pandas object from row chunks in order (the meta when there are none), copied
    on up to ``threads`` threads where the columns allow it."""
    if not chunks:
        return meta
    if len(chunks) == 1:
        return chunks[0]
    if isinstance(meta, pd.Index):
        return chunks[0].append(list(chunks[1:]))
    gathered = parallel_concat(chunks, threads)
    return pd.concat(chunks) if gathered is None else gathered


def side_by_side(columns: pd.Index, *parts: Any) -> pd.DataFrame:
    """Frames or Series of the same rows as one frame whose columns are ``columns``
    (labels the parts' own names could not give: repeated, or not theirs)."""
    return pd.concat(list(parts), axis=1).set_axis(columns, axis=1)


def empty_like(obj: Any) -> Any:
    """The meta of a pandas object: no rows, same columns, dtypes and index type; anything
    else (a scalar) as it is."""
    if isinstance(obj, pd.Index):
        return obj[:0]
    return obj.iloc[:0] if isinstance(obj, (pd.DataFrame, pd.Series)) else obj
