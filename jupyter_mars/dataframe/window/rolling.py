"""``rolling(window)``: windows of ``window`` rows, or of a time span (``"2D"``).

A row's window reaches at most ``window`` rows above it (and below, with ``center``), so
each chunk is finished by pandas with the ``window`` rows before it attached (and those
after it with ``center``), gathered from as many chunks as needed, small or empty ones
included; the attached rows are then cut off again. Any aggregation pandas' rolling
object has works this way, ``apply`` and weighted windows (``win_type``) included.
A window given as a time span (a string, offset or Timedelta) attaches instead the rows
within that span of the chunk's first time (last, for the rows after it), on the index
or the ``on`` column (``time_carry``).
"""

from __future__ import annotations

import functools
from typing import Any

import pandas as pd
from pandas.api.indexers import BaseIndexer
from pandas.api.types import is_integer
from pandas.tseries.frequencies import to_offset

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.dataframe.neighbours import head_carry, scan, tail_carry, window_finish
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.window.time_carry import finish_times, head_times, tail_times


def rolling_call(
    params: dict[str, Any], how: str, args: tuple[Any, ...], kwargs: dict[str, Any], obj: Any
) -> Any:
    """``obj.rolling(**params).how(*args, **kwargs)``: the kernel of every chunk."""
    return getattr(obj.rolling(**params), how)(*args, **kwargs)


def _aggregation(how: str) -> Any:
    def aggregate(self: Rolling, *args: Any, **kwargs: Any) -> Any:
        return self._aggregate(how, args, kwargs)

    aggregate.__name__ = how
    aggregate.__doc__ = f"The rolling ``{how}``, as pandas computes it."
    return aggregate


class Rolling:
    """A lazy frame's fixed-size moving window; aggregations give lazy frames."""

    def __init__(self, frame: FrameBase, params: dict[str, Any]) -> None:
        self._frame = frame
        self._params = params
        # pandas checks the arguments; a time span against the index's (or ``on``'s)
        # dtype only when there are rows: made-up ones here
        self._pandas = sample_like(frame.meta).rolling(**params)

    def _aggregate(self, how: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        # pandas checks the columns' dtypes only when there are rows: made-up ones here
        sample = sample_like(self._frame.meta).rolling(**self._params)
        meta = empty_like(getattr(sample, how)(*args, **kwargs))
        kernel = functools.partial(rolling_call, self._params, how, args, kwargs)
        return self.over_rows(self._frame, kernel, meta, how)

    def over_rows(self, frame: FrameBase, kernel: Any, meta: Any, how: str) -> Any:
        """``kernel`` (pandas on rows) over each chunk of ``frame`` with the rows its
        windows reach in other chunks attached: one path for every aggregation."""
        if not is_integer(self._params["window"]):
            return self._over_time(frame, kernel, meta, how)
        window = int(self._params["window"])
        after = head_carry(window) if self._params.get("center") else None
        return scan(
            frame,
            window_finish(kernel),
            meta,
            f"rolling_{how}",
            before=tail_carry(window) if window else None,
            after=after if window else None,
        )

    def _over_time(self, frame: FrameBase, kernel: Any, meta: Any, how: str) -> Any:
        on = self._params["on"]
        # pandas' own reading of the span (a fixed frequency: "2D", "90min", a Timedelta)
        span = pd.Timedelta(to_offset(self._params["window"]).nanos)
        return scan(
            frame,
            functools.partial(finish_times, kernel, on, span),
            meta,
            f"rolling_{how}",
            before=tail_times(on, span),
            after=head_times(on, span) if self._params.get("center") else None,
        )

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"Rolling [{params}]"

    sum = _aggregation("sum")
    mean = _aggregation("mean")
    median = _aggregation("median")
    min = _aggregation("min")
    max = _aggregation("max")
    std = _aggregation("std")
    var = _aggregation("var")
    sem = _aggregation("sem")
    skew = _aggregation("skew")
    kurt = _aggregation("kurt")
    count = _aggregation("count")
    quantile = _aggregation("quantile")
    apply = _aggregation("apply")
    first = _aggregation("first")
    last = _aggregation("last")
    nunique = _aggregation("nunique")
    rank = _aggregation("rank")


def rolling(
    frame: FrameBase,
    window: Any,
    min_periods: int | None = None,
    center: bool = False,
    win_type: str | None = None,
    on: Any = None,
    closed: str | None = None,
    step: int | None = None,
    method: str = "single",
) -> Rolling:
    """Windows of ``window`` rows, or of a time span (a string, offset or Timedelta),
    ending at each row (centred with ``center``)."""
    if isinstance(window, BaseIndexer):
        raise NotImplementedError("rolling: a BaseIndexer window is not supported")
    for name, value, default in (
        ("step", step, None),
        ("method", method, "single"),
    ):
        if value != default:
            raise NotImplementedError(f"rolling: {name}={value!r} is not supported")
    params: dict[str, Any] = {
        "window": window,
        "min_periods": min_periods,
        "center": center,
        "win_type": win_type,
        "closed": closed,
        "on": on,
    }
    return Rolling(frame, params)
