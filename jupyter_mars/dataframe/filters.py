"""Boolean row filters, ``where``, ``mask`` and ``isin``.

A filter by a lazy boolean Series that shares the frame's index (``df[df.a > 3]``) is one
task per chunk; its chunks' lengths are data-dependent (``nan`` until computed), which
later positional operations handle by asking for them (``require_known``). A mask with
another index is read whole by every chunk and aligned on the labels, as pandas aligns
it. A NumPy or list mask is positional: ``rows_like`` splits it at the frame's chunk
offsets (known once the chunks before are computed) and gives it the chunk's index, so it
lines up with the frame row for row. ``where`` / ``mask`` / ``isin`` are one pandas call
per chunk, their meta being the same call on the metas.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.callables import resolve
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.from_tensor import dataframe_from_tensor, series_from_tensor
from jupyter_mars.dataframe.map_chunks import Slot, aligned, map_chunks, meta_of, one_chunk
from jupyter_mars.dataframe.node import FrameNode, empty_like
from jupyter_mars.dataframe.projection import column_rule, needed_columns
from jupyter_mars.dataframe.take_into import take_columns_into
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.frame_dtypes import dtype_counts
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.tensor.core import Tensor

# ---- positional data lined up with a frame's chunks ---------------------------------------


@dataclass(frozen=True, eq=False)
class RowsLike(Op):
    data: Any
    """A NumPy array (1-d: a Series, 2-d: a DataFrame) split at the frame's offsets."""
    meta: Any

    def label(self) -> str:
        return "rows_like"


def with_chunk_index(chunk: Any, piece: Any, meta: Any) -> Any:
    """``piece`` (rows of an array) as a pandas object indexed like ``chunk``."""
    if isinstance(meta, pd.DataFrame):
        return pd.DataFrame(piece, index=chunk.index, columns=meta.columns).astype(
            meta.dtypes.to_dict()
        )
    return pd.Series(piece, index=chunk.index, name=meta.name, dtype=meta.dtype)


def _check_length(got: int, want: float, what: str) -> None:
    if not math.isnan(want) and got != int(want):
        raise ValueError(f"{what} has length {got}, the frame has {int(want)} rows")


@tile_rule(RowsLike)
def _tile_rows_like(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, RowsLike)
    (t,) = inputs
    ctx.require_known(t)
    lengths = t.nsplits[0]
    _check_length(len(op.data), sum(lengths), "the array")
    grid = key_grid(node.key, [len(lengths)])
    bounds = offsets(lengths)
    for i in range(len(lengths)):
        piece = op.data[int(bounds[i]) : int(bounds[i + 1])]
        ctx.new_task(grid[i], with_chunk_index, Ref(t.keys[i]), piece, op.meta)
    return Tiled((tuple(lengths),), grid)


def rows_like(frame: FrameBase, data: Any, name: Any = None, columns: Any = None) -> Any:
    """A lazy Series (1-d ``data``) or DataFrame (2-d) with ``frame``'s index and chunks."""
    arr = np.asarray(data)
    if arr.ndim not in (1, 2):
        raise ValueError(f"expected a 1-d or 2-d array, got {arr.ndim}-d")
    node = frame.node
    assert isinstance(node, FrameNode)
    _check_length(len(arr), node.shape[0], "the array")
    index = node.meta.index
    if arr.ndim == 1:
        meta: Any = pd.Series(arr[:0], index=index, name=name)
    else:
        meta = pd.DataFrame(arr[:0], index=index, columns=columns)
    return new_frame(RowsLike(arr, meta), [frame], node.shape[0], meta, node.index_key)


# ---- boolean filters --------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Filter(Op):
    broadcast: bool
    """The mask has another index: it is one chunk, aligned on labels by every task."""

    def label(self) -> str:
        return "filter"


@column_rule(Filter)
def _columns_taken(reader: Node, position: int, ctx: TileContext) -> list[Any] | None:
    """The rows kept carry the columns the filter's own readers take."""
    return needed_columns(reader, ctx) if position == 0 else None


def filter_rows(chunk: Any, mask: Any) -> Any:
    """The rows of ``chunk`` where ``mask`` (a boolean Series on the same rows) is True."""
    return chunk[_mask_values(mask)]


