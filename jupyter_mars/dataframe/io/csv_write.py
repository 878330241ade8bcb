"""``DataFrame.to_csv`` and ``Series.to_csv``: write every chunk, then commit atomically.

Each chunk is written by its own task to a temporary file beside the target. A final
commit task, which waits for every writer, either moves the results into place (renaming
each file to its name for a ``*`` pattern, or joining the parts into one temporary file
that is renamed to the target) or, when any writer failed, removes every temporary file
and raises that writer's error. Nothing appears under a target name unless every chunk was
written, and no temporary file is left behind.
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
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule


@dataclass(frozen=True, eq=False)
class ToCSV(Op):
    """A sink: write the input's chunks to ``path`` (a ``*`` pattern gives one file each)."""

    path: str
    token: str
    """Unique to this write; part of every temporary file name."""
    index: bool
    kwargs: dict[str, Any]

    def label(self) -> str:
        return "to_csv"

    @property
    def pattern(self) -> bool:
        return "*" in os.path.basename(self.path)


def write_chunk(
    chunk: Any, temp: str, final: str, header: Any, index: bool, kwargs: dict[str, Any]
) -> Status:
    """Write one chunk to ``temp``; an error is returned, for the commit task to raise."""
    try:
        chunk.to_csv(temp, index=index, header=header, **kwargs)
    except Exception as exc:  # reported by the commit, which cleans up after every writer
        remove_file(temp)
        return (temp, final, exc)
    return (temp, final, None)


@tile_rule(ToCSV)
def _tile_to_csv(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ToCSV)
    (t,) = inputs
    n = t.numblocks[0]
    writers = key_grid(f"to_csv_chunk-{node.key.split('-', 1)[1]}", [n])
    header = op.kwargs.get("header", True)
    kwargs = {k: v for k, v in op.kwargs.items() if k != "header"}
    join = not op.pattern and n > 1
    for i in range(n):
        final = op.path.replace("*", str(i)) if op.pattern else op.path
        temp = temp_name(final, op.token, f"part{i}" if join else "tmp")
        head = header if (op.pattern or i == 0) else False
        ctx.new_task(writers[i], write_chunk, Ref(t.keys[i]), temp, final, head, op.index, kwargs)
    grid = key_grid(node.key, [1])
    ctx.new_task(grid[0], commit, [Ref(k) for k in writers], op.path, op.token, join)
    return Tiled(((0,),), grid)


def to_csv(
    df: Any, path: Any = None, index: bool = True, session: Any = None, **kwargs: Any
) -> Any:
    """Write the frame (or Series) as CSV at once, like pandas' ``to_csv`` of all of it.

    Returns the CSV text when ``path`` is None (as pandas), else an executed empty frame
    whose ``.execute()`` does not write again (see ``written``). A file object as
    ``path`` gets the whole text, written by this process.

    ``path`` is one file (the chunks written in order, the header once) or a name with
    ``*`` (one file per chunk, ``*`` replaced by the chunk number, each with a header).
    Other arguments go to ``pandas.DataFrame.to_csv`` (``sep``, ``header``, ``columns``,
    ``na_rep``, ``encoding``, ...). The write is atomic: files are written under temporary
    names in the target directory and renamed into place only once every chunk is written;
    on failure no target file is created and the temporary files are removed.
    """
    if not isinstance(df, (DataFrame, Series)):
        raise TypeError(f"to_csv writes a DataFrame or a Series, got {type(df).__name__}")
    if not isinstance(index, bool):
        raise TypeError(f"index must be True or False, got {index!r}")
    if kwargs.get("mode", "w") != "w":
        raise NotImplementedError(f"mode={kwargs['mode']!r}: only 'w' is supported")
    if kwargs.get("compression", "infer") not in ("infer", None):
        raise NotImplementedError("compression is not supported: chunks are joined as text")
    if "path_or_buf" in kwargs:
        if path is not None:
            raise TypeError("to_csv got the file twice: as path and as path_or_buf")
        path = kwargs.pop("path_or_buf")
    if path is None or hasattr(path, "write"):
        # pandas' own writer on the fetched data: text, or a buffer this process holds
        out = df.to_pandas(session=session).to_csv(path, index=index, **kwargs)
        return out if path is None else written(session)
    text = check_path(path)
    if text.endswith((".gz", ".bz2", ".zip", ".xz", ".zst", ".tar")):
        raise NotImplementedError(f"path: compressed output is not supported, got {text!r}")
    op = ToCSV(text, uuid.uuid4().hex, index, {**kwargs, "compression": None})
    sink = DataFrame(FrameNode(op, [df.node], 0, pd.DataFrame()))
    try:
        sink.execute(session=session)
    finally:
        remove_temporaries(text, op.token)
    return written(session)
