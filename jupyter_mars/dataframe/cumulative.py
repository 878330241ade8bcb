"""Running and shifting operations down the rows: ``cumsum``, ``cumprod``, ``cummax``,
``cummin``, ``diff``, ``shift`` and ``pct_change``.

All are scans (``neighbours``):

- a cumulative operation carries one row from chunk to chunk: the running total of
  everything above (each chunk's total is computed in parallel, then a chain of tiny
  tasks adds them up in order); pandas then runs the operation over that row followed by
  the chunk, so NaN (``skipna``) and dtypes behave exactly as in pandas;
- ``shift``, ``diff`` and ``pct_change`` by ``periods`` give each chunk the ``periods``
  rows above it (below it when negative), gathered from as many chunks as needed.

Across the columns (``axis=1``) every row is in one chunk: one pandas call per chunk.
``pct_change`` follows pandas' current default, ``fill_method=None``: holes are not
filled before the ratio is taken.
"""

from __future__ import annotations

import functools
from numbers import Integral
from typing import Any

import pandas as pd

import jupyter_mars.dataframe.arithmetic  # noqa: F401 - astype
import jupyter_mars.dataframe.selection  # noqa: F401 - column selection
from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.arithmetic import call_method
from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.neighbours import (
    head_carry,
    method,
    scan,
    tail_carry,
    window_finish,
)
from jupyter_mars.dataframe.node import empty_like, side_by_side

_NO_DEFAULT: Any = pd.api.extensions.no_default


def _per_chunk(frame: FrameBase, name: str, meta: Any, **kwargs: Any) -> Any:
    return map_chunks(call_method, [frame], (Slot(0), name), meta, kwargs, name=name)


def running_state(name: str, skipna: bool, chunk: Any) -> Any:
    """The running value after each row: with ``skipna`` the last valid one carries on."""
    out = getattr(chunk, name)(skipna=skipna)
    return out.ffill() if skipna else out


def _cumulative(
    frame: FrameBase, name: str, axis: Any, skipna: bool, numeric_only: bool = False
) -> Any:
    kwargs: dict[str, Any] = {"skipna": skipna}
    if isinstance(frame, DataFrame):
        kwargs["numeric_only"] = numeric_only
    if axis is not None:
        kwargs["axis"] = axis
    meta = empty_like(getattr(frame.meta, name)(**kwargs))  # pandas checks dtypes and args
    if axis_number(frame.meta, axis, default=0) != 0:
        return _per_chunk(frame, name, meta, **kwargs)
    source: Any = frame
    if isinstance(frame, DataFrame):
        if numeric_only:
            source = source[list(meta.columns)]
        if not source.meta.dtypes.equals(meta.dtypes):  # booleans sum up as integers
            source = source.astype(meta.dtypes.to_dict())
    elif source.meta.dtype != meta.dtype:
        source = source.astype(meta.dtype)
    carry = tail_carry(1, _running(name, skipna))
    finish = window_finish(method(name, skipna=skipna))
    return scan(source, finish, meta, name, before=carry)


def _running(name: str, skipna: bool) -> Any:
    return functools.partial(running_state, name, skipna)


