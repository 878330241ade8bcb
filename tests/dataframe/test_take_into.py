"""Columns gathered into part of a larger array, against ``np.take`` on the same data."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jupyter_mars.dataframe import take_into
from jupyter_mars.dataframe.take_into import take_columns_into

DTYPES = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex128", "datetime64[ns]", "timedelta64[s]", "datetime64[D]",
    ">f8", ">i4",
]  # fmt: skip


def _source(dtype: str, rows: int = 5, cols: int = 12) -> np.ndarray[Any, Any]:
    values = np.random.default_rng(1).integers(0, 100, (rows, cols))
    return values.astype(np.dtype(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fortran", [False, True])
def test_the_columns_land_in_a_strided_slice(dtype: str, fortran: bool) -> None:
    source = np.asfortranarray(_source(dtype)) if fortran else _source(dtype)
    pick = np.array([0, 3, 11, 5, 3])
    big = np.zeros((5, 20), dtype=source.dtype)
    take_columns_into(big[:, 7:12], source, pick)
    np.testing.assert_array_equal(big[:, 7:12], np.take(source, pick, axis=1))
    assert not big[:, :7].any()  # nothing written outside
    assert not big[:, 12:].any()


def test_native_dtypes_use_pandas_kernels_and_others_numpy() -> None:
    if not take_into.KERNELS:
        pytest.skip("this pandas has no compiled take kernels")
    assert np.dtype("float64") in take_into.KERNELS
    assert np.dtype(">f8") not in take_into.KERNELS
    assert np.dtype("complex128") not in take_into.KERNELS


@pytest.mark.parametrize("dtype", ["float64", "int32", "bool", "datetime64[ns]"])
def test_numpy_alone_gives_the_same(dtype: str, monkeypatch: pytest.MonkeyPatch) -> None:
    source, pick = _source(dtype), np.array([4, 1, 1, 9])
    with_kernels = np.empty((5, 4), dtype=source.dtype)
    take_columns_into(with_kernels, source, pick)
    monkeypatch.setattr(take_into, "KERNELS", {})
    without = np.empty((5, 4), dtype=source.dtype)
    take_columns_into(without, source, pick)
    np.testing.assert_array_equal(with_kernels, without)


def test_bad_arguments_are_refused_before_anything_is_read() -> None:
    source = _source("float64")
    with pytest.raises(ValueError, match="shape"):
        take_columns_into(np.empty((5, 3)), source, [0, 1])
    with pytest.raises(TypeError, match="dtype"):
        take_columns_into(np.empty((5, 2), dtype=np.float32), source, [0, 1])
    for outside in ([0, 12], [-1, 0]):
        with pytest.raises(IndexError, match="out of range"):
            take_columns_into(np.empty((5, 2)), source, outside)


def test_no_column_writes_nothing() -> None:
    out = np.empty((5, 0))
    take_columns_into(out, _source("float64"), np.array([], dtype=np.intp))
    assert out.shape == (5, 0)


@given(
    st.integers(0, 6),
    st.integers(1, 9),
    st.lists(st.integers(0, 8), max_size=12),
    st.sampled_from(["float64", "int16", "uint8", "bool"]),
)
def test_any_shape_and_positions(rows: int, cols: int, positions: list[int], dtype: str) -> None:
    source = _source(dtype, rows, cols)
    pick = np.array([p % cols for p in positions], dtype=np.intp)
    out = np.empty((rows, len(pick) + 2), dtype=source.dtype)[:, 1:-1]
    take_columns_into(out, source, pick)
    np.testing.assert_array_equal(out, np.take(source, pick, axis=1))
