import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings, to_numpy
from tests.tensor.conftest import on

RNG = np.random.default_rng(7)


def test_where_three_arguments_broadcasts_like_numpy(xp):
    a = RNG.random((4, 5))
    for chunk in chunkings(a.shape):
        t = on(xp, mt.tensor(a, chunk_size=chunk))
        assert_same(mt.where(t > 0.5, t, -1), np.where(a > 0.5, a, -1))
        assert_same(mt.where(a > 0.5, 0, mt.tensor(a[0])), np.where(a > 0.5, 0, a[0]))


def test_where_needs_both_or_neither_value():
    with pytest.raises(ValueError, match="both or neither"):
        mt.where(mt.tensor([True]), 1)


@given(st.floats(-1, 0.5), st.floats(0.5, 2))
def test_clip_matches_numpy(low, high):
    a = RNG.random((6,))
    assert_same(mt.clip(mt.tensor(a, chunk_size=4), low, high), np.clip(a, low, high))
    assert_same(mt.tensor(a, chunk_size=4).clip(None, high), np.clip(a, None, high))


def test_clip_without_bounds_is_a_copy_as_in_numpy():
    a = np.array([3, -1, 2])
    assert_same(mt.clip(mt.tensor(a, chunk_size=2)), np.clip(a))
    assert_same(mt.tensor(a, chunk_size=2).clip(), a.clip())


def test_isclose_and_allclose_match_numpy(xp):
    a = RNG.random(10)
    b = a + RNG.normal(0, 1e-9, 10)
    b[3] += 1
    t = on(xp, mt.tensor(a, chunk_size=3))
    assert_same(mt.isclose(t, b), np.isclose(a, b))
    # fetched, not bool(): a GPU tensor never turns into a host value implicitly
    assert bool(to_numpy(mt.allclose(t, a).execute().fetch())) is True
    assert bool(to_numpy(mt.allclose(t, b).execute().fetch())) is False
    nan = np.array([np.nan, 1.0])
    assert bool(mt.allclose(nan, nan, equal_nan=True).execute())


def test_around_matches_numpy():
    a = RNG.random(7) * 100
    for decimals in (-1, 0, 2):
        assert_same(mt.around(mt.tensor(a, chunk_size=2), decimals), np.around(a, decimals))
        # Mars's and NumPy 1's other name, not a ufunc: it takes decimals too
        assert_same(mt.round_(mt.tensor(a, chunk_size=2), decimals), np.around(a, decimals))


@pytest.mark.parametrize("dtype", ["i4", "f4", "u1", "bool", "c16"])
def test_astype_matches_numpy(dtype, xp):
    a = RNG.random((3, 4)) * 10
    assert_same(on(xp, mt.tensor(a, chunk_size=2)).astype(dtype), a.astype(dtype))


def test_astype_honours_casting_rule_at_build_time():
    with pytest.raises(TypeError, match="according to the rule 'safe'"):
        mt.tensor(np.ones(3)).astype("i4", casting="safe")
    with pytest.raises(TypeError, match="not understood"):
        mt.tensor(np.ones(3)).astype("not-a-dtype")


def test_real_and_imag_of_complex():
    a = RNG.random(5) + 1j * RNG.random(5)
    t = mt.tensor(a, chunk_size=2)
    assert_same(t.real, a.real)
    assert_same(mt.imag(t), a.imag)


def test_array_equal():
    a = np.arange(6)
    assert bool(mt.array_equal(mt.tensor(a, chunk_size=4), a).execute())
    assert not bool(mt.array_equal(mt.tensor(a), a[:3]).execute())
