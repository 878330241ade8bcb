"""Missing data: ``fillna``, ``ffill``, ``bfill`` and ``dropna`` with pandas' semantics.

- ``fillna(value)`` is one pandas call per chunk. With ``limit`` (at most that many
  holes filled per column, from the top) each chunk needs the number of holes above it:
  a scan (``neighbours``) carries running counts of NaN from chunk to chunk.
- ``ffill`` / ``bfill`` down the rows are a scan too: each chunk gets the last valid
  value above it (the first one below it for ``bfill``), or with ``limit`` the ``limit``
  rows above (below) it, which may span several small chunks; pandas then fills the
  chunk with those rows attached. ``limit_area`` also carries the nearest valid value on
  the other side, which tells pandas whether a hole lies inside valid values.
- ``dropna`` of rows is per chunk (the lengths become data-dependent). ``dropna(axis=1)``
  keeps columns by what the whole column holds, and a frame's columns are never
  data-dependent: so it computes the per-column NaN counts (a reduction) right away, in
  the default session, and then selects the columns it keeps.

Across the columns (``axis=1``) every row is in one chunk, so every call is per chunk.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pandas as pd

import jupyter_mars.dataframe.reduction  # noqa: F401 - sum / any
from jupyter_mars.dataframe.arithmetic import is_lazy_scalar, scalar_sample
from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.brackets import getitem
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import (
    Slot,
    WithScalars,
    aligned,
    map_chunks,
    meta_of,
    one_chunk,
)
from jupyter_mars.dataframe.neighbours import (
    Carry,
    head_carry,
    method,
    scan,
    tail_carry,
    window_finish,
)
from jupyter_mars.dataframe.node import empty_like, side_by_side

_NO_DEFAULT: Any = pd.api.extensions.no_default
WHOLE = frozenset({0})
"""A scan's first other input, read whole by every chunk."""


def _call(chunk: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return getattr(chunk, name)(*args, **kwargs)


def _call_with(chunk: Any, name: str, other: Any, kwargs: dict[str, Any]) -> Any:
    return getattr(chunk, name)(other, **kwargs)


def _per_chunk(frame: FrameBase, name: str, meta: Any, *args: Any, **kwargs: Any) -> Any:
    return map_chunks(_call, [frame], (Slot(0), name, args, kwargs), meta, name=name)


def _check_limit(limit: Any) -> None:
    """pandas checks ``limit`` only where there are holes: here, before any data."""
    if limit is None:
        return
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)):
        raise ValueError(f"Limit must be an integer, got {limit!r}")
    if limit <= 0:
        raise ValueError("Limit must be greater than 0")


# --- fillna ---------------------------------------------------------------------------


def count_na(chunk: Any) -> Any:
    return chunk.isna().sum()


def add_counts(carry: Any, counts: Any) -> Any:
    return counts if carry is None else carry + counts


def _fill_column(column: pd.Series, value: Any, left: int) -> pd.Series:
    return column.fillna(value, limit=left) if left > 0 else column


NA_COUNTS = Carry(count_na, add_counts)
"""The holes of each column in the chunks above, carried down a scan."""


def fill_limited(limit: int, chunk: Any, before: Any, after: Any, value: Any) -> Any:
    """``chunk.fillna(value)`` filling only the holes that are among the first ``limit``
    of their column, ``before`` counting the holes in the chunks above. ``value`` comes
    last: a lazy value's chunk is a task input there (a 0-d array for a lazy scalar, read
    as ``WithScalars`` reads it)."""
    if isinstance(chunk, pd.Series):
        return _fill_column(chunk, value, limit - (0 if before is None else int(before)))
    columns = []
    for i, name in enumerate(chunk.columns):
        column = chunk.iloc[:, i]
        used = 0 if before is None else int(before.iloc[i])
        if isinstance(value, (dict, pd.Series)):
            if name not in value:
                columns.append(column)
                continue
            columns.append(_fill_column(column, value[name], limit - used))
        else:
            columns.append(_fill_column(column, value, limit - used))
    if not columns:
        return chunk
    return side_by_side(chunk.columns, *columns)


def _fill_limited_lazy(frame: FrameBase, value: Any, limit: int, meta: Any) -> Any:
    """``fillna`` of at most ``limit`` holes per column with a lazy ``value``: a scalar
    or a Series of values per column, read whole by every chunk, or an object aligned on
    the index, read chunk by chunk."""
    finish = WithScalars(functools.partial(fill_limited, limit))
    if is_lazy_scalar(value) or (isinstance(frame, DataFrame) and isinstance(value, Series)):
        other = value if is_lazy_scalar(value) else one_chunk(value)
        return scan(frame, finish, meta, "fillna", NA_COUNTS, None, (other,), WHOLE)
    frames = aligned([frame, value])
    return scan(frames[0], finish, meta, "fillna", NA_COUNTS, None, (frames[1],))


