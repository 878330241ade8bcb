"""``merge`` and ``DataFrame.merge`` / ``DataFrame.join``: database-style joins of frames.

The result's meta is pandas' merge of the inputs' metas, which also raises pandas' errors
at the call (a missing key column, key dtypes pandas refuses to compare, a bad ``how`` or
``validate``). The plan (broadcast of a small side, or a hash shuffle of both) is chosen
when the merge is tiled, from the inputs' chunk counts and lengths: see ``plan``. A merge
on columns gets a new ``RangeIndex`` over the whole result, as in pandas (``renumber``);
a merge on an index keeps the labels pandas' merge of the chunks gives.

Row order: broadcasting a small right side keeps pandas' order (the left keys' order),
and so does broadcasting a small left side for a right merge; ``how="cross"`` always
broadcasts the right side, in pandas' order. Other plans (an inner merge broadcasting
the left side, any shuffled merge, an outer merge, whose keys pandas sorts) give each
chunk's or part's rows in pandas' order for those rows, chunk after chunk: the same rows
as pandas, in another order. ``sort=True`` gives pandas' sorted order exactly.

Mars's keywords: ``method`` (``"auto"``, or ``"broadcast"`` / ``"shuffle"`` to force
that plan), ``auto_merge`` and ``auto_merge_threshold`` (``"before"``: an input whose
chunk lengths depend on data, with more chunks than the threshold, has its runs of small
chunks merged first; ``"after"``: so has the result of an inner merge; ``"both"``,
``"none"``; see ``coalesce``), ``bloom_filter`` and ``bloom_filter_options`` (a shuffled
merge prunes, before the shuffle, the rows of one side whose keys the other side lacks:
see ``bloom``).

Not supported: keys given as arrays rather than labels, and ``how="left_anti"`` /
``"right_anti"`` (pandas labels their rows by position in the input).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.coalesce import coalesce
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series, new_frame
from jupyter_mars.dataframe.joins.bloom import bloom_options
from jupyter_mars.dataframe.joins.kernels import LookupSpec
from jupyter_mars.dataframe.joins.keys import KeySource, hash_forms, key_dtype, key_sources
from jupyter_mars.dataframe.joins.plan import SORT_BY_INDEX, Merge
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.renumber import renumber

__all__ = ["merge"]

_NO_DEFAULT: Any = object()
"""An argument the caller did not give (pandas warns about some that are given)."""

_METHODS = ("auto", "broadcast", "shuffle")
_AUTO_MERGE = ("both", "none", "before", "after")
_CAN_BROADCAST = ("inner", "left", "right", "cross")


def mars_options(
    how: str,
    method: Any,
    auto_merge: Any,
    auto_merge_threshold: Any,
    bloom_filter: Any,
    bloom_filter_options: Any,
) -> dict[str, Any]:
    """Mars's merge keywords, checked at the call (errors name the argument)."""
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}")
    if method == "broadcast" and how not in _CAN_BROADCAST:
        raise ValueError(f"method='broadcast' needs how in {_CAN_BROADCAST}, got how={how!r}")
    if auto_merge not in _AUTO_MERGE:
        raise ValueError(f"auto_merge must be one of {_AUTO_MERGE}, got {auto_merge!r}")
    threshold = auto_merge_threshold
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 1:
        raise ValueError(f"auto_merge_threshold must be a positive int, got {threshold!r}")
    return dict(
        method=method,
        auto_merge=auto_merge,
        auto_merge_threshold=threshold,
        bloom_filter=bloom_filter,
        bloom_options=bloom_options(bloom_filter, bloom_filter_options),
    )


_UNIQUE_LEFT = {"one_to_one", "1:1", "one_to_many", "1:m"}
_UNIQUE_RIGHT = {"one_to_one", "1:1", "many_to_one", "m:1"}


def series_to_frame(series: pd.Series) -> pd.DataFrame:
    return series.to_frame()


def as_lazy_frame(obj: Any, name: str) -> Any:
    """``obj`` as a lazy DataFrame: pandas objects are wrapped, Series become frames."""
    if isinstance(obj, pd.DataFrame):
        return DataFrame(obj)
    if isinstance(obj, pd.Series):
        obj = Series(obj)
    if isinstance(obj, Series):
        return map_chunks(series_to_frame, [obj], (Slot(0),), obj.meta.to_frame(), name="to_frame")
    if isinstance(obj, DataFrame):
        return obj
    raise TypeError(f"{name} must be a DataFrame or a named Series, got {type(obj).__name__}")


def _labels(value: Any, name: str) -> list[Any] | None:
    if value is None:
        return None
    labels = list(value) if isinstance(value, list) else [value]
    for label in labels:
        if isinstance(label, (np.ndarray, pd.Series, pd.Index, list, FrameBase)):
            raise NotImplementedError(f"merge: {name} takes column or index level names")
    return labels


