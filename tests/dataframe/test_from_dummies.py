"""``md.from_dummies`` against pandas, over several chunkings, and pandas' errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md


def _dummies() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "col1_a": [1, 0, 0, 1, 0],
            "col1_b": [0, 1, 1, 0, 0],
            "col2_a": [0, 1, 0, 0, 1],
            "col2_b": [1, 0, 0, 1, 0],
            "col2_c": [0, 0, 1, 0, 0],
        },
        index=[10, 11, 12, 13, 14],
    )


CASES: list[dict[str, Any]] = [
    {"sep": "_", "default_category": "none"},
    {"sep": "_", "default_category": {"col1": "d", "col2": "e"}},
]


@pytest.mark.parametrize("chunk", [1, 2, None])
@pytest.mark.parametrize("kwargs", CASES)
def test_from_dummies_matches_pandas(chunk: int | None, kwargs: dict[str, Any]) -> None:
    dummies = _dummies()
    got = md.from_dummies(md.DataFrame(dummies, chunk_size=chunk or 5), **kwargs)
    expected = pd.from_dummies(dummies, **kwargs)
    assert list(got.dtypes) == list(expected.dtypes)
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


@pytest.mark.parametrize("chunk", [1, 2])
def test_from_dummies_of_get_dummies_round_trips(chunk: int) -> None:
    frame = pd.DataFrame({"c": list("abcab")})
    dummies = md.get_dummies(md.DataFrame(frame, chunk_size=chunk))
    got = md.from_dummies(dummies, sep="_")
    pd.testing.assert_frame_equal(got.to_pandas(), pd.from_dummies(pd.get_dummies(frame), sep="_"))
    bools = pd.DataFrame({"x": [True, False], "y": [False, True]})
    pd.testing.assert_frame_equal(
        md.from_dummies(md.DataFrame(bools, chunk_size=1)).to_pandas(), pd.from_dummies(bools)
    )


@pytest.mark.parametrize(
    ("data", "kwargs"),
    [
        (_dummies(), {"sep": 1}),
        (_dummies().rename(columns={"col1_a": "col1a"}), {"sep": "_"}),
        (_dummies(), {"sep": "_", "default_category": {"col1": "d"}}),
        (_dummies(), {"sep": "_", "default_category": ["d"]}),
        (_dummies().astype(str), {"sep": "_"}),
        (pd.DataFrame({"a": pd.to_datetime(["2020-01-01"])}), {}),
    ],
)
def test_from_dummies_raises_pandas_errors_at_the_call(
    data: pd.DataFrame, kwargs: dict[str, Any]
) -> None:
    with pytest.raises(Exception) as expected:  # noqa: PT011 - the type is pandas' to say
        pd.from_dummies(data, **kwargs)
    with pytest.raises(expected.type):
        md.from_dummies(md.DataFrame(data, chunk_size=2), **kwargs)
    with pytest.raises(TypeError, match="Expected 'data' to be a 'DataFrame'"):
        md.from_dummies(md.Series(data.iloc[:, 0]))


@pytest.mark.parametrize(
    ("column", "values", "match"),
    [
        ("col1_b", [1, 1, 1, 0, 0], "multi-assignment"),
        ("col2_c", [0, 0, 0, 0, 0], "unassigned"),
        ("col2_c", [0, 0, np.nan, 0, 0], "NA value"),
    ],
)
def test_from_dummies_raises_for_bad_values_when_computed(
    column: str, values: list[Any], match: str
) -> None:
    dummies = _dummies()
    dummies[column] = values
    with pytest.raises(ValueError, match=match):
        pd.from_dummies(dummies, sep="_")
    got = md.from_dummies(md.DataFrame(dummies, chunk_size=2), sep="_")
    with pytest.raises(ValueError, match=match):
        got.to_pandas()
