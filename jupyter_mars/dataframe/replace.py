"""``replace``: values swapped for others, one pandas call per row chunk.

Every form pandas takes (scalars, lists, dicts per value or per column, nested dicts,
regular expressions) is passed to pandas unchanged, chunk by chunk: a value's
replacement never depends on other rows.

The result's dtypes depend, in pandas, on whether a match occurs in the data (an int
column whose 1s become 2.5 turns float only where a 1 was found). A lazy frame's dtypes
must be known before any data is read, and all its chunks must agree on them, so a
column is upcast whenever a replacement *could* land in it: the meta is pandas' dtype of
a one-row column holding the old value, replaced (``_replaced_dtype``), and each chunk is
cast to the meta's dtypes. Where every chunk holds a match, this is pandas' result.

Numbers swapped for numbers in number columns, the common case, skip pandas' general
path for NumPy's (``replace_numbers``), several times faster per chunk.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like, side_by_side
from jupyter_mars.dataframe.replace_numbers import (
    ColumnSwaps,
    Pair,
    holds,
    is_number,
    number_plan,
    swap_numbers,
)

_NO_DEFAULT: Any = pd.api.extensions.no_default


def _as_list(obj: Any) -> list[Any]:
    return list(obj) if isinstance(obj, (list, tuple, np.ndarray, pd.Index)) else [obj]


def _flat_pairs(old: Any, new: Any) -> list[Pair]:
    """(old, new) pairs of a non-dict form: one old or many, one new or as many."""
    olds = _as_list(old)
    if isinstance(new, (list, tuple)):
        return list(zip(olds, new, strict=False))
    return [(o, new) for o in olds]


def _pairs_for(column: Any, to_replace: Any, value: Any, is_frame: bool) -> Iterator[Pair]:
    """The (old, new) pairs that may apply to ``column`` (any column of a Series)."""
    if isinstance(to_replace, dict):
        nested = is_frame and any(isinstance(v, dict) for v in to_replace.values())
        if nested:
            yield from dict(to_replace.get(column, {})).items()
        elif is_frame and value is not _NO_DEFAULT and value is not None:
            if column in to_replace:
                new = value.get(column, _NO_DEFAULT) if isinstance(value, dict) else value
                if new is not _NO_DEFAULT:
                    yield from _flat_pairs(to_replace[column], new)
        else:
            yield from to_replace.items()
    elif isinstance(value, dict):
        if column in value:
            yield from _flat_pairs(to_replace, value[column])
    elif value is not _NO_DEFAULT:
        yield from _flat_pairs(to_replace, value)


def _replaced_dtype(dtype: Any, pairs: list[Pair], regex: bool) -> Any:
    """pandas' dtype for a column of ``dtype`` where each old value was found and replaced."""
    out = [pd.Series([], dtype=dtype)]
    for old, new in pairs:
        if not regex and _keeps_dtype(dtype, old, new):
            continue
        if regex:  # patterns match text only
            if pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype):
                out.append(pd.Series(["x"], dtype=dtype).replace("x", new))
            continue
        try:
            probe = pd.Series([old]).astype(dtype)
        except (TypeError, ValueError, OverflowError):  # 2**70 in an int64 column
            continue
        if not bool((probe == old).all()):
            continue  # the old value cannot live in this column: never a match
        out.append(probe.replace(old, new))
    if len(out) == 1:
        return dtype
    return pd.concat(out).dtype


def _keeps_dtype(dtype: Any, old: Any, new: Any) -> bool:
    """Whether a number column keeps its dtype, by pandas' rules, without a probe: the
    old number cannot live in it (never a match), or the new one can."""
    if not (isinstance(dtype, np.dtype) and dtype.kind in "iuf"):
        return False
    if not (is_number(old) and is_number(new)):
        return False
    return not holds(dtype, old) or holds(dtype, new)


def _column_pairs(meta: Any, to_replace: Any, value: Any) -> list[list[Pair]]:
    """The (old, new) pairs that may apply to each column (the one of a Series)."""
    if isinstance(meta, pd.Series):
        return [list(_pairs_for(None, to_replace, value, False))]
    return [list(_pairs_for(column, to_replace, value, True)) for column in meta.columns]


