"""``choice``, ``permutation`` and ``shuffle``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.tensor.creation.helpers import nsplits_of
from tests.tensor.random.helpers import N, fetch


def test_choice_without_replacement_has_no_duplicates() -> None:
    got = fetch(mt.random.choice(50, size=(6, 5), replace=False, chunk_size=(4, 2)))
    assert got.shape == (6, 5)
    assert got.dtype == np.int64
    assert len(np.unique(got)) == 30
    assert got.min() >= 0
    assert got.max() < 50
    full = fetch(mt.random.choice(20, 20, replace=False, chunk_size=3))
    np.testing.assert_array_equal(np.sort(full), np.arange(20))


def test_choice_from_a_population_reads_its_values() -> None:
    pop = np.arange(30) * 10 + 0.5
    for a in (pop, mt.tensor(pop, chunk_size=7)):
        got = fetch(mt.random.choice(a, 100, chunk_size=30))
        assert got.dtype == pop.dtype
        assert np.isin(got, pop).all()
        got = fetch(mt.random.choice(a, (3, 4), replace=False, chunk_size=2))
        assert np.isin(got, pop).all()
        assert len(np.unique(got)) == 12


def test_choice_respects_probabilities() -> None:
    got = fetch(mt.random.choice(3, 200, p=[0, 0, 1], chunk_size=50))
    assert (got == 2).all()
    got = fetch(mt.random.choice([1, 2, 3, 4], 4, replace=False, p=[0.1, 0.2, 0.3, 0.4]))
    np.testing.assert_array_equal(np.sort(got), [1, 2, 3, 4])
    p = mt.tensor(np.array([0.0, 1.0, 0.0]), chunk_size=1)
    assert (fetch(mt.random.choice(3, 20, p=p, chunk_size=7)) == 1).all()
    freq = np.bincount(fetch(mt.random.choice(2, N, p=[0.25, 0.75], chunk_size=N // 4))) / N
    assert abs(freq[1] - 0.75) < 0.01


def test_choice_is_reproducible() -> None:
    a = fetch(mt.random.RandomState(3).choice(100, 10, replace=False, chunk_size=4))
    b = fetch(mt.random.RandomState(3).choice(100, 10, replace=False, chunk_size=4))
    np.testing.assert_array_equal(a, b)


def test_choice_errors_match_numpy() -> None:
    with pytest.raises(ValueError, match="1-dimensional"):
        mt.random.choice(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="1-dimensional"):
        mt.random.choice(mt.zeros((2, 2)))
    with pytest.raises(ValueError, match="larger sample"):
        mt.random.choice(5, 6, replace=False)
    with pytest.raises(ValueError, match="sum to 1"):
        mt.random.choice(3, 2, p=[0.5, 0.1, 0.1])
    with pytest.raises(ValueError, match="same size"):
        mt.random.choice(3, 2, p=[0.5, 0.5])
    with pytest.raises(ValueError, match="positive"):
        mt.random.choice(0, 2)
    with pytest.raises(ValueError, match="empty"):
        mt.random.choice([], 2)
    with pytest.raises(TypeError, match="integer"):
        mt.random.choice(2.5)
    with pytest.raises(ValueError, match="non-zero"):
        mt.random.choice(3, 2, replace=False, p=[1.0, 0, 0])


def test_permutation_of_an_int_is_a_permutation(session: Any) -> None:
    t = mt.random.permutation(50, chunk_size=7)
    got = fetch(t)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(np.sort(got), np.arange(50))
    assert not np.array_equal(got, np.arange(50))
    assert nsplits_of(t, session) == ((7,) * 7 + (1,),)
    assert fetch(mt.random.permutation(0)).shape == (0,)


@pytest.mark.parametrize("chunk", [1, (3, 1), (4, 2)])
def test_permutation_of_a_tensor_permutes_rows(chunk: Any) -> None:
    x = np.arange(24).reshape(8, 3)
    got = fetch(mt.random.permutation(mt.tensor(x, chunk_size=chunk)))
    assert got.shape == x.shape
    np.testing.assert_array_equal(got[np.argsort(got[:, 0])], x)
    arr = fetch(mt.random.permutation(x.tolist(), chunk_size=3))
    np.testing.assert_array_equal(np.sort(arr, axis=0), x)


def test_permutation_is_reproducible_and_checks_input() -> None:
    a = fetch(mt.random.RandomState(9).permutation(30, chunk_size=4))
    b = fetch(mt.random.RandomState(9).permutation(30, chunk_size=4))
    np.testing.assert_array_equal(a, b)
    with pytest.raises(IndexError):
        mt.random.permutation(np.array(5.0))
    with pytest.raises(IndexError):
        mt.random.permutation(mt.tensor(3.0))


def test_shuffle_rebinds_a_tensor_and_shuffles_an_array() -> None:
    x = mt.tensor(np.arange(20), chunk_size=6)
    mt.random.shuffle(x)
    got = fetch(x)
    np.testing.assert_array_equal(np.sort(got), np.arange(20))
    arr = np.arange(20)
    mt.random.shuffle(arr)
    np.testing.assert_array_equal(np.sort(arr), np.arange(20))
    with pytest.raises(TypeError):
        mt.random.shuffle([1, 2, 3])
