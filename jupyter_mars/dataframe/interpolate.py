"""``interpolate``: NaN filled from the valid values around them, across chunk boundaries.

A hole's value, for the local methods (``linear``, ``time``, ``index``, ``values``,
``nearest``, ``zero``, ``slinear``), depends on the nearest valid value on each side
only, which may lie chunks away. A scan (``neighbours``) carries, per column, the last
valid value before each chunk (its label, and the number of holes between it and the
chunk) and the first valid value after it. Each chunk is then interpolated by pandas
with those two values attached where they lie (``linear`` places them by row count,
the others by label), with no limit.

``limit``, ``limit_direction`` and ``limit_area`` decide which holes stay NaN from the
length of the run of holes on each side of a hole and whether it has valid values
before and after it; the carries hold those counts, so each chunk applies pandas' rules
(``_kept_nan``) itself. The methods that fit a curve to all the valid values
(``polynomial``, ``spline``, ``pchip``, ...) interpolate the frame as one chunk.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.neighbours import Carry, call, scan
from jupyter_mars.dataframe.node import empty_like, side_by_side

LOCAL_METHODS = {"linear", "time", "index", "values", "nearest", "zero", "slinear"}
"""Methods whose value for a hole depends only on the nearest valid value each side."""
NUMPY_METHODS = {"linear", "time", "index", "values"}
"""Methods pandas computes with ``np.interp``; the others call SciPy."""


class Nearest(NamedTuple):
    """The nearest valid value on one side of a chunk, for one column."""

    valid: bool
    """Whether there is one at all."""
    value: Any
    label: Any
    gap: int
    """The holes between it (or the end of the frame) and the chunk."""


def _columns(chunk: Any) -> list[pd.Series]:
    if isinstance(chunk, pd.Series):
        return [chunk]
    return [chunk.iloc[:, i] for i in range(chunk.shape[1])]


def _nearest(column: pd.Series, last: bool) -> Nearest:
    valid = np.flatnonzero(column.notna().to_numpy())
    if not len(valid):
        return Nearest(False, None, None, len(column))
    at = int(valid[-1] if last else valid[0])
    gap = len(column) - 1 - at if last else at
    return Nearest(True, column.iloc[at], column.index[at], gap)


def last_valid(chunk: Any) -> list[Nearest]:
    return [_nearest(c, True) for c in _columns(chunk)]


def first_valid(chunk: Any) -> list[Nearest]:
    return [_nearest(c, False) for c in _columns(chunk)]


def fold_nearest(carry: list[Nearest] | None, summary: list[Nearest]) -> list[Nearest]:
    """The nearest valid value past a chunk: the chunk's own, else the one past it, the
    chunk's rows adding to the gap."""
    if carry is None:
        return summary
    return [
        s if s.valid else c._replace(gap=c.gap + s.gap) for c, s in zip(carry, summary, strict=True)
    ]


def _kept_nan(
    holes: np.ndarray[Any, Any],
    before: Nearest | None,
    after: Nearest | None,
    options: dict[str, Any],
) -> np.ndarray[Any, Any]:
    """Which holes pandas leaves NaN under ``limit``, ``limit_direction``, ``limit_area``."""
    n = len(holes)
    rows = np.arange(n)
    gap_before = -1 - (0 if before is None else before.gap)
    gap_after = n + (0 if after is None else after.gap)
    last = np.maximum.accumulate(np.where(~holes, rows, gap_before))
    following = np.minimum.accumulate(np.where(~holes, rows, gap_after)[::-1])[::-1]
    starts = holes & (last == gap_before) & (before is None or not before.valid)
    ends = holes & (following == gap_after) & (after is None or not after.valid)
    limit = options["limit"]
    # a hole is too far from one side when the run of holes on that side is longer than
    # ``limit``, or reaches the end of the frame (pandas' windows stop at the ends)
    if limit is None:
        too_far_forward = too_far_back = np.zeros(n, bool)
    else:
        too_far_forward = holes & ((rows - last > limit) | starts)
        too_far_back = holes & ((following - rows > limit) | ends)
    direction = options["limit_direction"]
    if direction == "forward":
        kept = starts | too_far_forward
    elif direction == "backward":
        kept = ends | too_far_back
    else:
        kept = too_far_forward & too_far_back
    if options["limit_area"] == "inside":
        kept |= starts | ends
    elif options["limit_area"] == "outside":
        kept |= holes & ~starts & ~ends
    return np.asarray(kept, dtype=bool)


