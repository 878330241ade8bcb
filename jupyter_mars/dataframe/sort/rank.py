"""``rank`` of DataFrame and Series columns.

A rank depends on every value of its column. The ranked columns are gathered in row
order into one task, where pandas ranks them (every ``method``, ``na_option`` and
``pct`` exactly as pandas); each output chunk is then the slice of the ranks that lines
up with an input chunk, so the result keeps the input's index and chunking. The gather
holds the ranked columns (only them) in one task; the chunk lengths must be known, so
after a filter a stage computes them first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.arithmetic import call_method
from jupyter_mars.dataframe.core import DataFrame, Series, new_frame
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import FrameNode, concat_chunks, empty_like
from jupyter_mars.engine.chunks import offsets
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

RANK_METHODS = ("average", "min", "max", "first", "dense")


@dataclass(frozen=True, eq=False)
class Rank(Op):
    kwargs: dict[str, Any] = field(default_factory=dict)
    columns: tuple[Any, ...] | None = None
    """The ranked columns of a DataFrame; None for a Series."""

    def label(self) -> str:
        return "rank"


def rank_all(kwargs: dict[str, Any], columns: Any, meta: Any, *chunks: Any) -> Any:
    parts = [c if columns is None else c[list(columns)] for c in chunks]
    return concat_chunks(parts, meta).rank(**kwargs)


def rows_of(ranked: Any, start: int, stop: int) -> Any:
    return ranked.iloc[start:stop]


@tile_rule(Rank)
def _tile_rank(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, Rank)
    assert isinstance(node, FrameNode)
    (t,) = inputs
    ctx.require_known(t)
    keys = t.flat_keys()
    gather_key = (f"{node.key}-all", 0)
    source_meta = node.inputs[0].meta  # type: ignore[attr-defined]
    if op.columns is not None:
        source_meta = source_meta[list(op.columns)]
    ctx.new_task(gather_key, rank_all, op.kwargs, op.columns, source_meta, *(Ref(k) for k in keys))
    starts = offsets(t.nsplits[0])
    grid = key_grid(node.key, [len(keys)])
    for i in range(len(keys)):
        ctx.new_task(grid[i], rows_of, Ref(gather_key), int(starts[i]), int(starts[i + 1]))
    return Tiled(t.nsplits, grid)


def rank(
    frame: Any,
    axis: Any = 0,
    method: str = "average",
    numeric_only: bool = False,
    na_option: str = "keep",
    ascending: bool = True,
    pct: bool = False,
) -> Any:
    """Ranks 1..n of each column's values (ties by ``method``), on the input's index;
    ``axis=1``: of each row's values."""
    if axis in (1, "columns") and isinstance(frame, DataFrame):
        # a row lies whole in one row chunk: pandas' own ranks, chunk by chunk
        row_kwargs = dict(axis=1, method=method, numeric_only=numeric_only)
        row_kwargs.update(na_option=na_option, ascending=ascending, pct=pct)
        meta = empty_like(frame.meta.rank(**row_kwargs))
        return map_chunks(call_method, [frame], (Slot(0), "rank"), meta, row_kwargs, "rank")
    if axis not in (0, "index", "rows"):
        raise NotImplementedError(f"only axis=0 (down the rows) is supported, got {axis!r}")
    if method not in RANK_METHODS:
        # pandas' KeyError (its table of methods has no such key), with the choices named
        raise KeyError(f"method must be one of {', '.join(RANK_METHODS)}, got {method!r}")
    kwargs = dict(
        method=method,
        numeric_only=numeric_only,
        na_option=na_option,
        ascending=ascending,
        pct=pct,
    )
    meta = frame.meta
    if isinstance(meta, pd.Series):
        out_meta = meta.rank(**kwargs)  # pandas checks method, na_option and the dtype
        columns = None
    else:
        out_meta = meta.rank(**kwargs)
        columns = tuple(out_meta.columns)
    node = frame.node
    assert isinstance(node, FrameNode)
    op = Rank(kwargs, columns)
    return new_frame(op, [frame], node.shape[0], empty_like(out_meta), node.index_key)


def _attach() -> None:
    for cls in (DataFrame, Series):
        methods: dict[str, Any] = {"rank": rank}
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
