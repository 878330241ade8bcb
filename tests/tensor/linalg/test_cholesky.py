"""Blocked ``cholesky`` against NumPy: chunkings, dtypes, stacks, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.linalg.helpers import RNG, LinAlgError, spd


def test_cholesky_matches_numpy_over_chunkings(xp):
    a = spd(9)
    for chunk in [*chunkings(a.shape), 2, (4, 3)]:
        t = on(xp, mt.tensor(a, chunk_size=chunk))
        assert_same(mt.linalg.cholesky(t), np.linalg.cholesky(a))
        assert_same(mt.linalg.cholesky(t, lower=False), np.linalg.cholesky(a).T)
        assert_same(mt.linalg.cholesky(t, upper=True), np.linalg.cholesky(a, upper=True))


@settings(max_examples=10)
@given(n=st.integers(1, 12), data=st.data())
def test_cholesky_reconstructs_any_chunks(n, data):
    a = spd(n)
    chunk = data.draw(st.integers(1, n))
    low = mt.linalg.cholesky(mt.tensor(a, chunk_size=chunk)).execute().fetch()
    np.testing.assert_allclose(low @ low.T, a)
    np.testing.assert_allclose(np.tril(low), low, atol=0)


def test_cholesky_complex_int_and_stacks(xp):
    c = spd(5, complex)
    assert_same(mt.linalg.cholesky(on(xp, mt.tensor(c, chunk_size=2))), np.linalg.cholesky(c))
    i = np.array([[4, 2], [2, 3]])
    assert_same(mt.linalg.cholesky(on(xp, mt.tensor(i, chunk_size=1))), np.linalg.cholesky(i))
    stack = np.stack([spd(4), spd(4)])
    assert_same(
        mt.linalg.cholesky(on(xp, mt.tensor(stack, chunk_size=2))), np.linalg.cholesky(stack)
    )


def test_cholesky_reads_only_the_lower_triangle():
    a = spd(6)
    dirty = np.tril(a) + np.triu(RNG.random((6, 6)), 1)
    assert_same(mt.linalg.cholesky(mt.tensor(dirty, chunk_size=2)), np.linalg.cholesky(dirty))


def test_cholesky_not_positive_definite_raises_at_execute(xp):
    a = -np.eye(4)
    factor = mt.linalg.cholesky(on(xp, mt.tensor(a, chunk_size=2)))
    with pytest.raises(LinAlgError):
        factor.execute()


def test_cholesky_bad_input():
    with pytest.raises(LinAlgError, match="must be square"):
        mt.linalg.cholesky(mt.tensor(np.ones((3, 4))))
    with pytest.raises(LinAlgError, match="at least two-dimensional"):
        mt.linalg.cholesky(mt.tensor(np.ones(3)))