def fillna(
    frame: FrameBase,
    value: Any,
    *,
    axis: Any = None,
    limit: int | None = None,
) -> Any:
    """Fill NaN with ``value``: a scalar, a dict / Series per column (per label for a
    Series), or a frame aligned on the index; ``limit``: at most that many per column."""
    _check_limit(limit)
    lazy = isinstance(value, FrameBase)
    probe = scalar_sample(frame, value) if is_lazy_scalar(value) else meta_of(value)
    meta = empty_like(frame.meta.fillna(probe, axis=axis, limit=limit))
    # pandas fills every hole a DataFrame of values covers, whatever the limit
    by_frame = isinstance(value, (pd.DataFrame, DataFrame))
    if limit is not None and axis_number(frame.meta, axis, default=0) == 0 and not by_frame:
        if lazy or is_lazy_scalar(value):
            return _fill_limited_lazy(frame, value, limit, meta)
        finish = functools.partial(fill_limited, limit, value=value)
        return scan(frame, finish, meta, "fillna", before=NA_COUNTS)
    kwargs: dict[str, Any] = {"axis": axis, "limit": limit}
    if not lazy:  # a lazy scalar too: map_chunks reads it
        return _per_chunk(frame, "fillna", meta, value, **kwargs)
    if isinstance(frame, DataFrame) and isinstance(value, Series):
        # values per column: the Series is read whole by every chunk
        return map_chunks(
            _call_with,
            [frame, one_chunk(value)],
            (Slot(0), "fillna", Slot(1), kwargs),
            meta,
            name="fillna",
            broadcast=frozenset({1}),
        )
    frames = aligned([frame, value])
    return map_chunks(
        _call_with,
        frames,
        (Slot(0), "fillna", Slot(1), kwargs),
        meta,
        name="fillna",
        keeps_rows=frames[0] is frame,
    )


# --- ffill / bfill --------------------------------------------------------------------


def _fill(frame: FrameBase, name: str, axis: Any, limit: Any, limit_area: Any) -> Any:
    _check_limit(limit)
    if limit_area not in (None, "inside", "outside"):
        raise ValueError(
            f"{name}: limit_area must be 'inside', 'outside' or None, got {limit_area!r}"
        )
    meta = empty_like(getattr(frame.meta, name)(axis=axis, limit=limit, limit_area=limit_area))
    kernel = method(name, limit=limit, limit_area=limit_area)
    if axis_number(frame.meta, axis, default=0) != 0:
        return _per_chunk(frame, name, meta, limit=limit, limit_area=limit_area, axis=axis)
    # the nearest valid value on the side we fill from (or the rows within ``limit``)
    before: Carry | None
    after: Carry | None
    if name == "ffill":
        near = tail_carry(1, method("ffill")) if limit is None else tail_carry(limit)
        far = head_carry(1, method("bfill")) if limit_area is not None else None
        before, after = near, far
    else:
        near = head_carry(1, method("bfill")) if limit is None else head_carry(limit)
        far = tail_carry(1, method("ffill")) if limit_area is not None else None
        before, after = far, near
    return scan(frame, window_finish(kernel), meta, name, before=before, after=after)


def ffill(
    frame: FrameBase,
    *,
    axis: Any = None,
    limit: int | None = None,
    limit_area: str | None = None,
) -> Any:
    """Fill NaN with the last valid value above (at most ``limit`` in a row)."""
    return _fill(frame, "ffill", axis, limit, limit_area)


def bfill(
    frame: FrameBase,
    *,
    axis: Any = None,
    limit: int | None = None,
    limit_area: str | None = None,
) -> Any:
    """Fill NaN with the next valid value below (at most ``limit`` in a row)."""
    return _fill(frame, "bfill", axis, limit, limit_area)


# --- dropna ---------------------------------------------------------------------------


def dropna(
    frame: FrameBase,
    *,
    axis: Any = 0,
    how: Any = _NO_DEFAULT,
    thresh: Any = _NO_DEFAULT,
    subset: Any = None,
    ignore_index: bool = False,
) -> Any:
    """Drop rows (``axis=0``) or columns (``axis=1``, DataFrame) holding NaN: any NaN, only
    NaN (``how="all"``), or fewer than ``thresh`` valid values."""
    kwargs: dict[str, Any] = {"axis": axis}
    if how is not _NO_DEFAULT:
        kwargs["how"] = how
    if thresh is not _NO_DEFAULT:
        kwargs["thresh"] = thresh
    if subset is not None:
        kwargs["subset"] = subset
    meta = empty_like(frame.meta.dropna(**kwargs))  # pandas checks the arguments
    kept = _drop_na(frame, meta, axis, how, thresh, subset, kwargs)
    # pandas numbers the rows afresh whichever axis lost labels
    return kept.reset_index(drop=True) if ignore_index else kept


def _drop_na(
    frame: FrameBase, meta: Any, axis: Any, how: Any, thresh: Any, subset: Any, kwargs: Any
) -> Any:
    if axis_number(frame.meta, axis, default=0) == 0:
        return map_chunks(
            _call, [frame], (Slot(0), "dropna", (), kwargs), meta, name="dropna", keeps_rows=False
        )
    if subset is not None:
        raise NotImplementedError("dropna(axis=1): subset (row labels) is not supported")
    df: Any = frame
    if thresh is not _NO_DEFAULT:
        keep = df.notna().sum().to_pandas() >= thresh
    elif how == "all":
        keep = df.notna().any().to_pandas()
    else:
        keep = ~df.isna().any().to_pandas()
    return getitem(df, list(frame.meta.columns[keep.to_numpy(dtype=bool)]))


def _attach() -> None:
    methods: dict[str, Any] = {
        "fillna": fillna,
        "ffill": ffill,
        "bfill": bfill,
        "dropna": dropna,
    }
    for cls in (DataFrame, Series):
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
