"""``hsplit``/``vsplit``/``dsplit`` and ``rollaxis`` against NumPy over three chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.shape.helpers import assert_all_same

_A = np.arange(48.0).reshape(4, 6, 2)


@pytest.mark.parametrize("spec", [2, [1, 3]])
def test_splits_match_numpy(spec: Any) -> None:
    flat = np.arange(6)
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        assert_all_same(mt.hsplit(x, spec), np.hsplit(_A, spec))
        assert_all_same(mt.vsplit(x, spec), np.vsplit(_A, spec))
        assert_all_same(mt.dsplit(x, [1]), np.dsplit(_A, [1]))
    assert_all_same(mt.hsplit(mt.tensor(flat, chunk_size=4), spec), np.hsplit(flat, spec))


def test_splits_check_dimensions_and_division() -> None:
    with pytest.raises(ValueError, match="hsplit only works on arrays of 1 or more"):
        mt.hsplit(mt.tensor(1.0), 1)
    with pytest.raises(ValueError, match="vsplit only works on arrays of 2 or more"):
        mt.vsplit(mt.ones(4), 2)
    with pytest.raises(ValueError, match="dsplit only works on arrays of 3 or more"):
        mt.dsplit(mt.ones((2, 2)), 2)
    with pytest.raises(ValueError, match="equal division"):
        mt.hsplit(mt.tensor(_A), 4)


@pytest.mark.parametrize(("axis", "start"), [(0, 0), (2, 0), (0, 3), (1, 3), (-1, 1), (2, -2)])
def test_rollaxis_matches_numpy(axis: int, start: int) -> None:
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        assert_same(mt.rollaxis(x, axis, start), np.rollaxis(_A, axis, start))


def test_rollaxis_bad_axes_raise_axis_error() -> None:
    x = mt.tensor(_A)
    with pytest.raises(np.exceptions.AxisError, match="axis 3 is out of bounds"):
        mt.rollaxis(x, 3)
    with pytest.raises(np.exceptions.AxisError, match="'start' arg requires -3 <= start < 4"):
        mt.rollaxis(x, 0, 5)


@settings(max_examples=15, deadline=None)
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=4),
    chunk=st.integers(1, 4),
    data=st.data(),
)
def test_rollaxis_any_shape(shape: list[int], chunk: int, data: st.DataObject) -> None:
    ndim = len(shape)
    axis = data.draw(st.integers(-ndim, ndim - 1))
    start = data.draw(st.integers(-ndim, ndim))
    a = np.arange(int(np.prod(shape))).reshape(shape)
    assert_same(
        mt.rollaxis(mt.tensor(a, chunk_size=chunk), axis, start), np.rollaxis(a, axis, start)
    )
