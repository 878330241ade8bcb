"""``DataFrame.to_parquet``: one file, one file per chunk, or a (hive partitioned) folder.

Writing runs in three steps. Every chunk first reports its Arrow schema and whether its
index is a ``RangeIndex`` (cheap, in parallel); one planning task unifies the schemas (a
column of ``None`` in one chunk takes the type the others give it) and decides, as pandas
does for the whole frame, whether the index is stored as a column. Then:

* one file: a single task writes the chunks in order, one row group (or more) each, to a
  temporary file beside the target and renames it to the target when complete;
* a ``*`` pattern: each chunk is written by its own task to a temporary file, and a commit
  task renames them all to their names once every one is written;
* a folder (a path ending with ``/``, an existing folder, or ``partition_cols``): each
  chunk writes ``part.<chunk>.parquet`` (or ``key=value/part.<chunk>.<n>.parquet`` files)
  under a temporary folder beside the target; the commit renames that folder to the target
  (or, when the target folder exists, moves each file into it).

When any task fails, the commit removes every temporary file and raises the first error:
nothing appears under a target name unless all of it was written.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from dataclasses import dataclass
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from jupyter_mars.dataframe.core import DataFrame
from jupyter_mars.dataframe.io.commit import (
    check_path,
    commit,
    raise_first_error,
    remove_file,
    remove_temporaries,
    temp_name,
)
from jupyter_mars.dataframe.io.written import written
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

RangeInfo = tuple[int, int, int, int] | None
"""``(start, stop, step, length)`` of a chunk's ``RangeIndex``; None for other indexes."""


@dataclass(frozen=True)
class WritePlan:
    """What every writer needs to agree on: the columns' types and where the index goes."""

    fields: pa.Schema
    """The Arrow types of the written columns (the index ones too when stored)."""
    store_index: bool
    whole_range: tuple[int, int, int, Any] | None
    """``(start, stop, step, name)`` when the whole index is one ``RangeIndex``."""
    preserve: bool | None
    """``preserve_index`` for ``pyarrow.Table.from_pandas`` of each chunk."""


@dataclass(frozen=True, eq=False)
class ToParquet(Op):
    """A sink: write the input's chunks as Parquet to ``path``."""

    path: str
    mode: str
    """``"file"``, ``"pattern"`` (``*`` in the name) or ``"folder"``."""
    token: str
    """Unique to this write; part of every temporary name."""
    index: bool | None
    partition_cols: tuple[str, ...]
    kwargs: dict[str, Any]
    """Passed to ``pyarrow.parquet.write_table`` (``compression``, ``row_group_size``...)."""

    def label(self) -> str:
        return "to_parquet"


def describe_chunk(chunk: pd.DataFrame, index: bool | None) -> tuple[pa.Schema, RangeInfo]:
    """The chunk's Arrow schema (with its index columns unless ``index=False``) and range."""
    schema = pa.Schema.from_pandas(chunk, preserve_index=index is not False)
    idx = chunk.index
    info = (idx.start, idx.stop, idx.step, len(idx)) if isinstance(idx, pd.RangeIndex) else None
    return schema, info


def _whole_range(infos: list[RangeInfo]) -> tuple[int, int, int] | None:
    """``(start, stop, step)`` when the chunks' indexes join into one ``RangeIndex``."""
    if any(info is None for info in infos):
        return None
    parts = [info for info in infos if info is not None and info[3] > 0]
    if not parts:
        first = infos[0]
        assert first is not None
        return (first[0], first[0], 1)
    steps = {p[2] for p in parts if p[3] > 1}
    if len(steps) > 1:
        return None
    step = steps.pop() if steps else 1
    for prev, nxt in zip(parts, parts[1:]):
        if prev[0] + step * prev[3] != nxt[0]:
            return None
    last = parts[-1]
    return (parts[0][0], last[0] + step * last[3], step)


def plan_write(
    described: list[tuple[pa.Schema, RangeInfo]], index: bool | None, name: Any
) -> WritePlan:
    """Unify the chunks' schemas; decide whether the index is stored, as pandas would."""
    schemas = [s for s, _ in described]
    unified = pa.unify_schemas(schemas, promote_options="permissive").remove_metadata()
    whole = _whole_range([info for _, info in described])
    store = index is True or (index is None and whole is None)
    if not store and index is None:
        meta = json.loads((schemas[0].metadata or {})[b"pandas"])
        stored = [c for c in meta["index_columns"] if not isinstance(c, dict)]
        unified = pa.schema([f for f in unified if f.name not in stored])
    preserve = True if store else (None if index is None else False)
    full = None if whole is None or index is not None else (*whole, name)
    return WritePlan(unified, store, full, preserve)


