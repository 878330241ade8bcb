"""Results cast to the dtype pandas gives, where their values alone cannot tell it.

A result computed from partials (sums, counts, moments merged from chunks) is built from
NumPy values, so it comes out with a NumPy dtype; pandas gives a column of a nullable
dtype (``Int64``, ``Float64``, ``boolean``) a nullable result, and a missing one is NA,
not NaN. The lazy object's metadata, pandas' answer on a sample, knows the dtype: these
helpers cast to it where it is nullable, or where it holds the unit and zone of dates
that a result of NaT alone lost. A missing float becomes NA in the cast, as in pandas.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from pandas.core.dtypes.dtypes import BaseMaskedDtype


def in_meta_dtype(out: pd.Series, dtype: Any) -> pd.Series:
    """``out`` in ``dtype`` (the metadata's) where that is a nullable dtype and ``out``
    holds NumPy values, or dates and spans of the same kind in another unit or zone.

    >>> in_meta_dtype(pd.Series([1.0, float("nan")]), pd.Float64Dtype()).tolist()
    [1.0, <NA>]
    >>> in_meta_dtype(pd.Series([2, 0]), pd.Int64Dtype()).dtype
    Int64Dtype()
    >>> in_meta_dtype(pd.Series([1.5]), pd.Int64Dtype()).dtype  # values it cannot hold
    dtype('float64')
    """
    if out.dtype == dtype:
        return out
    if isinstance(dtype, BaseMaskedDtype):
        if isinstance(out.dtype, pd.api.extensions.ExtensionDtype):
            return out
        try:
            return out.astype(dtype)
        except (TypeError, ValueError):  # the sample's dtype does not hold these values
            return out
    if getattr(dtype, "kind", "") in ("m", "M") and getattr(out.dtype, "kind", "") == dtype.kind:
        if getattr(dtype, "tz", None) is not None and getattr(out.dtype, "tz", None) is None:
            if not out.isna().all():  # naive dates are no zone's: left as they are
                return out
            return pd.Series(pd.NaT, index=out.index, name=out.name, dtype=dtype)
        return out.astype(dtype)
    return out


def frame_in_meta_dtypes(out: pd.DataFrame, meta: pd.DataFrame) -> pd.DataFrame:
    """Each column of ``out`` in its dtype in ``meta`` as ``in_meta_dtype`` casts it; the
    frame itself where no column changes."""
    if out.shape[1] != meta.shape[1]:
        return out
    changed = {}
    for i, dtype in enumerate(meta.dtypes):
        column = out.iloc[:, i]
        cast = in_meta_dtype(column, dtype)
        if cast is not column:
            changed[i] = cast
    if not changed:
        return out
    out = out.copy(deep=False)
    for i, column in changed.items():
        out.isetitem(i, column)
    return out
