"""Reshaping: ``melt``, ``stack``, ``unstack`` and ``get_dummies``.

- ``melt`` gives pandas' row order, every row of the first value column, then of the
  next: one task per (value column, row chunk), ordered column-major, each melting one
  value column of one chunk. With ``ignore_index`` (the default) the new row labels are
  positions, so the chunk lengths are made known first and each piece starts its labels
  at its own offset. Object value columns holding only strings give pandas a ``str``
  value column; each piece types its own, and a piece with no value at all is typed
  ``str`` too (so a value column with no value at all is ``str`` here, object in pandas).
- ``stack`` keeps the rows of each chunk together: one pandas call per chunk.
- ``unstack`` needs every row of an index group in one place: the rows are gathered into
  one chunk and pandas unstacks them. Its columns (and their dtype, which missing
  combinations can turn to float) depend on the data, so it is executed when it is
  built and its meta taken from the result (kept by the session, not computed twice).
  ``pivot`` is the same reshape by columns of the frame (the columns it names only are
  gathered), pandas' checks included: a repeated index and column pair raises pandas'
  ``ValueError`` when it runs.
- ``get_dummies``: the dummy columns of a column are its distinct values, sorted (a
  categorical column's categories). They are computed at build time by one small
  reduction per encoded column, executed together; every chunk then makes those columns
  categorical with exactly those categories, so pandas gives each chunk every dummy
  column, in pandas' order, and the meta is exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.accessors.category import ChunkCategories, categories_node
from jupyter_mars.dataframe.core import DataFrame, Series, new_frame, wrap
from jupyter_mars.dataframe.map_chunks import MapChunks, Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.node import FrameNode, empty_like
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.executable import execute

_NO_DEFAULT: Any = pd.api.extensions.no_default

_STRINGS_INFERRED = pd.DataFrame(np.array([["a"]], dtype=object)).dtypes.iloc[0] != np.dtype(object)
"""Whether pandas types object values that are all strings as ``str`` (pandas 3)."""


@dataclass(frozen=True, eq=False)
class Melt(Op):
    id_vars: tuple[Any, ...]
    value_vars: tuple[Any, ...]
    var_name: Any
    value_name: Any
    ignore_index: bool
    infer_strings: bool = False
    """Every value column is object: pandas then types the values as strings when they
    all are (or are missing), which each piece finds out for its own values."""

    def label(self) -> str:
        return "melt"


def melt_piece(
    chunk: pd.DataFrame, op: Melt, column: Any, start: int | None, meta: pd.DataFrame
) -> pd.DataFrame:
    """One value column of one chunk, melted; labels from ``start`` when given."""
    out = pd.melt(
        chunk,
        id_vars=list(op.id_vars),
        value_vars=[column],
        var_name=op.var_name,
        value_name=op.value_name,
        ignore_index=op.ignore_index,
    )
    if start is not None:
        out.index = pd.RangeIndex(start, start + len(out))
    value = out.columns[-1]
    column = out[value]
    target = meta.dtypes.iloc[-1]
    if op.infer_strings and column.dtype == object and bool(column.isna().all()):
        out[value] = column.astype("str")  # as its neighbours holding strings are typed
    elif column.dtype != target and not (op.infer_strings and column.dtype == "str"):
        # the values of every column in one type, as pandas finds it for them all
        out[value] = column.astype(target)
    return out


def empty_melt(meta: pd.DataFrame) -> pd.DataFrame:
    return meta


@tile_rule(Melt)
def _tile_melt(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Melt)
    assert isinstance(node, FrameNode)
    (t,) = inputs
    if op.ignore_index:
        ctx.require_known(t)
    lengths = t.nsplits[0]
    total = sum(lengths)
    starts = offsets(lengths)
    n = len(lengths)
    grid = key_grid(node.key, [max(n * len(op.value_vars), 1)])
    if not op.value_vars:
        ctx.new_task(grid[0], empty_melt, node.meta)
        return Tiled(((0,),), grid)
    for v, column in enumerate(op.value_vars):
        for i in range(n):
            start = int(v * total + starts[i]) if op.ignore_index else None
            ctx.new_task(grid[v * n + i], melt_piece, Ref(t.keys[i]), op, column, start, node.meta)
    return Tiled((tuple(lengths) * len(op.value_vars),), grid)


def _labels(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (list, tuple, pd.Index)):
        return list(value)
    return [value]


def melt(
    frame: DataFrame,
    id_vars: Any = None,
    value_vars: Any = None,
    var_name: Any = None,
    value_name: Any = "value",
    col_level: Any = None,
    ignore_index: bool = True,
) -> DataFrame:
    """Unpivot ``frame`` from wide to long, as ``pandas.melt``."""
    if col_level is not None:
        raise NotImplementedError("melt: col_level is not supported")
    meta = frame.meta
    out_meta = pd.melt(
        meta,
        id_vars=id_vars,
        value_vars=value_vars,
        var_name=var_name,
        value_name=value_name,
        ignore_index=ignore_index,
    )  # KeyError / ValueError for bad arguments, as pandas
    ids = _labels(id_vars)
    values = (
        [c for c in meta.columns if c not in ids] if value_vars is None else _labels(value_vars)
    )
    infer = _STRINGS_INFERRED and all(meta[c].dtype == object for c in values)
    op = Melt(tuple(ids), tuple(values), var_name, value_name, bool(ignore_index), infer)
    n = frame.node.shape[0]
    return new_frame(op, [frame], n * len(values), out_meta)  # type: ignore[no-any-return]


def stack_chunk(chunk: pd.DataFrame, level: Any, meta: Any) -> Any:
    if len(chunk) == 0:
        return meta
    return chunk.stack(level=level)


def stack(frame: DataFrame, level: Any = -1) -> Any:
    """Columns into the innermost row level: a Series (a DataFrame for several column
    levels), every row's values in column order, missing values kept as pandas 3 does."""
    meta = frame.meta.stack(level=level)
    n = frame.node.shape[0]
    columns = frame.meta.columns
    nrows = float("nan") if isinstance(columns, pd.MultiIndex) else n * len(columns)
    op = MapChunks(stack_chunk, (Slot(0), level, meta), {}, "stack", keeps_rows=False)
    return new_frame(op, [frame], nrows, meta)


