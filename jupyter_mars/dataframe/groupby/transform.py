"""Results aligned with the grouped rows: ``cumcount`` and ``transform``.

``cumcount`` numbers each group's rows in order. Chunk ``i`` needs, per group, how many
rows the chunks before it hold: a chain of tasks carries the running group sizes from
chunk to chunk (``sizes`` of one chunk is small: a row per group), and each chunk adds
them to pandas' own ``cumcount`` of its rows.

``transform`` with the name of an aggregation computes the aggregation by groups (tree or
shuffle), brings the small result into one chunk, and every row chunk looks its keys up
in it. Any other function goes through ``apply.shuffle_rows``: groups meet in one chunk,
pandas transforms them, and the rows go back to their chunks and order.

Rows whose key is missing (``dropna=True``) get NaN, as in pandas; a chunk holding such
rows then has a float column where the meta says int (pandas' dtype is data-dependent).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import new_frame
from jupyter_mars.dataframe.groupby.aggregate import DECOMPOSABLE
from jupyter_mars.dataframe.groupby.apply import shuffle_rows
from jupyter_mars.dataframe.groupby.keys import KeyItem, grouper, key_series
from jupyter_mars.dataframe.groupby.titles import grouped_title
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

BROADCAST_AGGREGATIONS = DECOMPOSABLE | {"median", "nunique"}
"""Names that ``transform`` computes as an aggregation broadcast back to the rows."""


def key_index(keys: list[pd.Series]) -> pd.Index:
    """The rows' keys as an Index (a MultiIndex for several keys)."""
    if len(keys) == 1:
        return pd.Index(keys[0])
    return pd.MultiIndex.from_arrays(keys)


@dataclass(frozen=True)
class CumcountSpec:
    keys: tuple[KeyItem, ...]
    dropna: bool
    ascending: bool

    def sizes(self, chunk: Any, *extra: Any) -> pd.Series:
        keys = key_series(chunk, self.keys, extra)
        return chunk.groupby(grouper(keys), sort=False, dropna=self.dropna).size()

    def running(self, before: pd.Series | None, sizes: pd.Series) -> pd.Series:
        """Group sizes of all chunks up to this one."""
        if before is None or not len(before):
            return sizes
        if not len(sizes):
            return before
        total: pd.Series = (
            pd.concat([before, sizes])
            .groupby(level=list(range(len(self.keys))), sort=False, dropna=False)
            .sum()
        )
        return total

    def number(
        self, before: pd.Series | None, after: pd.Series | None, chunk: Any, *extra: Any
    ) -> Any:
        """Cumcount of a chunk's rows; ``before``/``after``: group sizes in earlier/later
        chunks (``after`` counts for a descending count)."""
        keys = key_series(chunk, self.keys, extra)
        gb = chunk.groupby(grouper(keys), sort=False, dropna=self.dropna)
        local = gb.cumcount(ascending=self.ascending)
        offsets = before if self.ascending else after
        if offsets is None or not len(offsets) or not len(chunk):
            return local
        add = offsets.reindex(key_index(keys)).fillna(0).to_numpy()
        if local.dtype.kind == "i":
            add = add.astype(local.dtype)
        return local + add


@dataclass(frozen=True, eq=False)
class GroupbyCumcount(Op):
    spec: CumcountSpec

    def label(self) -> str:
        return "groupby_cumcount"


@tile_rule(GroupbyCumcount)
def _tile_cumcount(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, GroupbyCumcount)
    spec = op.spec
    n = len(inputs[0].nsplits[0])
    chunk_refs = [[Ref(t.keys[i]) for t in inputs] for i in range(n)]
    sizes = []
    for i in range(n):
        key = (f"{node.key}-sizes", i)
        ctx.new_task(key, spec.sizes, *chunk_refs[i])
        sizes.append(key)
    prefix: list[Any] = [None]  # prefix[i]: sizes of chunks before i
    for i in range(1, n):
        key = (f"{node.key}-before", i)
        ctx.new_task(key, spec.running, prefix[i - 1], Ref(sizes[i - 1]))
        prefix.append(Ref(key))
    suffix: list[Any] = [None] * n  # suffix[i]: sizes of chunks after i
    for i in range(n - 2, -1, -1):
        key = (f"{node.key}-after", i)
        ctx.new_task(key, spec.running, suffix[i + 1], Ref(sizes[i + 1]))
        suffix[i] = Ref(key)
    grid = key_grid(node.key, [n])
    for i in range(n):
        before = prefix[i] if spec.ascending else None
        after = None if spec.ascending else suffix[i]
        ctx.new_task(grid[i], spec.number, before, after, *chunk_refs[i])
    return Tiled(inputs[0].nsplits, grid)


def cumcount(gb: Any, ascending: bool = True) -> Any:
    """``gb.cumcount(ascending)``: each row's number within its group."""
    meta = gb._probe_gb(True).cumcount(ascending=ascending).iloc[:0]
    spec = CumcountSpec(gb._keys, gb.dropna, bool(ascending))
    frames = gb._frames
    node = frames[0].node
    assert isinstance(node, FrameNode)
    return new_frame(GroupbyCumcount(spec), list(frames), node.shape[0], meta, node.index_key)


def broadcast_rows(keys: tuple[KeyItem, ...], meta: Any, chunk: Any, *rest: Any) -> Any:
    """The aggregated values of each row's group (``rest``: key Series' chunks, then the
    aggregated result whole), indexed like the chunk."""
    *extra, table = rest
    found = table.reindex(key_index(key_series(chunk, keys, tuple(extra))))
    found.index = chunk.index
    if isinstance(found, pd.Series):
        found.name = meta.name
    else:
        found.columns = meta.columns
    return found


def transform(gb: Any, func: Any, *args: Any, **kwargs: Any) -> Any:
    """``gb.transform(func)``: a result per row, aligned with the grouped object."""
    meta = gb._probe_gb(True).transform(func, *args, **kwargs).iloc[:0]
    if not (isinstance(func, str) and func in BROADCAST_AGGREGATIONS):
        return shuffle_rows(gb, "transform", func, args, kwargs, meta)
    table = gb._copy(as_index=True, sort=False)._reduce(func, **kwargs)
    frames = list(gb._frames)
    if isinstance(func, str) and func == "size" and isinstance(meta, pd.DataFrame):
        raise NotImplementedError("transform('size') of a DataFrame grouping")
    table = one_chunk(table)
    slots = tuple(Slot(i) for i in range(len(frames) + 1))
    return map_chunks(
        broadcast_rows,
        [*frames, table],
        (gb._keys, meta, *slots),
        meta,
        name="groupby_transform",
        broadcast=frozenset({len(frames)}),
        called=f"{grouped_title(gb._keys, gb._series_name())}.transform({func})",
    )
