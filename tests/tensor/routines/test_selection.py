"""``choose``, ``unravel_index``, ``indices``, ``diagflat`` and ``fill_diagonal`` against
NumPy over three chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_choose_matches_numpy(mode: str) -> None:
    index = (
        np.array([[0, 1, 2, 1], [2, 0, 1, 0]])
        if mode == "raise"
        else np.arange(8).reshape(2, 4) - 2
    )
    choices = [np.arange(8).reshape(2, 4), np.full(4, -1.5), np.float32(9)]
    for chunks in chunkings(index.shape):
        x = mt.tensor(index, chunk_size=chunks)
        assert_same(mt.choose(x, choices, mode=mode), np.choose(index, choices, mode=mode))
    stacked = np.arange(12).reshape(3, 4)
    row = np.array([2, 0, 1, 2])
    assert_same(mt.choose(row, mt.tensor(stacked, chunk_size=2)), np.choose(row, stacked))


def test_choose_errors() -> None:
    with pytest.raises(ValueError, match="clipmode must be one of"):
        mt.choose([0], [[1]], mode="bad")
    with pytest.raises(TypeError, match="Cannot cast array data"):
        mt.choose(mt.tensor([0.5]), [[1]])
    bad = mt.choose(mt.tensor([5]), [[1], [2]])
    with pytest.raises(ValueError, match="invalid entry in choice array"):
        bad.execute()


@pytest.mark.parametrize("order", ["C", "F"])
def test_unravel_index_matches_numpy(order: str) -> None:
    flat = np.array([[0, 5, 11], [7, 3, 2]])
    for chunks in chunkings(flat.shape):
        x = mt.tensor(flat, chunk_size=chunks)
        got = mt.unravel_index(x, (3, 4), order=order)
        assert isinstance(got, mt.ExecutableTuple)
        for g, e in zip(got, np.unravel_index(flat, (3, 4), order=order)):
            assert_same(g, e)
    for g, e in zip(mt.unravel_index(7, (2, 2, 2)), np.unravel_index(7, (2, 2, 2))):
        assert_same(g, np.asarray(e))


def test_unravel_index_errors() -> None:
    with pytest.raises(TypeError, match="only int indices permitted"):
        mt.unravel_index(mt.tensor([1.5]), (2, 3))
    with pytest.raises(ValueError, match="non-negative"):
        mt.unravel_index(mt.tensor([1]), (2, -3))
    out_of_range = mt.unravel_index(mt.tensor([7]), (2, 3))
    with pytest.raises(ValueError, match="index 7 is out of bounds"):
        out_of_range[0].execute()


@pytest.mark.parametrize(
    ("dims", "kwargs"),
    [((2, 3), {}), ((3, 1, 2), {"dtype": float}), ((4,), {}), ((2, 3), {"sparse": True})],
)
def test_indices_match_numpy(dims: tuple[int, ...], kwargs: dict[str, Any]) -> None:
    for chunk in (1, 2, None):
        got = mt.indices(dims, chunk_size=chunk, **kwargs)
        expected = np.indices(dims, **kwargs)
        if kwargs.get("sparse"):
            for g, e in zip(got, expected):
                assert_same(g, e)
        else:
            assert_same(got, expected)


@pytest.mark.parametrize("k", [0, 1, -2])
def test_diagflat_matches_numpy(k: int) -> None:
    v = np.array([[1, 2], [3, 4]])
    for chunks in chunkings(v.shape):
        assert_same(mt.diagflat(mt.tensor(v, chunk_size=chunks), k=k), np.diagflat(v, k=k))


@pytest.mark.parametrize(
    ("shape", "val", "wrap"),
    [
        ((4, 4), 9, False),
        ((5, 3), [1, 2], True),
        ((5, 3), [1, 2], False),
        ((3, 5), np.array([7.5, 8.5, 9.5]), False),
        ((3, 3, 3), -1, False),
    ],
)
def test_fill_diagonal_in_place_matches_numpy(shape: tuple[int, ...], val: Any, wrap: bool) -> None:
    a = np.arange(float(np.prod(shape))).reshape(shape)
    expected = a.copy()
    np.fill_diagonal(expected, val, wrap=wrap)
    for chunks in chunkings(shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert mt.fill_diagonal(x, val, wrap=wrap) is None
        assert_same(x, expected)


def test_fill_diagonal_with_tensor_values_and_errors() -> None:
    a = np.zeros((4, 4))
    expected = a.copy()
    np.fill_diagonal(expected, [1.0, 2.0, 3.0])
    x = mt.tensor(a, chunk_size=3)
    mt.fill_diagonal(x, mt.tensor([1.0, 2.0, 3.0], chunk_size=2))
    assert_same(x, expected)
    with pytest.raises(ValueError, match="array must be at least 2-d"):
        mt.fill_diagonal(mt.ones(3), 1)
    with pytest.raises(ValueError, match="All dimensions of input must be of equal length"):
        mt.fill_diagonal(mt.ones((2, 3, 2)), 1)


def test_fill_diagonal_of_a_numpy_array_with_tensor_values() -> None:
    a = np.zeros((3, 3))
    np.fill_diagonal(a, mt.tensor([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(np.diag(a), [1.0, 2.0, 3.0])
