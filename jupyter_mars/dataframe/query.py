"""``query`` and ``eval``: pandas expression strings, evaluated per chunk by pandas.

The expression is first evaluated on the meta, which makes pandas check the names in it
(an unknown name raises pandas' ``UndefinedVariableError`` at the call) and gives the
result's kind and dtypes. ``@name`` variables are looked up in the caller's scope when the
method is called and passed explicitly to every chunk's call (``local_dict``), so the
chunk tasks carry their values and nothing else of the caller's scope. ``eval`` keeps the
rows (one call per chunk); ``query`` is a boolean filter by ``eval``'s result.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from jupyter_mars.dataframe.core import DataFrame, FrameBase
from jupyter_mars.dataframe.filters import boolean_filter, call_method, is_bool_dtype
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.scopes import first_found

_LOCAL_NAME = re.compile(r"@([A-Za-z_][A-Za-z0-9_]*)")


def _scope(expr: str, level: int, local_dict: Any, global_dict: Any) -> dict[str, Any]:
    """The values of the ``@name`` variables of ``expr``: from ``local_dict`` /
    ``global_dict`` when given, else from the caller ``level`` frames up."""
    if not isinstance(expr, str):
        raise ValueError(f"expr must be a string to be evaluated, {type(expr)} given")
    names = set(_LOCAL_NAME.findall(expr))
    if not names:
        return {}
    frame = sys._getframe(level + 1)
    scopes = [local_dict or {}, global_dict or {}, frame.f_locals, frame.f_globals]
    found = first_found(names, scopes)
    for name, value in found.items():
        if isinstance(value, FrameBase):
            raise TypeError(f"@{name}: a lazy frame cannot be used in an expression")
    return found


def _eval(frame: DataFrame, expr: str, scope: dict[str, Any], kwargs: dict[str, Any]) -> Any:
    kwargs = {**kwargs, "local_dict": scope, "global_dict": {}}
    result = frame.meta.eval(expr, **kwargs)  # UndefinedVariableError for unknown names
    if not hasattr(result, "iloc"):  # constants: no data involved
        return result
    meta = empty_like(result)
    return map_chunks(call_method, [frame], (Slot(0), "eval", expr), meta, kwargs, "eval")


def eval_expr(
    frame: DataFrame,
    expr: str,
    *,
    inplace: bool = False,
    local_dict: Any = None,
    global_dict: Any = None,
    level: int = 0,
    **kwargs: Any,
) -> Any:
    """``df.eval(expr)``: a column expression (a Series), or assignments (``"c = a + b"``,
    a DataFrame with the new columns); ``inplace`` points this handle at that frame."""
    scope = _scope(expr, level + 1, local_dict, global_dict)
    result = _eval(frame, expr, scope, kwargs)
    if not inplace:
        return result
    if not isinstance(result, DataFrame):
        raise ValueError("Cannot operate inplace if there is no assignment")
    frame._node = result._node
    return None


def query(
    frame: DataFrame,
    expr: str,
    *,
    inplace: bool = False,
    local_dict: Any = None,
    global_dict: Any = None,
    level: int = 0,
    **kwargs: Any,
) -> Any:
    """``df.query(expr)``: the rows where the boolean expression is True."""
    scope = _scope(expr, level + 1, local_dict, global_dict)
    mask = _eval(frame, expr, scope, kwargs)
    if not isinstance(mask, FrameBase) or not is_bool_dtype(mask.meta.dtype):
        raise ValueError(f"query: the expression must give a boolean column, got {expr!r}")
    result = boolean_filter(frame, mask)
    if not inplace:
        return result
    frame._node = result._node
    return None


def _attach() -> None:
    methods: dict[str, Any] = {"query": query, "eval": eval_expr}
    for attr, value in methods.items():
        setattr(DataFrame, attr, value)


_attach()
