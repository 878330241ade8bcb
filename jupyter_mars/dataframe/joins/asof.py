"""``merge_asof``: every row of the left frame joined with the nearest key of the right.

A left row needs the whole right side (its nearest key may lie anywhere in it) and none
of the other left rows: the right side is gathered into one chunk, read by every chunk of
the left, and pandas' ``merge_asof`` runs on each pair. The result has one row per left
row, in the left's order, as in pandas; merged on columns its rows are numbered 0..n-1
over the whole result (``renumber``); where either side is merged on its index they keep
the left's labels, as in pandas.

A left row with no match gets missing values in the right's columns, which turns pandas'
integer columns to floats and booleans to objects; whether any row misses depends on the
data, so those columns of the right always take the dtype they take with a miss (as for
``reindex``), chosen before the data exists. pandas checks that each side's keys are
sorted: here the right side is checked whole and each chunk of the left on its own.
Merging the left's index with a column of the right, pandas fills that column with the
right's keys where every left row matched and with the left's otherwise: each chunk of the
left also reports whether any of its rows missed, and where one did, every chunk takes the
left's keys.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.collect import collect
from jupyter_mars.dataframe.joins import as_lazy_frame
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.renumber import renumber


def _missing_dtype(dtype: Any) -> Any:
    """The dtype a column of ``dtype`` takes once it holds a missing value."""
    return pd.Series([], dtype=dtype).reindex([0]).dtype


def _labels(keys: Any) -> list[Any]:
    if keys is None:
        return []
    return list(keys) if isinstance(keys, (list, tuple)) else [keys]


def with_missing_dtypes(dtypes: dict[Any, Any], frame: Any) -> Any:
    """``frame`` with the columns named in ``dtypes`` cast to those dtypes."""
    return frame.astype(dtypes) if dtypes else frame


def asof_chunk(kwargs: dict[str, Any], left: Any, right: Any) -> Any:
    return pd.merge_asof(left, right, **kwargs)


_MATCHED = "__matched__"
_MISSED_META = pd.DataFrame({"missed": pd.Series([], dtype=bool)})


def missed_rows(kwargs: dict[str, Any], left: Any, right: Any) -> pd.DataFrame:
    """Whether a row of this chunk of the left found no row of the right."""
    marked = right.assign(**{_MATCHED: True})
    merged = pd.merge_asof(left, marked, **kwargs)
    return pd.DataFrame({"missed": [bool(merged[_MATCHED].isna().any())]})


def any_missed(parts: list[Any]) -> pd.Series:
    return pd.Series([bool(parts[0]["missed"].any())], dtype=bool)


def left_keys_if_missed(key: Any, chunk: Any, missed: Any) -> Any:
    """The chunk with the key column holding the left's index, where any row missed."""
    if not bool(missed.iloc[0]):
        return chunk
    out = chunk.copy(deep=False)
    out[key] = pd.Series(chunk.index.to_numpy(), index=chunk.index).astype(chunk[key].dtype)
    return out


def _left_keys_on_a_miss(
    out: Any, lazy_left: Any, whole_right: Any, kwargs: dict[str, Any], key: Any
) -> Any:
    """``out`` of the left's index merged with the right's column ``key``, its key column
    filled as pandas fills it: from the left wherever any row of the whole left missed."""
    flags = map_chunks(
        missed_rows,
        [lazy_left, whole_right],
        (kwargs, Slot(0), Slot(1)),
        _MISSED_META,
        name="merge_asof_missed",
        keeps_rows=False,
        broadcast=frozenset({1}),
    )
    missed = collect(any_missed, [flags], pd.Series([], dtype=bool), 1, "merge_asof_missed")
    return map_chunks(
        left_keys_if_missed,
        [out, missed],
        (key, Slot(0), Slot(1)),
        out.meta,
        name="merge_asof_keys",
        broadcast=frozenset({1}),
    )


def merge_asof(
    left: Any,
    right: Any,
    on: Any = None,
    left_on: Any = None,
    right_on: Any = None,
    left_index: bool = False,
    right_index: bool = False,
    by: Any = None,
    left_by: Any = None,
    right_by: Any = None,
    suffixes: tuple[str, str] = ("_x", "_y"),
    tolerance: Any = None,
    allow_exact_matches: bool = True,
    direction: str = "backward",
) -> Any:
    """``pandas.merge_asof`` of lazy (or pandas) frames: a left join on the nearest key
    (see the module docstring)."""
    # pandas' own objects are wrapped, and named Series become frames, as for ``merge``
    lazy_left, lazy_right = as_lazy_frame(left, "left"), as_lazy_frame(right, "right")
    kwargs: dict[str, Any] = {
        "on": on,
        "left_on": left_on,
        "right_on": right_on,
        "left_index": left_index,
        "right_index": right_index,
        "by": by,
        "left_by": left_by,
        "right_by": right_by,
        "suffixes": suffixes,
        "tolerance": tolerance,
        "allow_exact_matches": allow_exact_matches,
        "direction": direction,
    }
    right_meta = lazy_right.meta
    keys = {*_labels(on), *_labels(right_on), *_labels(by), *_labels(right_by)}
    upcast = {
        c: _missing_dtype(t)
        for c, t in right_meta.dtypes.items()
        if c not in keys and _missing_dtype(t) != t
    }
    # pandas' checks of the arguments and the keys' dtypes, and the result's columns
    meta = pd.merge_asof(lazy_left.meta, with_missing_dtypes(upcast, right_meta), **kwargs)
    whole_right = map_chunks(
        with_missing_dtypes,
        [one_chunk(lazy_right)],
        (upcast, Slot(0)),
        with_missing_dtypes(upcast, right_meta),
        name="merge_asof_right",
    )
    # one row per left row: the chunks keep their lengths, then are numbered anew
    out = map_chunks(
        asof_chunk,
        [lazy_left, whole_right],
        (kwargs, Slot(0), Slot(1)),
        empty_like(meta),
        name="merge_asof",
        broadcast=frozenset({1}),
    )
    if left_index and right_on is not None and not right_index:
        (key,) = _labels(right_on)
        out = _left_keys_on_a_miss(out, lazy_left, whole_right, kwargs, key)
    # pandas keeps the left's labels where either side is merged on its index
    return out if left_index or right_index else renumber(out)
