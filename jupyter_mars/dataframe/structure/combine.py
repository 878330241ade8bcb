"""Two frames combined label by label: ``update``, ``combine``, ``combine_first``,
``compare``.

Frames that share their index and chunking are combined chunk by chunk; otherwise
``update`` reads the other frame whole in every chunk of ``self`` (its rows are kept),
and the others bring both into one chunk, since their rows are the union of both.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.structure.common import (
    as_lazy,
    conform,
    pairwise,
    sample_like,
    with_whole,
)


def _lazy_other(other: Any, name: str) -> FrameBase:
    other = as_lazy(other)
    if not isinstance(other, FrameBase):
        raise TypeError(f"{name}: other must be a DataFrame or Series, got {type(other).__name__}")
    return other


def update_chunk(chunk: Any, other: Any, kwargs: dict[str, Any]) -> Any:
    out = chunk.copy()
    out.update(other, **kwargs)
    return out


def update(
    self: FrameBase,
    other: Any,
    join: str = "left",
    overwrite: bool = True,
    filter_func: Any = None,
    errors: str = "ignore",
) -> None:
    """Values of ``self`` replaced by the non-missing values of ``other`` at the same
    labels (pandas ``update``, in place: the handle points at the result)."""
    other = _lazy_other(other, "update")
    kwargs: dict[str, Any] = {}
    if isinstance(self, DataFrame):
        if join != "left":
            raise NotImplementedError("Only left join is supported")
        if errors not in ("ignore", "raise"):
            raise ValueError("The parameter errors must be either 'ignore' or 'raise'")
        kwargs = {"overwrite": overwrite, "filter_func": filter_func, "errors": errors}
    sample = sample_like(self.meta)
    update_chunk(sample, sample_like(other.meta, sample.index), kwargs)  # TypeError as pandas
    self._node = with_whole(update_chunk, self, other, self.meta, kwargs)._node


def combine_chunk(left: Any, right: Any, func: Any, kwargs: dict[str, Any], meta: Any) -> Any:
    return conform(left.combine(right, func, **kwargs), meta)


def combine(
    self: FrameBase, other: Any, func: Any, fill_value: Any = None, overwrite: bool = True
) -> Any:
    """``func`` of each pair of columns (DataFrame) or values (Series) of the two, on
    the union of their labels (pandas ``combine``)."""
    other_lazy = as_lazy(other)
    kwargs: dict[str, Any] = {"fill_value": fill_value}
    if isinstance(self, DataFrame):
        kwargs["overwrite"] = overwrite
        other_lazy = _lazy_other(other, "combine")
    if not isinstance(other_lazy, FrameBase):  # a Series combined with a scalar
        meta = sample_like(self.meta).combine(other, func, **kwargs).iloc[:0]
        args = (Slot(0), other, func, kwargs, meta)
        return map_chunks(combine_chunk, [self], args, meta, name="combine")
    left, right = sample_like(self.meta), sample_like(other_lazy.meta)
    meta = left.combine(right, func, **kwargs).iloc[:0]
    return pairwise(combine_chunk, self, other_lazy, meta, func, kwargs, meta)


def combine_first_chunk(left: Any, right: Any, meta: Any) -> Any:
    return conform(left.combine_first(right), meta)


def combine_first(self: FrameBase, other: Any) -> Any:
    """Missing values of ``self`` filled with ``other``'s at the same labels, on the
    union of both (pandas ``combine_first``)."""
    other = _lazy_other(other, "combine_first")
    meta = sample_like(self.meta).iloc[:0].combine_first(sample_like(other.meta)).iloc[:0]
    return pairwise(combine_first_chunk, self, other, meta, meta)


def compare_chunk(left: Any, right: Any, kwargs: dict[str, Any]) -> Any:
    return left.compare(right, **kwargs)


def compare(
    self: FrameBase,
    other: Any,
    align_axis: Any = 1,
    keep_shape: bool = False,
    keep_equal: bool = False,
    result_names: tuple[str, str] = ("self", "other"),
) -> Any:
    """Where the two differ (pandas ``compare``; they must have the same labels)."""
    other = _lazy_other(other, "compare")
    kwargs = {
        "align_axis": align_axis,
        "keep_shape": keep_shape,
        "keep_equal": keep_equal,
        "result_names": result_names,
    }
    meta = self.meta.compare(other.meta, **kwargs)  # ValueError for other labels
    return pairwise(compare_chunk, self, other, meta, kwargs)


def _attach() -> None:
    for cls in (DataFrame, Series):
        methods: dict[str, Any] = {
            "update": update,
            "combine": combine,
            "combine_first": combine_first,
            "compare": compare,
        }
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
