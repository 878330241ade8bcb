"""Series.list and Series.struct over Arrow list and struct columns, against pandas."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest

import jupyter_mars.dataframe as md

LISTS = pd.Series(
    [[1, 2], [3], None, [4, 5, 6], [7]], dtype=pd.ArrowDtype(pa.list_(pa.int64())), name="l"
)
STRUCTS = pd.Series(
    [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}, None],
    dtype=pd.ArrowDtype(pa.struct([("a", pa.int64()), ("b", pa.string())])),
)


@pytest.mark.parametrize("chunk", [1, 2, 5])
def test_list_accessor(chunk: int) -> None:
    s = md.Series(LISTS, chunk_size=chunk)
    pd.testing.assert_series_equal(s.list.len().to_pandas(), LISTS.list.len())
    pd.testing.assert_series_equal(s.list[0].to_pandas(), LISTS.list[0])
    pd.testing.assert_series_equal(s.list[:2].to_pandas(), LISTS.list[:2])
    pd.testing.assert_series_equal(s.list.flatten().to_pandas(), LISTS.list.flatten())


@pytest.mark.parametrize("chunk", [1, 2, 3])
def test_struct_accessor(chunk: int) -> None:
    s = md.Series(STRUCTS, chunk_size=chunk)
    pd.testing.assert_series_equal(s.struct.dtypes, STRUCTS.struct.dtypes)
    pd.testing.assert_series_equal(s.struct.field("b").to_pandas(), STRUCTS.struct.field("b"))
    pd.testing.assert_series_equal(s.struct.field(0).to_pandas(), STRUCTS.struct.field(0))
    pd.testing.assert_frame_equal(s.struct.explode().to_pandas(), STRUCTS.struct.explode())


def test_wrong_dtype_raises_pandas_error() -> None:
    with pytest.raises(AttributeError, match="list"):
        md.Series([1, 2]).list  # noqa: B018 - the property raises
    with pytest.raises(AttributeError, match="struct"):
        md.Series([1, 2]).struct  # noqa: B018
