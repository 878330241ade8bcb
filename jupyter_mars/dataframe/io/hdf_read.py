"""``read_hdf``: a lazy DataFrame (or Series) over a pandas HDF5 store, chunked by rows.

When ``read_hdf`` is called, the store is opened for the stored object's row count
(fixed and table formats alike) and its first row, which gives the columns and dtypes;
pandas itself checks the arguments on an empty selection. Each chunk task reads its rows
with ``pandas.read_hdf(start=, stop=)``, applying ``where`` and ``columns`` as pandas
does, so the stored index comes back with the rows. With ``where`` the chunks' lengths
are known only once read.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import new_frame
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


def read_rows(path: str, key: Any, start: int, stop: int, kwargs: dict[str, Any], meta: Any) -> Any:
    """Rows ``start:stop`` of the object ``key`` of the store ``path``, as pandas reads
    them with ``kwargs``; an empty selection has the meta's dtypes."""
    part = pd.read_hdf(path, key, start=start, stop=stop, **kwargs)
    return meta.copy() if len(part) == 0 else part


@dataclass(frozen=True, eq=False)
class ReadHDFChunks(Op):
    """Read row ranges of an object of an HDF5 store: a task per range."""

    path: str
    key: Any
    ranges: tuple[tuple[int, int], ...]
    rows: tuple[float, ...]
    """Rows per chunk; ``nan`` with ``where``."""
    kwargs: dict[str, Any]
    """What ``pandas.read_hdf`` takes besides the rows: ``where``, ``columns``..."""
    meta: Any

    def label(self) -> str:
        return "read_hdf"


@tile_rule(ReadHDFChunks)
def _tile_read(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ReadHDFChunks)
    grid = key_grid(node.key, [len(op.ranges)])
    for i, (start, stop) in enumerate(op.ranges):
        ctx.new_task(grid[i], read_rows, op.path, op.key, start, stop, op.kwargs, op.meta)
    return Tiled((op.rows,), grid)


def _stored(path: str, key: Any) -> tuple[Any, int]:
    """The key of the object to read (the only one when ``key`` is None) and its rows."""
    with pd.HDFStore(path, mode="r") as store:
        if key is None:
            keys = store.keys()
            if len(keys) != 1:
                # pandas' messages: the store is read the same way
                pd.read_hdf(path)
            key = keys[0]
        storer = store.get_storer(key)
        rows = storer.nrows if storer.is_table else storer.shape[0]
    return key, int(rows)


def read_hdf(
    path: Any,
    key: Any = None,
    mode: str = "r",
    errors: str = "strict",
    where: Any = None,
    start: int | None = None,
    stop: int | None = None,
    columns: Any = None,
    iterator: bool = False,
    chunksize: int | None = None,
    chunk_size: int | None = None,
    **kwargs: Any,
) -> Any:
    """A lazy DataFrame or Series of an object of an HDF5 store, equal to
    ``pandas.read_hdf`` of it.

    The rows ``start:stop`` are read in chunks of ``chunk_size`` rows (default: one
    chunk); ``where`` and ``columns`` (table format) apply to each chunk as in pandas.
    Limitation: when ``where`` keeps no row at all, the columns keep the dtypes of the
    stored data, where pandas gives object columns to an empty table selection.
    """
    if iterator or chunksize is not None:
        raise NotImplementedError("read_hdf: iterator and chunksize; use chunk_size")
    if chunk_size is not None and (
        not isinstance(chunk_size, int) or isinstance(chunk_size, bool) or chunk_size <= 0
    ):
        raise ValueError(f"chunk_size must be a positive int or None, got {chunk_size!r}")
    if not isinstance(path, (str, os.PathLike)):
        raise NotImplementedError("read_hdf reads a store by its file path")
    path = os.fspath(path)
    options = {"mode": mode, "errors": errors, "columns": columns, **kwargs}
    if where is not None:
        options["where"] = where
    if not os.path.exists(path):
        pd.read_hdf(path, key, **options)  # pandas' error
    key, total = _stored(path, key)
    lo, hi, _ = slice(start, stop).indices(total)
    hi = max(lo, hi)
    pd.read_hdf(path, key, start=lo, stop=lo, **options)  # pandas checks the arguments
    first = {k: v for k, v in options.items() if k != "where"}
    meta = pd.read_hdf(path, key, start=lo, stop=min(lo + 1, hi), **first).iloc[:0]
    size = chunk_size or max(hi - lo, 1)
    ranges = tuple((a, min(a + size, hi)) for a in range(lo, hi, size)) or ((lo, hi),)
    known = where is None
    rows = tuple(float(b - a) if known else math.nan for a, b in ranges)
    op = ReadHDFChunks(path, key, ranges, rows, options, meta)
    return new_frame(op, [], float(hi - lo) if known else math.nan, meta)
