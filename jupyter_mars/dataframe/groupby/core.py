"""``df.groupby(...)`` and ``series.groupby(...)``: the lazy GroupBy handles.

A handle records what is grouped (the frame, the key items, a column selection and
pandas' flags) and builds nothing until an aggregation is asked for. Every method first
calls the same pandas method on a one-row probe with the frame's dtypes, which checks the
arguments as pandas does (an unknown column is a KeyError, a mean of strings a TypeError)
and gives the result's meta; then ``plan.aggregate`` builds the lazy result.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.groupby import transform as transform_module
from jupyter_mars.dataframe.groupby.aggregate import DECOMPOSABLE, AggSpec, Output
from jupyter_mars.dataframe.groupby.apply import shuffle_rows
from jupyter_mars.dataframe.groupby.keys import KeyItem, probe, probe_values
from jupyter_mars.dataframe.groupby.plan import aggregate
from jupyter_mars.dataframe.map_chunks import MapChunks, aligned
from jupyter_mars.dataframe.node import empty_like
from jupyter_mars.dataframe.reduction.args import is_numeric

_NO_SELECTION = object()

_PLAIN_KWARGS: dict[str, dict[str, Any]] = {
    "sum": {"numeric_only": None, "min_count": 0},
    "prod": {"numeric_only": None, "min_count": 0},
    "min": {"numeric_only": None},
    "max": {"numeric_only": None},
    "mean": {"numeric_only": None},
    "first": {"numeric_only": None},
    "last": {"numeric_only": None},
    "count": {},
    "size": {},
    "var": {"numeric_only": None, "ddof": None},
    "std": {"numeric_only": None, "ddof": None},
}
"""Keyword arguments the partial-state kernels implement, with the only value they take
(None: any). Other arguments (``min_count=2``, ``engine=...``) go to pandas whole."""


def _end(name: str) -> Callable[..., Any]:
    """The grouped ``first`` or ``last``; pandas' defaults of ``min_count`` and ``skipna``
    are left out of the call (the partial-state kernels' own)."""

    def method(
        self: GroupBy,
        numeric_only: bool = False,
        min_count: int = -1,
        skipna: bool = True,
        method: str = "auto",
    ) -> Any:
        kwargs: dict[str, Any] = {"numeric_only": numeric_only}
        if min_count != -1:
            kwargs["min_count"] = min_count
        if not skipna:
            kwargs["skipna"] = skipna
        return self._reduce(name, method, **kwargs)

    method.__name__ = name
    method.__doc__ = f"pandas' grouped ``{name}``; ``method`` as for ``agg``."
    return method


def _column_of(obj: FrameBase, key: Any) -> Any:
    """The label when ``key`` is ``obj[label]`` built lazily from ``obj`` (pandas treats a
    column of the grouped frame as an in-axis key), else None."""
    node = key.node
    op = node.op
    if (
        isinstance(op, MapChunks)
        and getattr(op.func, "__name__", "") == "take_columns"
        and node.inputs
        and node.inputs[0] is obj.node
        and len(op.args) == 2
        and isinstance(op.args[1], Hashable)
        and not isinstance(op.args[1], tuple)
        and isinstance(key.meta, pd.Series)
    ):
        return op.args[1]
    return None


def _apply_meta(gb: Any, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The meta of ``apply``: pandas' result on the probe, emptied."""
    out = gb.apply(func, *args, **kwargs)
    return empty_like(out) if isinstance(out, (pd.Series, pd.DataFrame)) else pd.Series([out])[:0]


class GroupBy:
    """What ``DataFrameGroupBy`` and ``SeriesGroupBy`` share."""

    def __init__(
        self,
        obj: FrameBase,
        by: Any,
        level: Any,
        as_index: bool,
        sort: bool,
        dropna: bool,
        selection: Any = _NO_SELECTION,
        group_keys: bool = True,
    ) -> None:
        self._obj = obj
        self._by = by
        self._level = level
        self.as_index = bool(as_index)
        self.sort = bool(sort)
        self.dropna = bool(dropna)
        self._selection = selection
        self.group_keys = bool(group_keys)
        self._frames: list[Any] = [obj]
        items: list[KeyItem] = []
        meta = obj.meta
        if by is None and level is None:
            raise TypeError("You have to supply one of 'by' and 'level'")
        if level is not None:
            if by is not None:
                raise TypeError("groupby takes 'by' or 'level', not both")
            levels = level if isinstance(level, (list, tuple)) else [level]
            for lv in levels:
                pos = meta.index._get_level_number(lv)  # KeyError / IndexError as pandas
                items.append(KeyItem("level", pos, meta.index.names[pos]))
        else:
            for b in by if isinstance(by, list) else [by]:
                items.append(self._key_item(b))
        self._keys = tuple(items)
        if len(self._frames) > 1:
            self._frames = aligned(self._frames)
        self._probe_gb(self.as_index)  # pandas checks keys and selection here

    def _key_item(self, b: Any) -> KeyItem:
        meta = self._obj.meta
        if isinstance(b, Series):
            label = _column_of(self._obj, b) if isinstance(self._obj, DataFrame) else None
            if label is not None:
                return KeyItem("column", label, label)
            self._frames.append(b)
            return KeyItem("series", len(self._frames) - 1, b.meta.name)
        if isinstance(b, FrameBase) or not isinstance(b, Hashable):
            raise TypeError(
                f"groupby keys must be column labels, index level names or lazy Series, got {b!r}"
            )
        if isinstance(meta, pd.DataFrame) and b in meta.columns:
            return KeyItem("column", b, b)
        if b is not None and b in meta.index.names:
            return KeyItem("level", meta.index.names.index(b), b)
        raise KeyError(b)

    # -- probes: pandas on one row, for checks and metas -----------------------------

    def _probe_gb(self, as_index: bool, rows: int = 1) -> Any:
        """pandas' GroupBy of a probe of ``rows`` equal rows (one group)."""
        data = probe(self._obj.meta, rows)
        flags = dict(
            as_index=as_index, sort=self.sort, dropna=self.dropna, group_keys=self.group_keys
        )
        if isinstance(data, pd.Series):
            flags.pop("as_index")
        if self._level is not None:
            gb = data.groupby(level=self._level, **flags)
        else:
            by: list[Any] = []
            for item in self._keys:
                if item.kind == "series":
                    m = self._frames[item.ref].meta
                    values = probe_values(m.dtype, rows)
                    by.append(pd.Series(values, index=data.index, name=m.name))
                else:
                    by.append(item.ref if item.kind == "column" else item.name)
            gb = data.groupby(by if isinstance(self._by, list) else by[0], **flags)
        if self._selection is not _NO_SELECTION:
            gb = gb[self._selection]
        return gb

    def _probe_call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        inner = empty_like(getattr(self._probe_gb(True), name)(*args, **kwargs))
        if self.as_index or isinstance(self._obj.meta, pd.Series):
            return inner, inner
        return inner, empty_like(getattr(self._probe_gb(False), name)(*args, **kwargs))

    # -- what is aggregated ----------------------------------------------------------

    @property
    def _series_selected(self) -> bool:
        if isinstance(self._obj.meta, pd.Series):
            return True
        sel = self._selection
        return sel is not _NO_SELECTION and not isinstance(sel, list)

    def _value_columns(self) -> tuple[Any, ...] | None:
        meta = self._obj.meta
        if isinstance(meta, pd.Series):
            return None
        sel = self._selection
        if sel is _NO_SELECTION:
            in_axis = {i.ref for i in self._keys if i.kind == "column"}
            return tuple(c for c in meta.columns if c not in in_axis)
        return tuple(sel) if isinstance(sel, list) else (sel,)

    @property
    def _has_selection(self) -> bool:
        return self._selection is not _NO_SELECTION

    def _series_name(self) -> Any:
        if isinstance(self._obj.meta, pd.Series):
            return self._obj.meta.name
        return self._selection if self._series_selected else None

    def _dtypes(self) -> list[Any]:
        cols = self._value_columns()
        meta = self._obj.meta
        return [meta.dtype] if cols is None else [meta[c].dtype for c in cols]

    def _spec(
        self,
        outputs: tuple[Output, ...],
        inner: Any,
        final: Any,
        call: tuple[str, tuple[Any, ...], dict[str, Any]] | None,
    ) -> AggSpec:
        obj_meta = self._obj.meta
        name = self._series_name()
        return AggSpec(
            keys=self._keys,
            value_columns=self._value_columns(),
            outputs=outputs,
            meta=final,
            inner_meta=inner,
            dropna=self.dropna,
            sort=self.sort,
            as_index=self.as_index or isinstance(obj_meta, pd.Series),
            holistic_call=call,
            series_name=name,
            select_series=self._series_selected,
        )

    def _build(
        self,
        name: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        outputs: tuple[Output, ...] | None,
        method: str = "auto",
    ) -> Any:
        inner, final = self._probe_call(name, args, kwargs)
        if outputs is not None and isinstance(inner, pd.DataFrame):
            if len(outputs) != inner.shape[1]:
                outputs = None
        call = None if outputs is not None else (name, args, kwargs)
        spec = self._spec(outputs or (), inner, final, call)
        return aggregate(spec, self._frames, method)

    def _reduce(self, name: str, method: str = "auto", **kwargs: Any) -> Any:
        """pandas' grouped ``name``; ``method`` (Mars's keyword) as for ``agg``."""
        allowed = _PLAIN_KWARGS.get(name)
        plain = allowed is not None and all(
            k in allowed and (allowed[k] is None or allowed[k] == v) for k, v in kwargs.items()
        )
        outputs: tuple[Output, ...] | None = None
        if plain:
            if name == "size":
                outputs = (Output(-1, "size"),)
            else:
                only = kwargs.get("numeric_only", False)
                ddof = int(kwargs.get("ddof", 1))
                outputs = tuple(
                    Output(p, name, ddof)
                    for p, t in enumerate(self._dtypes())
                    if not only or is_numeric(t)
                )
        return self._build(name, (), kwargs, outputs, method)

    # -- the aggregations ------------------------------------------------------------

    def size(self, method: str = "auto") -> Any:
        return self._reduce("size", method)

    def count(self, method: str = "auto") -> Any:
        return self._reduce("count", method)

    def sum(self, numeric_only: bool = False, min_count: int = 0, method: str = "auto") -> Any:
        return self._reduce("sum", method, numeric_only=numeric_only, min_count=min_count)

    def prod(self, numeric_only: bool = False, min_count: int = 0, method: str = "auto") -> Any:
        return self._reduce("prod", method, numeric_only=numeric_only, min_count=min_count)

    def mean(self, numeric_only: bool = False, method: str = "auto") -> Any:
        return self._reduce("mean", method, numeric_only=numeric_only)

    def min(self, numeric_only: bool = False, method: str = "auto") -> Any:
        return self._reduce("min", method, numeric_only=numeric_only)

    def max(self, numeric_only: bool = False, method: str = "auto") -> Any:
        return self._reduce("max", method, numeric_only=numeric_only)

    first = _end("first")
    last = _end("last")

    def var(self, ddof: int = 1, numeric_only: bool = False, method: str = "auto") -> Any:
        return self._reduce("var", method, ddof=ddof, numeric_only=numeric_only)

    def std(self, ddof: int = 1, numeric_only: bool = False, method: str = "auto") -> Any:
        return self._reduce("std", method, ddof=ddof, numeric_only=numeric_only)

    def median(self, numeric_only: bool = False, method: str = "auto") -> Any:
        return self._reduce("median", method, numeric_only=numeric_only)

    def nunique(self, dropna: bool = True, method: str = "auto") -> Any:
        """Distinct values per group; ``method`` as for ``agg``."""
        return self._build("nunique", (), {"dropna": dropna}, None, method)

    def agg(self, func: Any = None, *args: Any, method: str = "auto", **kwargs: Any) -> Any:
        """``func``: a name, a list of names, a dict column -> name(s), or named
        aggregations as keywords (``total=("v", "sum")``). ``method``: ``"auto"`` picks a
        tree or a shuffle from the partials' sizes; ``"tree"`` or ``"shuffle"`` force one."""
        outputs = None if args else self._agg_outputs(func, kwargs)
        call_args = (func, *args) if func is not None else ()
        return self._build("agg", call_args, kwargs, outputs, method)

    aggregate = agg

    def _agg_outputs(self, func: Any, kwargs: dict[str, Any]) -> tuple[Output, ...] | None:
        cols = self._value_columns()
        positions = list(range(1 if cols is None else len(cols)))
        pairs: list[tuple[int, Any]] = []
        if func is None:
            for spec in kwargs.values():
                if self._series_selected:
                    pairs.append((0, spec))
                    continue
                if not isinstance(spec, tuple) or len(spec) != 2 or cols is None:
                    return None
                column, how = spec
                if column not in cols:
                    return None
                pairs.append((cols.index(column), how))
        elif kwargs:
            return None
        elif isinstance(func, str):
            pairs = [(p, func) for p in positions]
        elif isinstance(func, list):
            pairs = [(p, f) for p in positions for f in func]
        elif isinstance(func, dict) and cols is not None and not self._series_selected:
            for column, hows in func.items():
                if column not in cols:
                    return None
                for f in hows if isinstance(hows, list) else [hows]:
                    pairs.append((cols.index(column), f))
        else:
            return None
        if not all(isinstance(f, str) and f in DECOMPOSABLE for _, f in pairs):
            return None
        return tuple(Output(-1 if f == "size" else p, f) for p, f in pairs)

    # -- results aligned with the rows, functions of whole groups ---------------------

    def cumcount(self, ascending: bool = True) -> Any:
        return transform_module.cumcount(self, ascending)

    def transform(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        return transform_module.transform(self, func, *args, **kwargs)

    def apply(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        """``func`` of each group (a DataFrame or Series), results concatenated."""
        meta = _apply_meta(self._probe_gb(True), func, args, kwargs)
        return shuffle_rows(self, "apply", func, args, kwargs, meta)

    def filter(self, func: Any, dropna: bool = True, *args: Any, **kwargs: Any) -> Any:
        """The rows of the groups for which ``func(group)`` is True, in their order."""
        if not dropna:
            raise NotImplementedError("filter(dropna=False) is not supported")
        meta = self._probe_gb(True).filter(func, True, *args, **kwargs).iloc[:0]
        return shuffle_rows(self, "filter", func, args, kwargs, meta)

    # -- selection -------------------------------------------------------------------

    def __getitem__(self, key: Any) -> Any:
        if isinstance(self._obj.meta, pd.Series) or self._series_selected:
            raise KeyError(f"cannot select column {key!r} of a grouped Series")
        cls = DataFrameGroupBy if isinstance(key, list) else SeriesGroupBy
        return self._copy(cls, selection=key)

    def _copy(self, cls: Any = None, **changes: Any) -> Any:
        args: dict[str, Any] = dict(
            by=self._by,
            level=self._level,
            as_index=self.as_index,
            sort=self.sort,
            dropna=self.dropna,
            selection=self._selection,
            group_keys=self.group_keys,
        )
        args.update(changes)
        out = (cls or type(self))(self._obj, **args)
        return out

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        meta = self._obj.meta
        if isinstance(meta, pd.DataFrame) and not self._series_selected and name in meta.columns:
            return self[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


class DataFrameGroupBy(GroupBy):
    """A lazy ``pandas.core.groupby.DataFrameGroupBy``."""


class SeriesGroupBy(GroupBy):
    """A lazy ``pandas.core.groupby.SeriesGroupBy``."""


TimeGrouper = pd.api.typing.TimeGrouper


def _plain_grouper(grouper: pd.Grouper, level: Any) -> tuple[Any, Any]:
    """``by`` and ``level`` for a Grouper without a ``freq``: its column or its level."""
    if grouper.key is not None:
        return grouper.key, level
    if grouper.level is not None:
        return None, grouper.level
    raise ValueError("a Grouper groups by a key or a level: give key= or level=")


def groupby(
    self: Any,
    by: Any = None,
    level: Any = None,
    as_index: bool = True,
    sort: bool = True,
    group_keys: bool = True,
    observed: bool = True,
    dropna: bool = True,
) -> Any:
    """``df.groupby(by, level=, as_index=, sort=, dropna=)``: a lazy GroupBy.

    ``by``: a column label, an index level name, a lazy Series (aligned with the frame on
    its index), a ``pd.Grouper`` (one with a ``freq`` bins times, as ``resample``), or a
    list of these; or ``level``: index level(s)."""
    if isinstance(by, TimeGrouper):
        return self.resample(
            by.freq,
            closed=by.closed,
            label=by.label,
            on=by.key,
            level=by.level,
            origin=by.origin,
            offset=by.offset,
        )
    if isinstance(by, pd.Grouper):
        sort = sort and by.sort  # a Grouper keeps the keys' order of appearance by default
        by, level = _plain_grouper(by, level)
    elif isinstance(by, list) and any(isinstance(k, pd.Grouper) for k in by):
        if any(
            isinstance(k, TimeGrouper) or k.key is None for k in by if isinstance(k, pd.Grouper)
        ):
            raise NotImplementedError(
                "groupby: a Grouper with a freq or a level among other keys is not "
                "supported; group by the binned times (dt.floor) or the level's name"
            )
        by = [k.key if isinstance(k, pd.Grouper) else k for k in by]
    cls = SeriesGroupBy if isinstance(self, Series) else DataFrameGroupBy
    return cls(self, by, level, as_index, sort, dropna, group_keys=group_keys)


def _attach() -> None:
    for cls in (DataFrame, Series):
        methods: dict[str, Any] = {"groupby": groupby}
        for attr, value in methods.items():
            setattr(cls, attr, value)


_attach()
