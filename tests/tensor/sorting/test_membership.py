"""``isin`` and ``in1d`` against NumPy over chunkings of both operands."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.sorting.helpers import RNG


@pytest.mark.parametrize("invert", [False, True])
def test_isin_over_chunkings(invert: bool, xp: Any) -> None:
    element = RNG.integers(0, 12, size=(5, 6))
    test = RNG.integers(0, 12, size=(2, 4))
    for e_chunks in chunkings(element.shape):
        for t_chunks in chunkings(test.shape):
            got = mt.isin(
                on(xp, mt.tensor(element, chunk_size=e_chunks)),
                on(xp, mt.tensor(test, chunk_size=t_chunks)),
                invert=invert,
            )
            assert_same(got, np.isin(element, test, invert=invert))


def test_isin_with_scalar_element_and_list_test() -> None:
    assert_same(mt.isin(3, [1, 3, 5]), np.isin(3, [1, 3, 5]))
    assert_same(
        mt.isin(mt.tensor([1.0, np.nan, 2.0], chunk_size=1), [2.0]), np.array([0, 0, 1], bool)
    )


def test_in1d_flattens_like_numpy() -> None:
    element = RNG.integers(0, 8, size=(4, 5))
    test = [1, 2, 7]
    expected = np.isin(element, test).ravel()
    for chunks in chunkings(element.shape):
        got = mt.in1d(mt.tensor(element, chunk_size=chunks), test)
        assert got.shape == expected.shape
        assert_same(got, expected)
    assert_same(mt.in1d(element[0], test, invert=True), ~np.isin(element[0], test))


def test_isin_bad_kind_raises() -> None:
    with pytest.raises(ValueError, match="kind"):
        mt.isin([1, 2], [1], kind="hash")
