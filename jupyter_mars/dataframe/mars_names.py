"""Methods Mars's frames have that pandas 2 and 3 removed: ``append``, ``backfill``,
``pad``, ``tshift`` and ``iteritems``, so that a Mars script runs with its imports changed.

Each is the pandas method that replaced it, with the old meaning:

- ``append(other, ignore_index=False, verify_integrity=False, sort=False)``: ``md.concat``
  of the object and ``other`` (a frame, a Series, or a list of them), as pandas 1 did;
- ``backfill`` and ``pad``: ``bfill`` and ``ffill``;
- ``tshift(periods=1, freq=None)``: the index shifted by ``periods`` steps of ``freq``
  (``shift(periods, freq=freq)``); without ``freq`` pandas 1 took the index's own, which a
  lazy index does not know before it runs, so ``freq`` is required here;
- ``iteritems``: ``items``.
"""

from __future__ import annotations

import warnings
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.concatenate import concat
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series


def append(
    frame: FrameBase,
    other: Any,
    ignore_index: bool = False,
    verify_integrity: bool = False,
    sort: bool = False,
) -> Any:
    """``frame`` with the rows of ``other`` after it: a frame, a Series, or a list of them;
    to a DataFrame also a dict, a pandas Series (one row each) or a list of dicts."""
    if isinstance(frame, DataFrame):
        if isinstance(other, dict) or isinstance(other, pd.Series):
            other = pd.DataFrame([other])  # one row, labelled by the Series' name
        elif isinstance(other, list) and other and all(isinstance(o, dict) for o in other):
            other = pd.DataFrame(other)
    others = list(other) if isinstance(other, (list, tuple)) else [other]
    out: Any = concat([frame, *others], ignore_index=ignore_index)
    if sort and isinstance(out, DataFrame):
        columns: Any = out  # mypy does not see the attached ``__getitem__``
        out = columns[sorted(out.columns)]
    if verify_integrity:
        with warnings.catch_warnings():  # the check, not pandas' deprecated keyword
            warnings.simplefilter("ignore", pd.errors.Pandas4Warning)
            out = out.set_index(out.index, verify_integrity=True)
    return out


def backfill(frame: FrameBase, **kwargs: Any) -> Any:
    """``bfill``, under Mars's (and pandas 1's) other name."""
    return frame.bfill(**kwargs)  # type: ignore[attr-defined]


def pad(frame: FrameBase, **kwargs: Any) -> Any:
    """``ffill``, under Mars's (and pandas 1's) other name."""
    return frame.ffill(**kwargs)  # type: ignore[attr-defined]


def tshift(frame: FrameBase, periods: int = 1, freq: Any = None, axis: Any = 0) -> Any:
    """The index moved by ``periods`` steps of ``freq``, the values kept."""
    if freq is None:
        raise ValueError("Freq was not given and was not set in the index")
    return frame.shift(periods, freq=freq, axis=axis)  # type: ignore[attr-defined]


def iteritems(frame: FrameBase, session: Any = None) -> Any:
    """``items``, under Mars's (and pandas 1's) other name."""
    return frame.items(session=session)  # type: ignore[attr-defined]


def _attach() -> None:
    methods = {
        "append": append,
        "backfill": backfill,
        "pad": pad,
        "tshift": tshift,
        "iteritems": iteritems,
    }
    for cls in (DataFrame, Series):
        for name, method in methods.items():
            setattr(cls, name, method)


_attach()
