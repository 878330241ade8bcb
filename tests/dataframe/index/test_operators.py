"""Operators on lazy indexes: arithmetic, comparisons, item access, ``in``, iteration."""

from __future__ import annotations

import numpy as np
import pytest

from tests.dataframe.index.helpers import CHUNKS, assert_index, floats, ints, lazy_index


@pytest.mark.parametrize("chunk", CHUNKS)
def test_arithmetic_with_scalars_arrays_and_indexes(chunk: int | None) -> None:
    p = ints()
    idx = lazy_index(p, chunk)
    assert_index(idx + 1, p + 1)
    assert_index(2 * idx, 2 * p)
    assert_index(idx / 2, p / 2)
    assert_index(10 - idx, 10 - p)
    assert_index(idx // 2, p // 2)
    assert_index(idx**2, p**2)
    assert_index(idx % 3, p % 3)
    assert_index(-idx, -p)
    assert_index(abs(idx - 4), abs(p - 4))
    assert_index(idx - np.arange(7), p - np.arange(7))
    assert_index(idx + lazy_index(p, 2), p + p)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_comparisons_give_lazy_tensors(chunk: int | None) -> None:
    p = floats()
    idx = lazy_index(p, chunk)
    np.testing.assert_array_equal((idx == 2.5).to_numpy(), p == 2.5)
    np.testing.assert_array_equal((idx > 0).to_numpy(), p > 0)
    np.testing.assert_array_equal((idx <= lazy_index(p, 2)).to_numpy(), p <= p)
    np.testing.assert_array_equal((idx != np.ones(5)).to_numpy(), p != np.ones(5))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_item_access_membership_and_iteration(chunk: int | None) -> None:
    p = ints()
    idx = lazy_index(p, chunk)
    assert idx[2] == p[2]
    assert idx[-1] == p[-1]
    assert_index(idx[1:5:2], p[1:5:2])
    mask = np.array([True, False, True, True, False, False, True])
    assert_index(idx[mask], p[mask])
    assert_index(idx[[6, 0]], p[[6, 0]])
    assert_index(idx[idx > 2], p[p > 2])
    assert 9 in idx
    assert 4 not in idx
    assert list(idx) == list(p)
    with pytest.raises(IndexError):
        idx[10]
