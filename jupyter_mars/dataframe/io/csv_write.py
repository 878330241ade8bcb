"""``DataFrame.to_csv`` and ``Series.to_csv``: write every chunk, then commit atomically.

Each chunk is written by its own task to a temporary file beside the target. A final
commit task, which waits for every writer, either moves the results into place (renaming
each file to its name for a ``*`` pattern, or joining the parts into one temporary file
that is renamed to the target) or, when any writer failed, removes every temporary file
and raises that writer's error. Nothing appears under a target name unless every chunk was
written, and no temporary file is left behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.io.written import written
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

Status = tuple[str, str, BaseException | None]
"""``(temporary file, final name, error)`` for one written chunk."""


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


def _temp_name(final: str, token: str, suffix: str) -> str:
    folder, name = os.path.split(final)
    return os.path.join(folder, f".{name}.{token}.{suffix}")


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)


def write_chunk(
    chunk: Any, temp: str, final: str, header: Any, index: bool, kwargs: dict[str, Any]
) -> Status:
    """Write one chunk to ``temp``; an error is returned, for the commit task to raise."""
    try:
        chunk.to_csv(temp, index=index, header=header, **kwargs)
    except Exception as exc:  # reported by the commit, which cleans up after every writer
        _remove(temp)
        return (temp, final, exc)
    return (temp, final, None)


def join_files(parts: list[str], done: str, path: str, empty: bytes = b"") -> None:
    """Write ``parts`` one after another into the temporary file ``done`` (``empty`` when
    they hold nothing), then rename it to ``path``: the target appears whole or not at
    all."""
    with open(done, "wb") as out:
        for name in parts:
            with open(name, "rb") as part:
                shutil.copyfileobj(part, out)
        if out.tell() == 0:
            out.write(empty)
    os.replace(done, path)


def remove_temporaries(target: str, token: str) -> None:
    """Remove what the writers of ``token`` left beside ``target``: a writer whose input
    failed never reaches the commit, which would have removed it."""
    folder = os.path.dirname(target)
    for name in os.listdir(folder):
        if name.startswith(".") and f".{token}." in name:
            full = os.path.join(folder, name)
            if os.path.isdir(full):
                shutil.rmtree(full, ignore_errors=True)
            else:
                _remove(full)


def raise_first_error(statuses: list[Status]) -> None:
    """The first writer's error, if any writer failed."""
    for _, _, error in statuses:
        if error is not None:
            raise error


def commit(
    statuses: list[Status], path: str, token: str, join: bool, empty: bytes = b""
) -> pd.DataFrame:
    """Move the written files into place (``join``: one after another into ``path``,
    ``empty`` when they hold nothing), or remove them all and raise the first error."""
    temps = [temp for temp, _, _ in statuses]
    done = _temp_name(path, token, "tmp")
    try:
        raise_first_error(statuses)
        if not join:
            for temp, final, _ in statuses:
                os.replace(temp, final)
        else:
            join_files(temps, done, path, empty)
    finally:
        for temp in [*temps, done]:
            _remove(temp)
    return pd.DataFrame()


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
        temp = _temp_name(final, op.token, f"part{i}" if join else "tmp")
        head = header if (op.pattern or i == 0) else False
        ctx.new_task(writers[i], write_chunk, Ref(t.keys[i]), temp, final, head, op.index, kwargs)
    grid = key_grid(node.key, [1])
    ctx.new_task(grid[0], commit, [Ref(k) for k in writers], op.path, op.token, join)
    return Tiled(((0,),), grid)


def _check_path(path: Any) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file path or a '*' pattern, got {type(path).__name__}")
    text = os.path.abspath(os.fspath(path))
    folder, name = os.path.split(text)
    if "*" in folder:
        raise ValueError(f"path: '*' may only appear in the file name, got {text!r}")
    if not name or name.count("*") > 1:
        raise ValueError(f"path must name a file, with at most one '*', got {text!r}")
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"path: the directory {folder!r} does not exist")
    return text


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
    from jupyter_mars.dataframe.core import DataFrame, Series

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
    text = _check_path(path)
    if text.endswith((".gz", ".bz2", ".zip", ".xz", ".zst", ".tar")):
        raise NotImplementedError(f"path: compressed output is not supported, got {text!r}")
    op = ToCSV(text, uuid.uuid4().hex, index, {**kwargs, "compression": None})
    sink = DataFrame(FrameNode(op, [df.node], 0, pd.DataFrame()))
    try:
        sink.execute(session=session)
    finally:
        remove_temporaries(text, op.token)
    return written(session)