def unstack_chunk(chunk: Any, level: Any, fill_value: Any) -> Any:
    return chunk.unstack(level=level, fill_value=fill_value)


def unstack(obj: Any, level: Any = -1, fill_value: Any = None) -> Any:
    """A row level into the columns: every row gathered into one chunk, unstacked by
    pandas; executed at once so that the columns are known (see the module docstring)."""
    meta = obj.meta
    if isinstance(meta, pd.Series) and not isinstance(meta.index, pd.MultiIndex):
        raise ValueError("index must be a MultiIndex to unstack a Series")
    probe = meta.unstack(level=level, fill_value=fill_value)  # pandas checks the level
    return _reshaped_now(unstack_chunk, obj, (level, fill_value), probe, "unstack")


def _reshaped_now(func: Any, obj: Any, args: tuple[Any, ...], probe: Any, name: str) -> Any:
    """``func(whole, *args)`` on every row of ``obj`` gathered into one chunk, executed
    now: the result's columns (and their dtypes) are the data's, so its meta is taken
    from it (the session keeps the result: it is not computed twice)."""
    out = map_chunks(func, [one_chunk(obj)], (Slot(0), *args), probe, name=name, keeps_rows=False)
    out.execute()
    out.node.meta = empty_like(out.fetch())
    return out


def pivot_chunk(chunk: pd.DataFrame, columns: Any, index: Any, values: Any) -> Any:
    return chunk.pivot(columns=columns, index=index, values=values)


def _used_labels(*keys: Any) -> list[Any] | None:
    """The column labels ``pivot``'s arguments name, in order, once each; None where one
    is None (every other column)."""
    labels: list[Any] = []
    for key in keys:
        if key is None:
            return None
        for label in key if isinstance(key, list) else [key]:
            if label not in labels:
                labels.append(label)
    return labels


def pivot(
    frame: DataFrame, *, columns: Any, index: Any = _NO_DEFAULT, values: Any = _NO_DEFAULT
) -> Any:
    """pandas' ``DataFrame.pivot``: the rows gathered into one chunk and reshaped by
    pandas; executed at once so that the columns are known (see the module docstring)."""
    probe = frame.meta.pivot(columns=columns, index=index, values=values)  # pandas' checks
    # without values every other column is one; without an index the frame's is kept
    used = _used_labels(
        columns,
        [] if index is _NO_DEFAULT else index,
        None if values is _NO_DEFAULT else values,
    )
    data: Any = frame
    if used is not None and all(c in frame.meta.columns for c in used):
        data = data[used]  # only the columns the reshape reads travel
    return _reshaped_now(pivot_chunk, data, (columns, index, values), probe, "pivot")


