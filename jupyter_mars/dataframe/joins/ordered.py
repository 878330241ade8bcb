"""``merge_ordered``: a merge for ordered data, sorted on the keys, with an optional
forward fill.

Without groups, pandas' ordered merge is its merge with ``sort=True`` (same rows, same
order, same columns), so it is built on ``merge``: the sides are joined by its plans and
stably sorted on the keys. ``fill_method="ffill"`` fills the rows one side lacks from that
side's last row above, *whole rows*: pandas forward-fills the row numbers it takes from
each side, so a value missing in the side's own data is copied as missing, not filled.
Each side gets a marker column before the merge, which tells the rows it gave; a scan
(``neighbours``) fills every chunk, carrying each side's last given row from chunk to
chunk. The join keys pandas merges into one column are not filled.

With ``left_by`` / ``right_by`` pandas merges group by group, in the groups' order of
appearance, and takes the result's columns from the first group's piece (a group missing
from the other side gives different ones): both sides are gathered into one chunk and
merged by pandas, executed at the call, so that the columns are known.

dtypes: a side's integer or boolean column holding a missing value (a row that side
lacks) becomes float or object, as in pandas; whether it does depends on the data. Where
it may, the result is executed at the call and each column takes the dtype of the whole
result (the common dtype of its chunks', as pandas' concatenation gives), then the
chunks are cast to it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.dataframe.joins import as_lazy_frame, merge
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.neighbours import Carry, scan
from jupyter_mars.dataframe.node import concat_chunks, empty_like
from jupyter_mars.dataframe.summaries import chunk_summaries

__all__ = ["merge_ordered"]

_MAY_MISS = {"outer": (0, 1), "left": (1,), "right": (0,), "inner": ()}
"""Which sides (0 left, 1 right) may lack a row of the result, by ``how``."""


@dataclass(frozen=True)
class FilledSide:
    """The result's columns that one side gives, filled together."""

    marker: int
    """The position of the side's marker column: missing where the side gave no row."""
    columns: tuple[int, ...]
    """The positions of the side's columns that are filled (its merged keys are not)."""
    dtypes: tuple[Any, ...]
    """Their dtypes when no row is missing (cast back to where a chunk has none)."""


# --- the forward fill -----------------------------------------------------------------


def _block(chunk: pd.DataFrame, side: FilledSide) -> pd.DataFrame:
    return chunk.iloc[:, list(side.columns)]


def last_rows(sides: tuple[FilledSide, ...], chunk: pd.DataFrame) -> list[Any]:
    """Each side's last given row in ``chunk`` (a one-row frame), or None."""
    rows: list[Any] = []
    for side in sides:
        given = np.flatnonzero(chunk.iloc[:, side.marker].notna().to_numpy())
        rows.append(_block(chunk, side).iloc[given[-1:]] if len(given) else None)
    return rows


def later_rows(carry: list[Any] | None, summary: list[Any]) -> list[Any]:
    """The last given rows of everything above: a chunk's own where it has one."""
    if carry is None:
        return summary
    return [mine if mine is not None else above for above, mine in zip(carry, summary)]


def _fill_side(chunk: pd.DataFrame, side: FilledSide, above: Any) -> pd.DataFrame:
    """``chunk`` with the rows ``side`` lacks taking its last given row's values."""
    given = chunk.iloc[:, side.marker].notna().to_numpy()
    block = _block(chunk, side)
    if above is not None:  # row 0 is the row above, the chunk's rows follow
        block_with_above = pd.concat([above, block])
        source = np.where(given, np.arange(1, len(chunk) + 1), 0)
    else:
        block_with_above = block
        source = np.where(given, np.arange(len(chunk)), -1)
    # each row's source: the last given row at or above it (-1: none)
    source = np.maximum.accumulate(source) if len(source) else source
    lead = int((source < 0).sum())  # rows above the side's first: left missing
    filled = pd.concat([block.iloc[:lead], block_with_above.iloc[source[lead:]]])
    filled = filled.set_axis(chunk.index, axis=0)
    out = chunk.copy(deep=False)
    for j, p in enumerate(side.columns):
        column = filled.iloc[:, j]
        if not lead and column.dtype != side.dtypes[j]:
            column = column.astype(side.dtypes[j])  # no row missing: the side's own dtype
        out.isetitem(p, column)
    return out


