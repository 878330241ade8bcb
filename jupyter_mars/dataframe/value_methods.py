"""Methods computed chunk by chunk with one pandas call each: ``between``, ``case_when``,
``repeat``, ``to_frame``, ``to_series``, ``set_flags``; and ``autocorr``, ``flags``,
``attrs``, ``from_arrow``.

A lazy Series given as an argument (``between``'s bounds, ``case_when``'s conditions and
replacements) is lined up with the caller chunk for chunk (``aligned``), so each task
reads the matching rows of every input. The result's metadata is pandas' answer on the
empty metas, which also raises pandas' error for a bad argument at the call.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

import jupyter_mars.dataframe.cumulative  # noqa: F401 - shift
import jupyter_mars.dataframe.reduction  # noqa: F401 - corr
from jupyter_mars.dataframe.callables import resolve
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import Slot, aligned, map_chunks, meta_of

_NO_DEFAULT: Any = pd.api.extensions.no_default


def call_method(method: str, chunk: Any, /, *args: Any, **kwargs: Any) -> Any:
    return getattr(chunk, method)(*args, **kwargs)


def _lazy_args(self: FrameBase, values: list[Any]) -> tuple[list[FrameBase], list[Any]]:
    """The frames to map over (``self`` first) and ``values`` with each lazy one replaced
    by the ``Slot`` of its chunk."""
    lazy = [v for v in values if isinstance(v, FrameBase)]
    frames = aligned([self, *lazy])
    # by identity: == between lazy objects is an element-wise comparison
    position = {id(v): 1 + i for i, v in enumerate(lazy)}
    slots = [Slot(position[id(v)]) if isinstance(v, FrameBase) else v for v in values]
    return frames, slots


def between(self: Series, left: Any, right: Any, inclusive: str = "both") -> Series:
    """Whether each value lies between ``left`` and ``right`` (scalars or Series)."""
    meta = self.meta.between(meta_of(left), meta_of(right), inclusive=inclusive)
    frames, (lo, hi) = _lazy_args(self, [left, right])
    args = ("between", Slot(0), lo, hi)
    out: Series = map_chunks(call_method, frames, args, meta, {"inclusive": inclusive})
    return out


def case_when_chunk(chunk: pd.Series, *flat: Any) -> pd.Series:
    pairs = list(zip(flat[::2], flat[1::2], strict=True))
    return chunk.case_when(pairs)


def case_when(self: Series, caselist: list[tuple[Any, Any]]) -> Series:
    """pandas' ``case_when``: the first replacement whose condition holds, else the value.

    Conditions and replacements are scalars, lazy Series, or callables of this Series.
    """
    if not isinstance(caselist, list):
        raise TypeError(f"The caselist argument should be a list; instead got {type(caselist)}")
    flat: list[Any] = []
    for pair in caselist:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise ValueError(f"Argument {len(flat) // 2} must be a tuple of (condition, value)")
        for item in pair:
            flat.append(resolve(item, self))
    if any(not isinstance(v, FrameBase) and pd.api.types.is_list_like(v) for v in flat):
        # arrays have no chunks to line up with: run pandas on the fetched data
        fetched = [v.to_pandas() if isinstance(v, FrameBase) else v for v in flat]
        whole = self.to_pandas().case_when(list(zip(fetched[::2], fetched[1::2], strict=True)))
        return Series(whole, chunk_size=chunk_rows(self))
    metas = [meta_of(v) for v in flat]
    meta = self.meta.case_when(list(zip(metas[::2], metas[1::2], strict=True)))
    frames, slots = _lazy_args(self, flat)
    out: Series = map_chunks(case_when_chunk, frames, (Slot(0), *slots), meta)
    return out


def chunk_rows(frame: FrameBase) -> int:
    """The longest chunk of ``frame``: the chunking of a result rebuilt from pandas."""
    layout = frame._layout()
    sizes = [int(n) for n in layout[0] if n == n] if layout is not None else []
    return max([*sizes, 1])


def repeat(self: FrameBase, repeats: Any, axis: Any = None) -> Any:
    """Each value ``repeats`` times (an int, or one count per value)."""
    if axis not in (None, 0, "index"):
        raise ValueError(f"No axis named {axis} for object type {type(self).__name__}")
    meta = self.meta.repeat(0 if pd.api.types.is_list_like(repeats) else repeats)
    if pd.api.types.is_list_like(repeats):
        # one count per value: pandas pairs them with the fetched values
        whole = self.to_pandas().repeat(repeats)
        kind: Any = type(self)
        return kind(whole, chunk_size=chunk_rows(self))
    if not isinstance(repeats, int) or isinstance(repeats, bool):
        raise TypeError(f"repeats must be an int or a list of ints, got {repeats!r}")
    return map_chunks(call_method, [self], ("repeat", Slot(0), repeats), meta, keeps_rows=False)


def to_frame(self: Series, name: Any = _NO_DEFAULT) -> DataFrame:
    """A DataFrame of this one column (named ``name`` if given)."""
    meta = self.meta.to_frame(name)
    out: DataFrame = map_chunks(call_method, [self], ("to_frame", Slot(0), name), meta)
    return out


def set_flags(
    self: FrameBase, *, copy: bool = False, allows_duplicate_labels: bool | None = None
) -> Any:
    """The same data with pandas' flags set (``allows_duplicate_labels``)."""
    kwargs = {"allows_duplicate_labels": allows_duplicate_labels}
    meta = self.meta.set_flags(**kwargs)
    return map_chunks(call_method, [self], ("set_flags", Slot(0)), meta, kwargs)


def flags(self: FrameBase) -> Any:
    """pandas' flags of the result (they travel with the metadata)."""
    return self.meta.flags


def get_attrs(self: FrameBase) -> dict[Any, Any]:
    """The user's global metadata (``attrs``), kept with the object's metadata."""
    attrs: dict[Any, Any] = self.meta.attrs
    return attrs


def set_attrs(self: FrameBase, value: dict[Any, Any]) -> None:
    self.meta.attrs = dict(value)


def autocorr(self: Series, lag: int = 1) -> Any:
    """Pearson correlation with the Series shifted by ``lag`` (a lazy scalar)."""
    if not isinstance(lag, int) or isinstance(lag, bool):
        raise TypeError(f"lag must be an int, got {lag!r}")
    return self.corr(self.shift(lag))  # type: ignore[attr-defined]


def from_arrow_method(cls: Any) -> Any:
    pandas_kind = pd.DataFrame if cls is DataFrame else pd.Series

    def from_arrow(data: Any, chunk_size: Any = None) -> Any:
        """A lazy object of an Arrow table or array (anything with ``__arrow_c_stream__``)."""
        return cls(pandas_kind.from_arrow(data), chunk_size=chunk_size)

    return staticmethod(from_arrow)


ATTACHED: dict[str, tuple[Any, tuple[type[FrameBase], ...]]] = {
    "between": (between, (Series,)),
    "case_when": (case_when, (Series,)),
    "repeat": (repeat, (Series,)),
    "to_frame": (to_frame, (Series,)),
    "autocorr": (autocorr, (Series,)),
    "set_flags": (set_flags, (DataFrame, Series)),
    "flags": (property(flags), (DataFrame, Series)),
    "attrs": (property(get_attrs, set_attrs), (DataFrame, Series)),
}
"""Name -> (method or property, the kinds that get it)."""


def _attach() -> None:
    for name, (value, kinds) in ATTACHED.items():
        for cls in kinds:
            setattr(cls, name, value)
    for cls in (DataFrame, Series):
        setattr(cls, "from_arrow", from_arrow_method(cls))  # noqa: B010


_attach()
