"""``Series.dt``: date and time fields and methods, one pandas call per row chunk.

Works on datetime64 (naive or with a time zone), timedelta64 and period Series, as
pandas' ``.dt`` does; anything else raises AttributeError at once. Field and method
names are those of the input's kind (``total_seconds`` only for timedeltas, and so on):
an unknown one raises AttributeError from pandas on a one-row sample. ``dayofweek``,
``weekday`` and ``dayofyear`` are the same as ``day_of_week`` and ``day_of_year``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.accessors._call import map_accessor

ALIASES = {"dayofweek": "day_of_week", "weekday": "day_of_week", "dayofyear": "day_of_year"}
"""Older names pandas still answers (with a deprecation warning) and their current ones."""

_STAMP = "2000-02-29 13:45:30.123456"


def sample_datetimes(meta: pd.Series) -> pd.Series:
    """A one-row Series of ``meta``'s dtype with no missing value, for result metas."""
    dtype = meta.dtype
    if isinstance(dtype, pd.DatetimeTZDtype):
        stamps = pd.DatetimeIndex([_STAMP]).tz_localize(dtype.tz).as_unit(dtype.unit)
        return pd.Series(stamps, name=meta.name)
    if isinstance(dtype, pd.PeriodDtype):
        return pd.Series(pd.period_range(_STAMP, periods=1, freq=dtype.freq), name=meta.name)
    if dtype.kind == "M":
        return pd.Series(pd.DatetimeIndex([_STAMP]).astype(dtype), name=meta.name)
    if dtype.kind == "m":
        return pd.Series(pd.to_timedelta(["1 days 02:03:04.5"]).astype(dtype), name=meta.name)
    return pd.Series([], dtype=dtype)  # not date-like: .dt raises on it


class DatetimeMethods:
    """The ``.dt`` accessor of a lazy Series."""

    def __init__(self, series: Any) -> None:
        series.meta.dt  # noqa: B018 - AttributeError for non-datetime data, as pandas
        self._series = series
        self._sample = sample_datetimes(series.meta)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        name = ALIASES.get(name, name)
        value = getattr(self._sample.dt, name)  # AttributeError for unknown names
        if not callable(value):
            return map_accessor(self._series, self._sample, "dt", name, False)
        return _BoundMethod(self, name)

    def __dir__(self) -> list[str]:
        return sorted(set(dir(self._sample.dt)) | set(ALIASES))


class _BoundMethod:
    """``series.dt.<method>``, waiting for its arguments."""

    def __init__(self, owner: DatetimeMethods, name: str) -> None:
        self.owner = owner
        self.name = name
        self.__doc__ = f"``Series.dt.{name}`` on every row chunk."

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        owner = self.owner
        return map_accessor(owner._series, owner._sample, "dt", self.name, True, args, kwargs)


__all__ = ["DatetimeMethods"]