def filter_aligned(chunk: Any, mask: Any, offset: int | None = None) -> Any:
    """The rows of ``chunk`` whose label is True in ``mask`` (any index, aligned).

    ``offset``, the chunk's first row in the frame where known: when every chunk's labels
    are those of the mask at its rows, the frame's index equals the mask's, and pandas
    then takes the mask by position, duplicate labels or not."""
    if mask.index.equals(chunk.index):
        return chunk[_mask_values(mask)]
    if offset is not None:
        rows = mask.iloc[offset : offset + len(chunk)]
        if len(rows) == len(chunk) and rows.index.equals(chunk.index):
            return chunk[_mask_values(rows)]
    if not mask.index.is_unique:
        raise ValueError("cannot reindex on an axis with duplicate labels")
    positions = mask.index.get_indexer(chunk.index)
    if (positions < 0).any():
        raise pd.errors.IndexingError(
            "Unalignable boolean Series provided as indexer (index of the boolean Series "
            "and of the indexed object do not match)."
        )
    return chunk[_mask_values(mask.take(positions))]


def filter_row_chunks(count: int, *parts: Any) -> Any:
    """``filter_rows`` of ``count`` consecutive row chunks (``parts``: the chunks, then
    their masks) as one chunk. Frames of one NumPy dtype have their kept rows written
    into one block, as pandas holds it; others are concatenated by pandas."""
    chunks, keeps = parts[:count], [_mask_values(m) for m in parts[count:]]
    dtype = _one_block_dtype(chunks)
    if dtype is None:
        return pd.concat([c[k] for c, k in zip(chunks, keeps)])
    for chunk, keep in zip(chunks, keeps):
        if len(keep) != len(chunk):
            raise ValueError(f"Item wrong length {len(keep)} instead of {len(chunk)}.")
    picks = [np.flatnonzero(k) for k in keeps]
    # pandas' layout of a block: one row per column, each chunk's rows a run in every row
    block = np.empty((chunks[0].shape[1], sum(len(p) for p in picks)), dtype=dtype)
    start = 0
    for chunk, pick in zip(chunks, picks):
        take_columns_into(block[:, start : start + len(pick)], chunk.to_numpy().T, pick)
        start += len(pick)
    # one take from the joined index (consecutive ranges join into one), not one a chunk
    starts = np.cumsum([0, *(len(c) for c in chunks[:-1])])
    joined = chunks[0].index.append([c.index for c in chunks[1:]])
    index = joined.take(np.concatenate([p + s for p, s in zip(picks, starts)]))
    return pd.DataFrame(block.T, index=index, columns=chunks[0].columns, copy=False)


def _one_block_dtype(chunks: tuple[Any, ...]) -> np.dtype[Any] | None:
    """The NumPy dtype every column of every chunk has (frames with columns only), or
    None."""
    if not all(isinstance(c, pd.DataFrame) and c.shape[1] for c in chunks):
        return None
    dtypes = {t for c in chunks for t in dtype_counts(c) or ()}  # no step per column
    dtype = dtypes.pop() if len(dtypes) == 1 else None
    return dtype if isinstance(dtype, np.dtype) and dtype.kind in "biufcmM" else None


def _mask_values(mask: Any) -> np.ndarray[Any, Any]:
    """A mask's values as NumPy bools: pandas reads a missing value of a nullable boolean
    dtype as False, and refuses one of any other dtype."""
    if isinstance(mask.dtype, pd.api.extensions.ExtensionDtype) and is_bool_dtype(mask.dtype):
        kept: np.ndarray[Any, Any] = mask.to_numpy(dtype=bool, na_value=False)
        return kept
    if mask.dtype != np.bool_ and mask.isna().any():  # a NumPy bool has no missing value
        raise ValueError("Cannot mask with non-boolean array containing NA / NaN values")
    if mask.dtype == object and not _holds_bools(mask):
        raise TypeError(
            "a lazy key of objects selects rows and must hold booleans only, got "
            f"{pd.api.types.infer_dtype(mask, skipna=True)} values"
        )
    values: np.ndarray[Any, Any] = mask.to_numpy(dtype=bool)
    return values


def _holds_bools(values: Any) -> bool:
    """Whether object ``values`` are booleans (missing ones aside), as pandas takes an
    object array of them as a mask."""
    return bool(pd.api.types.infer_dtype(values, skipna=True) in ("boolean", "empty"))


