"""Frames from data the user holds: pandas objects, dicts, NumPy arrays and tensors."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.chunks import column_splits, row_splits
from jupyter_mars.dataframe.node import FrameNode, empty_like
from jupyter_mars.dataframe.rechunk_tiling import Rechunk
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.devices import GPU
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.executable import Executable
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.sparse.convert import todense


@dataclass(frozen=True, eq=False)
class FromPandas(Op):
    data: Any
    """The DataFrame, Series or Index, split into row chunks when tiled."""
    splits: tuple[int, ...]
    col_splits: tuple[int, ...] | None = None
    """Widths of the column chunks of a DataFrame split by columns too."""

    def label(self) -> str:
        return "from_pandas"


def copy_rows(data: Any) -> Any:
    return data.copy()


@tile_rule(FromPandas)
def _tile_from_pandas(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, FromPandas)
    if op.col_splits is not None:
        return _tile_split_frame(node.key, op.data, op.splits, op.col_splits, ctx)
    grid = key_grid(node.key, [len(op.splits)])
    starts = offsets(op.splits)
    for i in range(len(op.splits)):
        start, stop = int(starts[i]), int(starts[i + 1])
        part = op.data[start:stop] if isinstance(op.data, pd.Index) else op.data.iloc[start:stop]
        ctx.new_task(grid[i], copy_rows, part)
    return Tiled((op.splits,), grid)


def _tile_split_frame(
    key: str, data: pd.DataFrame, rows: tuple[int, ...], cols: tuple[int, ...], ctx: TileContext
) -> Tiled:
    grid = key_grid(key, [len(rows), len(cols)])
    row_starts, col_starts = offsets(rows), offsets(cols)
    for i in range(len(rows)):
        block = data.iloc[int(row_starts[i]) : int(row_starts[i + 1])]
        for j in range(len(cols)):
            part = block.iloc[:, int(col_starts[j]) : int(col_starts[j + 1])]
            ctx.new_task(grid[i, j], copy_rows, part)
    return Tiled((rows, cols), grid)


def _row_bytes(data: Any) -> int:
    if not len(data):
        return 1
    usage = data.memory_usage(deep=False)
    total = int(usage.sum()) if isinstance(usage, pd.Series) else int(usage)
    return max(1, total // len(data))


_COPY_ON_WRITE = int(pd.__version__.split(".")[0]) >= 3
"""pandas 3 always copies on write: a shallow copy is then a snapshot."""


def snapshot(data: Any) -> Any:
    """``data`` as it is now, so that the user's later changes to it (``del df['b']``,
    ``df.loc[0, 'a'] = 5``) never reach a lazy frame built from it."""
    if isinstance(data, pd.Index):
        return data  # immutable
    return data.copy(deep=not _COPY_ON_WRITE)


def from_pandas(data: Any, chunk_size: Any = None) -> FrameNode:
    """A node over a pandas DataFrame, Series or Index, split into row chunks."""
    data = snapshot(data)
    splits = row_splits(len(data), chunk_size, _row_bytes(data))
    cols = column_splits(data.shape[1], chunk_size) if isinstance(data, pd.DataFrame) else None
    return FrameNode(FromPandas(data, splits, cols), [], len(data), empty_like(data))


@dataclass(frozen=True, eq=False)
class FromTensor(Op):
    meta: Any
    """The result's meta: its kind, columns and dtypes."""

    def label(self) -> str:
        return "from_tensor"


def tensor_to_pandas(block: np.ndarray[Any, Any], start: int, meta: Any) -> Any:
    index = pd.RangeIndex(start, start + len(block))
    if isinstance(meta, pd.DataFrame):
        dtypes = meta.dtypes
        if len(dtypes) and (dtypes == dtypes.iloc[0]).all():
            # one dtype (a tensor's): the frame is made in it, not cast column by column
            return pd.DataFrame(block, index=index, columns=meta.columns, dtype=dtypes.iloc[0])
        return pd.DataFrame(block, index=index, columns=meta.columns).astype(dtypes)
    if isinstance(meta, pd.Series):
        return pd.Series(block, index=index, name=meta.name, dtype=meta.dtype)
    return pd.Index(block, name=meta.name, dtype=meta.dtype)


@tile_rule(FromTensor)
def _tile_from_tensor(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, FromTensor)
    (t,) = inputs
    ctx.require_known(t)  # every chunk's first row label is its offset
    rows = t.nsplits[0]
    grid = key_grid(node.key, [len(rows)])
    for i, start in zip(range(len(rows)), offsets(rows)):
        block_key = t.keys[(i,) + (0,) * (t.keys.ndim - 1)]
        ctx.new_task(grid[i], tensor_to_pandas, Ref(block_key), int(start), op.meta)
    return Tiled((rows,), grid)


