"""``read_pickle``: a pickled pandas object, loaded whole and split into row chunks.

A pickle cannot be read in parts, nor its columns known without loading it, so
``read_pickle`` loads it with ``pandas.read_pickle`` when called and makes a lazy frame
of the loaded data in chunks of ``chunk_size`` rows.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, Series


def held(data: Any, chunk_size: Any) -> Any:
    """A lazy DataFrame or Series of loaded pandas ``data`` in ``chunk_size`` rows;
    anything else as it is."""
    if isinstance(data, pd.DataFrame):
        return DataFrame(data, chunk_size=chunk_size)
    if isinstance(data, pd.Series):
        return Series(data, chunk_size=chunk_size)
    return data


def read_pickle(
    path: Any,
    compression: Any = "infer",
    storage_options: Any = None,
    chunk_size: Any = None,
) -> Any:
    """The object ``pandas.read_pickle`` loads from ``path``: a DataFrame or Series as a
    lazy one in chunks of ``chunk_size`` rows, any other object as it is."""
    data = pd.read_pickle(path, compression=compression, storage_options=storage_options)
    return held(data, chunk_size)
