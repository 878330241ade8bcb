"""Positions of values: ``argmax``, ``argmin``, ``argsort`` and ``searchsorted``.

``argmax`` / ``argmin`` of a Series are ``idxmax`` / ``idxmin`` over positions (the values
renumbered 0..n-1), a tree reduction whose result is a lazy scalar like the other
reductions. ``searchsorted`` of numeric values is the tensor package's, over the values
as a tensor (lazy). ``argsort`` needs each value's rank among all of them paired with
its own label, so it runs pandas on the fetched values and gives a lazy Series of the
result; so does ``searchsorted`` over values other than numbers, and the methods of an Index.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import jupyter_mars.dataframe.labels  # noqa: F401 - reset_index
import jupyter_mars.dataframe.reduction  # noqa: F401 - idxmax / idxmin
import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.conversion import to_tensor
from jupyter_mars.dataframe.core import FrameBase, Series
from jupyter_mars.dataframe.value_methods import chunk_rows


def _positional(self: FrameBase, axis: Any, skipna: bool, name: str) -> Any:
    axis_number(self.meta, axis, default=0)
    if not isinstance(skipna, bool):
        raise ValueError(f'For argument "skipna" expected type bool, received {skipna!r}')
    renumbered = self.reset_index(drop=True)  # type: ignore[attr-defined]
    return getattr(renumbered, f"idx{name}")(skipna=skipna)


def argmax(self: FrameBase, axis: Any = None, skipna: bool = True, *args: Any, **kw: Any) -> Any:
    """The position of the largest value (a lazy scalar for a Series)."""
    return _positional(self, axis, skipna, "max")


def argmin(self: FrameBase, axis: Any = None, skipna: bool = True, *args: Any, **kw: Any) -> Any:
    """The position of the smallest value (a lazy scalar for a Series)."""
    return _positional(self, axis, skipna, "min")


def argsort(self: FrameBase, *args: Any, **kwargs: Any) -> Any:
    """The positions that would sort the values (pandas' result, from the fetched values)."""
    whole = self.to_pandas().argsort(*args, **kwargs)
    return Series(whole, chunk_size=chunk_rows(self))


def searchsorted(self: FrameBase, value: Any, side: str = "left", sorter: Any = None) -> Any:
    """Where ``value`` would be inserted to keep the (sorted) values in order."""
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', got {side!r}")
    dtype = self.meta.dtype
    if isinstance(self, Series) and isinstance(dtype, np.dtype) and dtype.kind in "biuf":
        return mt.searchsorted(to_tensor(self), value, side=side, sorter=sorter)
    return self.to_pandas().searchsorted(value, side=side, sorter=sorter)


def _attach() -> None:
    # md.Index has its own (index/)
    for cls in (Series,):
        for name, value in {
            "argmax": argmax,
            "argmin": argmin,
            "argsort": argsort,
            "searchsorted": searchsorted,
        }.items():
            setattr(cls, name, value)


_attach()

__all__ = ["argmax", "argmin", "argsort", "searchsorted"]
