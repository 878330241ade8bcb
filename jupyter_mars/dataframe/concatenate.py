"""``concat``: frames and series one after another (``axis=0``) or side by side (``axis=1``).

The result's meta is ``pd.concat`` of the inputs' metas, which also raises pandas' errors
at the call; in pandas 3 the result's columns and dtypes depend only on the inputs' (a
column missing from some inputs is filled with missing values and its dtype widened).

``axis=0`` moves no data: the result's chunks are the inputs' chunks in order, each made
to the result's columns and dtypes, one task per chunk. ``keys`` adds an outer index level
per input, and ``ignore_index`` relabels the rows ``0 .. n-1`` across chunks (``renumber``,
which waits for data-dependent chunk lengths).

``axis=1``: inputs with the same index and chunking are put side by side chunk by chunk.
Others are aligned on their labels as pandas does, here by bringing each into one chunk
(``map_chunks.aligned``): correct for any indexes, and meant for inputs that fit one task;
a shuffle of every input by index hash would keep large ones parallel. Alignment may add
missing values, so the dtypes are pandas' for the data (an int column becomes float),
which the meta, computed without data, cannot foresee.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.map_chunks import Slot, aligned, map_chunks
from jupyter_mars.dataframe.node import FrameNode, empty_like
from jupyter_mars.dataframe.renumber import renumber
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

__all__ = ["concat"]


@dataclass(frozen=True, eq=False)
class ConcatRows(Op):
    keys: tuple[Any, ...] | None
    """The outer index label of each input's rows, or None."""

    def label(self) -> str:
        return "concat"


def conform(chunk: Any, meta: Any, key: Any, with_key: bool) -> Any:
    """A chunk of one input, with the result's columns, dtypes and name (and outer index
    level ``key`` when ``with_key``)."""
    if isinstance(meta, pd.DataFrame):
        if isinstance(chunk, pd.Series):
            chunk = chunk.to_frame(0 if chunk.name is None else chunk.name)
        same = chunk.columns.equals(meta.columns) and chunk.columns.dtype == meta.columns.dtype
        if not same:
            chunk = chunk.reindex(columns=meta.columns)
        if not chunk.dtypes.equals(meta.dtypes):
            chunk = chunk.astype(meta.dtypes.to_dict())
    else:
        if chunk.dtype != meta.dtype:
            chunk = chunk.astype(meta.dtype)
        if chunk.name != meta.name:
            chunk = chunk.rename(meta.name)
    if with_key:
        chunk = pd.concat([chunk], keys=[key])
        if chunk.index.names != meta.index.names:
            chunk.index = chunk.index.set_names(meta.index.names)
    return chunk


@tile_rule(ConcatRows)
def _tile_concat_rows(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ConcatRows)
    assert isinstance(node, FrameNode)
    keys: list[Any] = []
    splits: list[float] = []
    for n, t in enumerate(inputs):
        key = op.keys[n] if op.keys is not None else None
        for i, chunk_key in enumerate(t.flat_keys()):
            keys.append((node.key, len(keys)))
            args = (Ref(chunk_key), node.meta, key, op.keys is not None)
            ctx.add_blockwise(keys[-1], conform, args, {})
            splits.append(t.nsplits[0][i])
    return Tiled((tuple(splits),), key_grid(node.key, [len(keys)]))


def _as_lazy(obj: Any) -> Any:
    if isinstance(obj, pd.DataFrame):
        return DataFrame(obj)
    if isinstance(obj, pd.Series):
        return Series(obj)
    if isinstance(obj, (DataFrame, Series)):
        return obj
    raise TypeError(f"concat: objs must hold DataFrames and Series, got a {type(obj).__name__}")


def concat_side_by_side(join: str, keys: Any, ignore_index: bool, *chunks: Any) -> Any:
    return pd.concat(list(chunks), axis=1, join=join, keys=keys, ignore_index=ignore_index)


def _row_dtypes(metas: list[Any], frames: list[Any], join: str, meta: Any) -> Any:
    """``meta`` with the dtypes pandas gives the rows: an input with rows but no columns
    fills every column with missing values, which its empty meta does not show."""
    if not isinstance(meta, pd.DataFrame) or meta.shape[1] == 0:
        return meta
    samples = [
        pd.DataFrame(index=pd.RangeIndex(1))
        if isinstance(m, pd.DataFrame) and m.shape[1] == 0 and f.node.shape[0] != 0
        else m
        for m, f in zip(metas, frames)
    ]
    if all(s is m for s, m in zip(samples, metas)):
        return meta
    dtypes = pd.concat(samples, join=join, ignore_index=True).dtypes
    changed = {c: t for c, t in dtypes.items() if c in meta.columns and meta[c].dtype != t}
    return meta.astype(changed) if changed else meta


def concat(
    objs: Any,
    axis: Any = 0,
    join: str = "outer",
    ignore_index: bool = False,
    keys: Any = None,
) -> Any:
    """Concatenate frames and series along rows or columns, as ``pd.concat``."""
    if isinstance(objs, Mapping):
        if keys is None:
            keys = list(objs.keys())
        objs = [objs[k] for k in keys]
    if isinstance(objs, (pd.DataFrame, pd.Series, FrameBase)) or not hasattr(objs, "__iter__"):
        raise TypeError(
            "concat: objs must be a list or a dict of DataFrames and Series, "
            f"got {type(objs).__name__}"
        )
    objs = list(objs)
    if keys is not None:
        keys = list(keys)
        if len(keys) != len(objs):
            raise ValueError(f"concat: {len(keys)} keys for {len(objs)} objects")
        keys = [k for k, o in zip(keys, objs) if o is not None]
    objs = [o for o in objs if o is not None]  # pandas skips None
    metas = [o.meta if isinstance(o, FrameBase) else o for o in objs]
    meta = empty_like(pd.concat(metas, axis=axis, join=join, ignore_index=ignore_index, keys=keys))
    frames = [_as_lazy(o) for o in objs]
    if axis in (1, "columns"):
        return _concat_columns(frames, meta, join, keys, ignore_index)
    meta = _row_dtypes(metas, frames, join, meta)
    nrows = sum(f.node.shape[0] for f in frames)
    op = ConcatRows(tuple(keys) if keys is not None else None)
    out = new_frame(op, frames, float("nan") if math.isnan(nrows) else nrows, meta)
    return renumber(out, meta) if ignore_index else out


def _concat_columns(frames: list[Any], meta: Any, join: str, keys: Any, ignore_index: bool) -> Any:
    frames = aligned(frames)
    slots = tuple(Slot(i) for i in range(len(frames)))
    same_rows = len({f.node.index_key for f in frames}) == 1  # type: ignore[attr-defined]
    return map_chunks(
        concat_side_by_side,
        frames,
        (join, keys, ignore_index, *slots),
        meta,
        name="concat",
        keeps_rows=same_rows,
    )
