"""``from_dummies``: indicator columns decoded into categorical columns, the inverse of
``get_dummies``.

Each row is decoded from its own values, and the categories are the column labels, which
the meta holds: every chunk is decoded by pandas on its own and keeps its rows and index,
as pandas does for the whole frame. The result's columns and dtypes come from pandas'
decoding of the empty frame, which also raises pandas' errors for bad arguments (a
separator missing from a label, ``default_category`` of the wrong length or type) at the
call; columns of a dtype that cannot hold indicators (strings, datetimes) raise pandas'
``TypeError`` at the call too, found on a made-up row. Errors in the values (a missing
value, a row with two categories, or with none and no ``default_category``) raise
pandas' exception when the chunk holding them is decoded; the row or column a message
names is the first in that chunk.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.core import DataFrame
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks

__all__ = ["from_dummies"]


def decode_chunk(chunk: pd.DataFrame, kwargs: dict[str, Any], meta: pd.DataFrame) -> Any:
    """pandas' ``from_dummies`` of one chunk."""
    out = pd.from_dummies(chunk, **kwargs)
    return out if len(out) else meta.set_axis(chunk.index, axis=0)


def _check_dtypes(meta: pd.DataFrame) -> None:
    """pandas' ``TypeError`` for columns whose dtype cannot hold indicators (strings,
    datetimes), found on a made-up row; object columns are left to their values."""
    typed = meta.loc[:, [not pd.api.types.is_object_dtype(t) for t in meta.dtypes]]
    try:
        sample_like(typed, 1).astype("boolean")
    except TypeError as err:
        raise TypeError("Passed DataFrame contains non-dummy data") from err


def from_dummies(data: Any, sep: str | None = None, default_category: Any = None) -> DataFrame:
    """One categorical column per prefix of the indicator columns (or one column with
    ``sep=None``), as ``pandas.from_dummies`` (see the module docstring)."""
    if isinstance(data, pd.DataFrame):
        data = DataFrame(data)
    if not isinstance(data, DataFrame):
        raise TypeError(
            f"Expected 'data' to be a 'DataFrame'; Received 'data' of type: {type(data).__name__}"
        )
    kwargs: dict[str, Any] = {"sep": sep, "default_category": default_category}
    meta = pd.from_dummies(data.meta, **kwargs)  # pandas' checks of the arguments
    _check_dtypes(data.meta)
    return map_chunks(  # type: ignore[no-any-return]
        decode_chunk, [data], (Slot(0), kwargs, meta), meta, name="from_dummies"
    )
