"""``read_csv``: a lazy DataFrame over one or many CSV files, chunked by bytes.

Each file's first lines are read as pandas reads them to find where its data starts
(``csv_lines.find_data_start``: past the skipped lines, blank lines and the header). The
data is cut into byte ranges of about ``chunk_bytes``, widened to whole lines, and every
range is parsed by its own task with ``pandas.read_csv`` (see ``csv_chunks``). The columns
and dtypes (the meta) come from parsing the start of the first file with the same
arguments, so the lazy frame knows them before any chunk is read.

``skiprows`` given as line numbers or a callable, and ``skipfooter``, drop lines by their
number in the file: the chunks learn the numbers of their lines by counting line endings
first (``csv_numbered``). Where a quoted field of a file holds a line ending, counting is
not exact and that file is read whole by one task.
"""

from __future__ import annotations

import csv
import dataclasses
import glob
import io
import math
import os
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import wrap
from jupyter_mars.dataframe.io.csv_chunks import TextParse
from jupyter_mars.dataframe.io.csv_lines import (
    DataStart,
    LineKinds,
    QuoteRule,
    count_lines,
    find_data_start,
)
from jupyter_mars.dataframe.io.csv_options import check_mars_keywords, index_labels, parse_bytes
from jupyter_mars.dataframe.io.csv_skip import (
    RowSkipping,
    check_row_options,
    python_engine_for_footer,
    row_skipping,
)
from jupyter_mars.dataframe.io.csv_tile import ReadCSVChunks
from jupyter_mars.dataframe.node import FrameNode
from jupyter_mars.dataframe.renumber import renumber
from jupyter_mars.dataframe.set_index import set_index

DEFAULT_CHUNK_BYTES = 64 * 2**20
SAMPLE_BYTES = 256 * 2**10
"""How much of the first file is parsed to infer the columns and dtypes."""
PYTHON_LOOKAHEAD = 3
"""Rows after the header that pandas' python parser reads one by one (the first two, to
look for an index column), where it checks ``skiprows`` in a way of its own: the first
chunk, parsed from the top of the file by pandas, holds them."""

_HEADER_KWARGS = (
    "sep", "delimiter", "quotechar", "escapechar", "doublequote", "quoting",
    "skipinitialspace", "encoding", "engine", "dialect",
)  # fmt: skip
_REJECTED = ("chunksize", "iterator", "lineterminator")
_NOT_FOR_CHUNKS = ("header", "names", "skiprows", "skipfooter", "nrows", "index_col")
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


def text_sizes(
    chunk_bytes: int | str | None, head_bytes: int | str | None, head_lines: int | None
) -> tuple[int, int, int | None]:
    """Mars's ``(chunk_bytes, head_bytes, head_lines)`` checked, with their defaults."""
    chunk = DEFAULT_CHUNK_BYTES if chunk_bytes is None else parse_bytes(chunk_bytes, "chunk_bytes")
    head = SAMPLE_BYTES if head_bytes is None else parse_bytes(head_bytes, "head_bytes")
    if head_lines is not None and not (_is_int(head_lines) and head_lines > 0):
        raise ValueError(f"head_lines must be a positive int, got {head_lines!r}")
    return chunk, head, head_lines


def check_text_kwargs(kwargs: dict[str, Any], reader: str = "read_csv") -> None:
    """Raise for the pandas arguments that text read in byte ranges cannot honour."""
    for name in _REJECTED:
        if kwargs.get(name) not in (None, 0, False):
            raise NotImplementedError(f"{reader} does not support {name}={kwargs[name]!r}")
    if kwargs.get("compression", "infer") not in ("infer", None):
        raise NotImplementedError("compression: compressed files cannot be split by bytes")
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
    """Which row (after the skipped lines) holds the column names, None when none does."""
    header = kwargs.get("header", "infer")
    if header == "infer":
        return 0 if kwargs.get("names") is None else None
    return header  # type: ignore[no-any-return]


def _char(value: Any, kwargs: dict[str, Any]) -> bytes | None:
    """The bytes of a one-character option (None when unset)."""
    if not isinstance(value, str) or not value:
        return None
    return value.encode(kwargs.get("encoding") or "utf-8")


