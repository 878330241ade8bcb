"""The dataframe package's one reading of an ``axis`` argument, as pandas reads it.

A DataFrame has two axes, 0 (``"index"``, ``"rows"``: down the rows, one result per
column) and 1 (``"columns"``: across, one result per row); a Series has axis 0 only.
Anything else raises pandas' ``ValueError("No axis named ... for object type ...")``
where the method was called. ``None`` is an axis only where the method says what it
means (``default``), as in pandas.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

_NUMBERS: dict[Any, int] = {0: 0, "index": 0, "rows": 0, 1: 1, "columns": 1}


def axis_number(meta: Any, axis: Any, default: int | None = None) -> int:
    """``axis`` of ``meta`` (a pandas DataFrame or Series, or the meta of a lazy one) as 0
    or 1; ``None`` gives ``default`` where the method takes it."""
    if axis is None and default is not None:
        return default
    number = (
        None if axis is None else _NUMBERS.get(axis)
    )  # a list raises pandas' TypeError: unhashable
    if number is None or (number == 1 and not isinstance(meta, pd.DataFrame)):
        raise ValueError(f"No axis named {axis} for object type {type(meta).__name__}")
    return number


def rows_only(meta: Any, axis: Any, method: str) -> None:
    """For a method that works down the rows only: a valid ``axis`` of 1 is refused."""
    if axis_number(meta, axis) != 0:
        raise NotImplementedError(f"{method}: only axis=0 (down the rows) is supported")