def from_tensor(
    t: Tensor, kind: str, index: Any, columns: Any, dtype: Any, name: Any, chunk_size: Any
) -> FrameNode:
    """A frame of ``kind`` (``"frame"``, ``"series"``, ``"index"``) over a tensor's rows."""
    if t.node.device == GPU:
        # pandas holds host memory only; a silent copy off the device would hide its cost
        what = {"frame": "DataFrame", "series": "Series", "index": "Index"}[kind]
        raise TypeError(
            f"a {what} lives in host memory and this tensor is on a GPU: call .to_cpu() on it first"
        )
    if index is not None:  # the constructors take it by position (``initial.py``)
        raise NotImplementedError("index= with a tensor: set it with set_index after")
    t = todense(t)  # a frame's chunks are pandas objects, made from dense chunks
    if kind == "frame" and t.ndim == 1:
        t = t.reshape(-1, 1)
    meta = _tensor_meta(t, kind, columns, name)
    if dtype is not None:
        meta = meta.astype(dtype)
    if chunk_size is not None:
        t = t.rechunk({0: row_splits(len(t), chunk_size, 1)})
    if t.ndim == 2:
        t = t.rechunk({1: int(t.shape[1])})  # every row chunk holds all columns
    node = FrameNode(FromTensor(meta), [t.node], t.node.shape[0], meta)
    cols = column_splits(meta.shape[1], chunk_size) if kind == "frame" else None
    return node if cols is None else FrameNode(Rechunk(None, cols), [node], node.shape[0], meta)


def _tensor_meta(t: Tensor, kind: str, columns: Any, name: Any) -> Any:
    empty = np.empty((0,) + tuple(int(n) for n in t.shape[1:]), dtype=t.dtype)
    if kind == "frame":
        if t.ndim != 2:
            raise ValueError(f"a DataFrame takes a 1-d or 2-d tensor, got {t.ndim}-d")
        return pd.DataFrame(empty, columns=columns)
    if t.ndim != 1:
        raise ValueError(
            f"a {'Series' if kind == 'series' else 'Index'} takes a 1-d tensor, got {t.ndim}-d"
        )
    return pd.Series(empty, name=name) if kind == "series" else pd.Index(empty, name=name)


def _plain_index(index: Any) -> Any:
    """A lazy Index given as labels, fetched: pandas would read it as an array, which
    flattens a MultiIndex into tuples."""
    if isinstance(index, Executable) and not isinstance(index, Tensor):
        return index.to_pandas()  # type: ignore[attr-defined]
    return index


def partition_rows(nrows: Any, chunk_size: Any, num_partitions: int | None) -> Any:
    """Rows per chunk for Mars's ``num_partitions`` (at most that many chunks of even
    length), else ``chunk_size`` as given."""
    if num_partitions is None or (isinstance(nrows, float) and math.isnan(nrows)):
        return chunk_size
    return max(1, -(-int(nrows) // int(num_partitions)))


def dataframe_node(
    data: Any,
    index: Any,
    columns: Any,
    dtype: Any,
    chunk_size: Any,
    num_partitions: int | None = None,
) -> FrameNode:
    if isinstance(data, Tensor):
        rows = partition_rows(data.shape[0] if data.ndim else 1, chunk_size, num_partitions)
        return from_tensor(data, "frame", index, columns, dtype, None, rows)
    frame = (
        data
        if isinstance(data, pd.DataFrame) and index is None and columns is None and dtype is None
        else pd.DataFrame(data, index=_plain_index(index), columns=columns, dtype=dtype)
    )
    return from_pandas(frame, partition_rows(len(frame), chunk_size, num_partitions))


def series_node(
    data: Any,
    index: Any,
    dtype: Any,
    name: Any,
    chunk_size: Any,
    num_partitions: int | None = None,
) -> FrameNode:
    if isinstance(data, Tensor):
        rows = partition_rows(data.shape[0] if data.ndim else 1, chunk_size, num_partitions)
        return from_tensor(data, "series", index, None, dtype, name, rows)
    series = (
        data
        if isinstance(data, pd.Series) and index is None and dtype is None and name is None
        else pd.Series(data, index=_plain_index(index), dtype=dtype, name=name)
    )
    return from_pandas(series, partition_rows(len(series), chunk_size, num_partitions))


def index_node(
    data: Any,
    dtype: Any,
    name: Any,
    chunk_size: Any,
    num_partitions: int | None = None,
    tupleize_cols: bool = True,
) -> FrameNode:
    if isinstance(data, Tensor):
        rows = partition_rows(data.shape[0] if data.ndim else 1, chunk_size, num_partitions)
        return from_tensor(data, "index", None, None, dtype, name, rows)
    idx = (
        data
        if isinstance(data, pd.Index) and dtype is None and name is None
        else pd.Index(data, dtype=dtype, name=name, tupleize_cols=tupleize_cols)
    )
    return from_pandas(idx, partition_rows(len(idx), chunk_size, num_partitions))
