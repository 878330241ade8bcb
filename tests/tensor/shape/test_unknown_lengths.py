"""Shape functions on data-dependent (``nan``) lengths, through iterative tiling."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.core import Tensor
from tests.conftest import assert_same
from tests.tensor.shape.helpers import (
    assert_all_same,
    axis_chunks,
    data,
    np_rows_above,
    reshape_targets,
    rows_above,
)


@pytest.fixture
def masked() -> tuple[Tensor, np.ndarray]:
    a = data((10, 2))
    return rows_above(mt.tensor(a, chunk_size=(3, 2)), 5.0), np_rows_above(a, 5.0)


def test_reshape_of_unknown_lengths_uses_iterative_tiling(masked: Any) -> None:
    x, e = masked
    assert math.isnan(x.shape[0])
    y = x.reshape(-1)
    assert math.isnan(y.shape[0])
    assert_same(y, e.reshape(-1))
    assert y.shape == (e.size,)
    assert_same(x.reshape(1, -1, 1), e.reshape(1, -1, 1))
    assert_same(mt.ravel(x), e.ravel())


def test_reshape_of_unknown_lengths_checks_the_size_at_execution(masked: Any) -> None:
    x, e = masked
    y = x.reshape(e.size + 1)
    with pytest.raises(ValueError, match="cannot reshape array of size"):
        y.execute()


def test_shape_functions_on_unknown_lengths(masked: Any) -> None:
    x, e = masked
    assert_same(mt.roll(x, 3, 0), np.roll(e, 3, 0))
    assert_same(mt.roll(x, 1), np.roll(e, 1))
    assert_all_same(mt.array_split(x, 3), np.array_split(e, 3))
    assert_all_same(mt.split(x, [1, 2]), np.split(e, [1, 2]))
    assert_same(x.rechunk(2), e)
    assert_same(x.T, e.T)
    assert_same(mt.flip(x, 0), np.flip(e, 0))
    assert_same(mt.expand_dims(x, 1), np.expand_dims(e, 1))
    assert_same(mt.concatenate([x, x]), np.concatenate([e, e]))
    assert_same(mt.concatenate([x, x], axis=1), np.concatenate([e, e], axis=1))
    assert_same(mt.tile(x, (2, 1)), np.tile(e, (2, 1)))
    assert_same(mt.repeat(x, 2, axis=0), np.repeat(e, 2, axis=0))
    assert_same(mt.squeeze(mt.split(x, [1], axis=1)[0], 1), e[:, 0])


def test_concatenate_of_different_unknown_lengths_is_checked_at_execution() -> None:
    a = data((8, 2))
    x = rows_above(mt.tensor(a, chunk_size=3), 5.0)
    y = rows_above(mt.tensor(a, chunk_size=3), 2.0)
    with pytest.raises(ValueError, match="along dimension 0"):
        mt.concatenate([x, y], axis=1).execute()
    z = mt.concatenate([x, y])
    assert_same(z, np.concatenate([np_rows_above(a, 5.0), np_rows_above(a, 2.0)]))


def test_split_into_unequal_unknown_sections_fails_at_execution() -> None:
    a = np.arange(10.0)
    x = rows_above(mt.tensor(a, chunk_size=3), 2.5)  # 7 elements
    with pytest.raises(ValueError, match="equal division"):
        mt.split(x, 2)[0].execute()


@pytest.mark.parametrize("threshold", [9.0, 100.0])
def test_reshape_of_unknown_lengths_with_empty_chunks(threshold: float) -> None:
    a = data((10, 2))
    x = rows_above(mt.tensor(a, chunk_size=(2, 2)), threshold)
    e = np_rows_above(a, threshold)
    assert_same(x.reshape(-1), e.reshape(-1))
    assert_same(x.reshape(-1, 1, 2), e.reshape(-1, 1, 2))
    assert_same(mt.transpose(x).reshape(-1), e.T.reshape(-1))


def test_squeeze_of_an_unknown_length_axis_in_several_chunks() -> None:
    a = np.arange(10.0).reshape(10, 1)
    x = rows_above(mt.tensor(a, chunk_size=(3, 1)), 8.5)  # one row left, four chunks
    assert_same(mt.squeeze(x, 0), np.squeeze(np_rows_above(a, 8.5), 0))
    y = rows_above(mt.tensor(a, chunk_size=(3, 1)), 5.5)  # four rows
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out"):
        mt.squeeze(y, 0).execute()


@given(st.data())
def test_reshape_of_random_unknown_lengths(data_: Any) -> None:
    rows = data_.draw(st.integers(1, 8))
    cols = data_.draw(st.integers(1, 4))
    a = data((rows, cols), seed=data_.draw(st.integers(0, 1000)))
    threshold = data_.draw(st.floats(0, 10))
    x = rows_above(mt.tensor(a, chunk_size=(data_.draw(axis_chunks(rows)), cols)), threshold)
    e = np_rows_above(a, threshold)
    target = data_.draw(reshape_targets(e.size))
    if e.size and -1 not in target:
        target = (-1, *target)
    elif not e.size:
        target = (0, cols)
    assert_same(x.reshape(target), e.reshape(target))


def test_reshape_after_a_boolean_mask() -> None:
    a = data((6, 4))
    x: Any = mt.tensor(a, chunk_size=(4, 3))
    expected = a[a > 5.0]
    assert_same(x[x > 5.0].reshape(-1, 1), expected.reshape(-1, 1))
    assert_same(mt.roll(x[x > 5.0], 2), np.roll(expected, 2))
