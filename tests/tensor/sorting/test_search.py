"""``searchsorted`` against NumPy: chunked ``a`` and ``v``, sorter, method, bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.sorting.helpers import RNG


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_on_chunked_sorted_data(side: str, xp: Any) -> None:
    a = np.sort(RNG.integers(0, 20, size=25)).astype(float)
    v = RNG.integers(-2, 23, size=(4, 5)).astype(float)
    for a_chunks in chunkings(a.shape):
        for v_chunks in chunkings(v.shape):
            got = mt.searchsorted(
                on(xp, mt.tensor(a, chunk_size=a_chunks)),
                on(xp, mt.tensor(v, chunk_size=v_chunks)),
                side,
            )
            assert_same(got, np.searchsorted(a, v, side=side))  # type: ignore[call-overload]


def test_searchsorted_with_scalar_nan_and_method() -> None:
    a = np.array([1.0, 2.0, 2.0, 5.0, np.nan, np.nan])
    x = mt.tensor(a, chunk_size=4)
    assert_same(mt.searchsorted(x, 2.0), np.searchsorted(a, 2.0))
    assert_same(
        mt.searchsorted(x, [np.nan, 9.0], side="right"), np.searchsorted(a, [np.nan, 9.0], "right")
    )
    assert_same(x.searchsorted(np.array([0.0, 3.0])), np.searchsorted(a, [0.0, 3.0]))


def test_searchsorted_with_sorter() -> None:
    a = RNG.permutation(30).astype(float)
    sorter = np.argsort(a)
    v = np.array([-1.0, 0.0, 4.5, 29.0, 31.0])
    for chunks in chunkings(a.shape):
        got = mt.searchsorted(
            mt.tensor(a, chunk_size=chunks), v, sorter=mt.tensor(sorter, chunk_size=chunks)
        )
        assert_same(got, np.searchsorted(a, v, sorter=sorter))


def test_searchsorted_bad_arguments_raise_at_call() -> None:
    with pytest.raises(ValueError, match="1-dimensional"):
        mt.searchsorted(mt.tensor(np.ones((2, 2))), 1)
    x = mt.tensor(np.arange(5), chunk_size=2)
    with pytest.raises(ValueError, match="side"):
        mt.searchsorted(x, 1, side="middle")
    with pytest.raises(ValueError, match="sorter"):
        mt.searchsorted(x, 1, sorter=np.arange(4))
    with pytest.raises(TypeError, match="sorter"):
        mt.searchsorted(x, 1, sorter=np.arange(5.0))
