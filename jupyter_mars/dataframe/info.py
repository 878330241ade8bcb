"""``DataFrame.info`` and ``Series.info``: pandas' printout from per-chunk summaries.

The printout needs the number of rows, each column's non-null count, the bytes in use
and the index's first and last labels. Each chunk sums these up in one small task; only
the summaries are fetched. pandas' own info printer then lays them out (on the empty
meta, with the counts and bytes given to it and the index line written from the
summaries), so the text is pandas' to the character.
"""

from __future__ import annotations

import functools
import re
import sys
from typing import Any

import pandas as pd
from pandas.io.formats import info as pandas_info
from pandas.io.formats.format import buffer_put_lines

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.summaries import chunk_summaries, index_bytes, index_facts


def chunk_info(deep: bool, chunk: Any) -> tuple[Any, ...]:
    """(rows, non-null counts, bytes of the values, index facts, first and last label)."""
    index = chunk.index
    ends = (index[0], index[-1]) if len(index) else None
    usage = chunk.memory_usage(index=False, deep=deep)
    return (len(chunk), chunk.count(), usage, index_facts(index, deep), ends)


def index_line(meta_index: pd.Index, parts: list[tuple[Any, ...]]) -> str:
    """pandas' index summary ("RangeIndex: 5 entries, 0 to 4") of the whole index."""
    nrows = sum(p[0] for p in parts)
    ranges = [p[3][2] for p in parts if p[0]]
    if ranges and all(r is not None for r in ranges):
        steps = [r for r in ranges if r is not None]
        if all(a[1] == b[0] and a[2] == b[2] for a, b in zip(steps, steps[1:], strict=False)):
            summary: str = pd.RangeIndex(steps[0][0], steps[-1][1], steps[0][2])._summary()
            return summary
    ends = [p[4] for p in parts if p[4] is not None]
    if not ends:
        empty: str = meta_index._summary()
        return empty
    # a two-label index of the same kind formats the ends as the whole one would
    pair = pd.Index([ends[0][0], ends[-1][1]], dtype=meta_index.dtype, name=meta_index.name)
    name = None if type(pair) is type(meta_index) else type(meta_index).__name__
    text: str = pair._summary(name=name)
    return re.sub(r"^(\w+): 2 entries", rf"\1: {nrows} entries", text)


class _SummedInfo:
    """What pandas' info classes read from the data, given from the summaries."""

    counts: Any
    total_bytes: int

    @property
    def non_null_counts(self) -> Any:
        return self.counts

    @property
    def memory_usage_bytes(self) -> int:
        return self.total_bytes


class SummedFrameInfo(_SummedInfo, pandas_info.DataFrameInfo):  # type: ignore[misc]
    pass


class SummedSeriesInfo(_SummedInfo, pandas_info.SeriesInfo):  # type: ignore[misc]
    pass


def info(
    self: FrameBase,
    verbose: bool | None = None,
    buf: Any = None,
    max_cols: int | None = None,
    memory_usage: bool | str | None = None,
    show_counts: bool | None = None,
) -> None:
    """Print a concise summary, as pandas' ``info`` does (to ``buf``, else stdout)."""
    is_frame = isinstance(self, DataFrame)
    if memory_usage is None:
        memory_usage = pd.get_option("display.memory_usage")
    deep = memory_usage == "deep"
    parts = chunk_summaries(self, functools.partial(chunk_info, deep))
    nrows = sum(p[0] for p in parts)
    meta = self.meta
    summed: Any = (
        SummedFrameInfo(meta, memory_usage) if is_frame else SummedSeriesInfo(meta, memory_usage)
    )
    values = sum((p[2] for p in parts), meta.memory_usage(index=False, deep=deep) * 0)
    summed.total_bytes = int(values.sum() if is_frame else values) + index_bytes(
        [p[3] for p in parts], deep
    )
    counts = sum((p[1] for p in parts), meta.count())
    summed.counts = counts if is_frame else [int(counts)]
    if show_counts is None:
        columns = len(meta.columns) if is_frame else 1
        limit = pd.get_option("display.max_info_columns") if max_cols is None else max_cols
        show_counts = columns <= limit and nrows <= pd.get_option("display.max_info_rows")
    if is_frame:
        printer: Any = pandas_info._DataFrameInfoPrinter(
            info=summed, max_cols=max_cols, verbose=verbose, show_counts=show_counts
        )
    else:
        printer = pandas_info._SeriesInfoPrinter(
            info=summed, verbose=verbose, show_counts=show_counts
        )
    lines = printer._create_table_builder().get_lines()
    lines[1] = index_line(meta.index, parts)
    buffer_put_lines(sys.stdout if buf is None else buf, lines)


DataFrame.info = info  # type: ignore[attr-defined]
Series.info = info  # type: ignore[attr-defined]
