"""Column counts per dtype of a DataFrame, against ``DataFrame.dtypes``."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pandas as pd
import pytest

from jupyter_mars.engine.frame_dtypes import dtype_counts


def _frames() -> list[pd.DataFrame]:
    wide = pd.DataFrame(np.zeros((3, 1000)))
    mixed = wide.assign(
        a=["x", "y", "z"],
        b=pd.array([1, None, 3], dtype="Int64"),
        c=pd.Categorical(list("abc")),
        d=pd.date_range("2020", periods=3, tz="UTC"),
        e=np.arange(3, dtype=np.int8),
    )
    repeated = pd.DataFrame(np.ones((2, 4)), columns=["a", "a", "b", "b"]).astype({"b": "int32"})
    return [wide, mixed, repeated, pd.DataFrame(), pd.DataFrame(index=[1, 2]), mixed.iloc[:, ::7]]


@pytest.mark.parametrize("case", range(len(_frames())))
def test_the_counts_are_those_of_dtypes(case: int) -> None:
    frame = _frames()[case]
    assert dtype_counts(frame) == dict(Counter(frame.dtypes.tolist()))


class _Columns:
    """A frame-like object with no blocks: counted from its ``dtypes``."""

    columns = ["x", "y", "z"]
    index = [0]
    dtypes = [np.dtype("f8"), np.dtype("i8"), np.dtype("f8")]


@pytest.mark.parametrize("value", [pd.Series([1.0]), np.zeros((2, 2)), [1, 2], None])
def test_values_without_columns_have_no_counts(value: Any) -> None:
    assert dtype_counts(value) is None


def test_a_frame_without_blocks_is_counted_from_its_dtypes() -> None:
    assert dtype_counts(_Columns()) == {np.dtype("f8"): 2, np.dtype("i8"): 1}
