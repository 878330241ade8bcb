"""Groups of wide columns stacked into long rows: ``wide_to_long`` and ``lreshape``.

Both give pandas' rows in pandas' order without gathering the frame:

- ``wide_to_long`` turns each row into one row per suffix ``j`` of the stub columns
  (``A1970``, ``A1980`` -> ``A`` at ``j`` 1970 and 1980). Every chunk is reshaped by
  pandas on its own; pandas orders the result by ``j`` first when ``i`` is one column
  (every row's 1970, then every row's 1980) and by row first when ``i`` is several, so
  with one column each ``j`` is cut from every reshaped chunk in turn and the pieces put
  one after another. The suffixes, the columns and the dtypes come from pandas' reshape
  of one made-up row, which also raises pandas' errors for bad arguments at the call.
  pandas refuses ``i`` values that repeat: that needs every row, so it is checked as
  part of the run (a lazy ``duplicated().any()`` that every chunk reads) and raises
  pandas' ``ValueError`` when the result is computed.
- ``lreshape`` stacks the ``k``-th column of every group for ``k = 0, 1, ...``: piece
  ``k`` of every chunk (the id columns and the ``k``-th columns, cast to the dtypes pandas
  gives the stacked columns), pieces in ``k``-major order, rows numbered anew. The
  result's columns and dtypes are pandas' ``lreshape`` of one made-up row. pandas
  re-infers the id columns' dtypes from their values (strings become ``str``, a
  categorical column its values' dtype); an id column of dtype object stays object
  here, where pandas makes it ``str`` when every value is a string.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.apply import sample_like
from jupyter_mars.dataframe.concatenate import concat
from jupyter_mars.dataframe.core import DataFrame
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks
from jupyter_mars.dataframe.node import empty_like

__all__ = ["lreshape", "wide_to_long"]

REPEATED_IDS = "the id variables need to uniquely identify each row"
"""pandas' message for ``i`` values that repeat."""


def _lazy_frame(data: Any, name: str) -> DataFrame:
    if isinstance(data, pd.DataFrame):
        return DataFrame(data)
    if not isinstance(data, DataFrame):
        raise TypeError(f"{name} takes a DataFrame, got {type(data).__name__}")
    return data


def _as_meta(frame: pd.DataFrame, meta: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with ``meta``'s dtypes where they differ (an empty frame is the meta)."""
    if not len(frame):
        return meta
    changed = {c: t for c, t in meta.dtypes.items() if frame[c].dtype != t}
    return frame.astype(changed) if changed else frame


# --- wide_to_long ---------------------------------------------------------------------


def wide_chunk(
    chunk: pd.DataFrame, kwargs: dict[str, Any], repeated: bool, meta: pd.DataFrame
) -> pd.DataFrame:
    """pandas' ``wide_to_long`` of one chunk, unless the ``i`` values repeat anywhere."""
    if repeated:
        raise ValueError(REPEATED_IDS)
    if not len(chunk):
        return meta
    return _as_meta(pd.wide_to_long(chunk, **kwargs), meta)


def rows_at(chunk: pd.DataFrame, suffix: Any) -> pd.DataFrame:
    """The rows of a reshaped chunk whose ``j`` (the last index level) is ``suffix``."""
    return chunk[chunk.index.get_level_values(-1) == suffix]


def wide_to_long(
    df: Any, stubnames: Any, i: Any, j: Any, sep: str = "", suffix: str = r"\d+"
) -> DataFrame:
    """Wide columns ``<stub><sep><suffix>`` into rows indexed by ``i`` and ``j`` (the
    suffix), as ``pandas.wide_to_long`` (see the module docstring)."""
    frame = _lazy_frame(df, "wide_to_long")
    kwargs: dict[str, Any] = dict(stubnames=stubnames, i=i, j=j, sep=sep, suffix=suffix)
    # pandas' checks of the arguments; the suffixes, columns and dtypes of the result
    probe = pd.wide_to_long(sample_like(frame.meta, 1), **kwargs)
    meta = empty_like(probe)
    ids = list(i) if pd.api.types.is_list_like(i) else [i]
    lazy: Any = frame  # its selection methods are attached at import
    repeated = lazy[ids].duplicated().any()
    reshaped = map_chunks(
        wide_chunk,
        [frame],
        (Slot(0), kwargs, repeated, meta),
        meta,
        name="wide_to_long",
        keeps_rows=False,
    )
    if len(ids) > 1:
        return reshaped  # type: ignore[no-any-return]
    suffixes = list(probe.index.get_level_values(-1))
    pieces = [
        map_chunks(rows_at, [reshaped], (Slot(0), s), meta, name="wide_to_long", keeps_rows=False)
        for s in suffixes
    ]
    return pieces[0] if len(pieces) == 1 else concat(pieces)  # type: ignore[no-any-return]


# --- lreshape -------------------------------------------------------------------------


def stacked_piece(
    chunk: pd.DataFrame,
    ids: list[Any],
    columns: dict[Any, Any],
    dropna: bool,
    meta: pd.DataFrame,
) -> pd.DataFrame:
    """The id columns and, under each target label, its group's column for this piece;
    rows missing any target value dropped with ``dropna``."""
    data: dict[Any, Any] = {c: np.asarray(chunk[c].array) for c in ids}  # as pandas tiles them
    data.update({target: chunk[name].array for target, name in columns.items()})
    out = _as_meta(pd.DataFrame(data, index=chunk.index, columns=meta.columns), meta)
    if dropna and len(out):
        out = out[out[list(columns)].notna().all(axis=1)]
    return out


def lreshape(data: Any, groups: dict[Any, list[Any]], dropna: bool = True) -> DataFrame:
    """The columns of each group stacked into one column named by the group's key, the
    other columns repeated alongside, as ``pandas.lreshape`` (see the module
    docstring)."""
    frame = _lazy_frame(data, "lreshape")
    # pandas' checks (groups of one length, existing columns); the columns and dtypes
    meta = empty_like(pd.lreshape(sample_like(frame.meta, 1), groups, dropna=dropna))
    ids = list(meta.columns[: len(meta.columns) - len(groups)])
    # pandas infers the id columns' dtypes from their values: object ones stay object
    kept = {c: object for c in ids if frame.meta[c].dtype == object}
    meta = meta.astype(kept) if kept else meta
    width = len(next(iter(groups.values())))
    pieces = [
        map_chunks(
            stacked_piece,
            [frame],
            (Slot(0), ids, {t: names[k] for t, names in groups.items()}, dropna, meta),
            meta,
            name="lreshape",
            keeps_rows=not dropna,
        )
        for k in range(width)
    ]
    return concat(pieces, ignore_index=True)  # type: ignore[no-any-return]
