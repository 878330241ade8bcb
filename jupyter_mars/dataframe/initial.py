"""Lazy data given to the constructors, as Mars takes it.

``md.DataFrame``, ``md.Series`` and ``md.Index`` build from data held in memory themselves
(``datasource.py``); what is lazy comes here (registered in ``core.LAZY_INPUTS``) and
stays lazy:

- a lazy object: ``md.DataFrame(series)`` is its ``to_frame()``, ``md.DataFrame(frame)``
  and ``md.Series(series)`` the object itself; ``md.Series(index)`` holds an index's
  values on a default index, as pandas does. ``columns=``, ``index=`` (both by label, as
  pandas reindexes), ``dtype=``, ``name=`` and ``chunk_size=`` apply to it;
- a dict of columns some of which are lazy (tensors, Series, indexes): one Series per
  column, put side by side on their labels (``md.concat(axis=1)``), sorted by label where
  the columns' indexes differ, as pandas aligns them; scalars fill their columns;
- a list holding tensors: the rows stacked, as pandas makes rows of a list of arrays;
- a tensor with ``index=``: the labels are taken by position (``set_index``), from a
  list, an array, a pandas Index or a lazy Index or Series.

``num_partitions`` (Mars's) then rebalances the result into that many chunks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.concatenate import concat
from jupyter_mars.dataframe.core import LAZY_INPUTS, DataFrame, FrameBase, Index, Series
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.shape import stack


def _lazy(value: Any) -> bool:
    return isinstance(value, (Tensor, FrameBase))


def _shaped(obj: Any, arguments: dict[str, Any], kind: str) -> Any:
    """``obj`` with the constructor's labels, dtype, name and chunks applied, as pandas
    applies them to a pandas object given as data."""
    columns, index = arguments.get("columns"), arguments.get("index")
    if kind == "frame" and columns is not None:
        obj = obj.reindex(columns=columns)
    if index is not None:
        obj = obj.reindex(index)
    if kind == "series" and arguments.get("name") is not None:
        obj = obj.rename(arguments["name"])
    if kind == "index" and arguments.get("name") is not None:
        obj = obj.rename(arguments["name"])
    if arguments.get("dtype") is not None:
        obj = obj.astype(arguments["dtype"])
    if arguments.get("chunk_size") is not None:
        obj = obj.rechunk(arguments["chunk_size"])
    return obj


def _values_of(index: Index) -> Any:
    """An index's values as a Series on a default index (pandas' ``Series(index)``)."""
    out: Any = index
    return out.to_series().reset_index(drop=True)


def _from_lazy(kind: str, data: FrameBase, arguments: dict[str, Any]) -> Any:
    out: Any
    if kind == "frame":
        if isinstance(data, DataFrame):
            out = data
        elif isinstance(data, Series):
            out = data.to_frame()  # type: ignore[attr-defined]
        else:
            out = _values_of(data).to_frame()  # type: ignore[arg-type]
    elif kind == "series":
        if isinstance(data, DataFrame):
            return None  # pandas' own error, from the in-memory path
        out = data if isinstance(data, Series) else _values_of(data)  # type: ignore[arg-type]
    else:
        if not isinstance(data, Index):
            return None  # an index of a Series' values: the in-memory path
        out = data
    return _shaped(out, arguments, kind)


def _column(key: Any, value: Any) -> Any:
    """One column of a dict, as a lazy Series named ``key``; None for a scalar."""
    if isinstance(value, Series):
        return value.rename(key)  # type: ignore[attr-defined]
    if isinstance(value, Index):
        return _values_of(value).rename(key)
    if isinstance(value, Tensor):
        return Series(value, name=key)
    if isinstance(value, DataFrame):
        raise TypeError(f"a DataFrame cannot be the column {key!r}: give a Series")
    if pd.api.types.is_scalar(value):
        return None
    return Series(pd.Series(value, name=key))


def _from_columns(data: dict[Any, Any], arguments: dict[str, Any]) -> Any:
    columns = {key: _column(key, value) for key, value in data.items()}
    lazy = [c for c in columns.values() if c is not None]
    out: Any = concat(lazy, axis=1) if len(lazy) > 1 else lazy[0].to_frame()
    if len({c.node.index_key for c in lazy}) > 1:
        out = out.sort_index()  # pandas sorts the union of the columns' labels
    for key, value in data.items():
        if columns[key] is None:
            out[key] = value  # a new handle each time: ``out`` is this function's own
    if list(out.columns) != list(data):
        out = out[list(data)]
    positional = not any(isinstance(v, (Series, Index)) for v in data.values())
    index = arguments.get("index")
    if index is not None and positional:
        out = _with_index(out, index)
        arguments = {**arguments, "index": None}
    return _shaped(out, arguments, "frame")


def _index_key(index: Any) -> Any:
    """``index=`` as a key ``set_index`` takes by position."""
    if isinstance(index, (FrameBase, pd.Index, pd.Series, np.ndarray)):
        return index
    return pd.Index(index)


def _with_index(obj: Any, index: Any) -> Any:
    """``obj`` labelled by ``index``, taken by position."""
    if isinstance(obj, DataFrame):
        return obj.set_index(_index_key(index))
    name = obj.name
    framed: Any = obj.to_frame()
    return framed.set_index(_index_key(index)).iloc[:, 0].rename(name)


def _from_tensor(kind: str, data: Tensor, arguments: dict[str, Any]) -> Any:
    index = arguments["index"]
    rest = {k: v for k, v in arguments.items() if k not in ("index", "num_partitions")}
    obj: Any = DataFrame(data, **rest) if kind == "frame" else Series(data, **rest)
    return _with_index(obj, index)


def build(kind: str, data: Any, arguments: dict[str, Any]) -> Any:
    """The lazy object of ``kind`` for lazy ``data``, or None (see the module docstring)."""
    if isinstance(data, FrameBase):
        return _from_lazy(kind, data, arguments)
    if kind == "frame" and isinstance(data, dict) and any(_lazy(v) for v in data.values()):
        return _from_columns(data, arguments)
    if kind == "frame" and isinstance(data, (list, tuple)) and any(_lazy(v) for v in data):
        rows = stack([astensor(v) for v in data])
        rest = {k: v for k, v in arguments.items() if k != "num_partitions"}
        return build(kind, rows, rest) or DataFrame(rows, **rest)
    with_index = arguments.get("index") is not None
    if isinstance(data, Tensor) and kind in ("frame", "series") and with_index:
        return _from_tensor(kind, data, arguments)
    return None


LAZY_INPUTS.append(build)
