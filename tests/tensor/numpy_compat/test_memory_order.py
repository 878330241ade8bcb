"""Fortran order: ``reshape``/``ravel``/``flatten`` with ``order='F'`` give NumPy's
element order, and results NumPy lays out in Fortran order (``asfortranarray``,
``copy(order='F')``, creation with ``order='F'``, ``reshape(order='F')``) come back from
``fetch()`` with ``F_CONTIGUOUS`` set, where the chunks are not each both C and F
contiguous."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

N = np.arange(24.0).reshape(4, 6)
# chunkings whose chunks are not one element long on all axes but one
LAID_OUT = [(4, 6), (3, 4), (2, 5)]


def fetched(t):
    return t.execute().fetch()


@pytest.mark.parametrize("chunks", chunkings(N.shape))
@pytest.mark.parametrize("shape", [(6, 4), (2, 12), (3, 2, 4), (24,), (-1, 3), (2, 3, -1)])
def test_reshape_in_fortran_order(chunks, shape):
    t = mt.tensor(N, chunk_size=chunks)
    assert_same(t.reshape(shape, order="F"), N.reshape(shape, order="F"))
    assert_same(mt.reshape(t, shape, order="F"), np.reshape(N, shape, order="F"))


@pytest.mark.parametrize("chunks", chunkings(N.shape))
def test_ravel_and_flatten_in_fortran_order(chunks):
    t = mt.tensor(N, chunk_size=chunks)
    assert_same(mt.ravel(t, order="F"), np.ravel(N, order="F"))
    assert_same(t.ravel("F"), N.ravel("F"))
    assert_same(t.flatten(order="F"), N.flatten(order="F"))
    one_d = mt.tensor(N.ravel(), chunk_size=chunks if chunks == 1 else 5)
    assert_same(one_d.reshape((4, 6), order="F"), N.ravel().reshape((4, 6), order="F"))


@pytest.mark.parametrize("chunks", LAID_OUT)
def test_fortran_results_are_fetched_in_fortran_order(chunks):
    t = mt.tensor(N, chunk_size=chunks)
    cases = [
        (mt.asfortranarray(t), np.asfortranarray(N)),
        (mt.ascontiguousarray(mt.asfortranarray(t)), np.ascontiguousarray(N)),
        (t.copy(order="F"), N.copy(order="F")),
        (mt.copy(mt.asfortranarray(t)), np.copy(np.asfortranarray(N))),
        (mt.asfortranarray(t).copy(), np.asfortranarray(N).copy()),
        (mt.asfortranarray(t) * 2, np.asfortranarray(N) * 2),
        (t.reshape((6, 4), order="F"), N.reshape((6, 4), order="F")),
        (mt.zeros((4, 6), order="F", chunk_size=chunks), np.zeros((4, 6), order="F")),
        (mt.ones((4, 6), chunk_size=chunks), np.ones((4, 6))),
        (mt.array(N, order="F", chunk_size=chunks), np.array(N, order="F")),
        (mt.tensor(np.asfortranarray(N), chunk_size=chunks), np.asfortranarray(N)),
        (mt.asarray(t, order="F"), np.asarray(N, order="F")),
        (t.astype(np.float32, order="F"), N.astype(np.float32, order="F")),
    ]
    for got, expected in cases:
        data = fetched(got)
        np.testing.assert_array_equal(data, expected)
        assert data.flags["F_CONTIGUOUS"] == expected.flags["F_CONTIGUOUS"]
        assert data.flags["C_CONTIGUOUS"] == expected.flags["C_CONTIGUOUS"]


def test_bad_order_names_order():
    with pytest.raises(ValueError, match="order"):
        mt.reshape(mt.tensor(N), (6, 4), order="X")
    with pytest.raises(ValueError, match="order"):
        mt.tensor(N, order="Q")


@settings(max_examples=10)
@given(data=st.data())
def test_reshape_in_fortran_order_over_any_shape(data):
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    x = np.arange(int(np.prod(shape))).reshape(shape)
    target = data.draw(st.permutations(shape))
    chunk = data.draw(st.integers(1, 4))
    t = mt.tensor(x, chunk_size=chunk)
    assert_same(t.reshape(tuple(target), order="F"), x.reshape(tuple(target), order="F"))
