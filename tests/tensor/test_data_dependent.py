"""Data-dependent sizes across modules: the known part runs first, then tiling resumes."""

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same


@given(st.integers(1, 60), st.integers(1, 20), st.floats(0.0, 1.0))
def test_masked_sum_needs_no_sizes(n, chunk, threshold):
    data = np.random.default_rng(n).random(n)
    x = mt.tensor(data, chunk_size=chunk)
    assert_same(x[x > threshold].sum(), data[data > threshold].sum())


@given(st.integers(1, 60), st.integers(1, 20), st.integers(0, 5))
def test_slicing_a_masked_tensor_uses_real_sizes(n, chunk, k):
    data = np.random.default_rng(n).random(n)
    x = mt.tensor(data, chunk_size=chunk)
    y = x[x > 0.5]
    assert math.isnan(y.shape[0])
    assert_same(y[:k], data[data > 0.5][:k])
    assert y.execute().shape == (int((data > 0.5).sum()),)


def test_unique_then_slice():
    data = np.random.default_rng(0).integers(0, 20, 200)
    x = mt.tensor(data, chunk_size=17)
    assert_same(mt.unique(x)[:3], np.unique(data)[:3])


def test_chained_data_dependent_steps():
    data = np.random.default_rng(1).normal(size=(40, 3))
    x = mt.tensor(data, chunk_size=(7, 2))
    rows = x[x[:, 0] > 0]
    expected = data[data[:, 0] > 0]
    assert_same(rows[1:5].mean(axis=0), expected[1:5].mean(axis=0))
    assert_same(mt.sort(rows[:, 1])[-3:], np.sort(expected[:, 1])[-3:])
    (idx,) = mt.nonzero(x[:, 2] > 0.5)
    assert_same(idx, np.nonzero(data[:, 2] > 0.5)[0])


def test_future_result_converts_with_numpy():
    x = mt.tensor(np.arange(10), chunk_size=3)
    future = x[x > 4].execute(wait=False)
    np.testing.assert_array_equal(np.asarray(future.result(timeout=30)), np.arange(5, 10))
