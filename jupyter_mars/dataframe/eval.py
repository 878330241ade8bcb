"""``md.eval``: ``pandas.eval`` of an expression over lazy frames, one call per chunk.

The names in the expression are looked up as pandas does (``local_dict``, then
``global_dict``, then the caller's locals and globals ``level`` frames up). Lazy Series
and DataFrames among them are passed to every chunk's call as that chunk (they are
lined up chunk for chunk first, see ``map_chunks.aligned``); other values are passed as
they are. The expression is evaluated on the metas first, so unknown names, bad syntax
and pandas' type errors raise at the call. An assignment (``"c = a + b"``) needs a
``target``; a lazy DataFrame target gets the new column, a copy unless ``inplace``.
"""

from __future__ import annotations

import io
import sys
import tokenize
import warnings
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase
from jupyter_mars.dataframe.map_chunks import Slot, aligned, map_chunks
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.scopes import first_found

__all__ = ["eval"]

_TARGET = "__target__"
_NO_DEFAULT: Any = pd.api.extensions.no_default
_INPLACE_DEPRECATED = (
    "The inplace keyword in eval is deprecated and will be removed in a future version (PDEP-8)."
)


def _names(expr: str) -> set[str]:
    try:
        tokens = tokenize.generate_tokens(io.StringIO(expr).readline)
        return {t.string for t in tokens if t.type == tokenize.NAME}
    except (tokenize.TokenError, SyntaxError):
        return set()  # pandas reports the syntax error when it parses the meta


def _scope(
    names: set[str], level: int, local_dict: Any, global_dict: Any, resolvers: Any
) -> dict[str, Any]:
    frame = sys._getframe(level + 1)
    scopes = [*resolvers, local_dict or {}, global_dict or {}, frame.f_locals, frame.f_globals]
    return first_found(names, scopes)


def eval_chunk(
    expr: str, names: tuple[str, ...], values: dict[str, Any], kwargs: dict[str, Any], *chunks: Any
) -> Any:
    scope = {**values, **dict(zip(names, chunks))}
    target = scope.pop(_TARGET, None)
    return pd.eval(expr, local_dict=scope, global_dict={}, target=target, **kwargs)


def eval(  # noqa: A001 - pandas' name
    expr: str,
    parser: str = "pandas",
    engine: str | None = None,
    local_dict: Any = None,
    global_dict: Any = None,
    resolvers: Any = (),
    level: int = 0,
    target: Any = None,
    inplace: Any = _NO_DEFAULT,
) -> Any:
    """``pandas.eval`` where the names may be lazy frames (see the module docstring)."""
    if not isinstance(expr, str):
        raise ValueError(f"expr must be a string to be evaluated, {type(expr)} given")
    scope = _scope(_names(expr), level + 1, local_dict, global_dict, resolvers)
    lazy = {k: v for k, v in scope.items() if isinstance(v, FrameBase)}
    kwargs: dict[str, Any] = {"parser": parser, "engine": engine}
    if isinstance(target, FrameBase):
        lazy[_TARGET] = target
    elif not lazy:
        if inplace is not _NO_DEFAULT:
            kwargs["inplace"] = inplace  # pandas warns of its deprecation
        return pd.eval(expr, local_dict=scope, global_dict={}, target=target, **kwargs)
    if inplace is _NO_DEFAULT:
        inplace = False
    else:  # as pandas 3.1
        warnings.warn(_INPLACE_DEPRECATED, pd.errors.Pandas4Warning, stacklevel=2)
    values = {k: v for k, v in scope.items() if k not in lazy}
    if target is not None and _TARGET not in lazy:
        raise NotImplementedError(
            "target: with lazy frames in the expression, the target must be a lazy DataFrame"
        )
    metas = {k: v.meta for k, v in lazy.items()}
    meta_target = metas.pop(_TARGET, None)
    result = pd.eval(
        expr, local_dict={**values, **metas}, global_dict={}, target=meta_target, **kwargs
    )
    if not isinstance(result, (pd.DataFrame, pd.Series)):
        if inplace:
            raise ValueError("Cannot operate inplace if there is no assignment")
        return result  # a constant: no data involved
    names = tuple(lazy)
    frames = aligned(list(lazy.values()))
    slots = tuple(Slot(i) for i in range(len(frames)))
    out = map_chunks(
        eval_chunk, frames, (expr, names, values, kwargs, *slots), empty_like(result), name="eval"
    )
    if not inplace:
        return out
    if not isinstance(target, DataFrame) or not isinstance(out, DataFrame):
        raise ValueError("Cannot operate inplace if there is no assignment")
    target._node = out._node
    return None