def csv_layout(kwargs: dict[str, Any]) -> tuple[QuoteRule, LineKinds]:
    """How quotes are written, and which lines are blank or comments, per ``kwargs``."""
    sep = kwargs.get("delimiter")
    if sep is None:
        sep = kwargs.get("sep", ",")
    delimiter = _char(sep, kwargs)
    if delimiter is not None and len(delimiter) != 1 or "dialect" in kwargs:
        delimiter = None  # a regular expression or a dialect: quotes are not followed
    quoting = kwargs.get("quoting", csv.QUOTE_MINIMAL)
    rule = QuoteRule(
        None if quoting == csv.QUOTE_NONE else _char(kwargs.get("quotechar", '"'), kwargs),
        delimiter,
        _char(kwargs.get("escapechar"), kwargs),
        bool(kwargs.get("doublequote", True)),
        bool(kwargs.get("skipinitialspace", False)),
    )
    blank = bytes(c for c in b" \t" if delimiter is None or c not in delimiter)
    comment = _char(kwargs.get("comment"), kwargs)
    return rule, LineKinds(blank, comment, bool(kwargs.get("skip_blank_lines", True)))


def _column_names(
    path: str, start: DataStart, kwargs: dict[str, Any], fmt: dict[str, Any], parse: Any
) -> list[Any]:
    if kwargs.get("names") is not None:
        return list(kwargs["names"])
    if start.header:
        return list(parse(io.BytesIO(start.header), header=0, **fmt).columns)
    if not start.first_row:
        raise pd.errors.EmptyDataError(f"No columns to parse from file {path!r}")
    return list(range(len(parse(io.BytesIO(start.first_row), header=None, **fmt).columns)))


def _sample(path: str, start: int, head_bytes: int, head_lines: int | None) -> tuple[bytes, bool]:
    """The top of ``path`` up to ``start`` and the first ``head_bytes`` (at most
    ``head_lines`` lines) after it, and whether that is the whole file."""
    with open(path, "rb") as f:
        top = f.read(start)
        data = f.read(head_bytes)
        whole = not f.read(1)
    if not whole:
        data = data[: data.rfind(b"\n") + 1]
    if head_lines is not None:
        lines = io.BytesIO(data).readlines()
        whole = whole and len(lines) <= head_lines
        data = b"".join(lines[:head_lines])
    return top + data, whole


def _meta(
    sample: tuple[bytes, bool], text: TextParse, skipping: RowSkipping | None, nrows: Any
) -> pd.DataFrame:
    """The empty frame of the columns and dtypes pandas gives the ``sample`` (the top of
    the first file, header included, and whether it is the whole file), parsed as
    ``text`` says, dropping the lines ``skipping`` drops; with ``nrows`` the result is
    the first rows, whose dtypes are the ones pandas gives."""
    data, whole = sample
    extra: dict[str, Any] = {"nrows": nrows}
    if skipping is not None:
        if whole and skipping.footer:
            extra.update(skipfooter=skipping.footer, skiprows=skipping.shifted(0))
        else:
            # the footer's lines in the sample are among its last ones
            lines = count_lines(data)
            footer = lines - skipping.footer if skipping.footer else None
            extra["skiprows"] = skipping.shifted(0, lines, footer)
    return text.parsed(io.BytesIO(data), top=True, **extra).iloc[:0]


def byte_ranges(path: str, start: int, chunk_bytes: int) -> list[tuple[str, int, int, bool]]:
    """``(path, start, stop, first)`` for each range of about ``chunk_bytes`` after ``start``."""
    size = os.path.getsize(path)
    out = [(path, s, min(s + chunk_bytes, size), s == start)
           for s in range(start, size, chunk_bytes)]  # fmt: skip
    return out or [(path, start, size, True)]


