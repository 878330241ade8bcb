"""``read_csv``: a lazy DataFrame over one or many CSV files, chunked by bytes.

Each file is cut into byte ranges of about ``chunk_bytes``, widened to whole lines, and
every range is parsed by its own task with ``pandas.read_csv`` (see ``csv_chunks``). The
columns and dtypes (the meta) come from parsing the start of the first file with the same
arguments, so the lazy frame knows them before any chunk is read.
"""

from __future__ import annotations

import glob
import io
import math
import os
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import wrap
from jupyter_mars.dataframe.io.csv_chunks import ReadCSVChunks
from jupyter_mars.dataframe.io.csv_options import check_mars_keywords, index_labels, parse_bytes
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.dataframe.renumber import renumber
from jupyter_mars.dataframe.set_index import set_index

DEFAULT_CHUNK_BYTES = 64 * 2**20
SAMPLE_BYTES = 256 * 2**10
"""How much of the first file is parsed to infer the columns and dtypes."""

_HEADER_KWARGS = (
    "sep", "delimiter", "quotechar", "escapechar", "doublequote", "quoting",
    "skipinitialspace", "encoding", "engine", "dialect",
)  # fmt: skip
_REJECTED = ("chunksize", "iterator", "skipfooter", "lineterminator")
_COMPRESSED = (".gz", ".bz2", ".zip", ".xz", ".zst", ".tar")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def expand_paths(path: Any) -> list[str]:
    """The files ``path`` names: one file, a glob pattern (sorted) or a list of paths."""
    if isinstance(path, (list, tuple)):
        if not path:
            raise ValueError("path must name at least one file, got an empty list")
        files = [os.fspath(p) for p in path]
    elif isinstance(path, (str, os.PathLike)):
        text = os.fspath(path)
        if any(c in text for c in "*?["):
            files = sorted(glob.glob(text))
            if not files:
                raise FileNotFoundError(f"path: no file matches the pattern {text!r}")
        else:
            files = [text]
    else:
        raise TypeError(
            f"path must be a file path, a glob pattern or a list of paths, "
            f"got {type(path).__name__}"
        )
    for f in files:
        if not os.path.isfile(f):
            raise FileNotFoundError(f"path: no such file {f!r}")
        if f.endswith(_COMPRESSED):
            raise NotImplementedError(f"path: compressed files cannot be split by bytes: {f!r}")
    return files


def _check_kwargs(kwargs: dict[str, Any]) -> None:
    for name in _REJECTED:
        if kwargs.get(name) not in (None, 0, False):
            raise NotImplementedError(f"read_csv does not support {name}={kwargs[name]!r}")
    if kwargs.get("compression", "infer") not in ("infer", None):
        raise NotImplementedError("compression: compressed files cannot be split by bytes")
    skiprows = kwargs.get("skiprows")
    if skiprows is not None and not (_is_int(skiprows) and skiprows >= 0):
        raise TypeError(f"skiprows must be a non-negative int or None, got {skiprows!r}")
    header = kwargs.get("header", "infer")
    if header != "infer" and header is not None and not (_is_int(header) and header >= 0):
        raise NotImplementedError(
            f"header must be 'infer', None or a non-negative int, got {header!r}"
        )
    nrows = kwargs.get("nrows")
    if nrows is not None and not (_is_int(nrows) and nrows >= 0):
        raise TypeError(f"nrows must be a non-negative int or None, got {nrows!r}")
    names = kwargs.get("names")
    if names is not None and (isinstance(names, (str, bytes)) or not hasattr(names, "__iter__")):
        raise TypeError(f"names must be a list of column names, got {names!r}")


def _header_line(kwargs: dict[str, Any]) -> int | None:
    """Which line (after ``skiprows``) holds the column names, None when there is none."""
    header = kwargs.get("header", "infer")
    if header == "infer":
        return 0 if kwargs.get("names") is None else None
    return header  # type: ignore[no-any-return]


def data_start(path: str, kwargs: dict[str, Any]) -> tuple[int, bytes]:
    """Where the data rows of ``path`` begin, and its header line (b"" when none)."""
    header = _header_line(kwargs)
    skip = (kwargs.get("skiprows") or 0) + (header if header is not None else 0)
    line = b""
    with open(path, "rb") as f:
        for _ in range(skip):
            f.readline()
        if header is not None:
            line = f.readline()
        return f.tell(), line


