"""User functions: ``apply``, ``map`` (``applymap``), ``transform``, ``map_chunk`` and
``pipe``.

Where rows are independent the function runs once per chunk: ``DataFrame.apply(axis=1)``,
``Series.apply``, ``Series.map``, element-wise ``DataFrame.map`` and ``map_chunk`` (any
pandas function of a chunk, as Mars has it: the caller vouches that it makes sense chunk
by chunk). ``apply(axis=0)`` and ``transform`` (other than with a NumPy ufunc) see whole
columns in pandas, so the frame is first gathered into one chunk: right for any function,
but not parallel, meant for data that fits one worker.

The result's meta (kind, columns, dtypes) is found by calling the function, at the line
that asked for it, on a small sample of made-up rows with the input's columns, dtypes and
index type (``sample_like``): an empty input tells nothing of what the function returns
and would make every result column ``object``. If the function fails on the sample, its
error is raised there, with a note saying how to give the meta instead. A function whose
result depends on the values in ways a sample cannot show takes ``meta=`` (an object of
the result's kind, columns and dtypes), or ``dtypes=`` (a dtype per column, or one dtype
for a Series) with ``output_type="dataframe"|"series"``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.axes import axis_number
from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.map_chunks import Slot, map_chunks, one_chunk
from jupyter_mars.dataframe.node import empty_like, side_by_side

SAMPLE_ROWS = 2


# --- meta inference -------------------------------------------------------------------


def _fake_values(dtype: Any, n: int) -> Any:
    """``n`` made-up values of ``dtype`` (as an array pandas can hold)."""
    if isinstance(dtype, pd.CategoricalDtype):
        cats = list(dtype.categories[:1]) or [np.nan]
        return pd.Categorical(cats * n, dtype=dtype)
    kind = getattr(dtype, "kind", "O")
    if kind == "b":
        value: Any = True
    elif kind in "iu":
        value = 1
    elif kind == "f":
        value = 1.0
    elif kind == "c":
        value = 1 + 0j
    elif kind == "M":
        value = pd.Timestamp("2000-01-01", tz=getattr(dtype, "tz", None))
    elif kind == "m":
        value = pd.Timedelta(seconds=1)
    else:
        value = "a"
    try:
        return pd.array([value] * n, dtype=dtype)
    except (TypeError, ValueError):
        return pd.array([None] * n, dtype=dtype)


def _fake_index(index: pd.Index, n: int) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        arrays = [_fake_index(level[:0], n) for level in index.levels]
        return pd.MultiIndex.from_arrays(arrays, names=index.names)
    kind = index.dtype.kind
    if isinstance(index, pd.RangeIndex) or kind in "iu":
        values: Any = range(n)
    elif kind == "f":
        values = [float(i) for i in range(n)]
    elif kind == "M":
        values = pd.date_range("2000-01-01", periods=n, tz=getattr(index.dtype, "tz", None))
    elif kind == "m":
        values = pd.timedelta_range(0, periods=n, freq="s")
    elif isinstance(index, pd.PeriodIndex):  # a time-span window checks for periods
        values = pd.period_range("2000-01-01", periods=n, freq=index.freq)
    else:
        values = [f"r{i}" for i in range(n)]
    if isinstance(index, pd.RangeIndex):
        return pd.RangeIndex(n, name=index.name)
    try:
        return pd.Index(values, dtype=index.dtype, name=index.name)
    except (TypeError, ValueError):
        return pd.Index(values, name=index.name)


def sample_like(meta: Any, n: int = SAMPLE_ROWS) -> Any:
    """``n`` made-up rows with ``meta``'s columns, dtypes, index type and names."""
    index = _fake_index(meta.index, n)
    if isinstance(meta, pd.Series):
        return pd.Series(_fake_values(meta.dtype, n), index=index, name=meta.name)
    columns = [pd.Series(_fake_values(t, n), index=index) for t in meta.dtypes]
    if not columns:
        return pd.DataFrame(index=index, columns=meta.columns)
    return side_by_side(meta.columns, *columns)


def given_meta(meta: Any, dtypes: Any, output_type: str | None, like: Any, name: str) -> Any | None:
    """The result's meta when the caller gave it (``meta=`` or ``dtypes=``), else None."""
    if meta is not None:
        if isinstance(meta, (pd.DataFrame, pd.Series)):
            return empty_like(meta)
        if output_type == "series" or isinstance(meta, tuple) and len(meta) == 2:
            label, dtype = meta if isinstance(meta, tuple) else (None, meta)
            return pd.Series([], dtype=dtype, name=label, index=like.index[:0])
        return pd.DataFrame({c: pd.Series([], dtype=t) for c, t in dict(meta).items()}).set_axis(
            like.index[:0], axis=0
        )
    if dtypes is None:
        return None
    if output_type not in (None, "series", "dataframe"):
        raise ValueError(f"{name}: output_type must be 'series' or 'dataframe'")
    if output_type == "series" or not isinstance(dtypes, (dict, pd.Series)):
        return pd.Series([], dtype=dtypes, index=like.index[:0])
    items = dict(dtypes)
    frame = pd.DataFrame({c: pd.Series([], dtype=t) for c, t in items.items()})
    return frame.set_axis(like.index[:0], axis=0)


