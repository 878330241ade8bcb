"""``arange`` and ``linspace`` against NumPy, bit for bit."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

arange: Any = mt.arange  # called with a variable number of positional arguments


ARANGE_CASES: list[tuple[Any, ...]] = [
    (10,),
    (0,),
    (-3,),
    (2, 11),
    (11, 2, -3),
    (0.1, 2.0, 0.3),
    (1.5,),
    (-1, 1, 0.1),
    (np.float32(0.5), 7, np.float32(0.7)),
    (np.int8(3), np.int8(50), np.int8(7)),
    (True, 3),
    (1e-300, 1, 1e300),
    (0, 5, 1 + 0j),
    (1 + 1j, 9 + 4j, 1 + 1j),
]


@pytest.mark.parametrize("args", ARANGE_CASES)
def test_arange_matches_numpy_bit_for_bit(args: tuple[Any, ...]) -> None:
    expected = np.arange(*args)
    for chunk in chunkings(expected.shape):
        got = arange(*args, chunk_size=chunk).execute().fetch()
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize(
    ("args", "dtype"),
    [
        ((0, 10, 1.5), np.int32),
        ((0.5, 5), int),
        ((0, 10), np.float16),
        ((-100, 100, 37), np.int8),
        ((0, 2), bool),
        ((3, 40, 3), np.uint64),
        ((0, 3, 0.25), np.float32),
        ((0, 5), np.complex64),
    ],
)
def test_arange_with_dtype_matches_numpy(args: tuple[Any, ...], dtype: Any) -> None:
    expected = np.arange(*args, dtype=dtype)
    got = arange(*args, dtype=dtype, chunk_size=3).execute().fetch()
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@given(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(0.01, 1e5),
    st.booleans(),
    st.integers(1, 40),
    st.sampled_from([None, np.float32, np.int64]),
)
def test_arange_hypothesis_matches_numpy(
    start: float, span: float, step: float, down: bool, chunk: int, dtype: Any
) -> None:
    step = -step if down else step
    stop = start + span
    expected = np.arange(start, stop, step, dtype=dtype)
    if expected.size > 500:
        return
    got = mt.arange(start, stop, step, dtype=dtype, chunk_size=chunk).execute().fetch()
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_arange_errors_match_numpy() -> None:
    with pytest.raises(ZeroDivisionError):
        mt.arange(0, 5, 0)
    with pytest.raises(ValueError, match="cannot compute length"):
        mt.arange(0, float("nan"))
    with pytest.raises(ValueError, match="Maximum allowed size"):
        mt.arange(0, float("inf"))
    with pytest.raises(TypeError, match="booleans"):
        mt.arange(3, dtype=bool)
    with pytest.raises(TypeError, match="scalar"):
        mt.arange((1, 2))
    with pytest.raises(TypeError):
        mt.arange("a")
    with pytest.raises(TypeError, match="tensor"):
        mt.arange(mt.tensor(5))
    with pytest.raises(TypeError):
        mt.arange(5, dtype="not-a-dtype")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start": 0, "stop": 1, "num": 7},
        {"start": 2.5, "stop": -3, "num": 50},
        {"start": 0, "stop": 1, "num": 7, "endpoint": False},
        {"start": 0, "stop": 10, "num": 6, "dtype": int},
        {"start": -5, "stop": 5, "num": 11, "dtype": np.int16},
        {"start": np.float32(0), "stop": 1.5, "num": 9},
        {"start": 1, "stop": 1, "num": 4},
        {"start": 0, "stop": 1, "num": 1},
        {"start": 0, "stop": 1, "num": 0},
        {"start": 0, "stop": 5e-324, "num": 4},
        {"start": 0j, "stop": 3 + 3j, "num": 5},
        {"start": [0, 1, 2], "stop": 5, "num": 4},
        {"start": [0, 1, 2], "stop": [[5], [6]], "num": 3, "axis": 1},
        {"start": np.zeros(3, np.float32), "stop": 2.0, "num": 5, "axis": -1},
    ],
)
def test_linspace_matches_numpy_bit_for_bit(kwargs: dict[str, Any]) -> None:
    expected = np.linspace(**kwargs)
    for chunk in chunkings(expected.shape):
        got = mt.linspace(**kwargs, chunk_size=chunk).execute().fetch()
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


@given(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.integers(0, 60),
    st.booleans(),
    st.integers(1, 20),
)
def test_linspace_hypothesis_matches_numpy(
    start: float, stop: float, num: int, endpoint: bool, chunk: int
) -> None:
    expected = np.linspace(start, stop, num, endpoint=endpoint)
    got = mt.linspace(start, stop, num, endpoint=endpoint, chunk_size=chunk).execute().fetch()
    np.testing.assert_array_equal(got, expected)


def test_linspace_retstep_returns_numpy_step() -> None:
    t, step = mt.linspace(0, 1, 5, retstep=True, chunk_size=2)
    expected, expected_step = np.linspace(0, 1, 5, retstep=True)
    assert step == expected_step
    assert_same(t, expected)
    _, step1 = mt.linspace(0, 1, 1, retstep=True)
    assert np.isnan(step1)


def test_linspace_errors_match_numpy() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        mt.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        mt.linspace(0, 1, 2.5)
    with pytest.raises(np.exceptions.AxisError):
        mt.linspace(0, 1, 5, axis=1)
    with pytest.raises(TypeError, match="tensor"):
        mt.linspace(mt.tensor(0.0), 1)
    with pytest.raises(TypeError):
        mt.linspace(0, 1, 5, dtype="nope")
