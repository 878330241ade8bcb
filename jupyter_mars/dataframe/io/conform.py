"""Chunks read by different tasks, given the one set of dtypes the reader planned.

Each task parses its own bytes, rows or row group, so pandas may infer other dtypes for
one chunk (an int column with a missing value becomes float, a column of one chunk all
missing becomes object). ``conform_dtypes`` casts the chunk to the planned dtypes, or
says which columns do not fit and how to set them.
"""

from __future__ import annotations

import pandas as pd


def conform_dtypes(
    frame: pd.DataFrame, meta: pd.DataFrame, reader: str, planned: str
) -> pd.DataFrame:
    """``frame`` with ``meta``'s dtypes, or a ValueError naming the columns that differ.

    ``reader`` names the function (``read_csv``), ``planned`` where its dtypes came from.

    >>> conform_dtypes(pd.DataFrame({"a": [1]}), pd.DataFrame({"a": [0.5]}), "r", "x").a.dtype
    dtype('float64')
    """
    differ = {c: t for c, t in meta.dtypes.items() if frame[c].dtype != t}
    if not differ:
        return frame
    try:
        return frame.astype(differ)
    except (TypeError, ValueError) as exc:
        cols = ", ".join(f"{c!r}: {t}" for c, t in differ.items())
        raise ValueError(
            f"{reader}: values do not fit the dtypes {planned} ({cols}); pass dtype= to "
            f"{reader} to set them ({exc})"
        ) from exc