def to_table(chunk: pd.DataFrame, plan: WritePlan) -> pa.Table:
    """The chunk as an Arrow table with the planned column types and its pandas metadata."""
    table = pa.Table.from_pandas(chunk, preserve_index=plan.preserve)
    schema = pa.schema(list(plan.fields), metadata=table.schema.metadata)
    if table.schema != schema:
        table = table.cast(schema)
    return table if plan.whole_range is None else _with_range(table, plan.whole_range)


def _with_range(table: pa.Table, whole: tuple[int, int, int, Any]) -> pa.Table:
    """``table`` whose pandas metadata describes the whole frame's ``RangeIndex``."""
    metadata = dict(table.schema.metadata or {})
    pandas_meta = json.loads(metadata[b"pandas"])
    start, stop, step, name = whole
    pandas_meta["index_columns"] = [
        {"kind": "range", "name": name, "start": start, "stop": stop, "step": step}
    ]
    metadata[b"pandas"] = json.dumps(pandas_meta).encode("utf8")
    return table.replace_schema_metadata(metadata)


def write_file(
    plan: WritePlan, chunks: list[pd.DataFrame], temp: str, final: str, kwargs: dict[str, Any]
) -> pd.DataFrame:
    """Write every chunk in order into one file under ``temp``, then rename it ``final``."""
    options = dict(kwargs)
    row_group_size = options.pop("row_group_size", None)
    try:
        tables = [to_table(chunk, plan) for chunk in chunks]
        with pq.ParquetWriter(temp, tables[0].schema, **options) as writer:
            for table in tables:
                if table.num_rows or len(tables) == 1:
                    writer.write_table(table, row_group_size=row_group_size)
        os.replace(temp, final)
    finally:
        remove_file(temp)
    return pd.DataFrame()


Status = tuple[str, str, BaseException | None]


def write_part(
    chunk: pd.DataFrame,
    plan: WritePlan,
    temp: str,
    final: str,
    partition_cols: list[str],
    basename: str,
    kwargs: dict[str, Any],
) -> Status:
    """Write one chunk as ``temp`` (or, with ``partition_cols``, files under the folder
    ``temp``); an error is returned for the commit task to raise after cleaning up."""
    try:
        table = to_table(chunk, plan)
        if partition_cols:
            pq.write_to_dataset(
                table, temp, partition_cols=partition_cols, basename_template=basename, **kwargs
            )
        else:
            os.makedirs(os.path.dirname(temp), exist_ok=True)
            pq.write_table(table, temp, **kwargs)
    except Exception as exc:  # reported by the commit, which cleans up after every writer
        return (temp, final, exc)
    return (temp, final, None)


def commit_folder(statuses: list[Status], path: str, temp_dir: str) -> pd.DataFrame:
    """Rename the temporary folder to ``path`` (or move its files into an existing one),
    or remove it and raise the first writer's error."""
    try:
        raise_first_error(statuses)
        if not os.path.exists(path):
            os.rename(temp_dir, path)
            return pd.DataFrame()
        for root, _, files in os.walk(temp_dir):
            target = os.path.join(path, os.path.relpath(root, temp_dir))
            os.makedirs(target, exist_ok=True)
            for name in files:
                os.replace(os.path.join(root, name), os.path.join(target, name))
    finally:
        shutil.rmtree(temp_dir, ignore_errors=True)
    return pd.DataFrame()


@tile_rule(ToParquet)
def _tile_to_parquet(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ToParquet)
    (t,) = inputs
    n = t.numblocks[0]
    suffix = node.key.split("-", 1)[1]
    described = key_grid(f"parquet_schema-{suffix}", [n])
    for i in range(n):
        ctx.new_task(described[i], describe_chunk, Ref(t.keys[i]), op.index)
    plan_key = (f"parquet_plan-{suffix}", 0)
    name = node.inputs[0].meta.index.name  # type: ignore[attr-defined]
    ctx.new_task(plan_key, plan_write, [Ref(k) for k in described], op.index, name)
    grid = key_grid(node.key, [1])
    chunks = [Ref(k) for k in t.flat_keys()]
    if op.mode == "file":
        temp = temp_name(op.path, op.token, "tmp")
        ctx.new_task(grid[0], write_file, Ref(plan_key), chunks, temp, op.path, op.kwargs)
        return Tiled(((0,),), grid)
    width = len(str(max(n - 1, 0)))
    writers = key_grid(f"parquet_part-{suffix}", [n])
    temp_dir = temp_name(op.path, op.token, "tmp")
    for i in range(n):
        number = f"{i:0{width}d}"
        basename = f"part.{number}.{{i}}.parquet"
        if op.mode == "pattern":
            final = op.path.replace("*", number)
            temp = temp_name(final, op.token, "tmp")
        else:
            final = os.path.join(op.path, f"part.{number}.parquet")
            temp = os.path.join(temp_dir, f"part.{number}.parquet")
            if op.partition_cols:
                temp = temp_dir
        ctx.new_task(
            writers[i], write_part, chunks[i], Ref(plan_key), temp, final,
            list(op.partition_cols), basename, op.kwargs,
        )  # fmt: skip
    statuses = [Ref(k) for k in writers]
    if op.mode == "pattern":
        ctx.new_task(grid[0], commit, statuses, op.path, op.token, False)
    else:
        ctx.new_task(grid[0], commit_folder, statuses, op.path, temp_dir)
    return Tiled(((0,),), grid)


