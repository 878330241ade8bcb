"""``DataFrame.select`` (pandas 3.1): columns by label, and columns computed on the way.

The items are read in order, as pandas reads them: a label takes that column, a
``pd.col`` expression is evaluated on the whole lazy frame (``callables``) and its result
becomes a column under its name, which later items can use (as ``assign``); keywords are
computed columns too, after the positional items. Each item's columns are taken from the
frame as it stood at that item, so a computed column replacing a label leaves a column
selected before it as it was. The result puts those pieces side by side; every piece
keeps the frame's rows, so that is one pandas call per row chunk. pandas' checks of the
arguments run on the meta first, and so do its errors.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.callables import Expression, resolve
from jupyter_mars.dataframe.core import DataFrame, FrameBase
from jupyter_mars.dataframe.labels import assign_one
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like, side_by_side


def _items(args: tuple[Any, ...]) -> list[Any]:
    """pandas' reading of the positional arguments: one list-like (not a tuple, which is
    one label) is the items; otherwise each argument is one (pandas checked the rest)."""
    if len(args) == 1:
        only = args[0]
        is_expression = Expression is not None and isinstance(only, Expression)
        if not isinstance(only, tuple) and not is_expression and pd.api.types.is_list_like(only):
            return list(only)
    return list(args)


def _computed(data: Any, result: Any, item: Any) -> tuple[Any, list[Any]]:
    """``data`` with an expression's result as columns, and those columns' names."""
    if isinstance(result, FrameBase) and isinstance(result.meta, pd.Series):
        names = [result.meta.name]
        return assign_one(data, names[0], result), names
    if isinstance(result, DataFrame):
        names = list(result.meta.columns)
        whole: Any = result
        for name in names:
            data = assign_one(data, name, whole[name])
        return data, names
    raise TypeError(f"select: expression {item!r} gave {type(result).__name__}, not a frame")


def select(frame: DataFrame, *args: Any, **kwargs: Any) -> Any:
    """pandas' ``DataFrame.select``: see the module docstring."""
    meta = empty_like(frame.meta.select(*args, **kwargs))  # pandas' checks and columns
    data: Any = frame
    pieces: list[Any] = []
    for item in _items(args):
        if Expression is not None and isinstance(item, Expression):
            data, names = _computed(data, resolve(item, data), item)
            pieces.extend(data[[name]] for name in names)
        else:
            pieces.append(data[[item]])
    for name, value in kwargs.items():
        data = assign_one(data, name, value)
        pieces.append(data[[name]])
    if not pieces:
        return data[[]]
    slots = tuple(Slot(i) for i in range(len(pieces)))
    return map_chunks(side_by_side, pieces, (meta.columns, *slots), meta, name="select")


def _attach() -> None:
    if hasattr(pd.DataFrame, "select"):  # pandas 3.1 and later
        DataFrame.select = select  # type: ignore[attr-defined]


_attach()
