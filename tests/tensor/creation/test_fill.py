"""``ones``, ``zeros``, ``empty`` and ``full`` against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.creation.helpers import shape_and_chunks

SHAPES = [(), (0,), (7,), (5, 4), (3, 0, 2), (4, 5, 3)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [None, np.int32, np.bool_, np.complex64])
def test_ones_zeros_match_numpy_over_chunkings(shape: tuple[int, ...], dtype: Any) -> None:
    for chunk in chunkings(shape):
        assert_same(mt.ones(shape, dtype=dtype, chunk_size=chunk), np.ones(shape, dtype=dtype))
        assert_same(mt.zeros(shape, dtype=dtype, chunk_size=chunk), np.zeros(shape, dtype=dtype))


@pytest.mark.parametrize("shape", SHAPES)
def test_empty_has_numpy_shape_and_dtype(shape: tuple[int, ...]) -> None:
    for chunk in chunkings(shape):
        got = mt.empty(shape, dtype=np.float32, chunk_size=chunk).execute().fetch()
        assert got.shape == shape
        assert got.dtype == np.float32


def test_ones_accepts_int_shape_and_fortran_order() -> None:
    assert_same(mt.ones(4, chunk_size=3), np.ones(4))
    got = mt.zeros((3, 4), order="F", chunk_size=(3, 4)).execute().fetch()
    assert got.flags.f_contiguous
    assert_same(got, np.zeros((3, 4), order="F"))


@given(shape_and_chunks(), st.sampled_from([0, 2.5, -3, True, 1 + 2j]))
def test_full_matches_numpy_for_any_chunk_form(sc: Any, value: Any) -> None:
    shape, chunk = sc
    assert_same(mt.full(shape, value, chunk_size=chunk), np.full(shape, value))


@pytest.mark.parametrize("shape", [(5, 4), (3, 2, 4)])
def test_full_broadcasts_an_array_fill_value_per_chunk(shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(0)
    fill = rng.random(shape[-1])
    column = rng.random((shape[-2], 1))
    for chunk in chunkings(shape):
        assert_same(mt.full(shape, fill, chunk_size=chunk), np.full(shape, fill))
        assert_same(mt.full(shape, column, chunk_size=chunk), np.full(shape, column))


def test_full_casts_the_fill_value_as_numpy() -> None:
    assert_same(mt.full((3, 2), 2.7, dtype=np.int16, chunk_size=2), np.full((3, 2), 2.7, np.int16))
    assert_same(mt.full(3, "ab", chunk_size=2), np.full(3, "ab"))
    assert_same(mt.full(4, 300.5, dtype=np.uint8, chunk_size=3), np.full(4, 300.5, dtype=np.uint8))
    with pytest.raises(OverflowError):
        np.full(4, -1, dtype=np.uint8)
    with pytest.raises(OverflowError):
        mt.full(4, -1, dtype=np.uint8)


def test_full_with_a_tensor_fill_value_broadcasts_it() -> None:
    fill = np.arange(4.0)
    got = mt.full((5, 4), mt.tensor(fill, chunk_size=3), chunk_size=2)
    assert_same(got, np.full((5, 4), fill))
    assert_same(mt.full((2, 4), mt.tensor(fill), dtype=int), np.full((2, 4), fill, dtype=int))


def test_full_fill_errors_match_numpy() -> None:
    with pytest.raises(ValueError, match="broadcast"):
        mt.full((2, 3), [1, 2])
    with pytest.raises(ValueError, match="broadcast"):
        mt.full((2, 3), mt.tensor([1, 2]))
    with pytest.raises(ValueError, match="convert"):
        mt.full(3, "abc", dtype=float)
    with pytest.raises(TypeError):
        mt.full(3, [object()])
    with pytest.raises(ValueError, match="broadcast"):
        mt.full_like(np.zeros(3), [1, 2])