@tile_rule(Filter)
def _tile_filter(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Filter)
    frame, mask = inputs
    n = len(frame.nsplits[0])
    grid = key_grid(node.key, [n])
    lengths = frame.nsplits[0]
    known = not any(math.isnan(length) for length in lengths)
    starts = [int(sum(lengths[:i])) for i in range(n)] if known else [None] * n
    for i in range(n):
        if op.broadcast:
            ctx.add_blockwise(
                grid[i], filter_aligned, (Ref(frame.keys[i]), Ref(mask.keys[0]), starts[i]), {}
            )
        else:
            ctx.add_blockwise(grid[i], filter_rows, (Ref(frame.keys[i]), Ref(mask.keys[i])), {})
    return Tiled(((math.nan,) * n,), grid)


def is_bool_dtype(dtype: Any) -> bool:
    return bool(pd.api.types.is_bool_dtype(dtype))


def is_mask(key: Any) -> bool:
    """Whether ``key`` is a boolean row mask (lazy or not) rather than column labels."""
    if isinstance(key, Series):  # objects: booleans or not, told when the mask is read
        return is_bool_dtype(key.dtype) or key.dtype == object
    if isinstance(key, (pd.Series, pd.Index, np.ndarray)):
        if key.ndim == 1 and key.dtype == object and len(key):
            return _holds_bools(key)
        return key.ndim == 1 and is_bool_dtype(key.dtype)
    if isinstance(key, list) and key:
        return all(isinstance(k, (bool, np.bool_)) for k in key)
    return False


def boolean_filter(frame: FrameBase, key: Any) -> Any:
    """``frame[key]`` for a boolean mask: a lazy or pandas Series (aligned on labels), or a
    NumPy array or list (by position)."""
    if isinstance(key, pd.Series):
        if key.dtype == object:  # booleans as objects: a missing one is refused here
            key = pd.Series(_mask_values(key), index=key.index, name=key.name)
        key = Series(key)
    if isinstance(key, Series):
        if not (is_bool_dtype(key.dtype) or key.dtype == object):
            raise TypeError(f"a row mask must be boolean, got dtype {key.dtype}")
        node, mask_node = frame.node, key.node
        assert isinstance(node, FrameNode)
        assert isinstance(mask_node, FrameNode)
        same = node.index_key == mask_node.index_key
        mask = key if same else one_chunk(key)
        return new_frame(Filter(not same), [frame, mask], math.nan, frame.meta)
    values = np.asarray(key)
    if values.ndim == 1 and values.dtype == object:
        values = _mask_values(pd.Series(values))
    if values.ndim != 1 or not is_bool_dtype(values.dtype):
        raise TypeError("a positional row mask must be a 1-d boolean array")
    n = frame.node.shape[0]
    if not math.isnan(n) and len(values) != int(n):
        if isinstance(frame, Series):
            raise IndexError(f"Boolean index has wrong length: {len(values)} instead of {int(n)}")
        raise ValueError(f"Item wrong length {len(values)} instead of {int(n)}.")
    return new_frame(Filter(False), [frame, rows_like(frame, values)], math.nan, frame.meta)


# ---- where, mask, isin -----------------------------------------------------------------


def call_method(obj: Any, name: str, *args: Any, **kwargs: Any) -> Any:
    return getattr(obj, name)(*args, **kwargs)


def _lazy_like(frame: FrameBase, value: Any) -> Any:
    """``value`` made lazy where it is row data: NumPy arrays and tensors of the frame's
    shape by position, pandas objects as lazy frames (aligned on labels later)."""
    if isinstance(value, Tensor) and value.ndim in (1, 2) and value.ndim == frame.meta.ndim:
        # labelled with the frame's own index, so that aligning it is taking row by row
        index = frame.index  # type: ignore[attr-defined]
        if isinstance(frame, DataFrame):
            return dataframe_from_tensor(value, index=index, columns=frame.meta.columns)
        return series_from_tensor(value, index=index, name=frame.meta.name)
    if isinstance(value, pd.DataFrame):
        return DataFrame(value)
    if isinstance(value, pd.Series):
        return Series(value)
    if isinstance(value, np.ndarray) and value.ndim in (1, 2) and value.ndim == frame.meta.ndim:
        columns = frame.meta.columns if isinstance(frame, DataFrame) else None
        return rows_like(frame, value, name=getattr(frame.meta, "name", None), columns=columns)
    return value


