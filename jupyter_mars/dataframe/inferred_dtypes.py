"""``infer_objects`` and ``convert_dtypes``: dtypes that the values decide.

pandas picks each column's new dtype from all its values (object values that are all
integers become int64; floats that are all whole numbers become Int64), so the metadata
cannot know it. Each chunk reports the dtypes pandas gives it (a tiny summary, fetched
at the call, as ``dropna(axis=1)`` fetches its counts); the column's dtype is the common
dtype of the chunks' that hold values in it, which is what pandas infers from all the
values at once. The conversion itself then runs lazily, chunk by chunk, cast to those dtypes.
"""

from __future__ import annotations

import functools
from typing import Any

import pandas as pd
from pandas.api.types import is_bool, is_object_dtype
from pandas.core.dtypes.cast import find_common_type

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.summaries import chunk_summaries

Vote = tuple[Any, bool, Any]
"""One chunk's word on one column: the dtype pandas gives it, whether the chunk holds a
value there, and its first value (to ask pandas about that value beside a missing one)."""


def chunk_dtypes(method: str, kwargs: dict[str, Any], chunk: Any) -> list[Vote]:
    """Each column's vote (see ``Vote``) from this chunk."""
    frame = chunk if isinstance(chunk, pd.DataFrame) else chunk.to_frame()
    converted = getattr(frame, method)(**kwargs)
    votes: list[Vote] = []
    for i, dtype in enumerate(converted.dtypes):
        present = frame.iloc[:, i].dropna()
        votes.append((dtype, len(present) > 0, present.iloc[0] if len(present) else None))
    return votes


def column_dtype(method: str, kwargs: dict[str, Any], votes: list[Vote], default: Any) -> Any:
    """The common dtype of the chunks holding values. A chunk of missing values alone
    still counts (a missing value makes ints floats, keeps bools objects): pandas is asked
    about the others' first values beside a missing one."""
    told = [d for d, present, _ in votes if present]
    if not told:
        told = [d for d, _, _ in votes]
    elif len(told) < len(votes):
        samples = [v for _, present, v in votes if present]
        probe = getattr(pd.Series([*samples, None], dtype=object), method)(**kwargs)
        told.append(probe.dtype)
    return pd.api.types.pandas_dtype(find_common_type(told)) if told else default


def converted(method: str, kwargs: dict[str, Any], targets: Any, chunk: Any) -> Any:
    """The chunk converted and cast to the whole's dtypes; a column the whole leaves as
    objects keeps its original values (not this chunk's conversion of them)."""
    out = getattr(chunk, method)(**kwargs)
    if isinstance(out, pd.Series):
        return chunk.astype(object) if is_object_dtype(targets) else out.astype(targets)
    out = out.astype(targets)
    for i, target in enumerate(targets.values()):
        if is_object_dtype(target):
            out.isetitem(i, chunk.iloc[:, i].astype(object))
    return out


def infer(self: FrameBase, method: str, kwargs: dict[str, Any]) -> Any:
    """``method`` with the dtypes decided by all the values (see the module docstring)."""
    meta = getattr(self.meta, method)(**kwargs)  # checks the arguments as pandas does
    seen = chunk_summaries(self, functools.partial(chunk_dtypes, method, kwargs))
    if isinstance(meta, pd.DataFrame):
        targets: Any = {
            c: column_dtype(method, kwargs, [v[i] for v in seen], meta.dtypes.iloc[i])
            for i, c in enumerate(meta.columns)
        }
    else:
        targets = column_dtype(method, kwargs, [v[0] for v in seen], meta.dtype)
    meta = meta.astype(targets)
    kernel = functools.partial(converted, method, kwargs, targets)
    return map_chunks(kernel, [self], (Slot(0),), meta)


def infer_objects(self: FrameBase, copy: Any = None) -> Any:
    """Object columns cast to the dtype all their values share (int64, float64...)."""
    return infer(self, "infer_objects", {})


def convert_dtypes(
    self: FrameBase,
    infer_objects: bool = True,
    convert_string: bool = True,
    convert_integer: bool = True,
    convert_boolean: bool = True,
    convert_floating: bool = True,
    dtype_backend: str = "numpy_nullable",
) -> Any:
    """Each column as the best dtype that supports pd.NA (Int64, Float64, string...)."""
    flags = {
        "infer_objects": infer_objects,
        "convert_string": convert_string,
        "convert_integer": convert_integer,
        "convert_boolean": convert_boolean,
        "convert_floating": convert_floating,
    }
    for name, value in flags.items():
        if not is_bool(value):
            raise ValueError(f'For argument "{name}" expected type bool, received {value!r}')
    # only what differs from pandas' defaults: pandas warns about some keywords passed
    kwargs: dict[str, Any] = {k: v for k, v in flags.items() if v is not True}
    if dtype_backend != "numpy_nullable":
        kwargs["dtype_backend"] = dtype_backend
    return infer(self, "convert_dtypes", kwargs)


for _cls in (DataFrame, Series):
    setattr(_cls, "infer_objects", infer_objects)  # noqa: B010 - attached as the others
    setattr(_cls, "convert_dtypes", convert_dtypes)  # noqa: B010

__all__ = ["convert_dtypes", "infer_objects"]
