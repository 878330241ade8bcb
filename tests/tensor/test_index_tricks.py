"""``mgrid``, ``ogrid``, ``r_``, ``c_`` and ``ndindex`` against NumPy's objects."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same

_GRIDS: list[Any] = [
    np.s_[0:5],
    np.s_[2:-3:-2],
    np.s_[0:1:5j],
    np.s_[0:3.0],
    np.s_[0:4, 0:3],
    np.s_[-1:1:0.5, 0:3],
    np.s_[0:1:3j, 1:4, 0:2:2j],
    np.s_[3:4, 0:1:1j],
]


@pytest.mark.parametrize("key", _GRIDS)
def test_mgrid_matches_numpy(key: Any) -> None:
    assert_same(mt.mgrid[key], np.mgrid[key])


@pytest.mark.parametrize("key", _GRIDS)
def test_ogrid_matches_numpy(key: Any) -> None:
    got, expected = mt.ogrid[key], np.ogrid[key]
    if isinstance(expected, tuple):
        assert isinstance(got, tuple)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same(g, e)
    else:
        assert_same(got, expected)


def test_grids_take_slices_only() -> None:
    with pytest.raises(TypeError, match="takes slices"):
        mt.mgrid[1, 2]


def test_backward_ranges_are_errors_in_mgrid_and_empty_in_ogrid() -> None:
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        mt.mgrid[0:-1, -2:2]
    for got, expected in zip(mt.ogrid[0:-1, -2:2], np.ogrid[0:-1, -2:2]):
        assert_same(got, expected)


@pytest.mark.parametrize(
    "key",
    [
        np.s_[np.array([1, 2, 3]), 0, 0, np.array([4, 5, 6])],
        np.s_[-1:1:6j, [0] * 3, 5, 6],
        np.s_[0:3, 5],
        np.s_[1, 2.5, [3]],
        np.s_["0,2,1", [1, 2], [3, 4]],
        np.s_["1,2,0", [1, 2], [3, 4]],
        np.s_["-1", [1, 2], [3, 4]],
        np.s_["0,2", [1, 2, 3], [4, 5, 6]],
    ],
)
def test_r_matches_numpy(key: Any) -> None:
    assert_same(mt.r_[key], np.r_[key])


def test_r_with_tensors_and_c_matches_numpy() -> None:
    a, b = np.arange(4.0), np.arange(4) * 10
    for chunk in (1, 3, 4):
        t = mt.tensor(a, chunk_size=chunk)
        assert_same(mt.r_[t, 9, b], np.r_[a, 9, b])
        assert_same(mt.c_[t, b], np.c_[a, b])
        assert_same(
            mt.c_[mt.tensor(np.ones((4, 2)), chunk_size=chunk), t], np.c_[np.ones((4, 2)), a]
        )
    assert_same(mt.c_[0:3, 1:4], np.c_[0:3, 1:4])


def test_r_directive_errors() -> None:
    with pytest.raises(ValueError, match="special directives must be the first entry"):
        mt.r_[[1], "0"]
    with pytest.raises(ValueError, match="unknown special directive"):
        mt.r_["x", [1]]
    with pytest.raises(NotImplementedError, match="matrix directive"):
        mt.r_["r", [1]]


def test_ndindex_and_lib_module() -> None:
    assert mt.ndindex is np.ndindex
    assert list(mt.ndindex(2, 2)) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert mt.lib.mgrid is mt.mgrid
    assert mt.lib.index_tricks.r_ is mt.r_