def _where(frame: FrameBase, method: str, cond: Any, other: Any, axis: Any, level: Any) -> Any:
    cond = resolve(cond, frame)
    other = resolve(other, frame)
    cond = _lazy_like(frame, cond)
    other = _lazy_like(frame, other)  # a lazy scalar stays one: map_chunks reads it
    kwargs: dict[str, Any] = {}
    if axis is not None:
        kwargs["axis"] = axis
    if level is not None:
        kwargs["level"] = level
    meta = empty_like(call_method(frame.meta, method, meta_of(cond), meta_of(other), **kwargs))
    lazy = [x for x in (cond, other) if isinstance(x, FrameBase)]
    frames = aligned([frame, *lazy])
    args: list[Any] = [Slot(0), method]
    slot = 1
    for x in (cond, other):
        if isinstance(x, FrameBase):
            args.append(Slot(slot))
            slot += 1
        else:
            args.append(x)
    same = frames[0] is frame
    return map_chunks(call_method, frames, tuple(args), meta, kwargs, method, keeps_rows=same)


def where(
    frame: FrameBase, cond: Any, other: Any = np.nan, *, axis: Any = None, level: Any = None
) -> Any:
    """Keep values where ``cond`` is True, ``other`` elsewhere (pandas ``where``)."""
    return _where(frame, "where", cond, other, axis, level)


def mask(
    frame: FrameBase, cond: Any, other: Any = np.nan, *, axis: Any = None, level: Any = None
) -> Any:
    """Replace values where ``cond`` is True with ``other`` (pandas ``mask``)."""
    return _where(frame, "mask", cond, other, axis, level)


def isin_values(chunk: Any, values: Any) -> Any:
    """``chunk.isin`` of the values of the pandas object ``values``, never its labels."""
    return chunk.isin(values.to_numpy())


def _values_frame(values: Tensor) -> Series:
    """A lazy tensor of values as a lazy Series, so its chunks become task inputs; a
    tensor left as a plain argument would be computed inside a chunk task."""
    if values.ndim != 1:
        raise ValueError(f"isin takes a 1-d tensor of values, got values of {values.ndim}-d")
    return Series(values)


def isin(frame: FrameBase, values: Any) -> Any:
    """Whether each value is in ``values`` (pandas ``isin``): a list, set, Series, a 1-d
    tensor, or for a DataFrame a dict of column -> values, or a DataFrame (aligned on
    labels)."""
    if isinstance(values, (set, frozenset)):
        values = list(values)
    if isinstance(values, Tensor):
        values = _values_frame(values)
        meta = empty_like(frame.meta.isin(values.meta.to_numpy()))
        return map_chunks(
            isin_values,
            [frame, one_chunk(values)],
            (Slot(0), Slot(1)),
            meta,
            name="isin",
            broadcast=frozenset({1}),
        )
    if isinstance(frame, Series):
        if isinstance(values, FrameBase):  # its values, not its labels: read whole by each chunk
            meta = empty_like(frame.meta.isin(values.meta))
            return map_chunks(
                call_method,
                [frame, one_chunk(values)],
                (Slot(0), "isin", Slot(1)),
                meta,
                name="isin",
                broadcast=frozenset({1}),
            )
        meta = empty_like(frame.meta.isin(values))
        return map_chunks(call_method, [frame], (Slot(0), "isin", values), meta, name="isin")
    if isinstance(values, (pd.DataFrame, pd.Series)):
        values = (DataFrame if isinstance(values, pd.DataFrame) else Series)(values)
    meta = empty_like(frame.meta.isin(meta_of(values)))
    if isinstance(values, FrameBase):
        frames = aligned([frame, values])
        same = frames[0] is frame
        return map_chunks(
            call_method, frames, (Slot(0), "isin", Slot(1)), meta, name="isin", keeps_rows=same
        )
    return map_chunks(call_method, [frame], (Slot(0), "isin", values), meta, name="isin")


def _attach() -> None:
    for cls in (DataFrame, Series):
        methods: dict[str, Callable[..., Any]] = {"where": where, "mask": mask, "isin": isin}
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