def _result_labels(labels: list[Any], suffix: Any, meta: pd.DataFrame) -> list[Any] | None:
    """The result's columns holding one side's key columns, or None when not unique."""
    out = []
    for label in labels:
        for candidate in (label, f"{label}{suffix}" if suffix is not None else None):
            if candidate is not None and list(meta.columns).count(candidate) == 1:
                out.append(candidate)
                break
        else:
            return None
    return out


def _sort_by(
    kw: dict[str, Any], lkeys: list[KeySource], rkeys: list[KeySource], meta: pd.DataFrame
) -> Any:
    """What ``sort=True`` sorts the gathered result on (``Merge.sort_by``)."""
    if kw["left_index"] and kw["right_index"]:
        return SORT_BY_INDEX
    if kw["left_index"] or kw["right_index"] or any(k.in_index for k in lkeys + rkeys):
        return None
    left = [k.label for k in lkeys]
    right = [k.label for k in rkeys]
    how, suffixes = kw["how"], kw["suffixes"]
    if left == right:
        return _result_labels(left, None, meta)
    if how in ("inner", "left"):
        return _result_labels(left, suffixes[0], meta)
    if how == "right":
        return _result_labels(right, suffixes[1], meta)
    return None


def _lookup(
    kw: dict[str, Any],
    lmeta: pd.DataFrame,
    rmeta: pd.DataFrame,
    lkeys: list[KeySource],
    rkeys: list[KeySource],
    meta: pd.DataFrame,
    big_is_left: bool,
) -> LookupSpec | None:
    """The lookup join's layout for broadcasting the other side, when it may apply."""
    how = kw["how"]
    if kw["sort"] or kw["indicator"] or kw["left_index"] or kw["right_index"]:
        return None
    if how not in (("inner", "left") if big_is_left else ("inner", "right")):
        return None
    if len(lkeys) != 1 or lkeys[0].in_index or rkeys[0].in_index:
        return None
    ltype, rtype = key_dtype(lmeta, lkeys[0]), key_dtype(rmeta, rkeys[0])
    if ltype != rtype or not isinstance(ltype, np.dtype) or ltype.kind not in "iufbmM":
        return None
    if not (lmeta.columns.is_unique and rmeta.columns.is_unique):
        return None
    lkey, rkey = lkeys[0].label, rkeys[0].label
    same = lkey == rkey
    lcols = tuple(lmeta.columns)
    rcols = tuple(c for c in rmeta.columns if not (same and c == rkey))
    if len(meta.columns) != len(lcols) + len(rcols):
        return None
    columns = tuple(meta.columns)
    if big_is_left:
        return LookupSpec(
            big_key=lkey,
            small_key=rkey,
            big_columns=lcols,
            small_columns=rcols,
            big_is_left=True,
            key_from_big=False,
            keep_all=how == "left",
            columns=columns,
        )
    return LookupSpec(
        big_key=rkey,
        small_key=lkey,
        big_columns=rcols,
        small_columns=lcols,
        big_is_left=False,
        key_from_big=same,
        keep_all=how == "right",
        columns=columns,
    )


def merge(
    left: Any,
    right: Any,
    how: str = "inner",
    on: Any = None,
    left_on: Any = None,
    right_on: Any = None,
    left_index: bool = False,
    right_index: bool = False,
    sort: bool = False,
    suffixes: Any = ("_x", "_y"),
    indicator: Any = False,
    validate: str | None = None,
    method: str = "auto",
    auto_merge: str = "both",
    auto_merge_threshold: int = 8,
    bloom_filter: Any = "auto",
    bloom_filter_options: dict[str, Any] | None = None,
) -> Any:
    """Database-style join of two frames, as ``pd.merge``, with Mars's keywords (see the
    module docstring)."""
    kw: dict[str, Any] = dict(
        how=how,
        on=on,
        left_on=left_on,
        right_on=right_on,
        left_index=left_index,
        right_index=right_index,
        sort=sort,
        suffixes=suffixes,
        indicator=indicator,
        validate=validate,
    )
    lmeta0 = left.meta if isinstance(left, FrameBase) else left
    rmeta0 = right.meta if isinstance(right, FrameBase) else right
    if not isinstance(lmeta0, (pd.DataFrame, pd.Series)):
        raise TypeError(f"left must be a DataFrame or a named Series, got {type(left).__name__}")
    if not isinstance(rmeta0, (pd.DataFrame, pd.Series)):
        raise TypeError(f"right must be a DataFrame or a named Series, got {type(right).__name__}")
    meta = pd.merge(lmeta0, rmeta0, **kw)  # pandas' errors, at the call
    mars = mars_options(
        how, method, auto_merge, auto_merge_threshold, bloom_filter, bloom_filter_options
    )
    left, right = as_lazy_frame(left, "left"), as_lazy_frame(right, "right")
    return _build(left, right, kw, meta, mars)