def _dtypes(meta: Any) -> list[Any]:
    return [meta.dtype] if isinstance(meta, pd.Series) else list(meta.dtypes)


def _meta_dtypes(meta: Any, pairs: list[list[Pair]], regex: bool) -> Any:
    if isinstance(meta, pd.Series):
        return meta.astype(_replaced_dtype(meta.dtype, pairs[0], regex))
    dtypes = list(meta.dtypes)
    replaced = [_replaced_dtype(d, p, regex) for d, p in zip(dtypes, pairs, strict=True)]
    if replaced == dtypes:
        return meta  # the common case, and pandas' concat of empty columns is slow
    if meta.columns.is_unique:
        return meta.astype(dict(zip(meta.columns, replaced, strict=True)))
    columns = [meta.iloc[:, i].astype(d) for i, d in enumerate(replaced)]
    return side_by_side(meta.columns, *columns)


def _numbers(obj: Any) -> bool:
    """A number, or a list or tuple of numbers."""
    if isinstance(obj, (list, tuple)):
        return all(is_number(x) for x in obj)
    return is_number(obj)


def _plain_numbers(to_replace: Any, value: Any, regex: Any) -> bool:
    """Whether the call is one of the forms ``replace_numbers`` takes: ``{old: new}``,
    ``{column: {old: new}}``, ``old(s), new`` and ``[olds], [news]``, all numbers."""
    if regex is not False:
        return False
    if value is _NO_DEFAULT:
        if not isinstance(to_replace, dict):
            return False
        inner = list(to_replace.values())
        if all(isinstance(v, dict) for v in inner):  # per column
            return all(is_number(o) and is_number(n) for d in inner for o, n in d.items())
        return all(is_number(o) and is_number(n) for o, n in to_replace.items())
    if is_number(value):
        return _numbers(to_replace)
    return isinstance(value, (list, tuple)) and _numbers(value) and _numbers(to_replace)


def replace_chunk(
    chunk: Any, kwargs: dict[str, Any], meta: Any, plan: tuple[ColumnSwaps, ...] | None = None
) -> Any:
    """``chunk.replace(**kwargs)``, cast to the dtypes every chunk shares; with NumPy where
    ``plan`` (numbers swapped in number columns) fits the chunk."""
    out = None if plan is None else swap_numbers(chunk, plan)
    if out is None:
        out = chunk.replace(**kwargs)
    if isinstance(out, pd.Series):
        return out if out.dtype == meta.dtype else out.astype(meta.dtype)
    if out.dtypes.equals(meta.dtypes):
        return out
    return out.astype(dict(zip(out.columns, meta.dtypes, strict=True)))


def replace(
    frame: FrameBase,
    to_replace: Any = None,
    value: Any = _NO_DEFAULT,
    *,
    regex: Any = False,
) -> Any:
    """Values equal to (or, with ``regex``, matching) ``to_replace`` swapped for ``value``."""
    kwargs: dict[str, Any] = {"to_replace": to_replace, "regex": regex}
    if value is not _NO_DEFAULT:
        kwargs["value"] = value
    lists = (list, tuple, np.ndarray)
    if isinstance(to_replace, lists) and isinstance(value, lists):
        if len(to_replace) != len(value):  # pandas checks this only where there are rows
            raise ValueError(
                f"Replacement lists must match in length. "
                f"Expecting {len(to_replace)} got {len(value)} "
            )
    pandas_meta = frame.meta.replace(**kwargs)  # pandas checks the other arguments
    if to_replace is None and regex is not False:
        to_replace, regex = regex, True
    pairs = _column_pairs(pandas_meta, to_replace, value)
    meta = empty_like(_meta_dtypes(pandas_meta, pairs, bool(regex)))
    plan = None
    if _plain_numbers(to_replace, value, regex):
        plan = number_plan(_dtypes(frame.meta), _dtypes(meta), pairs)
    args = (Slot(0), kwargs, meta, plan)
    return map_chunks(replace_chunk, [frame], args, meta, name="replace")


def _attach() -> None:
    for cls in (DataFrame, Series):
        cls.replace = replace  # type: ignore[union-attr]


_attach()