def fill_chunk(
    sides: tuple[FilledSide, ...], chunk: pd.DataFrame, above: Any, below: Any
) -> pd.DataFrame:
    """The forward fill of one chunk of the merge, its marker columns dropped."""
    out = chunk
    for s, side in enumerate(sides):
        out = _fill_side(out, side, None if above is None else above[s])
    markers = {side.marker for side in sides}
    return out.iloc[:, [p for p in range(out.shape[1]) if p not in markers]]


def with_marker(chunk: pd.DataFrame, label: str) -> pd.DataFrame:
    out = chunk.copy(deep=False)
    out[label] = True
    return out


# --- the dtypes of the whole ----------------------------------------------------------


def in_dtypes(chunk: pd.DataFrame, meta: pd.DataFrame) -> pd.DataFrame:
    """``chunk`` with ``meta``'s columns' dtypes, by position."""
    if not len(chunk):
        return meta.set_axis(chunk.index, axis=0)
    out = chunk
    for p, dtype in enumerate(meta.dtypes):
        if out.iloc[:, p].dtype != dtype:
            out = out.copy(deep=False) if out is chunk else out
            out.isetitem(p, out.iloc[:, p].astype(dtype))
    return out


def _with_whole_dtypes(out: Any) -> Any:
    """``out`` executed now, its chunks cast to the dtypes of the whole (see the module
    docstring): only the chunks' empty copies are fetched."""
    out.execute()
    parts = chunk_summaries(out, empty_like)
    meta = empty_like(concat_chunks(parts, out.meta))
    return map_chunks(in_dtypes, [out], (Slot(0), meta), meta, name="merge_ordered")


def _may_change(meta: pd.DataFrame, left: pd.DataFrame, keys: set[Any], how: str) -> bool:
    """Whether a row missing from a side may change a column's dtype (an integer or
    boolean column of a side that may lack rows: a missing value needs another dtype).
    The result's first columns are the left's, the others the right's."""
    width = len(left.columns)
    positions: list[int] = []
    if 0 in _MAY_MISS.get(how, (0, 1)):
        positions += [p for p in range(width) if meta.columns[p] not in keys]
    if 1 in _MAY_MISS.get(how, (0, 1)):
        positions += list(range(width, meta.shape[1]))
    dtypes = [meta.dtypes.iloc[p] for p in positions]
    return any(pd.Series([], dtype=t).reindex([0]).dtype != t for t in dtypes)


# --- merge_ordered --------------------------------------------------------------------


def _meta(obj: Any) -> Any:
    """The empty pandas object of a lazy or pandas input."""
    return obj.meta if isinstance(obj, FrameBase) else empty_like(obj)


def _labels(keys: Any) -> list[Any]:
    if keys is None:
        return []
    return list(keys) if isinstance(keys, (list, tuple)) else [keys]


def _free_label(name: str, taken: set[Any]) -> str:
    label = f"__{name}__"
    while label in taken:
        label = f"_{label}_"
    return label


def _merged_keys(lmeta: pd.DataFrame, rmeta: pd.DataFrame, kw: dict[str, Any]) -> set[Any]:
    """The key labels pandas merges into one column (a key of the same name both sides)."""
    if kw["on"] is not None:
        return set(_labels(kw["on"]))
    if kw["left_on"] is None and kw["right_on"] is None:
        return set(lmeta.columns) & set(rmeta.columns)
    return {a for a, b in zip(_labels(kw["left_on"]), _labels(kw["right_on"])) if a == b}


