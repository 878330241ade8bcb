"""What ``read_feather`` and ``read_orc`` share: checking the arguments, choosing the
columns, and building the lazy frame over an Arrow file's blocks (``arrow_chunks``)."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from typing import Any

import pandas as pd
import pyarrow as pa

from jupyter_mars.dataframe.core import new_frame
from jupyter_mars.dataframe.io.arrow_chunks import (
    Piece,
    ReadArrowChunks,
    arrow_to_frame,
    plan_pieces,
)
from jupyter_mars.dataframe.io.parquet_chunks import RangeLabels
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.dataframe.renumber import renumber


def check_arrow_args(path: Any, chunk_size: Any, dtype_backend: Any, storage_options: Any) -> str:
    """The local file ``path`` names, once the arguments are checked."""
    if storage_options:
        raise NotImplementedError("storage_options: only local files are read")
    if chunk_size is not None and (
        not isinstance(chunk_size, int) or isinstance(chunk_size, bool) or chunk_size <= 0
    ):
        raise ValueError(f"chunk_size must be a positive int or None, got {chunk_size!r}")
    if dtype_backend not in (None, "numpy_nullable", "pyarrow"):
        raise ValueError(
            f"dtype_backend {dtype_backend} is invalid, only 'numpy_nullable' and "
            "'pyarrow' are allowed."
        )
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file path, got {type(path).__name__}")
    text = os.fspath(path)
    if not os.path.isfile(text):
        raise FileNotFoundError(f"[Errno 2] No such file or directory: {text!r}")
    return text


def selected(schema: pa.Schema, columns: Any) -> pa.Schema:
    """``schema`` of ``columns`` only (names or positions; None: all), with its pandas
    metadata; raises as pyarrow does for a column it lacks."""
    if columns is None:
        return schema
    if isinstance(columns, (str, bytes)) or not hasattr(columns, "__iter__"):
        raise TypeError(f"columns must be a list of column names, got {columns!r}")
    table = schema.empty_table().select(list(columns))
    return table.schema.with_metadata(schema.metadata)


def _range_labels(schema: pa.Schema, total: int) -> RangeLabels:
    """How rows are numbered: the stored ``RangeIndex`` when it spans them all."""
    meta = json.loads((schema.metadata or {}).get(b"pandas", b"{}"))
    ranges = [c for c in meta.get("index_columns", []) if isinstance(c, dict)]
    if len(ranges) == 1 and ranges[0].get("kind") == "range":
        r = ranges[0]
        if len(range(r["start"], r["stop"], r["step"])) == total:
            return RangeLabels(r["start"], r["step"], r["name"])
    return RangeLabels()


def arrow_frame(
    reader: str,
    read_block: Callable[[Any, int, list[Any] | None], Any],
    path: str,
    schema: pa.Schema,
    blocks: list[int] | tuple[int, int],
    columns: Any,
    chunk_size: int | None,
    dtype_backend: str | None,
) -> Any:
    """The lazy frame of the file ``path`` read by blocks with ``read_block``.

    ``blocks`` is each block's row count, or ``(blocks, rows)`` when the blocks' counts
    are not known before they are read: then each block is a chunk, or, with
    ``chunk_size``, neighbours are grouped to about ``chunk_size`` rows by their average.
    """
    chosen = selected(schema, columns)
    meta = arrow_to_frame(chosen.empty_table(), dtype_backend)
    names = None if columns is None else tuple(columns)
    if isinstance(blocks, tuple):
        count, total = blocks
        per = 1
        if chunk_size is not None and count:
            per = max(1, round(chunk_size * count / max(total, 1)))
        starts = range(0, count, per)
        chunks: list[tuple[Piece, ...]] = [
            tuple((b, 0, None) for b in range(s, min(s + per, count))) for s in starts
        ]
        rows = (math.nan,) * max(len(chunks), 1)
        op = ReadArrowChunks(
            reader, read_block, path, tuple(chunks) or ((),), rows, names, chosen,
            dtype_backend, None,
        )  # fmt: skip
        return renumber(FrameNode(op, [], math.nan, meta), meta)
    chunks = plan_pieces(blocks, chunk_size)
    sizes = tuple(sum((blocks[b] if e is None else e) - s for b, s, e in c) for c in chunks)
    labels: RangeLabels | None = None
    if isinstance(meta.index, pd.RangeIndex):  # no stored index was read
        labels = _range_labels(chosen, sum(blocks))
        meta.index = pd.RangeIndex(labels.start, labels.start, labels.step, name=labels.name)
    op = ReadArrowChunks(
        reader, read_block, path, tuple(chunks), tuple(map(float, sizes)), names, chosen,
        dtype_backend, labels,
    )  # fmt: skip
    return new_frame(op, [], float(sum(blocks)), meta)
