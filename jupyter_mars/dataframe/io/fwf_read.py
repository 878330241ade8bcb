"""``read_fwf``: a lazy DataFrame over fixed-width text files, chunked by bytes.

The column positions are settled when ``read_fwf`` is called: from ``widths``, as given
in ``colspecs``, or, for ``colspecs="infer"``, from the first ``infer_nrows`` lines of the
first file that ``skiprows`` keeps, as pandas infers them (a column is a run of positions
where some of those lines has a character other than a filler). The files are then read
as ``read_csv`` reads them (``csv_read.text_frame``): byte ranges cut at line ends, each
parsed by ``pandas.read_fwf`` with those positions. Fixed-width lines have no quoting, so
every line ending ends a line and skipped lines are always numbered by counting.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.io.csv_lines import LineKinds, QuoteRule
from jupyter_mars.dataframe.io.csv_options import check_mars_keywords
from jupyter_mars.dataframe.io.csv_read import (
    check_text_kwargs,
    expand_paths,
    text_frame,
    text_sizes,
)
from jupyter_mars.dataframe.io.csv_skip import RowSkipping, check_row_options, row_skipping

_HEADER_KWARGS = ("delimiter", "encoding", "encoding_errors", "comment")


def _fillers(kwargs: dict[str, Any]) -> str:
    """The characters that pad fields (pandas' ``delimiter`` of ``read_fwf``)."""
    delimiter = kwargs.get("delimiter")
    return "\r\n" + delimiter if delimiter else "\n\r\t "


def infer_colspecs(
    path: str, kwargs: dict[str, Any], skipping: RowSkipping | None, infer_nrows: int
) -> list[tuple[int, int]]:
    """The ``(start, stop)`` character positions of the columns of ``path``, inferred
    from its first ``infer_nrows`` lines that ``skipping`` keeps, as pandas infers them."""
    rows: list[str] = []
    encoding = kwargs.get("encoding") or "utf-8"
    errors = kwargs.get("encoding_errors", "strict")
    with open(path, encoding=encoding, errors=errors, newline="") as f:
        for number, line in enumerate(f):
            if len(rows) >= infer_nrows:
                break
            if skipping is None or not skipping.skips(number):
                rows.append(line)
    if not rows:
        raise pd.errors.EmptyDataError("No rows from which to infer column width")
    comment = kwargs.get("comment")
    if comment is not None:
        rows = [row.partition(comment)[0] for row in rows]
    filled = np.zeros(max(map(len, rows)) + 1, dtype=bool)
    field = re.compile("[^" + re.escape(_fillers(kwargs)) + "]+")
    for row in rows:
        for match in field.finditer(row):
            filled[match.start() : match.end()] = True
    edges = np.flatnonzero(filled != np.concatenate([[False], filled[:-1]]))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2])]


def read_fwf(
    path: Any,
    colspecs: Any = "infer",
    widths: Any = None,
    infer_nrows: int = 100,
    chunk_bytes: int | str | None = None,
    index_col: Any = None,
    *,
    head_bytes: int | str | None = None,
    head_lines: int | None = None,
    incremental_index: bool = True,
    gpu: bool | None = None,
    storage_options: Any = None,
    **kwargs: Any,
) -> Any:
    """A lazy DataFrame of fixed-width text, like ``pandas.read_fwf`` of the files one
    after another.

    ``colspecs`` (``(start, stop)`` per column, or ``"infer"``), ``widths`` and
    ``infer_nrows`` are pandas'; the columns are inferred from the first file. ``path``,
    ``chunk_bytes``, ``head_bytes``, ``head_lines``, ``incremental_index`` and the other
    pandas arguments (``names``, ``header``, ``skiprows``, ``skipfooter``, ``dtype``...)
    are those of ``read_csv``.
    """
    sizes = text_sizes(chunk_bytes, head_bytes, head_lines)
    check_mars_keywords(gpu, storage_options)
    check_text_kwargs(kwargs, "read_fwf")
    spec = {"colspecs": colspecs, "widths": widths, "infer_nrows": infer_nrows}
    check_row_options(kwargs, pd.read_fwf, **spec)
    files = expand_paths(path)
    if widths is not None:
        ends = np.cumsum(list(widths)).tolist()
        colspecs = list(zip([0, *ends[:-1]], ends))
    elif isinstance(colspecs, str) and colspecs == "infer":
        colspecs = infer_colspecs(files[0], kwargs, row_skipping(kwargs, True), infer_nrows)
    kwargs = {**kwargs, "colspecs": colspecs}
    fmt = {k: kwargs[k] for k in ("colspecs", *_HEADER_KWARGS) if k in kwargs}
    fillers = _fillers(kwargs).strip("\r\n").encode(kwargs.get("encoding") or "utf-8")
    comment = kwargs.get("comment")
    kinds = LineKinds(
        fillers,
        None if comment is None else comment.encode(kwargs.get("encoding") or "utf-8"),
        bool(kwargs.get("skip_blank_lines", True)),
    )
    layout = (QuoteRule(None, None), kinds)
    return text_frame(files, kwargs, layout, pd.read_fwf, fmt, sizes, index_col, incremental_index)