def fill_forward(merged: Any, marks: tuple[str, str], keys: set[Any], meta: pd.DataFrame) -> Any:
    """``merged`` (the sorted merge of the marked sides, marker labels ``marks``) with
    the rows each side lacks filled from its last given row, ``keys`` (the merged key
    columns) left as they are and the markers dropped; ``meta`` is the result's."""
    columns = merged.meta.columns
    lmark, rmark = (int(columns.get_loc(m)) for m in marks)
    dtypes = merged.meta.dtypes
    parts: list[FilledSide] = []
    for marker, positions in ((lmark, range(lmark)), (rmark, range(lmark + 1, rmark))):
        filled = tuple(p for p in positions if columns[p] not in keys or p > lmark)
        parts.append(FilledSide(marker, filled, tuple(dtypes.iloc[p] for p in filled)))
    sides = tuple(parts)
    carry = Carry(functools.partial(last_rows, sides), later_rows)
    return scan(merged, functools.partial(fill_chunk, sides), meta, "ffill", before=carry)


def _filled(left: Any, right: Any, kw: dict[str, Any], meta: pd.DataFrame) -> Any:
    """The sorted merge with ``fill_method="ffill"``: marked sides, then a scan."""
    taken = {*left.meta.columns, *right.meta.columns}
    marks = _free_label("left", taken), _free_label("right", taken)
    sides = [
        map_chunks(with_marker, [frame], (Slot(0), mark), with_marker(frame.meta, mark))
        for frame, mark in zip((left, right), marks)
    ]
    merged = merge(*sides, **{**kw, "sort": True})
    return fill_forward(merged, marks, _merged_keys(left.meta, right.meta, kw), meta)


def grouped_chunk(left: pd.DataFrame, right: pd.DataFrame, kwargs: dict[str, Any]) -> Any:
    return pd.merge_ordered(left, right, **kwargs)


def _grouped(left: Any, right: Any, kw: dict[str, Any]) -> Any:
    """Merged group by group by pandas, on both sides gathered (see the module docstring)."""
    # pandas' checks on made-up rows: its empty frames have no group to take columns from
    pd.merge_ordered(sample_like(left.meta, 1), sample_like(right.meta, 1), **kw)
    out = map_chunks(
        grouped_chunk,
        [one_chunk(left), one_chunk(right)],
        (Slot(0), Slot(1), kw),
        pd.DataFrame(),
        name="merge_ordered",
        keeps_rows=False,
        broadcast=frozenset({1}),
    )
    out.execute()
    out.node.meta = empty_like(concat_chunks(chunk_summaries(out, empty_like), out.meta))
    return out


def merge_ordered(
    left: Any,
    right: Any,
    on: Any = None,
    left_on: Any = None,
    right_on: Any = None,
    left_by: Any = None,
    right_by: Any = None,
    fill_method: str | None = None,
    suffixes: Any = ("_x", "_y"),
    how: str = "outer",
) -> Any:
    """A merge sorted on the keys, optionally forward-filled and by groups, as
    ``pandas.merge_ordered`` (see the module docstring)."""
    kw: dict[str, Any] = dict(on=on, left_on=left_on, right_on=right_on, suffixes=suffixes)
    lazy_left, lazy_right = as_lazy_frame(left, "left"), as_lazy_frame(right, "right")
    if left_by is not None or right_by is not None:
        by = dict(left_by=left_by, right_by=right_by, fill_method=fill_method, how=how)
        return _grouped(lazy_left, lazy_right, {**kw, **by})
    # pandas' checks of the arguments, and the columns of the result
    meta = pd.merge_ordered(_meta(left), _meta(right), **kw, fill_method=fill_method, how=how)
    if fill_method is None:
        out = merge(lazy_left, lazy_right, **{**kw, "how": how, "sort": True})
    else:
        out = _filled(lazy_left, lazy_right, {**kw, "how": how}, meta)
    keys = _merged_keys(lazy_left.meta, lazy_right.meta, kw)
    return _with_whole_dtypes(out) if _may_change(meta, lazy_left.meta, keys, how) else out