def _mode(path: Any, partition_cols: Any) -> tuple[str, str]:
    """The absolute target and how it is written: ``file``, ``pattern`` or ``folder``."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file path, a folder or a '*' pattern, got {path!r}")
    text = os.fspath(path)
    folder = text.endswith(("/", os.sep)) or bool(partition_cols) or os.path.isdir(text)
    checked = check_path(text.rstrip("/" + os.sep) if folder else text)
    if folder:
        if "*" in checked:
            raise ValueError(f"path: a folder target cannot hold '*', got {text!r}")
        return checked, "folder"
    return checked, "pattern" if "*" in os.path.basename(checked) else "file"


def to_parquet(
    df: Any,
    path: Any = None,
    engine: str = "auto",
    compression: str | None = "snappy",
    index: bool | None = None,
    partition_cols: list[str] | None = None,
    session: Any = None,
    **kwargs: Any,
) -> Any:
    """Write the frame as Parquet at once, read back equal by ``pandas.read_parquet``.

    Returns the file's bytes when ``path`` is None (as pandas), else an executed empty
    frame whose ``.execute()`` does not write again. A file object gets the bytes of the
    whole frame, written by pandas from the fetched data.

    ``path`` is one file (the chunks written in order by one task, one row group per
    chunk at least); a name with ``*`` (one file per chunk, ``*`` replaced by the chunk
    number, zero-padded so the names sort in chunk order); or a folder: a path ending with
    ``/``, an existing folder, or any path with ``partition_cols``, which gets
    ``part.<chunk>.parquet`` files, or with ``partition_cols`` hive ``key=value/`` folders
    as ``pandas.DataFrame.to_parquet`` writes them. ``index`` as in pandas: None stores it
    unless it is a ``RangeIndex``, whose bounds (the whole frame's) go in every file's
    metadata, so that reading all the files back restores it. Other arguments go to
    ``pyarrow.parquet.write_table``. With ``partition_cols`` the rows are read back
    grouped by partition, each chunk's rows of a partition in their own file.

    The write is atomic: everything is written under temporary names beside the target
    and renamed into place once every chunk is written; on failure nothing appears under
    the target name and the temporary files are removed. Into an existing folder, the
    files are moved in one by one (each file appears whole).
    """
    if not isinstance(df, DataFrame):
        raise TypeError(f"to_parquet writes a DataFrame, got {type(df).__name__}")
    if engine not in ("auto", "pyarrow"):
        raise NotImplementedError(f"engine={engine!r}: only pyarrow is supported")
    if index not in (None, True, False):
        raise TypeError(f"index must be None, True or False, got {index!r}")
    if kwargs.get("storage_options") is not None or kwargs.get("filesystem") is not None:
        raise NotImplementedError("to_parquet writes local paths only")
    kwargs = {k: v for k, v in kwargs.items() if k not in ("storage_options", "filesystem")}
    cols: tuple[str, ...] = ()
    if partition_cols is not None:
        cols = (partition_cols,) if isinstance(partition_cols, str) else tuple(partition_cols)
        missing = [c for c in cols if c not in df.columns]
        if missing:
            raise KeyError(f"partition_cols: no column {missing[0]!r}")
    if path is None or hasattr(path, "write"):
        whole = df.to_pandas(session=session)
        data = whole.to_parquet(path, compression=compression, index=index, **kwargs)
        return data if path is None else written(session)
    text, mode = _mode(path, cols)
    if len(df.columns) and not all(isinstance(c, str) for c in df.columns):
        raise ValueError("parquet must have string column names")
    op = ToParquet(
        text, mode, uuid.uuid4().hex, index, cols, {"compression": compression, **kwargs}
    )
    sink = DataFrame(FrameNode(op, [df.node], 0, pd.DataFrame()))
    try:
        sink.execute(session=session)
    finally:
        remove_temporaries(text, op.token)
    return written(session)
