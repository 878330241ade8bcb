"""``agg`` / ``aggregate`` of ``rolling``, ``expanding`` and ``ewm`` windows.

Each function is the window's own lazy method over the whole frame; those results keep
the frame's rows and chunking, so one map over their chunks picks and labels the columns
as pandas lays them out: one column per function for a Series, ``(column, function)``
pairs for a DataFrame given a list, the columns themselves for a dict of one function
each. No data moves beyond what each method already needs.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.reduction.aggregate import NUMPY_NAMES, Assemble, func_label
from jupyter_mars.dataframe.window.ewm import EWM
from jupyter_mars.dataframe.window.expanding import Expanding
from jupyter_mars.dataframe.window.rolling import Rolling


def _method(window: Any, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    name = NUMPY_NAMES.get(func, func)
    if not isinstance(name, str):
        raise NotImplementedError(
            f"{type(window).__name__}.agg takes method names, got {func!r}; "
            "use .apply for a function of each window"
        )
    method = getattr(window, name, None)
    if method is None:
        raise AttributeError(f"{name!r} is not a valid function for {type(window).__name__!r}")
    return method(*args, **kwargs)


def _list(funcs: Any) -> list[Any]:
    return list(funcs) if isinstance(funcs, (list, tuple)) else [funcs]


def window_agg(self: Any, func: Any, *args: Any, **kwargs: Any) -> Any:
    """A method name (that method's result), a list of them, or for a DataFrame a dict
    column -> name(s), as pandas' window ``agg``."""
    if not isinstance(func, (list, tuple, dict)):
        return _method(self, func, args, kwargs)
    frame = self._frame
    # a rolling window ``on`` a column over one other column gives that column's Series
    picked = hasattr(self, "_column")
    is_series = picked or isinstance(frame.meta, pd.Series)
    plan: list[tuple[int | None, Any, list[Any]]]
    if isinstance(func, dict):
        if is_series:
            raise NotImplementedError("a dict of functions for a Series window")
        columns = list(frame.meta.columns)
        missing = [c for c in func if c not in columns]
        if missing:
            raise KeyError(f"Column(s) {missing} do not exist")
        plan = [(columns.index(c), c, _list(f)) for c, f in func.items()]
        nested = any(isinstance(f, (list, tuple)) for f in func.values())
    elif is_series:
        plan = [(None, self._column if picked else frame.meta.name, list(func))]
        nested = False
    else:
        plan = [(i, c, list(func)) for i, c in enumerate(frame.meta.columns)]
        nested = True
    parts: list[Any] = []
    where: dict[Any, int] = {}
    cells: list[tuple[int, int | None]] = []
    labels: list[Any] = []
    for position, column, funcs in plan:
        for f in funcs:
            label = func_label(f)
            if label not in where:
                where[label] = len(parts)
                parts.append(_method(self, f, args, kwargs))
            cells.append((where[label], position))
            if is_series:
                labels.append(label)
            else:
                labels.append((column, label) if nested else column)
    index = pd.MultiIndex.from_tuples(labels) if nested else pd.Index(labels)
    build = Assemble(tuple(cells), index)
    meta = build(*(p.meta for p in parts))
    slots = tuple(Slot(i) for i in range(len(parts)))
    return map_chunks(build, parts, slots, meta, name="window_agg")


def _attach() -> None:
    for cls in (Rolling, Expanding, EWM):
        for attr in ("agg", "aggregate"):
            setattr(cls, attr, window_agg)


_attach()
