"""``read_parquet``: a lazy DataFrame over Parquet files, one chunk per row group.

At build time the files are opened as pyarrow opens them for ``pandas.read_parquet`` (a
file, a list of files, or a dataset folder with hive ``key=value`` partition folders), and
only their metadata is read: the schema gives the columns and dtypes, the row-group
metadata gives the row counts. Partitions and row groups whose statistics show that no row
can pass ``filters`` are dropped then (the chunk tasks never read them); the filter itself
is applied by each chunk task, which asks pyarrow for the chosen columns only.
"""

from __future__ import annotations

import glob
import json
import math
import os
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from jupyter_mars.dataframe.core import new_frame
from jupyter_mars.dataframe.io.parquet_chunks import (
    Piece,
    RangeLabels,
    ReadParquetChunks,
    table_to_frame,
)
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.dataframe.renumber import renumber


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _source(path: Any) -> str | list[str]:
    """What pyarrow opens: one file or folder, or a list of files (a glob's matches)."""
    if isinstance(path, (list, tuple)):
        if not path:
            raise ValueError("path must name at least one file, got an empty list")
        files = [os.fspath(p) for p in path]
        for f in files:
            if not os.path.isfile(f):
                raise FileNotFoundError(f"path: no such file {f!r}")
        return files
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(
            f"path must be a file, a folder, a glob pattern or a list of files, "
            f"got {type(path).__name__}"
        )
    text = os.fspath(path)
    if any(c in text for c in "*?["):
        files = sorted(glob.glob(text))
        if not files:
            raise FileNotFoundError(f"path: no file matches the pattern {text!r}")
        return files
    if not os.path.exists(text):
        raise FileNotFoundError(f"path: no such file or folder {text!r}")
    return text


def _filter_names(filters: Any) -> list[str]:
    """The column names a DNF filter (a list of tuples, or a list of lists) refers to."""
    if filters is None or isinstance(filters, pc.Expression):
        return []
    groups = filters if filters and isinstance(filters[0], list) else [filters]
    return [term[0] for group in groups for term in group if isinstance(term, (tuple, list))]


def _index_columns(schema: pa.Schema) -> list[Any]:
    """The pandas metadata's index descriptions: stored column names or range dicts."""
    meta = schema.metadata or {}
    if b"pandas" not in meta:
        return []
    return list(json.loads(meta[b"pandas"].decode("utf8"))["index_columns"])


def _partition_categories(dataset: pq.ParquetDataset) -> dict[str, pd.CategoricalDtype]:
    """The categorical dtype of each partition column: every value found in the folders."""
    part = dataset.partitioning
    if part is None:
        return {}
    out: dict[str, pd.CategoricalDtype] = {}
    for field, values in zip(part.schema, part.dictionaries):
        if values is None:
            continue
        indices = pa.array([], type=field.type.index_type)
        empty = pa.DictionaryArray.from_arrays(indices, values)
        out[field.name] = table_to_frame(pa.table({field.name: empty}))[field.name].dtype
    return out


def _row_groups(
    dataset: pq.ParquetDataset, schema: pa.Schema, expr: Any
) -> list[tuple[Any, int, int]]:
    """``(fragment, row group id, rows)`` of every non-empty row group that may hold
    wanted rows."""
    out: list[tuple[Any, int, int]] = []
    for fragment in dataset.fragments:
        fragment.ensure_complete_metadata()
        groups = fragment.row_groups
        if expr is not None:
            groups = fragment.subset(filter=expr, schema=schema).row_groups
        out.extend((fragment, g.id, g.num_rows) for g in groups if g.num_rows)
    return out


def _plan(
    groups: list[tuple[Any, int, int]], chunk_size: int | None
) -> tuple[list[tuple[Piece, ...]], list[int]]:
    """Chunks of consecutive row groups (one each, or about ``chunk_size`` rows each)."""
    chunks: list[tuple[Piece, ...]] = []
    rows: list[int] = []
    current: list[Piece] = []
    count = 0
    for fragment, gid, n in groups:
        if current and current[-1][0] == fragment.path:
            path, part, ids = current[-1]
            current[-1] = (path, part, (*ids, gid))
        else:
            current.append((fragment.path, fragment.partition_expression, (gid,)))
        count += n
        if chunk_size is None or count >= chunk_size:
            chunks.append(tuple(current))
            rows.append(count)
            current, count = [], 0
    if current or not chunks:
        chunks.append(tuple(current))
        rows.append(count)
    return chunks, rows


