"""Element-wise tests and conversions against NumPy over three chunkings."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_F = np.array([[np.inf, -np.inf, 0.0, -0.0], [np.nan, 1.0, -2.5, np.inf], [3, 4, 5, -np.inf]])


@pytest.mark.parametrize("chunks", chunkings(_F.shape))
def test_infinity_tests_match_numpy(chunks: object) -> None:
    x = mt.tensor(_F, chunk_size=chunks)
    assert_same(mt.isposinf(x), np.isposinf(_F))
    assert_same(mt.isneginf(x), np.isneginf(_F))
    assert_same(mt.isposinf(mt.arange(3)), np.isposinf(np.arange(3)))
    with pytest.raises(TypeError, match="not supported for complex128"):
        mt.isneginf(mt.ones(2, dtype=complex))


def test_asarray_chkfinite_checks_each_chunk_at_execute() -> None:
    a = np.arange(6.0)
    for chunks in chunkings(a.shape):
        assert_same(mt.asarray_chkfinite(mt.tensor(a, chunk_size=chunks)), a)
    assert_same(mt.asarray_chkfinite([1, 2], dtype=np.float32), np.asarray([1, 2], np.float32))
    bad = mt.asarray_chkfinite(mt.tensor(_F, chunk_size=2))  # lazy: no error yet
    with pytest.raises(ValueError, match="must not contain infs or NaNs"):
        bad.execute()


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.float32, np.complex64])
def test_sort_complex_matches_numpy(dtype: type) -> None:
    a = (np.array([[5, 1, 4], [2, 2, 0]]) * np.array(1, dtype=dtype)).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * np.array([[1, 0, -1], [3, -3, 0]]).astype(dtype)
    for chunks in chunkings(a.shape):
        assert_same(mt.sort_complex(mt.tensor(a, chunk_size=chunks)), np.sort_complex(a))


def test_array_equiv_matches_numpy() -> None:
    a = np.array([[1, 2], [1, 2]])
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert bool(mt.array_equiv(x, [1, 2]).execute().fetch()) is np.array_equiv(a, [1, 2])
        assert bool(mt.array_equiv(x, [1, 3]).execute().fetch()) is np.array_equiv(a, [1, 3])
    assert mt.array_equiv(mt.ones(3), mt.ones(2)) is False
