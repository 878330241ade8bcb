"""What the Index tests share: lazy copies of pandas indexes over several chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

import jupyter_mars.dataframe as md

CHUNKS = [1, 3, None]
"""One label per chunk, uneven chunks, one chunk."""


def lazy_index(data: pd.Index, chunk: int | None) -> Any:
    """A lazy Index of ``data`` in chunks of ``chunk`` labels (None: one)."""
    return md.Index(data, chunk_size=max(len(data), 1) if chunk is None else chunk)


def ints() -> pd.Index:
    return pd.Index([5, 1, 3, 3, 9, 0, 7], name="k")


def floats() -> pd.Index:
    return pd.Index([2.5, np.nan, -1.0, 2.5, 4.0], name="f")


def strings() -> pd.Index:
    return pd.Index(["b_x", "a", None, "c_y_z", "a"], name="s")


def assert_index(lazy: Any, expected: pd.Index) -> None:
    """The lazy result equals pandas' (values, dtype, names); its meta agrees too. A
    date index joined from chunks has no ``freq`` (pandas' appends drop it)."""
    got = lazy.to_pandas()
    pd.testing.assert_index_equal(got, expected, exact=True, check_freq=False)
    assert lazy.dtype == expected.dtype
    assert list(lazy.names) == list(expected.names)