def _column_names(path: str, start: int, line: bytes, kwargs: dict[str, Any]) -> list[Any]:
    if kwargs.get("names") is not None:
        return list(kwargs["names"])
    fmt = {k: kwargs[k] for k in _HEADER_KWARGS if k in kwargs}
    if line:
        return list(pd.read_csv(io.BytesIO(line), header=0, nrows=0, **fmt).columns)
    with open(path, "rb") as f:
        f.seek(start)
        first = f.readline()
    if not first.strip():
        raise ValueError(f"path: {path!r} has no header and no data to count the columns of")
    return list(range(len(pd.read_csv(io.BytesIO(first), header=None, **fmt).columns)))


def _sample(path: str, start: int, head_bytes: int, head_lines: int | None) -> bytes:
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(head_bytes)
        if len(data) == head_bytes and f.read(1):
            data = data[: data.rfind(b"\n") + 1]
    if head_lines is not None:
        data = b"".join(io.BytesIO(data).readlines()[:head_lines])
    return data


def byte_ranges(path: str, start: int, chunk_bytes: int) -> list[tuple[str, int, int, bool]]:
    """``(path, start, stop, first)`` for each range of about ``chunk_bytes`` after ``start``."""
    size = os.path.getsize(path)
    out = [(path, s, min(s + chunk_bytes, size), s == start)
           for s in range(start, size, chunk_bytes)]  # fmt: skip
    return out or [(path, start, size, True)]


def read_csv(
    path: Any,
    chunk_bytes: int | str | None = None,
    index_col: Any = None,
    *,
    head_bytes: int | str | None = None,
    head_lines: int | None = None,
    incremental_index: bool = True,
    use_arrow_dtype: bool | None = None,
    gpu: bool | None = None,
    storage_options: Any = None,
    memory_scale: Any = None,
    merge_small_files: bool = True,
    merge_small_file_options: Any = None,
    **kwargs: Any,
) -> Any:
    """A lazy DataFrame of CSV data, like ``pandas.read_csv`` of the files one after another.

    ``path`` is one file, a glob pattern (the matching files in sorted order) or a list of
    paths; every file has the same layout (the header, if any, is on each file's first
    line after ``skiprows``). Each file is split into byte ranges of about ``chunk_bytes``
    (default 64 MiB), cut at line boundaries, and parsed by one task each. The rows are
    numbered ``0..n-1`` over all files, as ``ignore_index`` would.

    Supported pandas arguments: ``sep``, ``usecols``, ``dtype``, ``names``, ``header``
    (None or an int), ``parse_dates``, ``nrows`` (read by a single task), an int
    ``skiprows``, ``index_col`` and formatting options such as ``quotechar`` or
    ``na_values``. The dtypes are inferred from the first ``head_bytes`` (default
    ``SAMPLE_BYTES``; at most ``head_lines`` lines) of the first file; when later rows do
    not fit them, pass ``dtype=``. Mars's keywords are described in ``csv_options``;
    ``memory_scale``, ``merge_small_files`` and ``merge_small_file_options`` are accepted
    and have no effect (every byte range is one chunk).

    Limitation: a chunk boundary is placed at a newline, so quoted fields that contain
    newlines may be split between chunks and misparsed; read such files with one chunk
    (a ``chunk_bytes`` larger than the file).
    """
    chunk_bytes = (
        DEFAULT_CHUNK_BYTES if chunk_bytes is None else parse_bytes(chunk_bytes, "chunk_bytes")
    )
    head = SAMPLE_BYTES if head_bytes is None else parse_bytes(head_bytes, "head_bytes")
    if head_lines is not None and not (_is_int(head_lines) and head_lines > 0):
        raise ValueError(f"head_lines must be a positive int, got {head_lines!r}")
    check_mars_keywords(gpu, storage_options)
    if use_arrow_dtype:
        kwargs.setdefault("dtype_backend", "pyarrow")
    _check_kwargs(kwargs)
    files = expand_paths(path)
    starts = [data_start(f, kwargs) for f in files]
    names = _column_names(files[0], starts[0][0], starts[0][1], kwargs)
    chunk_kwargs = {
        k: v
        for k, v in kwargs.items()
        if k not in ("header", "names", "skiprows", "nrows", "index_col")
    }
    sample = _sample(files[0], starts[0][0], head, head_lines)
    meta = pd.read_csv(io.BytesIO(sample), header=None, names=names, **chunk_kwargs).iloc[:0]
    ranges = [r for f, (s, _) in zip(files, starts) for r in byte_ranges(f, s, chunk_bytes)]
    nrows = kwargs.get("nrows")
    op = ReadCSVChunks(tuple(ranges), tuple(names), chunk_kwargs, meta, nrows)
    parsed = FrameNode(op, [], math.nan, meta)
    labels = index_labels(index_col, list(meta.columns))
    frame = renumber(parsed, meta) if incremental_index else wrap(parsed)
    return frame if labels is None else set_index(frame, labels)
