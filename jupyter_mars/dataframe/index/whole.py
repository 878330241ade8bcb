"""Index methods whose rows depend on the whole index: one pandas call in one task.

Set operations, sorting, de-duplication and edits by position (``insert``, ``delete``,
``take``...) run on the index brought into one chunk, with any lazy Index argument
brought into one chunk beside it. The result's length is known at once where the
method tells it (``insert``: one more, ``take``: the positions), else once it has run.
``append`` moves no data: it is ``concat``'s plan, chunks after chunks.
pandas returns ``argsort``'s and ``duplicated``'s NumPy arrays: here lazy tensors.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.concatenate import ConcatRows
from jupyter_mars.dataframe.core import Index, new_frame
from jupyter_mars.dataframe.index._calls import meta_call, whole, whole_array
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.tensor.core import Tensor


def _lazy_or_plain(obj: Any) -> Any:
    """A pandas Index argument stays plain; a lazy frame stays lazy (brought in by
    ``whole``); a lazy tensor (a ``where`` condition) is fetched."""
    if isinstance(obj, Tensor):
        return np.asarray(obj.to_numpy())
    return obj


def _whole_method(name: str, same_length: bool = False) -> Any:
    def method(self: Index, *args: Any, **kwargs: Any) -> Any:
        plain = (_lazy_or_plain(a) for a in args)
        length = self.node.shape[0] if same_length else None
        return whole(self, name, *plain, length=length, **kwargs)

    method.__name__ = name
    method.__doc__ = f"``pandas.Index.{name}`` on the whole index, in one task."
    return method


def append(self: Index, other: Any) -> Index:
    """The chunks of ``self`` then those of each other index, each cast to the result's
    dtype and name: no data moves and the length stays known (``concat``'s plan)."""
    others = list(other) if isinstance(other, (list, tuple)) else [other]
    lazy = [o if isinstance(o, Index) else Index(pd.Index(o)) for o in others]
    meta = self.meta.append([o.meta for o in lazy])
    nrows = sum((o.node.shape[0] for o in lazy), self.node.shape[0])
    out: Index = new_frame(ConcatRows(None), [self, *lazy], nrows, meta)
    return out


def argsort(self: Index, *args: Any, **kwargs: Any) -> Any:
    return whole_array(self, "argsort", *args, length=self.node.shape[0], **kwargs)


def _check_keep(keep: Any) -> None:
    """pandas checks ``keep`` only where there are duplicates: here, before any data."""
    if keep not in ("first", "last", False):
        raise ValueError('keep must be either "first", "last" or False')


def duplicated(self: Index, keep: Any = "first") -> Any:
    _check_keep(keep)
    return whole_array(self, "duplicated", length=self.node.shape[0], keep=keep)


def drop_duplicates(self: Index, *, keep: Any = "first") -> Index:
    _check_keep(keep)
    return whole(self, "drop_duplicates", keep=keep)  # type: ignore[no-any-return]


def _one_row(meta: pd.Index) -> pd.Index:
    """A one-row index of ``meta``'s dtype and names (the empty meta itself where the
    dtype has no zero to sample)."""
    if isinstance(meta.dtype, np.dtype) and meta.dtype.kind in "biufcmM":
        return pd.Index(np.zeros(1, dtype=meta.dtype), name=meta.name)
    return meta


def insert(self: Index, loc: int, item: Any) -> Index:
    # the result's dtype from inserting into a one-row sample (pandas types an insert
    # into an empty index otherwise); the position is checked when it runs
    meta = empty_like(_one_row(self.meta).insert(0, item))
    return whole(self, "insert", loc, item, meta=meta, length=self.node.shape[0] + 1)  # type: ignore[no-any-return]


def delete(self: Index, loc: Any) -> Index:
    n = self.node.shape[0]
    # the positions are checked now where the length is known, as pandas does
    length = None if math.isnan(n) else len(np.delete(np.arange(int(n)), loc))
    return whole(self, "delete", loc, meta=empty_like(self.meta), length=length)  # type: ignore[no-any-return]


def take(
    self: Index, indices: Any, axis: int = 0, allow_fill: bool = True, fill_value: Any = None
) -> Index:
    if axis != 0:
        raise ValueError(f"No axis named {axis} for object type Index")
    kwargs = {"allow_fill": allow_fill, "fill_value": fill_value}
    meta = empty_like(meta_call(self, "take", [], **kwargs))
    positions = np.asarray(indices)
    return whole(  # type: ignore[no-any-return]
        self, "take", positions, meta=meta, length=positions.size, **kwargs
    )


def repeat(self: Index, repeats: Any, axis: Any = None) -> Index:
    if axis is not None and axis != 0:
        raise ValueError(f"No axis named {axis} for object type Index")
    counts = np.asarray(repeats)
    length = self.node.shape[0] * int(counts) if counts.ndim == 0 else int(counts.sum())
    return whole(self, "repeat", repeats, meta=empty_like(self.meta), length=length)  # type: ignore[no-any-return]


def drop(self: Index, labels: Any, errors: str = "raise") -> Index:
    if errors not in ("raise", "ignore"):
        raise ValueError(f"errors must be 'raise' or 'ignore', got {errors!r}")
    # the labels are looked up when it runs: none is in the empty meta
    return whole(self, "drop", labels, meta=empty_like(self.meta), errors=errors)  # type: ignore[no-any-return]


def where(self: Index, cond: Any, other: Any = None) -> Index:
    cond = _lazy_or_plain(cond)
    meta = empty_like(_one_row(self.meta).where(np.array([False]), other))
    return whole(self, "where", cond, other, meta=meta, length=self.node.shape[0])  # type: ignore[no-any-return]


def putmask(self: Index, mask: Any, value: Any) -> Index:
    mask = _lazy_or_plain(mask)
    meta = empty_like(_one_row(self.meta).putmask(np.array([True]), value))
    return whole(self, "putmask", mask, value, meta=meta, length=self.node.shape[0])  # type: ignore[no-any-return]


def shift(self: Index, periods: int = 1, freq: Any = None) -> Index:
    meta_call(self, "shift", periods, freq)  # NotImplementedError for non-datetime, as pandas
    return whole(self, "shift", periods, freq, length=self.node.shape[0])  # type: ignore[no-any-return]


WHOLE_METHODS = (
    "union intersection difference symmetric_difference unique dropna value_counts"
).split()
SAME_LENGTH_METHODS = ["diff"]


def _attach() -> None:
    methods: dict[str, Any] = {name: _whole_method(name) for name in WHOLE_METHODS}
    methods.update({name: _whole_method(name, True) for name in SAME_LENGTH_METHODS})
    methods.update(
        {
            "append": append,
            "argsort": argsort,
            "duplicated": duplicated,
            "drop_duplicates": drop_duplicates,
            "insert": insert,
            "delete": delete,
            "take": take,
            "shift": shift,
            "drop": drop,
            "repeat": repeat,
            "where": where,
            "putmask": putmask,
        }
    )
    for attr, value in methods.items():
        setattr(Index, attr, value)


_attach()