def _merged_first(frame: Any, mars: dict[str, Any]) -> Any:
    """An input with data-dependent chunks has its small chunks merged (``auto_merge``)."""
    if mars["auto_merge"] not in ("both", "before") or not math.isnan(frame.node.shape[0]):
        return frame
    return coalesce(frame, min_chunks=mars["auto_merge_threshold"])


def _build(
    left: Any, right: Any, kw: dict[str, Any], meta: pd.DataFrame, mars: dict[str, Any]
) -> Any:
    if kw["how"] in ("left_anti", "right_anti"):
        # pandas labels their rows by position in the input, which needs another plan
        raise NotImplementedError(f"merge: how={kw['how']!r} is not supported yet")
    lmeta, rmeta = left.meta, right.meta
    on, left_on, right_on = (_labels(kw[k], k) for k in ("on", "left_on", "right_on"))
    if kw["how"] == "cross":
        lkeys: list[KeySource] = []
        rkeys: list[KeySource] = []
    else:
        if on is None and left_on is None and right_on is None:
            if not (kw["left_index"] or kw["right_index"]):
                on = [c for c in lmeta.columns if c in set(rmeta.columns)]
        lkeys = key_sources(lmeta, left_on if left_on is not None else on, kw["left_index"])
        rkeys = key_sources(rmeta, right_on if right_on is not None else on, kw["right_index"])
    forms = hash_forms([key_dtype(lmeta, k) for k in lkeys], [key_dtype(rmeta, k) for k in rkeys])
    validate = kw["validate"]
    op = Merge(
        kwargs=kw,
        left_keys=tuple(lkeys),
        right_keys=tuple(rkeys),
        forms=forms,
        unique_left=validate in _UNIQUE_LEFT,
        unique_right=validate in _UNIQUE_RIGHT,
        lookup_right=_lookup(kw, lmeta, rmeta, lkeys, rkeys, meta, True),
        lookup_left=_lookup(kw, lmeta, rmeta, lkeys, rkeys, meta, False),
        sort_by=_sort_by(kw, lkeys, rkeys, meta) if kw["sort"] else None,
        method=mars["method"],
        bloom_filter=mars["bloom_filter"],
        bloom_options=mars["bloom_options"],
    )
    left, right = _merged_first(left, mars), _merged_first(right, mars)
    merged = new_frame(op, [left, right], float("nan"), meta)
    if kw["how"] == "inner" and mars["auto_merge"] in ("both", "after"):
        # an inner merge may keep few rows of many chunks
        merged = coalesce(merged, min_chunks=mars["auto_merge_threshold"])
    on_columns = not (kw["left_index"] or kw["right_index"]) and not any(
        k.in_index for k in lkeys + rkeys
    )
    return renumber(merged, meta) if on_columns else merged


def join(
    self: Any,
    other: Any,
    on: Any = None,
    how: str = "left",
    lsuffix: Any = _NO_DEFAULT,
    rsuffix: Any = _NO_DEFAULT,
    sort: bool = False,
    validate: str | None = None,
    *,
    suffixes: Any = _NO_DEFAULT,
    method: str = "auto",
    auto_merge: str = "both",
    auto_merge_threshold: int = 8,
    bloom_filter: Any = "auto",
    bloom_filter_options: dict[str, Any] | None = None,
) -> Any:
    """``DataFrame.join``: a merge on ``other``'s index (and this frame's index, or its
    ``on`` columns), as pandas."""
    if isinstance(other, (list, tuple, dict)):
        raise NotImplementedError("join: a list of frames is not supported; join them in turn")
    ometa = other.meta if isinstance(other, FrameBase) else other
    if not isinstance(ometa, (pd.DataFrame, pd.Series)):
        raise TypeError(f"join: other must be a DataFrame or a named Series, got {type(other)}")
    given = {"lsuffix": lsuffix, "rsuffix": rsuffix, "suffixes": suffixes}
    given = {k: v for k, v in given.items() if v is not _NO_DEFAULT}
    meta = self.meta.join(ometa, on=on, how=how, sort=sort, validate=validate, **given)
    mars = mars_options(
        how, method, auto_merge, auto_merge_threshold, bloom_filter, bloom_filter_options
    )
    if suffixes is _NO_DEFAULT:
        suffixes = tuple("" if s is _NO_DEFAULT else s for s in (lsuffix, rsuffix))
    kw: dict[str, Any] = dict(
        how=how,
        on=None,
        left_on=on,
        right_on=None,
        left_index=on is None,
        right_index=True,
        sort=sort,
        suffixes=suffixes,
        indicator=False,
        validate=validate,
    )
    return _build(self, as_lazy_frame(other, "other"), kw, meta, mars)


def _frame_merge(self: Any, right: Any, *args: Any, **kwargs: Any) -> Any:
    return merge(self, right, *args, **kwargs)


_frame_merge.__doc__ = merge.__doc__

_methods: dict[str, Any] = {"merge": _frame_merge, "join": join}
for _attr, _value in _methods.items():
    setattr(DataFrame, _attr, _value)