def _interpolate_column(
    column: pd.Series,
    before: Nearest | None,
    after: Nearest | None,
    options: dict[str, Any],
) -> pd.Series:
    holes = column.isna().to_numpy()
    if not holes.any():
        return column
    n = len(column)
    linear = options["method"] == "linear"
    x: list[Any] = list(range(n)) if linear else list(column.index)
    values = list(column.array)
    lead = 0
    if before is not None and before.valid:
        x.insert(0, -1 - before.gap if linear else before.label)
        values.insert(0, before.value)
        lead = 1
    if after is not None and after.valid:
        x.append(n + after.gap if linear else after.label)
        values.append(after.value)
    index = _joined_index(column.index, x, lead, n, linear)
    extended = pd.Series(values, index=index, dtype=column.dtype, name=column.name)
    method = "index" if linear else options["method"]
    if method not in NUMPY_METHODS and extended.notna().sum() < 2:
        # SciPy's curves need two points; holes outside the valid values stay NaN anyway
        return column
    filled = extended.interpolate(method=method, limit_direction="both", **options["pandas"])
    filled = filled.iloc[lead : lead + n].set_axis(column.index)
    kept = _kept_nan(holes, before, after, options)
    return filled.where(~kept, column)


def _joined_index(index: pd.Index, x: list[Any], lead: int, n: int, linear: bool) -> pd.Index:
    """The labels of the column with its neighbours' labels attached (positions for
    ``linear``), keeping the index's dtype (times stay times)."""
    if linear:
        return pd.Index(np.asarray(x, dtype=float))
    parts = [
        pd.Index(x[:lead], dtype=index.dtype),
        index,
        pd.Index(x[lead + n :], dtype=index.dtype),
    ]
    return parts[0].append(parts[1:])


def interpolate_chunk(options: dict[str, Any], chunk: Any, before: Any, after: Any) -> Any:
    columns = _columns(chunk)
    out = [
        _interpolate_column(
            c,
            None if before is None else before[i],
            None if after is None else after[i],
            options,
        )
        for i, c in enumerate(columns)
    ]
    if isinstance(chunk, pd.Series):
        return out[0]
    if not out:
        return chunk
    return side_by_side(chunk.columns, *out)


def _probe(meta: Any) -> Any:
    """Made-up rows like ``meta``'s with a hole in each float column: pandas checks most
    of ``interpolate``'s arguments only when there is something to fill."""
    probe = sample_like(meta, 4)
    for i, column in enumerate(_columns(probe)):
        if pd.api.types.is_float_dtype(column.dtype) and len(column) > 1:
            if isinstance(probe, pd.Series):
                probe.iloc[1] = np.nan
            else:
                probe.iloc[1, i] = np.nan
    return probe


def interpolate(
    frame: FrameBase,
    method: str = "linear",
    *,
    axis: Any = 0,
    limit: int | None = None,
    limit_direction: str | None = None,
    limit_area: str | None = None,
    **kwargs: Any,
) -> Any:
    """NaN filled from the valid values around them (pandas' ``interpolate``)."""
    call_kwargs: dict[str, Any] = {"method": method, "axis": axis, "limit": limit}
    call_kwargs.update(limit_direction=limit_direction, limit_area=limit_area, **kwargs)
    meta = empty_like(_probe(frame.meta).interpolate(**call_kwargs))
    along = axis_number(frame.meta, axis, default=0) == 0
    if method not in LOCAL_METHODS or not along:
        # a curve through every valid value, or every row in one chunk: per chunk
        source = frame if not along else one_chunk(frame)
        args = ("interpolate", (), call_kwargs, Slot(0))
        return map_chunks(call, [source], args, meta, name="interpolate")
    options = {
        "method": method,
        "limit": limit,
        "limit_direction": limit_direction or "forward",
        "limit_area": limit_area,
        "pandas": kwargs,
    }
    finish = functools.partial(interpolate_chunk, options)
    return scan(
        frame,
        finish,
        meta,
        "interpolate",
        before=Carry(last_valid, fold_nearest),
        after=Carry(first_valid, fold_nearest),
    )


def _attach() -> None:
    for cls in (DataFrame, Series):
        cls.interpolate = interpolate  # type: ignore[union-attr]


_attach()
