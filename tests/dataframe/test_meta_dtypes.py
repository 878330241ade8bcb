"""Results cast to the metadata's dtype where their values cannot tell it."""

import doctest

import numpy as np
import pandas as pd

from jupyter_mars.dataframe import meta_dtypes
from jupyter_mars.dataframe.meta_dtypes import frame_in_meta_dtypes, in_meta_dtype


def test_the_examples_hold():
    assert doctest.testmod(meta_dtypes).failed == 0


def test_nullable_and_date_dtypes_are_taken_and_others_left():
    floats = pd.Series([1.0, np.nan])
    assert in_meta_dtype(floats, pd.Float64Dtype()).isna().tolist() == [False, True]
    assert in_meta_dtype(floats, np.dtype("float32")) is floats  # not the metadata's job
    nat = pd.Series(pd.to_datetime([None]))
    cast = in_meta_dtype(nat, pd.DatetimeTZDtype("us", "UTC"))
    assert str(cast.dtype) == "datetime64[us, UTC]"
    objects = pd.Series([pd.NA, "x"], dtype=object)
    assert in_meta_dtype(objects, pd.Int64Dtype()) is objects  # strings stay objects


def test_a_frame_is_cast_column_by_column_and_kept_where_nothing_changes():
    meta = pd.DataFrame({"a": pd.array([], dtype="Int64"), "b": np.array([], dtype=float)})
    out = pd.DataFrame({"a": [2, 0], "b": [1.5, np.nan]})
    cast = frame_in_meta_dtypes(out, meta)
    assert cast.dtypes.tolist() == [pd.Int64Dtype(), np.dtype(float)]
    assert out.dtypes.tolist() == [np.dtype("int64"), np.dtype(float)]  # not in place
    same = pd.DataFrame({"a": pd.array([1], dtype="Int64"), "b": [0.5]})
    assert frame_in_meta_dtypes(same, meta) is same
