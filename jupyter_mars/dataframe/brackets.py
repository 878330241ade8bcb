"""The ``[]`` of frames: ``df[key]`` and ``s[key]`` choose what the key asks for.

Columns by label (``selection``), rows by a boolean mask (``filters``), rows by position
or, where the slice's bounds or the key are labels, by label (``loc``): this module sits
above all three, so none of them needs it.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe import filters
from jupyter_mars.dataframe.callables import resolve
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.loc import loc_rows
from jupyter_mars.dataframe.selection import iloc_rows, select_columns


def getitem(frame: DataFrame, key: Any) -> Any:
    """``df[col]`` (a Series), ``df[[cols]]`` (a DataFrame), ``df[mask]`` (rows where a
    boolean Series or array is True), ``df[bool_frame]`` (``where``), ``df[a:b]`` (rows by
    position, or by label when the bounds are labels); a lazy key that is not boolean is
    computed and its values taken as column labels, as pandas takes a Series'. A missing
    column raises KeyError here, at the line that asked for it."""
    key = resolve(key, frame)  # a function or expression of the whole frame
    if isinstance(key, slice):
        return _row_slice(frame, key)
    if filters.is_mask(key):
        return filters.boolean_filter(frame, key)
    if isinstance(key, DataFrame):
        return filters.where(frame, key)
    if isinstance(key, FrameBase):
        # pandas reads the values of a key that is not boolean as column labels: the labels
        # are computed now, for the columns of the result are known at the call
        return select_columns(frame, key.to_pandas())
    return select_columns(frame, key)


def series_getitem(series: Series, key: Any) -> Any:
    """``s[mask]``, ``s[i:j]`` (by position), ``s[label]``, ``s[[labels]]``, ``s[a:b]``
    with labels: as pandas, where anything but a boolean mask or an int slice is a label."""
    key = resolve(key, series)
    if isinstance(key, slice):
        return _row_slice(series, key)
    if filters.is_mask(key):
        return filters.boolean_filter(series, key)
    return loc_rows(series, key)


def _row_slice(frame: FrameBase, key: slice) -> Any:
    bounds = (key.start, key.stop)
    if all(b is None or (isinstance(b, int) and not isinstance(b, bool)) for b in bounds):
        return iloc_rows(frame, key)
    return loc_rows(frame, key)


def _attach() -> None:
    setattr(DataFrame, "__getitem__", getitem)  # noqa: B010 - mypy does not know it
    setattr(Series, "__getitem__", series_getitem)  # noqa: B010


_attach()
