"""``norm`` against NumPy: matrix and vector orders, axes, keepdims, dtypes, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.linalg.helpers import RNG

MATRIX_ORDS = [None, "fro", 1, -1, 2, -2, np.inf, -np.inf, "nuc"]


VECTOR_ORDS = [None, 0, 1, 2, 3.5, -1, np.inf, -np.inf]


@pytest.mark.parametrize("ord", MATRIX_ORDS)
def test_matrix_norms_match_numpy(ord, xp):
    a = RNG.random((7, 5)) - 0.5
    for chunk in chunkings(a.shape):
        t = on(xp, mt.tensor(a, chunk_size=chunk))
        assert_same(mt.linalg.norm(t, ord), np.linalg.norm(a, ord))
        assert_same(mt.linalg.norm(t, ord, keepdims=True), np.linalg.norm(a, ord, keepdims=True))
        assert_same(mt.linalg.norm(t, ord, axis=(1, 0)), np.linalg.norm(a, ord, axis=(1, 0)))


@pytest.mark.parametrize("ord", VECTOR_ORDS)
def test_vector_norms_match_numpy(ord, xp):
    v = RNG.random(9) - 0.5
    a = RNG.random((4, 6)) - 0.5
    for chunk in chunkings(v.shape):
        assert_same(
            mt.linalg.norm(on(xp, mt.tensor(v, chunk_size=chunk)), ord), np.linalg.norm(v, ord)
        )
    for axis in (0, 1, -1):
        t = on(xp, mt.tensor(a, chunk_size=(3, 4)))
        assert_same(mt.linalg.norm(t, ord, axis=axis), np.linalg.norm(a, ord, axis=axis))
        assert_same(
            mt.linalg.norm(t, ord, axis=axis, keepdims=True),
            np.linalg.norm(a, ord, axis=axis, keepdims=True),
        )


@settings(max_examples=20)
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    ord=st.sampled_from([None, 1, 2, np.inf, 0]),
    keepdims=st.booleans(),
    data=st.data(),
)
def test_vector_norm_any_axis_and_chunks(shape, ord, keepdims, data):
    a = RNG.random(tuple(shape)) - 0.5
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    chunk = tuple(data.draw(st.integers(1, n)) for n in shape)
    assert_same(
        mt.linalg.norm(mt.tensor(a, chunk_size=chunk), ord, axis, keepdims),
        np.linalg.norm(a, ord, axis, keepdims),
    )


def test_norm_of_stacks_dtypes_and_complex():
    x = RNG.random((3, 4, 5))
    t = mt.tensor(x, chunk_size=2)
    assert_same(mt.linalg.norm(t), np.linalg.norm(x))
    assert_same(mt.linalg.norm(t, keepdims=True), np.linalg.norm(x, keepdims=True))
    for ord in ("nuc", 2, 1, -np.inf, "fro"):
        assert_same(mt.linalg.norm(t, ord, axis=(2, 0)), np.linalg.norm(x, ord, axis=(2, 0)))
        assert_same(
            mt.linalg.norm(t, ord, axis=(0, 1), keepdims=True),
            np.linalg.norm(x, ord, axis=(0, 1), keepdims=True),
        )
    i = np.arange(-4, 8).reshape(3, 4)
    assert_same(mt.linalg.norm(mt.tensor(i, chunk_size=2)), np.linalg.norm(i))
    f = x.astype(np.float32)
    assert_same(mt.linalg.norm(mt.tensor(f, chunk_size=2)), np.linalg.norm(f), rtol=1e-6)
    c = RNG.random((4, 3)) + 1j * RNG.random((4, 3))
    for ord in (None, 1, 2, "nuc"):
        assert_same(mt.linalg.norm(mt.tensor(c, chunk_size=2), ord), np.linalg.norm(c, ord))


def test_norm_bad_input():
    t = mt.tensor(np.ones((3, 3)))
    with pytest.raises(ValueError, match="Invalid norm order 'fro' for vectors"):
        mt.linalg.norm(t, "fro", axis=0)
    with pytest.raises(ValueError, match="Invalid norm order for matrices"):
        mt.linalg.norm(t, 3)
    with pytest.raises(ValueError, match="Improper number of dimensions"):
        mt.linalg.norm(mt.tensor(np.ones((2, 2, 2))), 1)
    with pytest.raises(np.exceptions.AxisError):
        mt.linalg.norm(t, axis=2)
    with pytest.raises(ValueError, match="Duplicate axes"):
        mt.linalg.norm(t, axis=(0, 0))
