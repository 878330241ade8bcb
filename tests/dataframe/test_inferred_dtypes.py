"""infer_objects and convert_dtypes choose the dtypes pandas infers from all values."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, lazy_copy

FRAME = pd.DataFrame(
    {
        "o": pd.Series([1, 2, 3.5, 4], dtype=object),
        "i": pd.Series([1, 2, 3, None], dtype=object),
        "m": pd.Series([1, "a", 2, 3], dtype=object),
        "f": [1.0, 2.0, np.nan, 4.0],
        "g": [1.0, 2.5, 3.0, np.nan],
        "s": list("abcd"),
        "b": pd.Series([True, False, None, True], dtype=object),
        "n": pd.Series([None] * 4, dtype=object),
    }
)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_infer_and_convert_like_pandas(chunk: int | None) -> None:
    df = lazy_copy(FRAME, chunk)
    got = df.infer_objects()
    pd.testing.assert_series_equal(got.dtypes, FRAME.infer_objects().dtypes)
    pd.testing.assert_frame_equal(got.to_pandas(), FRAME.infer_objects())
    got = df.convert_dtypes()
    pd.testing.assert_series_equal(got.dtypes, FRAME.convert_dtypes().dtypes)
    pd.testing.assert_frame_equal(got.to_pandas(), FRAME.convert_dtypes())
    for kwargs in ({"dtype_backend": "pyarrow"},):
        pd.testing.assert_frame_equal(
            df.convert_dtypes(**kwargs).to_pandas(), FRAME.convert_dtypes(**kwargs)
        )
    pd.testing.assert_series_equal(
        df["g"].convert_dtypes().to_pandas(), FRAME["g"].convert_dtypes()
    )
    empty = lazy_copy(FRAME.iloc[:0], chunk)
    pd.testing.assert_frame_equal(
        empty.convert_dtypes().to_pandas(), FRAME.iloc[:0].convert_dtypes()
    )


def test_bad_flag() -> None:
    with pytest.raises(ValueError, match="convert_string"):
        md.DataFrame(FRAME).convert_dtypes(convert_string="yes")


_values = st.one_of(st.none(), st.integers(-3, 3), st.sampled_from([0.5, 2.0]), st.booleans())


@settings(max_examples=25, deadline=None)
@given(values=st.lists(_values, min_size=1, max_size=8), chunk=st.integers(1, 4))
def test_object_columns_hypothesis(values: list[object], chunk: int) -> None:
    data = pd.Series(values, dtype=object)
    s = md.Series(data, chunk_size=chunk)
    pd.testing.assert_series_equal(s.infer_objects().to_pandas(), data.infer_objects())
    pd.testing.assert_series_equal(s.convert_dtypes().to_pandas(), data.convert_dtypes())
