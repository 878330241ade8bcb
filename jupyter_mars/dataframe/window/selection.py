"""Choosing columns of a DataFrame's window: ``df.rolling(3)["a"]``, ``[["a", "b"]]`` or
``.a``, as pandas' windows allow.

The window is made again over the chosen columns, with the same arguments; pandas'
window of made-up rows checks the key first (its ``KeyError``). A rolling window ``on``
a column keeps that column: a list of columns gets it as pandas gives it (last, in the
results), and one column is computed with it and taken out of the results.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.window.ewm import EWM
from jupyter_mars.dataframe.window.expanding import Expanding
from jupyter_mars.dataframe.window.rolling import Rolling


class PickedRolling(Rolling):
    """A rolling window ``on`` a column over one other column: the results are that
    column's."""

    def __init__(self, frame: Any, params: dict[str, Any], column: Any) -> None:
        super().__init__(frame, params)
        self._column = column

    def _aggregate(self, how: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return super()._aggregate(how, args, kwargs)[self._column]


def _rolling(self: Rolling, key: Any) -> Rolling:
    frame: Any = self._frame
    sample_like(frame.meta).rolling(**self._params)[key]  # pandas checks the key
    on = self._params.get("on")
    if on is None:
        return Rolling(frame[key], self._params)
    if isinstance(key, list):
        return Rolling(frame[key if on in key else [*key, on]], self._params)
    return PickedRolling(frame[[key, on]], self._params, key)


def _expanding(self: Expanding, key: Any) -> Expanding:
    sample_like(self._frame.meta).expanding()[key]  # pandas checks the key
    return Expanding(self._frame[key], self._min_periods)  # type: ignore[index]


def _ewm(self: EWM, key: Any) -> EWM:
    p = self._params
    sample_like(self._frame.meta).ewm(**p.pandas)[key]  # pandas checks the key
    return EWM(self._frame[key], p)  # type: ignore[index]


def _by_attribute(self: Any, name: str) -> Any:
    meta = self.__dict__.get("_frame")
    columns = meta.meta.columns if meta is not None and isinstance(meta.meta, pd.DataFrame) else ()
    if not name.startswith("_") and name in columns:
        return self[name]
    raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


for _cls, _select in ((Rolling, _rolling), (Expanding, _expanding), (EWM, _ewm)):
    setattr(_cls, "__getitem__", _select)  # noqa: B010
    setattr(_cls, "__getattr__", _by_attribute)  # noqa: B010