def _nullable_ints(groups: list[tuple[Any, int, int]], meta: pd.DataFrame) -> dict[str, Any]:
    """Integer and bool columns that some row group may hold nulls in, and the dtype
    pandas gives them then (float64, object)."""
    wanted = {
        c: ("float64" if t.kind in "iu" else "object")
        for c, t in meta.dtypes.items()
        if isinstance(t, np.dtype) and t.kind in "iub"
    }
    found: dict[str, Any] = {}
    for fragment, gid, _ in groups:
        group = fragment.metadata.row_group(gid)
        for j in range(group.num_columns):
            column = group.column(j)
            name = column.path_in_schema
            if name not in wanted or name in found:
                continue
            stats = column.statistics
            if stats is None or not stats.has_null_count or stats.null_count > 0:
                found[name] = wanted[name]
    return found


def read_parquet(
    path: Any,
    columns: list[str] | None = None,
    filters: Any = None,
    chunk_size: int | None = None,
    engine: str = "auto",
    **kwargs: Any,
) -> Any:
    """A lazy DataFrame of Parquet data, equal to ``pandas.read_parquet`` of the same path.

    ``path`` is a file, a glob pattern (its matches in sorted order), a list of files, or a
    dataset folder, whose hive ``key=value`` folders become categorical columns as in
    pandas. Each row group is one chunk; with ``chunk_size`` (rows), consecutive row groups
    (across files too) are merged until a chunk holds at least that many rows. Only
    ``columns`` are read (plus the stored index columns). ``filters`` (pyarrow's DNF:
    ``[("a", ">", 3)]``, a list of such lists, or an expression) skips the partitions and
    row groups whose statistics exclude every row, then keeps the matching rows exactly.

    The index is the one the pandas metadata stores; otherwise a ``RangeIndex`` over the
    whole result. Row counts come from the metadata unless there are ``filters``. With
    ``filters``, a stored ``RangeIndex`` is not restored: the rows are numbered
    ``0..n-1`` (pandas keeps it only when the filter keeps every row). Integer columns
    that the row-group statistics say may hold nulls are float64 (bool ones object) even
    when the filter leaves out every null.
    """
    if engine not in ("auto", "pyarrow"):
        raise NotImplementedError(f"engine={engine!r}: only pyarrow is supported")
    for name in ("dtype_backend", "filesystem", "storage_options", "to_pandas_kwargs"):
        if kwargs.get(name) is not None:
            raise NotImplementedError(f"read_parquet does not support {name}=")
    if kwargs:
        raise TypeError(f"read_parquet got unexpected arguments {sorted(kwargs)}")
    if chunk_size is not None and (not _is_int(chunk_size) or chunk_size <= 0):
        raise ValueError(f"chunk_size must be a positive int or None, got {chunk_size!r}")
    if columns is not None:
        if isinstance(columns, str) or not hasattr(columns, "__iter__"):
            raise TypeError(f"columns must be a list of column names, got {columns!r}")
        columns = list(columns)
    source = _source(path)
    dataset = pq.ParquetDataset(source, filters=filters)
    schema = dataset.schema
    for kind, names in (("columns", columns or []), ("filters", _filter_names(filters))):
        for name in names:
            if name not in schema.names:
                raise ValueError(f"{kind}: no column {name!r} in the Parquet schema")
    expr = None if filters is None else pq.filters_to_expression(filters)
    index_cols = _index_columns(schema)
    stored = [c for c in index_cols if not isinstance(c, dict)]
    read_cols = None
    if columns is not None:
        read_cols = columns + [c for c in stored if c not in columns]
    # an empty table shaped like the data checks the columns and filter, and gives the meta
    probe = ds.dataset(schema.empty_table()).to_table(columns=read_cols, filter=expr)
    meta = table_to_frame(probe.replace_schema_metadata(schema.metadata))
    categories = {c: t for c, t in _partition_categories(dataset).items() if c in meta}
    groups = _row_groups(dataset, schema, expr)
    widened = _nullable_ints(groups, meta)
    if categories or widened:
        meta = meta.astype({**categories, **widened})
    chunks, counts = _plan(groups, chunk_size)
    total = sum(counts)
    labels: RangeLabels | None = None
    if not stored:
        labels = RangeLabels()
        ranges = [c for c in index_cols if isinstance(c, dict)]
        if len(ranges) == 1 and expr is None:
            r = ranges[0]
            if len(range(r["start"], r["stop"], r["step"])) == total:
                labels = RangeLabels(r["start"], r["step"], r["name"])
        meta.index = pd.RangeIndex(labels.start, labels.start, labels.step, name=labels.name)
    rows: tuple[float, ...] = tuple(counts) if expr is None else (math.nan,) * len(chunks)
    op = ReadParquetChunks(
        tuple(chunks),
        rows,
        dataset.filesystem,
        schema,
        None if read_cols is None else tuple(read_cols),
        expr,
        meta,
        labels if expr is None else None,
    )
    nrows = total if expr is None else math.nan
    if expr is None or stored:
        return new_frame(op, [], nrows, meta)
    parsed = FrameNode(op, [], math.nan, meta)
    return renumber(parsed, meta)
