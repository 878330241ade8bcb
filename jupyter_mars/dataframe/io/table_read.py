"""``read_table``: ``read_csv`` with a tab as the default separator, as in pandas."""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.io.csv_read import read_csv


def read_table(
    path: Any, chunk_bytes: int | str | None = None, index_col: Any = None, **kwargs: Any
) -> Any:
    """A lazy DataFrame of delimited text, like ``pandas.read_table`` of the files one
    after another: ``read_csv`` (which see for the chunking and the arguments) with
    ``sep="\\t"`` unless ``sep`` or ``delimiter`` is given."""
    if "sep" not in kwargs and kwargs.get("delimiter") is None:
        kwargs["sep"] = "\t"
    return read_csv(path, chunk_bytes, index_col, **kwargs)
