"""What the DataFrame tests share: the chunkings to try and lazy copies of pandas data."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

import jupyter_mars as mars
import jupyter_mars.dataframe as md

CHUNKS = [1, 3, None]
"""One row per chunk, uneven chunks, one chunk."""


def lazy_copy(data: Any, chunk: int | None) -> Any:
    """A lazy Series or DataFrame of ``data`` in chunks of ``chunk`` rows (None: one)."""
    size = max(len(data), 1) if chunk is None else chunk
    if isinstance(data, pd.Series):
        return md.Series(data, chunk_size=size)
    return md.DataFrame(data, chunk_size=size)


def labelled_frame(n: int = 10) -> pd.DataFrame:
    """Ints, floats with NaN and strings, on a named non-default index."""
    return pd.DataFrame(
        {
            "a": np.arange(n) % 4,
            "b": np.where(np.arange(n) % 3 == 0, np.nan, np.linspace(0, 1, n)),
            "c": list("pqrstuvwxyz"[:n]),
        },
        index=pd.Index(np.arange(n) * 2 + 100, name="id"),
    )


def assert_same(got: Any, expected: Any, tol: float | None = None) -> None:
    """``got`` equals pandas' ``expected`` frame or series: values (within ``tol``,
    relative and absolute, when given), dtypes, labels, names."""
    close = {} if tol is None else {"rtol": tol, "atol": tol}
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected, **close)
    else:
        pd.testing.assert_series_equal(got, expected, **close)


def assert_all_same(pairs: list[tuple[Any, Any]], tol: float) -> None:
    """Execute the lazy results of ``(lazy, pandas)`` pairs together, then compare each."""
    mars.execute(*(got for got, _ in pairs))
    for got, expected in pairs:
        assert_same(got.fetch(), expected, tol)
