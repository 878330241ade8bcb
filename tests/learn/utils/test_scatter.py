"""Means, scatter matrices and variances merged from row blocks equal NumPy's on the
whole data."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.learn.utils import scatter
from jupyter_mars.learn.utils.scatter import (
    block_moments,
    block_scatter,
    mean_and_scatter,
    mean_and_variance,
    merge_scatters,
)


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(2, 60),
    n_features=st.integers(1, 4),
    rows=st.integers(1, 25),
    slice_rows=st.integers(1, 7),
    seed=st.integers(0, 2**16),
)
def test_merged_blocks_give_numpys_mean_and_scatter(
    n: int, n_features: int, rows: int, slice_rows: int, seed: int
) -> None:
    # far from the origin: the merge keeps the precision that centring first gives
    data = np.random.default_rng(seed).normal(size=(n, n_features)) + 1e6
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scatter, "SLICE_ROWS", slice_rows)
        x = mt.tensor(data, chunk_size=(rows, n_features))
        mean, found = mean_and_scatter(x)
        same_mean, variances = mean_and_variance(x)
    centred = data - data.mean(axis=0)
    np.testing.assert_allclose(mean, data.mean(axis=0), rtol=1e-14)
    np.testing.assert_allclose(found, centred.T @ centred, rtol=1e-9, atol=1e-6)
    np.testing.assert_allclose(same_mean, data.mean(axis=0), rtol=1e-14)
    np.testing.assert_allclose(variances, data.var(axis=0), rtol=1e-9, atol=1e-9)


def test_empty_blocks_add_nothing() -> None:
    data = np.arange(12.0).reshape(6, 2)
    parts = [block_scatter(data[:0]), block_scatter(data[:4]), block_scatter(data[4:])]
    n, mean, found = merge_scatters(parts)
    assert n == 6
    np.testing.assert_allclose(mean, data.mean(axis=0))
    np.testing.assert_allclose(found, np.cov(data.T) * 5)


def test_empty_blocks_add_no_moments() -> None:
    data = np.arange(12.0).reshape(6, 2) ** 2
    parts = [block_moments(data[:0]), block_moments(data[:4]), block_moments(data[4:])]
    n, mean, found = merge_scatters(parts)
    assert n == 6
    np.testing.assert_allclose(mean, data.mean(axis=0))
    np.testing.assert_allclose(found, data.var(axis=0) * 6)