def _to_dummy_columns(chunk: Any, positions: tuple[int, ...] | None, cats: list[Any]) -> Any:
    """The chunk with its encoded columns made categorical with the whole data's
    categories."""
    if positions is None:
        return chunk.astype(pd.CategoricalDtype(cats[0]))
    out = chunk.copy(deep=False)
    for p, c in zip(positions, cats):
        out.isetitem(p, out.iloc[:, p].astype(pd.CategoricalDtype(c)))
    return out


def dummies_chunk(
    chunk: Any, positions: tuple[int, ...] | None, cats: list[Any], kwargs: dict[str, Any]
) -> Any:
    """``pandas.get_dummies`` of one chunk with every dummy column of the whole data."""
    out = pd.get_dummies(_to_dummy_columns(chunk, positions, cats), **kwargs)
    if positions is None and not isinstance(chunk.dtype, pd.CategoricalDtype):
        out.columns = pd.Index(list(out.columns))  # the values' labels, not categories
    return out


def _encoded_positions(meta: pd.DataFrame, columns: Any) -> tuple[int, ...]:
    if columns is None:
        return tuple(
            p
            for p, t in enumerate(meta.dtypes)
            if t == np.dtype(object)
            or isinstance(t, (pd.CategoricalDtype, pd.StringDtype))
            or pd.api.types.is_string_dtype(t)
        )
    if not pd.api.types.is_list_like(columns):
        raise TypeError("Input must be a list-like for parameter `columns`")
    labels = list(columns)
    missing = [c for c in labels if c not in meta.columns]
    if missing:
        raise KeyError(f"columns not found: {missing}")
    return tuple(int(meta.columns.get_loc(c)) for c in labels)  # the caller's order


def _categories_nodes(obj: Any, positions: tuple[int, ...] | None) -> list[FrameNode]:
    meta = obj.meta
    nodes = []
    for p in [None] if positions is None else list(positions):
        column = meta if p is None else meta.iloc[:, p]
        if isinstance(column.dtype, pd.CategoricalDtype):
            op = ChunkCategories(p)
            nodes.append(FrameNode(op, [obj.node], float("nan"), column.cat.categories))
        else:
            nodes.append(categories_node(obj, p))
    return nodes


def get_dummies(
    data: Any,
    prefix: Any = None,
    prefix_sep: Any = "_",
    dummy_na: bool = False,
    columns: Any = None,
    sparse: bool = False,
    drop_first: bool = False,
    dtype: Any = None,
) -> DataFrame:
    """One indicator column per distinct value of each encoded column, as
    ``pandas.get_dummies`` (the distinct values are computed at build time)."""
    if sparse:
        raise NotImplementedError("get_dummies: sparse=True is not supported")
    if not isinstance(data, (DataFrame, Series)):
        raise TypeError(f"get_dummies takes a DataFrame or Series, got {type(data).__name__}")
    meta = data.meta
    positions = None if isinstance(data, Series) else _encoded_positions(meta, columns)
    kwargs: dict[str, Any] = dict(
        prefix=prefix, prefix_sep=prefix_sep, dummy_na=dummy_na, drop_first=drop_first
    )
    if dtype is not None:
        kwargs["dtype"] = dtype
    if positions is not None:
        kwargs["columns"] = [meta.columns[p] for p in positions]
    nodes = _categories_nodes(data, positions)
    handles = [wrap(n) for n in nodes]
    if handles:
        execute(*handles)
    cats = [h.fetch() for h in handles]
    out_meta = dummies_chunk(meta, positions, cats, kwargs)
    return map_chunks(  # type: ignore[no-any-return]
        dummies_chunk, [data], (Slot(0), positions, cats, kwargs), out_meta, name="get_dummies"
    )


def _attach() -> None:
    frame_methods: dict[str, Any] = {
        "melt": melt,
        "pivot": pivot,
        "stack": stack,
        "unstack": unstack,
    }
    for attr, value in frame_methods.items():
        setattr(DataFrame, attr, value)
    setattr(Series, "unstack", unstack)  # noqa: B010 - mypy does not know it


_attach()
