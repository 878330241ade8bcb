"""``read_json``: a lazy DataFrame over JSON Lines files, chunked by bytes.

With ``lines=True`` each file is cut into byte ranges of about ``chunk_bytes``, widened to
whole lines exactly as ``read_csv`` does (``csv_chunks.line_end``), and every range is
parsed by its own task with ``pandas.read_json(lines=True)``. The columns and dtypes (the
meta) come from parsing the start of the first file, so the lazy frame knows them before
any chunk is read; the rows are numbered ``0..n-1`` across chunks once their lengths are
known. With ``lines=False`` a file is one JSON document: it is parsed whole, when called.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import DataFrame
from jupyter_mars.dataframe.io.conform import conform_dtypes
from jupyter_mars.dataframe.io.csv_chunks import FIRST_FILE, owned_range
from jupyter_mars.dataframe.io.csv_read import byte_ranges, expand_paths
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.dataframe.renumber import renumber
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule

DEFAULT_CHUNK_BYTES = 64 * 2**20
SAMPLE_BYTES = 256 * 2**10
"""How much of the first file is parsed to infer the columns and dtypes."""

_REJECTED = ("chunksize", "nrows", "iterator")


def _parse(data: bytes, kwargs: dict[str, Any]) -> pd.DataFrame:
    return pd.read_json(io.BytesIO(data), lines=True, **kwargs)


def conform_json(frame: pd.DataFrame, meta: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with ``meta``'s columns (absent keys are all missing) and dtypes."""
    extra = [c for c in frame.columns if c not in meta.columns]
    if extra:
        raise ValueError(
            f"read_json: keys {extra} are not among the columns {list(meta.columns)} "
            "found at the start of the first file"
        )
    if list(frame.columns) != list(meta.columns):
        frame = frame.reindex(columns=meta.columns)
    return conform_dtypes(frame, meta, "read_json", FIRST_FILE)


def read_json_range(
    path: str, start: int, stop: int, first: bool, kwargs: dict[str, Any], meta: Any
) -> Any:
    """Parse the whole lines of ``path`` that the byte range ``[start, stop)`` owns."""
    with open(path, "rb") as f:
        begin, end = owned_range(f, start, stop, first)
        if begin >= end:
            return meta.copy()
        f.seek(begin)
        data = f.read(end - begin)
    if not data or data.isspace():
        return meta.copy()
    return conform_json(_parse(data, kwargs), meta)


@dataclass(frozen=True, eq=False)
class ReadJSONChunks(Op):
    """Parse byte ranges of JSON Lines files; each chunk keeps its own 0-based rows."""

    ranges: tuple[tuple[str, int, int, bool], ...]
    """``(path, start, stop, first range of its file)`` per chunk."""
    kwargs: dict[str, Any]
    meta: Any

    def label(self) -> str:
        return "read_json"


@tile_rule(ReadJSONChunks)
def _tile_read_json(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    op = node.op
    assert isinstance(op, ReadJSONChunks)
    grid = key_grid(node.key, [len(op.ranges)])
    for i, (path, start, stop, first) in enumerate(op.ranges):
        ctx.new_task(grid[i], read_json_range, path, start, stop, first, op.kwargs, op.meta)
    return Tiled(((math.nan,) * len(op.ranges),), grid)


def _sample(path: str) -> bytes:
    with open(path, "rb") as f:
        data = f.read(SAMPLE_BYTES)
        if len(data) == SAMPLE_BYTES and f.read(1):
            data = data[: data.rfind(b"\n") + 1]
    return data


def read_json(
    path: Any,
    lines: bool = False,
    chunk_bytes: int | None = None,
    blocksize: int | None = None,
    chunk_size: Any = None,
    **kwargs: Any,
) -> Any:
    """A lazy DataFrame of JSON data, like ``pandas.read_json`` of the files one after another.

    ``path`` is one file, a glob pattern (the matching files in sorted order) or a list of
    paths. With ``lines=True`` (JSON Lines, one record per line), each file is split into
    byte ranges of about ``chunk_bytes`` (or ``blocksize``; default 64 MiB) cut at line
    ends and parsed by one task each; the rows are numbered ``0..n-1``. The columns and
    dtypes are inferred from the first ``SAMPLE_BYTES`` of the first file; when later
    records do not fit them, pass ``dtype=``; keys that first appear later are an error.
    Other arguments go to ``pandas.read_json`` (``dtype``, ``convert_dates``,
    ``precise_float``, ``encoding``...).

    With ``lines=False`` the file holds one JSON document: it is parsed whole when
    ``read_json`` is called and split into chunks of ``chunk_size`` rows.
    """
    for name in _REJECTED:
        if kwargs.get(name) is not None:
            raise NotImplementedError(f"read_json does not support {name}=")
    if kwargs.get("compression", "infer") not in ("infer", None):
        raise NotImplementedError("compression: compressed files cannot be split by bytes")
    if kwargs.get("typ", "frame") != "frame":
        raise NotImplementedError("read_json reads frames only (typ='frame')")
    if chunk_bytes is not None and blocksize is not None:
        raise TypeError("pass chunk_bytes or blocksize, not both")
    size = chunk_bytes if chunk_bytes is not None else blocksize
    if size is None:
        size = DEFAULT_CHUNK_BYTES
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
        raise ValueError(f"chunk_bytes must be a positive int, got {size!r}")
    files = expand_paths(path)
    if not lines:
        frames = [pd.read_json(f, **kwargs) for f in files]
        whole = frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
        return DataFrame(whole, chunk_size=chunk_size)
    if kwargs.get("orient", "records") != "records":
        raise ValueError("lines=True reads records: orient must be 'records'")
    kwargs = {k: v for k, v in kwargs.items() if k not in ("compression", "typ")}
    sample = _sample(files[0])
    meta = _parse(sample, kwargs).iloc[:0] if sample.strip() else pd.DataFrame()
    ranges = [r for f in files for r in byte_ranges(f, 0, size)]
    op = ReadJSONChunks(tuple(ranges), kwargs, meta)
    parsed = FrameNode(op, [], math.nan, meta)
    return renumber(parsed, meta)
