"""Checks of the arguments reductions share, with pandas' meaning of each."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


def check_flag(value: Any, name: str) -> bool:
    """``skipna``, ``numeric_only`` and ``bool_only`` are booleans."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_ddof(ddof: Any) -> int:
    """Delta degrees of freedom: any integer, as pandas takes it."""
    if isinstance(ddof, (bool, np.bool_)) or not isinstance(ddof, (int, np.integer)):
        raise TypeError(f"ddof must be an integer, got {ddof!r}")
    return int(ddof)


def is_numeric(dtype: Any) -> bool:
    """Numbers and booleans: what ``numeric_only`` keeps and moment reductions take."""
    return bool(pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype))


def probe_value(dtype: Any) -> Any:
    """One non-missing value of ``dtype``, for working out result dtypes without data."""
    kind = getattr(dtype, "kind", "O")
    if kind in "iufcb" and isinstance(dtype, np.dtype):
        return np.ones(1, dtype=dtype)
    if kind in "mM" and isinstance(dtype, np.dtype):
        return np.zeros(1, dtype=dtype)
    if isinstance(dtype, pd.CategoricalDtype):  # its first category (missing if none)
        return pd.Categorical.from_codes([0 if len(dtype.categories) else -1], dtype=dtype)
    try:
        return pd.array([1], dtype=dtype)
    except (TypeError, ValueError):
        return pd.array(["a"], dtype=dtype)


def probe_frame(meta: pd.DataFrame) -> pd.DataFrame:
    """A one-row frame with the columns and dtypes of ``meta`` and no missing values."""
    dtypes = meta.dtypes.tolist()
    if dtypes and isinstance(dtypes[0], np.dtype) and len(set(dtypes)) == 1:
        # one NumPy dtype (wide frames often are): one block, however many columns
        row = np.repeat(probe_value(dtypes[0])[None, :], len(dtypes), axis=1)
        return pd.DataFrame(row, index=pd.RangeIndex(1), columns=meta.columns)
    # arrays, not Series: a Series per column costs a reindex each, seconds on wide frames
    data = {i: probe_value(t) for i, t in enumerate(dtypes)}
    frame = pd.DataFrame(data, index=pd.RangeIndex(1))
    frame.columns = meta.columns
    return frame