def text_frame(
    files: list[str],
    kwargs: dict[str, Any],
    layout: tuple[QuoteRule, LineKinds],
    parse: Any,
    fmt: dict[str, Any],
    sizes: tuple[int, int, int | None],
    index_col: Any = None,
    incremental_index: bool = True,
) -> Any:
    """The lazy frame of text ``files`` parsed by ``parse`` (``read_csv``, ``read_fwf``)
    with checked ``kwargs``; ``fmt`` are the arguments that read a header line alone;
    ``sizes`` are ``(chunk_bytes, head_bytes, head_lines)``."""
    chunk_bytes, head, head_lines = sizes
    rule, kinds = layout
    python = parse is pd.read_fwf or kwargs.get("engine") == "python"
    skipping = row_skipping(kwargs, python)
    header = _header_line(kwargs)
    lookahead = PYTHON_LOOKAHEAD if python else 0
    starts: list[DataStart] = []
    for name in files:
        with open(name, "rb") as f:
            starts.append(find_data_start(f, header, skipping, rule, kinds, lookahead))
    names = _column_names(files[0], starts[0], kwargs, fmt, parse)
    chunk_kwargs = {k: v for k, v in kwargs.items() if k not in _NOT_FOR_CHUNKS}
    ranges = [r for f, s in zip(files, starts) for r in byte_ranges(f, s.offset, chunk_bytes)]
    file_lines = tuple(s.line for s in starts)
    numbered = skipping is not None and skipping.beyond(min(file_lines))
    # the sample starts at the top of the file, so that pandas reads the header and
    # numbers and skips the lines as it does when it reads the whole file
    sample = _sample(files[0], starts[0].offset, head, head_lines)
    named = kwargs.get("names") is not None
    text = TextParse(parse, tuple(names), chunk_kwargs, None, header, named)
    meta = _meta(sample, text, skipping, kwargs.get("nrows"))
    text = dataclasses.replace(text, meta=meta)
    op = ReadCSVChunks(
        tuple(ranges), text, kwargs.get("nrows"), skipping, numbered, file_lines, rule
    )
    parsed = FrameNode(op, [], math.nan, meta)
    labels = index_labels(index_col, list(meta.columns))
    frame = renumber(parsed, meta) if incremental_index else wrap(parsed)
    return frame if labels is None else set_index(frame, labels)


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
    line after the skipped ones). Each file is split into byte ranges of about ``chunk_bytes``
    (default 64 MiB), cut at line boundaries, and parsed by one task each. The rows are
    numbered ``0..n-1`` over all files, as ``ignore_index`` would.

    Supported pandas arguments: ``sep``, ``usecols``, ``dtype``, ``names``, ``header``
    (None or an int), ``parse_dates``, ``nrows`` (read by a single task), ``skiprows``
    (a count, line numbers or a callable of the line number), ``skipfooter`` (pandas'
    python engine), ``index_col`` and formatting options such as ``quotechar`` or
    ``na_values``. Line numbers count from the top of each file, header included. The
    dtypes are inferred from the first ``head_bytes`` (default ``SAMPLE_BYTES``; at most
    ``head_lines`` lines) of the first file's data, the skipped lines left out; when later
    rows do not fit them, pass ``dtype=``. Mars's keywords are described in ``csv_options``;
    ``memory_scale``, ``merge_small_files`` and ``merge_small_file_options`` are accepted
    and have no effect (every byte range is one chunk).

    Limitation: a chunk boundary is placed at a newline, so quoted fields that contain
    newlines may be split between chunks and misparsed; read such files with one chunk
    (a ``chunk_bytes`` larger than the file). With line numbers to skip, such files are
    read whole by one task.
    """
    sizes = text_sizes(chunk_bytes, head_bytes, head_lines)
    check_mars_keywords(gpu, storage_options)
    if use_arrow_dtype:
        kwargs.setdefault("dtype_backend", "pyarrow")
    check_text_kwargs(kwargs)
    check_row_options(kwargs, pd.read_csv)
    kwargs = python_engine_for_footer(kwargs)
    files = expand_paths(path)
    fmt = {k: kwargs[k] for k in _HEADER_KWARGS if k in kwargs}
    layout = csv_layout(kwargs)
    return text_frame(files, kwargs, layout, pd.read_csv, fmt, sizes, index_col, incremental_index)
