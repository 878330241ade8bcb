"""Categorical columns: ``as_category`` (``astype("category")``) and ``Series.cat``.

pandas gives a column converted to ``category`` one set of categories, the sorted
distinct values of the whole column. Here that set is a small tree reduction per column
(each chunk's distinct values, merged, then sorted by pandas' own ``Categorical``), read
whole by every chunk of the conversion, so all chunks share one ``CategoricalDtype``.

The meta knows the column is categorical (and whether it is ordered) but not its
categories: those depend on the data, so the meta's categories are empty until the
result is executed. ``.cat.categories`` executes and returns them; ``.cat.codes`` has
pandas' code type for fewer than 128 categories in its meta (the data has pandas' exact
type).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import Any

import pandas as pd

from jupyter_mars.config import options
from jupyter_mars.dataframe.accessors._call import map_accessor
from jupyter_mars.dataframe.core import DataFrame, Series, new_frame, wrap
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import TILE_RULES, Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.primitives.reduction import Reduction


@dataclass(frozen=True, eq=False)
class DistinctValues(Reduction):
    """A tree reduction whose one output chunk is an Index of data-dependent length."""


@tile_rule(DistinctValues)
def _tile_distinct(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    tiled = TILE_RULES[Reduction](node, inputs, ctx)
    return Tiled(((math.nan,),), tiled.keys)


def distinct_chunk(
    block: Any, axis: Any = None, keepdims: bool = True, position: int | None = None
) -> pd.Series:
    """The distinct non-missing values of one chunk (of column ``position`` of a frame),
    in order of first appearance."""
    column = block if position is None else block.iloc[:, position]
    return column.dropna().drop_duplicates()


def distinct_combine(parts: list[pd.Series], axis: Any = None) -> pd.Series:
    return pd.concat(parts).drop_duplicates()


def distinct_categories(part: pd.Series, axis: Any = None, keepdims: bool = False) -> pd.Index:
    """The categories pandas would infer from these values: sorted when they can be."""
    return pd.Categorical(part).categories


def categories_node(frame: Any, position: int | None) -> FrameNode:
    """A lazy Index: the categories ``astype("category")`` gives a Series (``position``
    None) or one column of a DataFrame."""
    meta = frame.meta if position is None else frame.meta.iloc[:, position]
    op = DistinctValues(
        chunk=partial(distinct_chunk, position=position),
        combine=distinct_combine,
        aggregate=distinct_categories,
        axis=(0,),
        keepdims=True,
        combine_size=options.combine_size,
        name="categories",
    )
    index_meta = meta.astype("category").cat.categories
    return FrameNode(op, [frame.node], math.nan, index_meta)


def categories_of(frame: Any, position: int | None = None) -> Any:
    """The lazy ``Index`` of categories of a Series or of column ``position``."""
    return wrap(categories_node(frame, position))


def to_categories(chunk: Any, positions: tuple[int, ...] | None, *categories: pd.Index) -> Any:
    """The chunk with the given columns (the Series itself) made categorical."""
    if positions is None:
        return chunk.astype(pd.CategoricalDtype(categories[0]))
    out = chunk.copy(deep=False)
    for p, cats in zip(positions, categories):
        out.isetitem(p, out.iloc[:, p].astype(pd.CategoricalDtype(cats)))
    return out


def as_category(frame: Any, columns: Any = None) -> Any:
    """``frame.astype("category")`` (only ``columns`` of a DataFrame when given).

    Each converted column gets the sorted distinct values of the whole column as its
    categories; columns that are categorical already are left as they are.
    """
    meta = frame.meta
    if isinstance(frame, Series):
        if isinstance(meta.dtype, pd.CategoricalDtype):
            return frame
        cats = categories_node(frame, None)
        out_meta = meta.astype("category")
        return map_chunks(
            to_categories,
            [frame, cats],  # type: ignore[list-item]
            (Slot(0), None, Slot(1)),
            out_meta,
            name="as_category",
            broadcast=frozenset({1}),
        )
    if not isinstance(frame, DataFrame):
        raise TypeError(f"as_category takes a DataFrame or a Series, got {type(frame).__name__}")
    labels = list(meta.columns) if columns is None else _as_list(columns)
    missing = [c for c in labels if c not in meta.columns]
    if missing:
        raise KeyError(f"columns not found: {missing}")
    positions = tuple(
        p
        for p, c in enumerate(meta.columns)
        if c in labels and not isinstance(meta.dtypes.iloc[p], pd.CategoricalDtype)
    )
    if not positions:
        return frame
    nodes = [categories_node(frame, p) for p in positions]
    out_meta = meta.copy()
    for p in positions:
        out_meta.isetitem(p, meta.iloc[:, p].astype("category"))
    return map_chunks(
        to_categories,
        [frame, *nodes],  # type: ignore[list-item]
        (Slot(0), positions, *(Slot(i + 1) for i in range(len(nodes)))),
        out_meta,
        name="as_category",
        broadcast=frozenset(range(1, len(nodes) + 1)),
    )


def _as_list(columns: Any) -> list[Any]:
    if isinstance(columns, (list, tuple, pd.Index)):
        return list(columns)
    return [columns]


@dataclass(frozen=True, eq=False)
class ChunkCategories(Op):
    """The categories of a categorical Series (of column ``position`` of a DataFrame),
    read from its first chunk."""

    position: int | None = None

    def label(self) -> str:
        return "cat_categories"


def chunk_categories(chunk: Any, position: int | None) -> pd.Index:
    column = chunk if position is None else chunk.iloc[:, position]
    return column.cat.categories


@tile_rule(ChunkCategories)
def _tile_chunk_categories(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (t,) = inputs
    op = node.op
    assert isinstance(op, ChunkCategories)
    grid = key_grid(node.key, [1])
    ctx.new_task(grid[0], chunk_categories, Ref(t.flat_keys()[0]), op.position)
    return Tiled(((math.nan,),), grid)


def sample_categorical(meta: pd.Series) -> pd.Series:
    """A one-row Series of ``meta``'s categorical dtype (no rows when it has no known
    categories), for result metas."""
    dtype = meta.dtype
    if len(dtype.categories):
        return pd.Series(pd.Categorical.from_codes([0], dtype=dtype), name=meta.name)
    return meta.reset_index(drop=True)


class CategoryMethods:
    """The ``.cat`` accessor of a lazy categorical Series."""

    def __init__(self, series: Any) -> None:
        series.meta.cat  # noqa: B018 - AttributeError for non-categorical data, as pandas
        self._series = series
        self._sample = sample_categorical(series.meta)

    @property
    def ordered(self) -> bool:
        return bool(self._series.meta.cat.ordered)

    @property
    def categories(self) -> pd.Index:
        """The categories (executes the Series' first chunk when the meta lacks them)."""
        known = self._series.meta.cat.categories
        if len(known):
            return known
        node = self._series.node
        index = new_frame(ChunkCategories(), [node], math.nan, known)
        result: pd.Index = index.to_pandas()
        return result

    @property
    def codes(self) -> Any:
        return map_accessor(self._series, self._sample, "cat", "codes", False)

    def _call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return map_accessor(self._series, self._sample, "cat", name, True, args, kwargs)

    def rename_categories(self, new_categories: Any) -> Any:
        """New labels for the categories: a list in category order, a dict or a function."""
        if len(self._sample) == 0 and pd.api.types.is_list_like(new_categories):
            if not isinstance(new_categories, dict):
                return self._renamed_to_list(list(new_categories))
        return self._call("rename_categories", (new_categories,), {})

    def _renamed_to_list(self, labels: list[Any]) -> Any:
        meta = self._series.meta
        dtype = pd.CategoricalDtype(labels, ordered=meta.cat.ordered)
        out_meta = pd.Series([], dtype=dtype, index=meta.index, name=meta.name)
        return map_chunks(
            rename_to,
            [self._series],
            (Slot(0), labels),
            out_meta,
            name="cat.rename_categories",
        )

    def as_ordered(self) -> Any:
        return self._call("as_ordered", (), {})

    def as_unordered(self) -> Any:
        return self._call("as_unordered", (), {})

    def set_categories(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("set_categories", args, kwargs)

    def reorder_categories(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("reorder_categories", args, kwargs)

    def add_categories(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("add_categories", args, kwargs)

    def remove_categories(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("remove_categories", args, kwargs)


def rename_to(chunk: pd.Series, labels: list[Any]) -> pd.Series:
    return chunk.cat.rename_categories(labels)