def _cum_method(name: str) -> Any:
    def cumulative(
        self: FrameBase,
        axis: Any = None,
        skipna: bool = True,
        numeric_only: bool = False,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        return _cumulative(self, name, axis, skipna, numeric_only)

    cumulative.__name__ = name
    cumulative.__doc__ = f"``{name}`` down the rows (``axis=0``) or across them, as pandas."
    return cumulative


def _periods(name: str, periods: Any) -> int:
    """``periods`` as an int, once pandas has accepted it on the meta."""
    if isinstance(periods, bool) or int(periods) != periods:
        raise TypeError(f"{name}: periods must be an integer, got {periods!r}")
    return int(periods)


def _by_periods(frame: FrameBase, name: str, periods: int, meta: Any, **kwargs: Any) -> Any:
    """``name(periods, **kwargs)`` with each chunk seeing ``periods`` rows beyond it."""
    finish = window_finish(method(name, periods, **kwargs))
    if periods > 0:
        return scan(frame, finish, meta, name, before=tail_carry(periods))
    if periods < 0:
        return scan(frame, finish, meta, name, after=head_carry(-periods))
    return map_chunks(call_method, [frame], (Slot(0), name, periods), meta, kwargs, name=name)


def diff(frame: FrameBase, periods: int = 1, axis: Any = 0) -> Any:
    """The difference with the row ``periods`` above (below when negative)."""
    kwargs: dict[str, Any] = {"axis": axis} if isinstance(frame, DataFrame) else {}
    meta = empty_like(frame.meta.diff(periods, **kwargs))  # pandas checks the arguments
    periods = _periods("diff", periods)
    if axis_number(frame.meta, axis, default=0) != 0:
        return _per_chunk(frame, "diff", meta, periods=periods, **kwargs)
    return _by_periods(frame, "diff", periods, meta)


def shift(
    frame: FrameBase,
    periods: Any = 1,
    freq: Any = None,
    axis: Any = 0,
    fill_value: Any = _NO_DEFAULT,
    suffix: str | None = None,
) -> Any:
    """Rows moved down by ``periods`` (up when negative), ``fill_value`` (NaN) coming in;
    with ``freq``, the index moves instead, which is per chunk. Several ``periods`` give
    a frame of every shift side by side, columns named as pandas names them."""
    if isinstance(periods, str):
        periods = int(periods)  # pandas' reading: ValueError for what is no number
    elif not (pd.api.types.is_list_like(periods) or isinstance(periods, (bool, Integral))):
        raise TypeError(f"Periods must be integer, but {periods} is {type(periods)}.")
    kwargs: dict[str, Any] = {"axis": axis} if isinstance(frame, DataFrame) else {}
    if fill_value is not _NO_DEFAULT:
        kwargs["fill_value"] = fill_value
    if suffix is not None:
        kwargs["suffix"] = suffix
    meta = empty_like(frame.meta.shift(periods, freq=freq, **kwargs))  # pandas' checks
    if pd.api.types.is_list_like(periods):
        # pandas shifts an empty frame by several periods to itself: a row tells the names
        meta = empty_like(sample_like(frame.meta, 1).shift(periods, freq=freq, **kwargs))
        kwargs.pop("suffix", None)
        pieces = [shift(frame, p, freq, axis, fill_value) for p in periods]
        slots = tuple(Slot(i) for i in range(len(pieces)))
        return map_chunks(side_by_side, pieces, (meta.columns, *slots), meta, name="shift")
    periods = int(periods)  # True is 1, as for pandas
    if freq is not None or axis_number(frame.meta, axis, default=0) != 0:
        return _per_chunk(frame, "shift", meta, periods=periods, freq=freq, **kwargs)
    kwargs.pop("axis", None)
    return _by_periods(frame, "shift", periods, meta, **kwargs)


def pct_change(
    frame: FrameBase, periods: int = 1, fill_method: None = None, freq: Any = None, **kwargs: Any
) -> Any:
    """``x / x.shift(periods) - 1`` (holes are not filled first, as pandas now does)."""
    meta = empty_like(frame.meta.pct_change(periods, fill_method=fill_method, freq=freq, **kwargs))
    periods = _periods("pct_change", periods)
    if freq is not None:
        raise NotImplementedError("pct_change: freq is not supported")
    if kwargs:
        raise NotImplementedError(f"pct_change: arguments {sorted(kwargs)} are not supported")
    return _by_periods(frame, "pct_change", periods, meta)


def _attach() -> None:
    methods: dict[str, Any] = {
        name: _cum_method(name) for name in ("cumsum", "cumprod", "cummax", "cummin")
    }
    methods.update(diff=diff, shift=shift, pct_change=pct_change)
    for cls in (DataFrame, Series):
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
