"""replace against pandas over several row chunkings, in every form pandas takes."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
from jupyter_mars.dataframe import replace_numbers
from jupyter_mars.dataframe.replace_numbers import BLOCK, number_plan
from tests.dataframe.helpers import CHUNKS, lazy_copy


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "a": [1, 2, 3, 1, 5, 1, 7],
            "b": [1.5, np.nan, 3.0, 1.0, 2.0, 1.0, 0.0],
            "c": list("xyzxyab"),
        },
        index=pd.Index(list("pqrstuv"), name="k"),
    )


CASES: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1, 10), {}),
    ((1, 2.5), {}),
    (([1, 2], 0), {}),
    (([1, 2], [20, 30]), {}),
    (({1: 100, "x": "X"},), {}),
    (({"a": {1: -1}, "c": {"y": "Y"}},), {}),
    (({"a": 1, "b": 1.0}, 99), {}),
    ((1, {"a": 5, "b": 6}), {}),
    ((r"^[xy]$", "Q"), {"regex": True}),
    ((), {"regex": {"x": "w"}}),
    (("x", 1), {}),
    ((1, None), {}),
    ((np.nan, 0), {}),
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize(("args", "kwargs"), CASES)
def test_replace_frame_matches_pandas(chunk: int | None, args: Any, kwargs: Any) -> None:
    pdf = _frame()
    got = lazy_copy(pdf, chunk).replace(*args, **kwargs)
    expected = pdf.replace(*args, **kwargs)
    pd.testing.assert_series_equal(got.dtypes, expected.dtypes)
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_replace_series_matches_pandas(chunk: int | None) -> None:
    s = _frame()["c"]
    for args in [("x", "X"), ({"x": "1", "y": "2"},), (["a", "b"], "ab")]:
        got = lazy_copy(s, chunk).replace(*args)
        pd.testing.assert_series_equal(got.to_pandas(), s.replace(*args))
    got = lazy_copy(s, chunk).replace(r"[a-x]", "_", regex=True)
    pd.testing.assert_series_equal(got.to_pandas(), s.replace(r"[a-x]", "_", regex=True))


def test_replace_upcasts_every_chunk_alike() -> None:
    """A match in one chunk only still gives one dtype: the one pandas gives on a match."""
    s = pd.Series([1, 2, 3, 4])
    got = md.Series(s, chunk_size=2).replace(1, 0.5)
    assert got.dtype == np.float64
    pd.testing.assert_series_equal(got.to_pandas(), s.replace(1, 0.5))


def test_replace_bad_arguments_raise_at_the_call() -> None:
    df = md.DataFrame(_frame(), chunk_size=3)
    with pytest.raises(ValueError, match="length"):
        df.replace([1, 2], [1, 2, 3])
    with pytest.raises(TypeError):
        df.replace(1, 2, method="pad")


@given(
    st.lists(st.integers(0, 4), min_size=1, max_size=12),
    st.integers(1, 5),
    st.lists(st.integers(0, 4), min_size=1, max_size=3),
)
def test_replace_any_chunking(values: list[int], chunk: int, olds: list[int]) -> None:
    s = pd.Series(values, dtype=np.int64)
    got = md.Series(s, chunk_size=chunk).replace(olds, -1).to_pandas()
    pd.testing.assert_series_equal(got, s.replace(olds, -1))


def _numbers() -> pd.DataFrame:
    """Number columns of several widths, with NaN, on a named index."""
    return pd.DataFrame(
        {
            "i": np.array([1, 2, 3, 1, 2, 0, 7], dtype=np.int64),
            "u": np.array([1, 2, 200, 1, 0, 255, 3], dtype=np.uint8),
            "f": [0.5, np.nan, 1.0, 0.5, 2.0, -0.0, 0.1],
            "g": np.array([0.5, 0.1, 1.0, 2.0, 0.5, 3.0, 1.0], dtype=np.float32),
            "b": [True, False, True, True, False, False, True],
            "s": list("abcabca"),
        },
        index=pd.Index(list("pqrstuv"), name="k"),
    )


NUMBER_CASES: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    (({"i": {1: -1, 2: -2}, "f": {0.5: 0.0}},), {}),  # the NumPy path
    (({"i": {1: 2, 2: 1}},), {}),  # a swap: every match found on the original values
    (({"i": {1: 2.5}},), {}),  # an upcast to float
    (({"i": {1.5: 9, 1.0: 8}},), {}),  # 1.5 never matches an int, 1.0 matches 1
    (({"u": {1: -1}},), {}),  # a value the uint8 cannot hold: pandas upcasts
    (({"u": {200: 300}},), {}),
    (({"u": {1: 250}},), {}),
    (({"g": {0.1: 9.0, 0.5: 0.25}},), {}),  # float32 cannot hold 0.1: never a match
    (({"f": {np.nan: 0.0, 0.0: 5.0}},), {}),  # NaN matches NaN; 0.0 matches -0.0
    (({"f": {0.5: np.nan}},), {}),
    (({1: 10, 2: 20},), {}),  # every column, the bool and string ones included
    ((1, 100), {}),
    (([1, 2], [2, 1]), {}),
    (([0.5, 2], -1), {}),
    (({"b": {True: False}},), {}),  # bools go to pandas
    (({"i": {True: 5}},), {}),  # True is not 1 for pandas
    (({"s": {"a": 1}, "i": {1: 0}},), {}),  # one column needs pandas: all do
    (({"i": {2**70: 1, 7: 5}},), {}),  # an old value beyond int64 never matches
]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize(("args", "kwargs"), NUMBER_CASES)
def test_replace_numbers_matches_pandas(chunk: int | None, args: Any, kwargs: Any) -> None:
    pdf = _numbers()
    got = lazy_copy(pdf, chunk).replace(*args, **kwargs)
    expected = pdf.replace(*args, **kwargs)
    pd.testing.assert_series_equal(got.dtypes, expected.dtypes)
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("column", ["i", "u", "f", "g"])
def test_replace_numbers_in_a_series_matches_pandas(chunk: int | None, column: str) -> None:
    s = _numbers()[column]
    for args in [(1, 0), ({0.5: 1, 2: 3},), ([1, 2, 3], [3, 2, 1]), (np.nan, 4)]:
        got = lazy_copy(s, chunk).replace(*args).to_pandas()
        pd.testing.assert_series_equal(got, s.replace(*args))


def test_replace_numbers_leaves_the_input_alone() -> None:
    pdf = _numbers()
    lazy = md.DataFrame(pdf, chunk_size=3)
    got = lazy.replace({"i": {1: -1}}).to_pandas()
    pd.testing.assert_frame_equal(lazy.to_pandas(), pdf)
    assert (got["i"] == -1).sum() == 2


def test_replace_numbers_takes_numpy_where_pandas_is_not_needed() -> None:
    i8, f8, o = np.dtype("int64"), np.dtype("float64"), np.dtype("O")
    assert number_plan([i8, f8], [i8, f8], [[(1, -1)], [(0.5, 0.0)]]) is not None
    assert number_plan([i8, o], [i8, o], [[(1, -1)], []]) is not None  # o untouched
    assert number_plan([i8, o], [i8, o], [[(1, -1)], [(1, -1)]]) is None
    assert number_plan([i8], [i8], [[(True, 2)]]) is None
    assert number_plan([np.dtype(bool)], [np.dtype(bool)], [[(1, 0)]]) is None


@pytest.mark.parametrize("chunk", [None, 70_001])
def test_replace_numbers_across_blocks_matches_pandas(chunk: int | None) -> None:
    """Columns longer than a NumPy pass: matches first found in a later block, or none."""
    n = 3 * BLOCK + 5
    pdf = pd.DataFrame({"i": np.arange(n) % 1000, "f": np.linspace(0, 1, n)})
    pdf.iloc[-3, 0] = -7
    for args in [({"i": {-7: 7}},), ({"i": {5: 0, 0: 5}, "f": {0.0: np.nan}},), (1.5, 2.5)]:
        got = lazy_copy(pdf, chunk).replace(*args).to_pandas()
        pd.testing.assert_frame_equal(got, pdf.replace(*args))


NUMBERS = [0, 1, -1, 2.0, 0.5, 0.1, np.nan, 300, 2**40, 2**64 - 1, 2**70, np.float32(0.1), 1e300]


@given(
    st.sampled_from(["int8", "uint8", "int32", "int64", "uint64", "float32", "float64"]),
    st.sampled_from(NUMBERS),
    st.sampled_from(NUMBERS),
    st.integers(1, 4),
)
def test_replace_one_number_gives_pandas_dtype(dtype: str, old: Any, new: Any, chunk: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # pandas' own casts overflow
        s = pd.Series([0, 1, 2, 3, 1], dtype=dtype)
        if replace_numbers.holds(np.dtype(dtype), old):  # a row holding the old value
            s = pd.concat([s, pd.Series([old]).astype(dtype)], ignore_index=True)
        lazy = md.Series(s, chunk_size=chunk)
        try:
            expected = s.replace(old, new)
        except Exception as exc:  # noqa: BLE001 - pandas fails on some huge numbers
            with pytest.raises(type(exc)):
                lazy.replace(old, new).to_pandas()
            return
        got = lazy.replace(old, new)
        assert got.dtype == expected.dtype
        pd.testing.assert_series_equal(got.to_pandas(), expected)
