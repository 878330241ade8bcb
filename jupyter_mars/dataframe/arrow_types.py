"""Mars's Arrow-backed extension types, as pandas' own Arrow-backed types.

Mars shipped ``ArrowStringDtype`` / ``ArrowStringArray`` and ``ArrowListDtype`` /
``ArrowListArray`` because pandas had none at the time. pandas now has them, so these
names build pandas' types, which every pandas call (and so every chunk kernel) knows:

- ``ArrowStringDtype()`` is ``pd.StringDtype("pyarrow")``, and ``ArrowStringArray(values)``
  a ``pandas.arrays.ArrowStringArray`` of that dtype;
- ``ArrowListDtype(value_type)`` is ``pd.ArrowDtype(pa.list_(value_type))`` (``value_type``
  a pyarrow type, or anything NumPy reads as a dtype), and ``ArrowListArray(values)`` a
  ``pandas.arrays.ArrowExtensionArray`` of lists.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

__all__ = ["ArrowListArray", "ArrowListDtype", "ArrowStringArray", "ArrowStringDtype"]


def ArrowStringDtype() -> pd.StringDtype:  # noqa: N802 - Mars's name for a type
    """pandas' Arrow-backed string dtype (``"string[pyarrow]"``)."""
    return pd.StringDtype("pyarrow")


def ArrowStringArray(values: Any, dtype: Any = None, copy: bool = False) -> Any:  # noqa: N802
    """Strings (None or NaN for missing) as pandas' Arrow-backed string array."""
    if dtype is not None and pd.api.types.pandas_dtype(dtype) != ArrowStringDtype():
        raise TypeError(f"dtype must be an Arrow string dtype, got {dtype!r}")
    return pd.array(values, dtype=ArrowStringDtype(), copy=copy)


def _arrow_type(value_type: Any) -> pa.DataType:
    if isinstance(value_type, pa.DataType):
        return value_type
    if isinstance(value_type, pd.ArrowDtype):
        return value_type.pyarrow_dtype
    if isinstance(value_type, pd.StringDtype) or value_type in (str, "str", "string"):
        return pa.string()
    return pa.from_numpy_dtype(np.dtype(value_type))


def ArrowListDtype(value_type: Any) -> pd.ArrowDtype:  # noqa: N802 - Mars's name for a type
    """pandas' Arrow dtype of lists of ``value_type``."""
    return pd.ArrowDtype(pa.list_(_arrow_type(value_type)))


def ArrowListArray(values: Any, dtype: Any = None) -> Any:  # noqa: N802
    """Lists (None for missing) as pandas' Arrow-backed array; the value type is inferred
    by pyarrow unless ``dtype`` (an ``ArrowListDtype``) is given."""
    if dtype is None:
        array = pa.array(list(values))
        if not pa.types.is_list(array.type) and not pa.types.is_null(array.type):
            raise TypeError(f"values must be lists, got values of type {array.type}")
        dtype = pd.ArrowDtype(array.type if pa.types.is_list(array.type) else pa.list_(pa.null()))
    if not (isinstance(dtype, pd.ArrowDtype) and pa.types.is_list(dtype.pyarrow_dtype)):
        raise TypeError(f"dtype must be an ArrowListDtype, got {dtype!r}")
    return pd.array(list(values), dtype=dtype)