def infer_meta(name: str, call: Callable[[Any], Any], meta: Any) -> Any:
    """The meta of ``call(input)``, found on made-up rows (on the empty input only when no
    rows can be made up for these dtypes)."""
    try:
        sample = sample_like(meta)
    except (TypeError, ValueError):
        sample = meta
    try:
        return empty_like(call(sample))
    except Exception as error:  # the function itself failed: any exception type
        error.add_note(
            f"{name}: raised while inferring the result's meta on a sample of made-up rows; "
            "pass meta= (or dtypes=) to give it"
        )
        raise


def _frame_result(name: str, meta: Any) -> Any:
    if not isinstance(meta, (pd.DataFrame, pd.Series)):
        raise TypeError(
            f"{name}: the function must return a DataFrame or Series per chunk, "
            f"got {type(meta).__name__}; pass meta= to say what it returns"
        )
    return meta


# --- kernels --------------------------------------------------------------------------


def call_method(obj: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return getattr(obj, name)(*args, **kwargs)


def call_with(obj: Any, name: str, other: Any, kwargs: dict[str, Any]) -> Any:
    return getattr(obj, name)(other, **kwargs)


def call_func(
    func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], obj: Any
) -> Any:
    return func(obj, *args, **kwargs)


def _call(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], obj: Any) -> Any:
    return getattr(obj, name)(*args, **kwargs)


def _per_chunk(
    frame: FrameBase, name: str, args: tuple[Any, ...], kwargs: dict[str, Any], meta: Any
) -> Any:
    """``chunk.name(*args, **kwargs)`` per chunk, keeping rows and index."""
    return map_chunks(call_method, [frame], (Slot(0), name, args, kwargs), meta, name=name)


def _whole(
    frame: FrameBase, name: str, args: tuple[Any, ...], kwargs: dict[str, Any], meta: Any
) -> Any:
    """``name`` on the whole frame, gathered into one chunk (lengths become unknown)."""
    single = one_chunk(frame)
    return map_chunks(
        call_method, [single], (Slot(0), name, args, kwargs), meta, name=name, keeps_rows=False
    )


def check_callable(name: str, func: Any) -> None:
    if not callable(func):
        raise NotImplementedError(
            f"{name}: func must be a callable, got {type(func).__name__} "
            "(call the method by name instead of passing its name)"
        )


# --- the methods ----------------------------------------------------------------------


def frame_apply(
    frame: DataFrame,
    func: Callable[..., Any],
    axis: Any = 0,
    raw: bool = False,
    result_type: str | None = None,
    args: tuple[Any, ...] = (),
    *,
    meta: Any = None,
    dtypes: Any = None,
    output_type: str | None = None,
    **kwargs: Any,
) -> Any:
    """``func`` on each row (``axis=1``, per chunk) or each whole column (``axis=0``: the
    frame is gathered into one chunk first)."""
    check_callable("apply", func)
    per_row = axis_number(frame.meta, axis) == 1
    pandas_kwargs = dict(axis=axis, raw=raw, result_type=result_type, args=args, **kwargs)
    call = functools.partial(_call, "apply", (func,), pandas_kwargs)
    out = given_meta(meta, dtypes, output_type, frame.meta, "apply")
    if out is None:
        out = infer_meta("apply", call, frame.meta)
    out = _frame_result("apply", out)
    if per_row:
        return _per_chunk(frame, "apply", (func,), pandas_kwargs, out)
    return _whole(frame, "apply", (func,), pandas_kwargs, out)


def series_apply(
    series: Series,
    func: Callable[..., Any],
    args: tuple[Any, ...] = (),
    *,
    meta: Any = None,
    dtypes: Any = None,
    output_type: str | None = None,
    **kwargs: Any,
) -> Any:
    """``func`` on each value, per chunk (a Series returned per value makes columns)."""
    check_callable("apply", func)
    pandas_kwargs = dict(args=args, **kwargs)
    call = functools.partial(_call, "apply", (func,), pandas_kwargs)
    out = given_meta(meta, dtypes, output_type, series.meta, "apply")
    if out is None:
        out = infer_meta("apply", call, series.meta)
    return _per_chunk(series, "apply", (func,), pandas_kwargs, _frame_result("apply", out))


