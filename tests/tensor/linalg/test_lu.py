"""Blocked ``lu`` against SciPy: ``p``/``l``/``u``, ``permute_l``, ``p_indices``, dtypes,
rectangular matrices and stacks."""

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.linalg.helpers import RNG, LinAlgError, fetch


def test_lu_matches_scipy_over_chunkings(xp):
    a = RNG.random((9, 9))
    expected = scipy.linalg.lu(a)
    for chunk in [*chunkings(a.shape), 2, (4, 2)]:
        p, low, up = mt.linalg.lu(on(xp, mt.tensor(a, chunk_size=chunk)))
        for got, exp in zip(fetch(p, low, up), expected):
            np.testing.assert_allclose(got, exp, atol=1e-12)
        pl, up = mt.linalg.lu(on(xp, mt.tensor(a, chunk_size=chunk)), permute_l=True)
        plv, upv = fetch(pl, up)
        np.testing.assert_allclose(plv @ upv, a, atol=1e-12)
        p, low, up = mt.linalg.lu(on(xp, mt.tensor(a, chunk_size=chunk)), p_indices=True)
        assert_same(p, scipy.linalg.lu(a, p_indices=True)[0])


@settings(max_examples=10)
@given(n=st.integers(1, 12), data=st.data())
def test_lu_reconstructs_any_chunks(n, data):
    a = RNG.random((n, n))
    chunk = data.draw(st.integers(1, n))
    p, low, up = fetch(*mt.linalg.lu(mt.tensor(a, chunk_size=chunk)))
    np.testing.assert_allclose(p @ low @ up, a, atol=1e-10)
    np.testing.assert_allclose(np.tril(low), low, atol=0)
    np.testing.assert_allclose(np.diag(low), 1)
    np.testing.assert_allclose(np.triu(up), up, atol=0)
    assert np.all(np.abs(low) <= 1 + 1e-12)  # partial pivoting


def test_lu_dtypes_rectangular_and_stacks(xp):
    f = RNG.random((5, 5)).astype(np.float32)
    p, low, up = mt.linalg.lu(on(xp, mt.tensor(f, chunk_size=2)))
    assert (p.dtype, low.dtype, up.dtype) == tuple(x.dtype for x in scipy.linalg.lu(f))
    np.testing.assert_allclose(np.linalg.multi_dot(fetch(p, low, up)), f, atol=1e-5)
    r = RNG.random((6, 4))
    for got, exp in zip(
        fetch(*mt.linalg.lu(on(xp, mt.tensor(r, chunk_size=2)))), scipy.linalg.lu(r)
    ):
        np.testing.assert_allclose(got, exp)
    s = RNG.random((2, 4, 4))
    for got, exp in zip(
        fetch(*mt.linalg.lu(on(xp, mt.tensor(s, chunk_size=2)))), scipy.linalg.lu(s)
    ):
        np.testing.assert_allclose(got, exp)
    got = mt.linalg.lu(on(xp, mt.tensor(s, chunk_size=2)), p_indices=True)[0]
    assert_same(got, scipy.linalg.lu(s, p_indices=True)[0])


def test_lu_bad_input():
    with pytest.raises(LinAlgError, match="1-dimensional"):
        mt.linalg.lu(mt.tensor(np.ones(4)))
