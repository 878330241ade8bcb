"""``pivot_table`` and ``crosstab``: a grouped aggregation, then a reshape on one chunk.

The rows are aggregated by the index and column keys together (``groupby(...).agg``: a
tree or a shuffle, as any aggregation), which leaves one row per key combination. That
small result is brought into one chunk, where pandas' own ``pivot_table`` lays it out:
each key combination now holds one value, so pivoting it again with ``"first"`` reshapes
without changing values, and pandas applies its own rules (column order, ``fill_value``,
``dropna`` of empty rows, dropping the top column level of a single value). Integer
columns whose aggregate came out float are first cast back when whole, as pandas does.

The result's columns depend on the data (one per key of ``columns``): the lazy result's
meta only has the right kind and index names; its columns are known once executed.
``margins=True`` is not supported.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.groupby.keys import probe
from jupyter_mars.dataframe.groupby.plan import map_to_unknown
from jupyter_mars.dataframe.map_chunks import Slot, aligned, map_chunks, one_chunk


def _listify(x: Any) -> list[Any]:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _downcast_whole(agged: pd.DataFrame, int_columns: list[Any]) -> pd.DataFrame:
    """Aggregates of integer columns that are float but whole, back to integers."""
    for c in int_columns:
        if c in agged.columns and agged[c].dtype.kind == "f":
            col = agged[c].to_numpy()
            if np.isfinite(col).all() and (col == np.round(col)).all():
                agged[c] = col.astype(np.int64)
    return agged


def repivot(
    index: list[Any],
    columns: list[Any],
    values: Any,
    int_columns: list[Any],
    fill_value: Any,
    dropna: bool,
    sort: bool,
    agged: pd.DataFrame,
) -> Any:
    """pandas' ``pivot_table`` of an aggregated result (one row per key combination)."""
    flat = _downcast_whole(agged.reset_index(), int_columns)
    if not columns:
        table = flat.set_index(index) if index else flat
        if dropna and isinstance(table, pd.DataFrame) and len(table.columns):
            table = table.dropna(how="all")
        if fill_value is not None:
            table = table.fillna(fill_value)
        if values is not None and not isinstance(values, list) and isinstance(table, pd.DataFrame):
            table = table[values] if values in table.columns else table
            return table.to_frame() if isinstance(table, pd.Series) else table
        return table
    return pd.pivot_table(
        flat,
        values=values,
        index=index or None,
        columns=columns,
        aggfunc="first",
        fill_value=fill_value,
        dropna=dropna,
        sort=sort,
        observed=True,
    )


def _pivot_one(
    df: DataFrame,
    values: Any,
    index: Any,
    columns: Any,
    aggfunc: Any,
    fill_value: Any,
    dropna: bool,
    sort: bool,
) -> Any:
    idx, cols = _listify(index), _listify(columns)
    keys = idx + cols
    meta: pd.DataFrame = df.meta
    if values is None:
        value_list = [c for c in meta.columns if c not in keys]
    else:
        value_list = _listify(values)
    for c in keys + value_list:
        if c not in meta.columns:
            raise KeyError(c)
    expected = pd.pivot_table(
        probe(meta),
        values=values,
        index=index,
        columns=columns,
        aggfunc=aggfunc,
        fill_value=fill_value,
        dropna=dropna,
        sort=sort,
        observed=True,
    )
    gb: Any = df.groupby(keys, sort=sort, dropna=dropna)[value_list]
    agged = gb.agg(aggfunc)
    ints = [c for c in value_list if meta[c].dtype.kind in "iu"]
    return map_to_unknown(
        repivot,
        [one_chunk(agged)],
        (idx, cols, values, ints, fill_value, dropna, sort),
        expected.iloc[:0],
        "pivot_table",
    )