def series_map(
    series: Series,
    arg: Any,
    na_action: str | None = None,
    *,
    meta: Any = None,
    dtypes: Any = None,
    **kwargs: Any,
) -> Any:
    """Values mapped through a dict, a Series (pandas or lazy) or a function, per chunk."""
    if na_action not in (None, "ignore"):
        raise ValueError(f"na_action must either be 'ignore' or None, {na_action!r} was passed")
    out = given_meta(meta, dtypes, "series", series.meta, "map")
    if isinstance(arg, Series):
        if out is None:
            out = empty_like(series.meta.map(arg.meta, na_action=na_action))
        return map_chunks(
            call_with,
            [series, one_chunk(arg)],
            (Slot(0), "map", Slot(1), {"na_action": na_action}),
            out,
            name="map",
            broadcast=frozenset({1}),
        )
    pandas_kwargs = dict(na_action=na_action, **kwargs)
    if out is None:
        if callable(arg) and not isinstance(arg, (dict, pd.Series)):
            call = functools.partial(_call, "map", (arg,), pandas_kwargs)
            out = infer_meta("map", call, series.meta)
        else:
            out = empty_like(series.meta.map(arg, **pandas_kwargs))  # dtype of the values
    return _per_chunk(series, "map", (arg,), pandas_kwargs, out)


def frame_map(
    frame: DataFrame,
    func: Callable[..., Any],
    na_action: str | None = None,
    *,
    meta: Any = None,
    dtypes: Any = None,
    **kwargs: Any,
) -> Any:
    """``func`` on every value, per chunk (``applymap`` is the same)."""
    check_callable("map", func)
    if na_action not in (None, "ignore"):
        raise ValueError(f"na_action must either be 'ignore' or None, {na_action!r} was passed")
    pandas_kwargs = dict(na_action=na_action, **kwargs)
    out = given_meta(meta, dtypes, "dataframe", frame.meta, "map")
    if out is None:
        call = functools.partial(_call, "map", (func,), pandas_kwargs)
        out = infer_meta("map", call, frame.meta)
    return _per_chunk(frame, "map", (func,), pandas_kwargs, out)


def transform(
    frame: FrameBase,
    func: Any,
    axis: Any = 0,
    *args: Any,
    meta: Any = None,
    dtypes: Any = None,
    **kwargs: Any,
) -> Any:
    """pandas' ``transform``: per chunk for a NumPy ufunc or across columns (``axis=1``),
    otherwise on whole columns (gathered into one chunk)."""
    pandas_kwargs: dict[str, Any] = dict(kwargs)
    if isinstance(frame, DataFrame) or axis not in (0, "index"):
        pandas_kwargs["axis"] = axis
    call = functools.partial(_call, "transform", (func, *args), pandas_kwargs)
    out = given_meta(meta, dtypes, None, frame.meta, "transform")
    if out is None:
        out = infer_meta("transform", call, frame.meta)
    out = _frame_result("transform", out)
    if isinstance(func, np.ufunc) or axis in (1, "columns"):
        return _per_chunk(frame, "transform", (func, *args), pandas_kwargs, out)
    return map_chunks(
        call_method,
        [one_chunk(frame)],
        (Slot(0), "transform", (func, *args), pandas_kwargs),
        out,
        name="transform",
        keeps_rows=True,  # transform keeps the rows: the length is the input's
    )


def map_chunk(
    frame: FrameBase,
    func: Callable[..., Any],
    args: tuple[Any, ...] = (),
    kwargs: dict[str, Any] | None = None,
    *,
    meta: Any = None,
    dtypes: Any = None,
    output_type: str | None = None,
) -> Any:
    """``func(chunk, *args, **kwargs)`` for every row chunk: any pandas function that is
    right chunk by chunk (row filters, row-wise arithmetic). The result's lengths are
    unknown until computed."""
    check_callable("map_chunk", func)
    call = functools.partial(call_func, func, tuple(args), dict(kwargs or {}))
    out = given_meta(meta, dtypes, output_type, frame.meta, "map_chunk")
    if out is None:
        out = infer_meta("map_chunk", call, frame.meta)
    out = _frame_result("map_chunk", out)
    op_args = (func, tuple(args), dict(kwargs or {}), Slot(0))
    return map_chunks(call_func, [frame], op_args, out, name="map_chunk", keeps_rows=False)


def pipe(frame: FrameBase, func: Any, *args: Any, **kwargs: Any) -> Any:
    """``func(frame, *args, **kwargs)``; ``func`` may be ``(callable, keyword)`` to pass
    the frame as that keyword instead."""
    if isinstance(func, tuple):
        target, keyword = func
        if keyword in kwargs:
            raise ValueError(f"{keyword} is both the pipe target and a keyword argument")
        kwargs[keyword] = frame
        return target(*args, **kwargs)
    return func(frame, *args, **kwargs)


def _attach() -> None:
    shared: dict[str, Any] = {"transform": transform, "map_chunk": map_chunk, "pipe": pipe}
    frame_methods: dict[str, Any] = {"apply": frame_apply, "map": frame_map, "applymap": frame_map}
    series_methods: dict[str, Any] = {"apply": series_apply, "map": series_map}
    for cls, own in ((DataFrame, frame_methods), (Series, series_methods)):
        for attr, value in {**shared, **own}.items():
            setattr(cls, attr, value)


_attach()
