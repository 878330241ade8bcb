"""``DataFrame.to_json``: JSON Lines (``orient="records", lines=True``) written atomically
chunk by chunk; other orients are one document, written by pandas from the fetched data.

Each chunk writes its records to a temporary file beside the target (in parallel); a
commit task, which waits for every writer, joins the parts in order into one temporary
file and renames it to the target, or removes every temporary file and raises the first
writer's error. The target only appears when complete.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.io.commit import (
    Status,
    check_path,
    commit,
    remove_file,
    remove_temporaries,
    temp_name,
)
from jupyter_mars.dataframe.io.written import written
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.engine.executors.runner import uninterruptible
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


@dataclass(frozen=True, eq=False)
class ToJSONLines(Op):
    """A sink: write the input's rows as JSON Lines records to ``path``."""

    path: str
    token: str
    kwargs: dict[str, Any]

    def label(self) -> str:
        return "to_json"


def write_records(chunk: Any, temp: str, final: str, kwargs: dict[str, Any]) -> Status:
    """Write one chunk's records (nothing for an empty chunk) to ``temp``."""
    try:
        # pandas' JSON encoder calls back into Python and crashes the process if an
        # interrupt (its job failed or was cancelled) is raised there
        with uninterruptible():
            text = chunk.to_json(orient="records", lines=True, **kwargs) if len(chunk) else ""
            with open(temp, "w", encoding="utf-8") as f:
                f.write(text)
    except Exception as exc:  # reported by the commit, which cleans up after every writer
        remove_file(temp)
        return (temp, final, exc)
    return (temp, final, None)


@tile_rule(ToJSONLines)
def _tile_to_json(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ToJSONLines)
    (t,) = inputs
    n = t.numblocks[0]
    writers = key_grid(f"to_json_chunk-{node.key.split('-', 1)[1]}", [n])
    for i in range(n):
        temp = temp_name(op.path, op.token, f"part{i}")
        ctx.new_task(writers[i], write_records, Ref(t.keys[i]), temp, op.path, op.kwargs)
    grid = key_grid(node.key, [1])
    # pandas writes a newline for no rows
    statuses = [Ref(k) for k in writers]
    ctx.new_task(grid[0], commit, statuses, op.path, op.token, True, b"\n")
    return Tiled(((0,),), grid)


def to_json(
    df: Any,
    path: Any = None,
    orient: str | None = None,
    lines: bool = False,
    session: Any = None,
    **kwargs: Any,
) -> Any:
    """Write the frame (or Series) as JSON, like pandas' ``to_json`` of all of it.

    ``orient="records"`` with ``lines=True`` to a file path is written in parallel, every
    chunk by its own task, atomically: the target appears only once every chunk is
    written, and on failure no file is left behind. Any other ``orient`` is one JSON
    document, which pandas writes from the fetched data. Returns the text when ``path`` is
    None (as pandas), else an executed empty frame whose ``.execute()`` does not write
    again. Other arguments go to pandas' ``to_json`` (``date_format``,
    ``double_precision``, ``date_unit``...).
    """
    if not isinstance(df, (DataFrame, Series)):
        raise TypeError(f"to_json writes a DataFrame or a Series, got {type(df).__name__}")
    if "path_or_buf" in kwargs:
        if path is not None:
            raise TypeError("to_json got the file twice: as path and as path_or_buf")
        path = kwargs.pop("path_or_buf")
    # the pandas arguments are checked on the meta now, not when a chunk is written
    df.meta.to_json(orient=orient, lines=lines, **kwargs)
    parallel = orient == "records" and lines is True
    if path is None or hasattr(path, "write") or not parallel:
        out = df.to_pandas(session=session).to_json(path, orient=orient, lines=lines, **kwargs)
        return out if path is None else written(session)
    for name in ("compression", "mode", "storage_options"):
        if kwargs.get(name) not in (None, "infer", "w"):
            raise NotImplementedError(f"to_json does not support {name}={kwargs[name]!r}")
    kwargs = {k: v for k, v in kwargs.items() if k not in ("compression", "mode")}
    text = check_path(path)
    if "*" in os.path.basename(text):
        raise NotImplementedError("to_json writes one file: '*' patterns are not supported")
    op = ToJSONLines(text, uuid.uuid4().hex, kwargs)
    sink = DataFrame(FrameNode(op, [df.node], 0, pd.DataFrame()))
    try:
        sink.execute(session=session)
    finally:
        remove_temporaries(text, op.token)
    return written(session)
