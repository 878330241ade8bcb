"""Index methods that keep the rows: one pandas call per chunk.

Also the ways into and out of an Index that keep the rows: ``df.index`` and
``s.index`` (the row labels of each chunk), ``to_series``, ``to_frame`` and
``series_from_index``. pandas returns NumPy arrays from ``isin``, ``isna`` and
``notna``: here those are lazy tensors with the index's chunking, as in Mars.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.conversion import to_tensor
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Index, Series
from jupyter_mars.dataframe.from_tensor import index_by_position
from jupyter_mars.dataframe.index._calls import call, meta_call, per_chunk, value
from jupyter_mars.dataframe.map_chunks import MapChunks, Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.renumber import renumber

_NO_DEFAULT: Any = pd.api.extensions.no_default


def row_labels(chunk: Any) -> pd.Index:
    out: pd.Index = chunk.index
    return out


def frame_index(frame: FrameBase) -> Index:
    """The row labels of a DataFrame or Series, chunked as its rows."""
    out: Index = map_chunks(row_labels, [frame], (Slot(0),), frame.meta.index, name="index")
    return out


def as_array_index(obj: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The call's NumPy result as an Index, so that it travels as a frame chunk."""
    return pd.Index(np.asarray(call(obj, name, args, kwargs)))


def array_per_chunk(index: Index, name: str, /, *args: Any, **kwargs: Any) -> Any:
    """A lazy tensor of what ``chunk.name(...)`` gives as a NumPy array, per chunk."""
    dtype = np.asarray(meta_call(index, name, *args, **kwargs)).dtype
    meta = pd.Index(np.array([], dtype=dtype))
    mapped = map_chunks(as_array_index, [index], (Slot(0), name, args, kwargs), meta, name=name)
    return to_tensor(mapped)


def isin(self: Index, values: Any, level: Any = None) -> Any:
    if isinstance(values, FrameBase):
        values = values.to_pandas()
    elif hasattr(values, "to_numpy") and hasattr(values, "execute"):
        values = values.to_numpy()
    return array_per_chunk(self, "isin", values, level=level)


def map_values(self: Index, mapper: Any, na_action: Any = None, dtype: Any = None) -> Any:
    """``Index.map``; ``dtype`` (Mars's keyword) names the result's dtype, which pandas
    cannot infer from an index with no rows. A lazy Series mapper is fetched: every
    chunk looks labels up in all of it."""
    if isinstance(mapper, FrameBase):
        mapper = mapper.to_pandas()
    meta = empty_like(self.meta.map(mapper, na_action=na_action))
    if dtype is not None:
        # every chunk is cast, so that one whose labels all map to missing agrees
        mapped = per_chunk(self, "map", mapper, meta=meta, na_action=na_action)
        return per_chunk(mapped, "astype", dtype)
    if not isinstance(meta, pd.MultiIndex):
        meta = _sample_meta(self, "map", (mapper,), {"na_action": na_action}, meta)
    return per_chunk(self, "map", mapper, meta=meta, na_action=na_action)


def _sample_meta(
    index: Index, name: str, args: tuple[Any, ...], kwargs: dict[str, Any], fallback: Any
) -> Any:
    """The meta from the call on one row of sample data (a fresh index of the dtype's
    zero-ish value), or ``fallback`` when the call fails there."""
    try:
        sample = pd.Index(np.zeros(1, dtype=index.meta.dtype), name=index.meta.name)
        return empty_like(call(sample, name, args, kwargs))
    except Exception:  # noqa: BLE001 - a user function may reject the sample
        return fallback


def to_series(self: Index, index: Any = None, name: Any = None) -> Series:
    """``Index.to_series``; with ``index`` (labels, a pandas or lazy Index or Series, or a
    tensor, of the same length) row ``r`` is labelled by its ``r``-th value, chunk by
    chunk."""
    series = per_chunk(self, "to_series", name=name)
    return index_by_position(series, index)  # type: ignore[no-any-return]


def to_frame(self: Index, index: bool = True, name: Any = _NO_DEFAULT) -> DataFrame:
    frame = per_chunk(self, "to_frame", index=True, name=name)
    # without the labels as the index, the rows are numbered across all chunks
    return frame if index else renumber(frame)  # type: ignore[no-any-return]


def series_from_index(ind: Any, index: Any = None, name: Any = None) -> Series:
    """A Series of the labels of ``ind`` (Mars's ``md.series_from_index``), labelled by
    ``index`` or by ``ind`` itself; ``name`` defaults to the index's name."""
    if isinstance(ind, pd.Index):
        ind = Index(ind)
    if not isinstance(ind, Index):
        raise TypeError(f"series_from_index: ind must be an Index, got {type(ind).__name__}")
    return to_series(ind, index, name if name is not None else ind.name)


