"""pandas' types, helpers and settings that hold no lazy data, re-exported as they are so
that a script written for pandas runs with ``md`` in its place (as ``scalars`` does for
``Timestamp`` and friends).

- Dtypes (``CategoricalDtype``, ``Int64Dtype``, ``ArrowDtype``...) are pandas' own, so
  ``frame.astype(md.CategoricalDtype([...]))`` and a lazy object's ``dtype`` compare
  equal to them.
- Index classes other than ``Index`` and ``MultiIndex`` (which ``md`` has lazily) and
  ``Categorical`` are pandas' in-memory classes: ``md.RangeIndex(5)`` is a pandas index,
  which a lazy constructor accepts as its ``index`` or ``columns``. A lazy Index is not an
  instance of them: ``isinstance`` tests go on its ``meta``.
- ``Grouper``, ``IndexSlice``, ``col`` and ``NamedFunc`` describe a grouping, a
  selection, a column expression and a named aggregation, which the lazy ``groupby``,
  ``loc``, ``assign`` and ``agg`` read as pandas does.
- Options (``set_option``, ``option_context``, ``options``...) are pandas' settings of
  this process: they apply wherever pandas runs here (display, the embedded session's
  tasks), not on a cluster's workers. ``jupyter_mars.options`` holds Mars's own settings.
- ``api``, ``errors`` and ``tseries`` are pandas' modules (``errors`` holds the
  exception classes that lazy calls raise, as pandas' do); ``md.testing`` is a module of
  its own, whose assertions take lazy objects too.
"""

from __future__ import annotations

from pandas import (
    ArrowDtype,
    BooleanDtype,
    Categorical,
    CategoricalDtype,
    CategoricalIndex,
    DatetimeIndex,
    DatetimeTZDtype,
    Flags,
    Float32Dtype,
    Float64Dtype,
    Grouper,
    IndexSlice,
    Int8Dtype,
    Int16Dtype,
    Int32Dtype,
    Int64Dtype,
    IntervalDtype,
    IntervalIndex,
    NamedFunc,
    Period,
    PeriodDtype,
    PeriodIndex,
    RangeIndex,
    SparseDtype,
    StringDtype,
    TimedeltaIndex,
    UInt8Dtype,
    UInt16Dtype,
    UInt32Dtype,
    UInt64Dtype,
    api,
    col,
    describe_option,
    errors,
    get_option,
    option_context,
    options,
    reset_option,
    set_eng_float_format,
    set_option,
    show_versions,
    tseries,
)

__all__ = [
    "ArrowDtype",
    "BooleanDtype",
    "Categorical",
    "CategoricalDtype",
    "CategoricalIndex",
    "DatetimeIndex",
    "DatetimeTZDtype",
    "Flags",
    "Float32Dtype",
    "Float64Dtype",
    "Grouper",
    "IndexSlice",
    "Int8Dtype",
    "Int16Dtype",
    "Int32Dtype",
    "Int64Dtype",
    "IntervalDtype",
    "IntervalIndex",
    "NamedFunc",
    "Period",
    "PeriodDtype",
    "PeriodIndex",
    "RangeIndex",
    "SparseDtype",
    "StringDtype",
    "TimedeltaIndex",
    "UInt8Dtype",
    "UInt16Dtype",
    "UInt32Dtype",
    "UInt64Dtype",
    "api",
    "col",
    "describe_option",
    "errors",
    "get_option",
    "option_context",
    "options",
    "reset_option",
    "set_eng_float_format",
    "set_option",
    "show_versions",
    "tseries",
]