def pivot_table(
    data: DataFrame,
    values: Any = None,
    index: Any = None,
    columns: Any = None,
    aggfunc: Any = "mean",
    fill_value: Any = None,
    margins: bool = False,
    dropna: bool = True,
    margins_name: str = "All",
    observed: bool = True,
    sort: bool = True,
) -> Any:
    """``pd.pivot_table`` of a lazy DataFrame (see the module docstring)."""
    if margins:
        raise NotImplementedError("pivot_table(margins=True) is not supported")
    if index is None and columns is None:
        raise ValueError("pivot_table needs index or columns")
    if isinstance(aggfunc, list):
        pieces = [
            _pivot_one(data, values, index, columns, f, fill_value, dropna, sort) for f in aggfunc
        ]
        names = [f if isinstance(f, str) else getattr(f, "__name__", str(f)) for f in aggfunc]
        frames = aligned(pieces)
        meta = pd.concat([p.meta for p in pieces], keys=names, axis=1)
        slots = tuple(Slot(i) for i in range(len(frames)))
        return map_chunks(concat_tables, frames, (names, *slots), meta, name="pivot_table")
    return _pivot_one(data, values, index, columns, aggfunc, fill_value, dropna, sort)


def concat_tables(names: list[Any], *tables: Any) -> pd.DataFrame:
    return pd.concat(list(tables), keys=names, axis=1)


def frame_of(names: list[Any], *columns: Any) -> pd.DataFrame:
    """A frame of Series chunks (aligned on their index, as pandas does)."""
    return pd.concat(list(columns), axis=1, keys=names)


def crosstab(
    index: Any,
    columns: Any,
    values: Any = None,
    rownames: Any = None,
    colnames: Any = None,
    aggfunc: Any = None,
    margins: bool = False,
    margins_name: str = "All",
    dropna: bool = True,
    normalize: Any = False,
) -> Any:
    """``pd.crosstab`` of lazy Series: counts (or ``aggfunc`` of ``values``) by the keys."""
    if margins:
        raise NotImplementedError("crosstab(margins=True) is not supported")
    if (values is None) != (aggfunc is None):
        raise ValueError("values and aggfunc go together: give both or neither")
    rows, cols = _listify(index), _listify(columns)
    for s in rows + cols + ([values] if values is not None else []):
        if not isinstance(s, Series):
            raise TypeError(f"crosstab takes lazy Series, got {type(s).__name__}")
    rnames = _listify(rownames) or [
        s.name if s.name is not None else f"row_{i}" for i, s in enumerate(rows)
    ]
    cnames = _listify(colnames) or [
        s.name if s.name is not None else f"col_{i}" for i, s in enumerate(cols)
    ]
    names = [*rnames, *cnames, "__values"]
    series: list[FrameBase] = [*rows, *cols] + ([values] if values is not None else [rows[0]])
    frames = aligned(series)
    metas = [s.meta for s in series]
    frame_meta = pd.concat(metas, axis=1, keys=names)
    df: Any = map_chunks(
        frame_of,
        frames,
        (names, *(Slot(i) for i in range(len(frames)))),
        frame_meta,
        name="crosstab_frame",
    )
    keys = rnames + cnames
    gb = df.groupby(keys, dropna=dropna)["__values"]
    agged = gb.size() if values is None else gb.agg(aggfunc)
    expected = pd.crosstab(
        probe(metas[0]).rename(rnames[0])
        if len(rows) == 1
        else [probe(m) for m in metas[: len(rows)]],
        probe(metas[len(rows)])
        if len(cols) == 1
        else [probe(m) for m in metas[len(rows) : len(keys)]],
        rownames=rnames,
        colnames=cnames,
    )
    meta = expected.iloc[:0] if values is None or not normalize else expected.iloc[:0].astype(float)
    return map_to_unknown(
        reshape_crosstab,
        [one_chunk(agged)],
        (rnames, cnames, values is None, normalize, dropna),
        meta,
        "crosstab",
    )


def reshape_crosstab(
    rnames: list[Any],
    cnames: list[Any],
    counts: bool,
    normalize: Any,
    dropna: bool,
    agged: pd.Series,
) -> pd.DataFrame:
    """The crosstab of an aggregated Series (one value per key combination)."""
    flat = agged.rename("__values").reset_index()
    table = pd.crosstab(
        [flat[n] for n in rnames],
        [flat[n] for n in cnames],
        values=flat["__values"],
        aggfunc="sum" if counts else "first",
        rownames=rnames,
        colnames=cnames,
        dropna=dropna,
        normalize=normalize,
    )
    if counts and normalize is False:
        table = table.fillna(0).astype(np.int64)
    return table


def _attach() -> None:
    methods: dict[str, Any] = {"pivot_table": pivot_table}
    for attr, value in methods.items():
        setattr(DataFrame, attr, value)


_attach()