def infer_objects(self: Index, copy: Any = None) -> Index:
    """The dtype pandas infers depends on every label: it is computed on the workers
    now (as ``dropna(axis=1)`` computes its columns), then each chunk is cast to it."""
    if self.meta.dtype != object:
        return per_chunk(self, "copy")  # type: ignore[no-any-return]
    dtype = value(self, "infer_objects").dtype
    return per_chunk(self, "astype", dtype)  # type: ignore[no-any-return]


def astype(self: Index, dtype: Any, copy: bool = True) -> Index:
    """``Index.astype``, per chunk. A categorical dtype without its categories takes
    them from the whole index (its sorted distinct labels, computed on the workers
    now): per chunk each would take only its own."""
    meta = self.meta.astype(dtype)  # pandas' error for a bad dtype, at the call
    if isinstance(meta.dtype, pd.CategoricalDtype) and not _has_categories(dtype):
        labels = pd.Index(value(self, "unique")).dropna().rename(None)
        dtype = pd.CategoricalDtype(labels.sort_values(), ordered=meta.dtype.ordered)
        meta = self.meta.astype(dtype)
    return per_chunk(self, "astype", dtype, meta=empty_like(meta))  # type: ignore[no-any-return]


def _has_categories(dtype: Any) -> bool:
    return isinstance(dtype, pd.CategoricalDtype) and dtype.categories is not None


def _rows_method(name: str) -> Any:
    def method(self: Index, *args: Any, **kwargs: Any) -> Any:
        return per_chunk(self, name, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"``pandas.Index.{name}``, one call per chunk."
    return method


def _array_method(name: str) -> Any:
    def method(self: Index) -> Any:
        return array_per_chunk(self, name)

    method.__name__ = name
    method.__doc__ = f"``pandas.Index.{name}`` as a lazy tensor."
    return method


def rename(self: Index, name: Any, *, inplace: bool = False) -> Index | None:
    return _maybe_in_place(self, per_chunk(self, "rename", name), inplace)


def set_names(self: Index, names: Any, *, level: Any = None, inplace: bool = False) -> Index | None:
    return _maybe_in_place(self, per_chunk(self, "set_names", names, level=level), inplace)


def _maybe_in_place(self: Index, renamed: Index, inplace: Any) -> Index | None:
    """The renamed index, or with ``inplace`` None and the handle renamed, as pandas."""
    if not isinstance(inplace, bool):
        raise ValueError(
            f'For argument "inplace" expected type bool, received type {type(inplace).__name__}.'
        )
    if not inplace:
        return renamed
    _relabel(self, renamed)
    return None


def _relabel(self: Index, renamed: Index) -> None:
    """``idx.name = ...`` makes the handle point at the renamed index, as pandas renames
    in place. An index taken from a frame cannot rename the frame's rows that way."""
    op = self.op
    if isinstance(op, MapChunks) and op.func is row_labels:
        raise NotImplementedError(
            "setting the name of df.index does not rename the frame's index; "
            "use df.index.rename(...) for a renamed Index"
        )
    self._node = renamed.node  # type: ignore[assignment]


def _set_name(self: Index, name: Any) -> None:
    _relabel(self, per_chunk(self, "rename", name))


def _set_names(self: Index, names: Any) -> None:
    _relabel(self, per_chunk(self, "set_names", names))


ROW_METHODS = (
    "fillna astype round copy view transpose get_level_values droplevel to_flat_index ravel "
    "replace swaplevel reorder_levels"
).split()
"""Methods that map each label to one label (``swaplevel`` and ``reorder_levels`` of a
MultiIndex; pandas' AttributeError at the call for a flat index)."""
ARRAY_METHODS = "isna isnull notna notnull".split()


def _attach() -> None:
    frame_methods: dict[str, Any] = {"index": property(frame_index)}
    for cls in (DataFrame, Series):
        for attr, method in frame_methods.items():
            setattr(cls, attr, method)
    methods: dict[str, Any] = {name: _rows_method(name) for name in ROW_METHODS}
    methods.update({name: _array_method(name) for name in ARRAY_METHODS})
    methods.update(
        {
            "isin": isin,
            "map": map_values,
            "to_series": to_series,
            "to_frame": to_frame,
            "infer_objects": infer_objects,
            "astype": astype,
            "rename": rename,
            "set_names": set_names,
            "T": property(lambda self: self),
            "values": property(to_tensor),
            "to_tensor": to_tensor,
            "name": property(lambda self: self.meta.name, _set_name),
            "names": property(lambda self: self.meta.names, _set_names),
            "nlevels": property(lambda self: self.meta.nlevels),
        }
    )
    for attr, method in methods.items():
        setattr(Index, attr, method)


_attach()
