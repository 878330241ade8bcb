"""The compiled row loops of k-means against NumPy on the same rows: nearest points and
their squared distances, the squared distances to given centres; ties, both float
widths, and rows that are not C-ordered."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from jupyter_mars.learn.cluster import kernels


@settings(max_examples=20, deadline=None)
@given(
    n=st.integers(0, 30),
    n_points=st.integers(1, 12),
    single=st.booleans(),
    fortran=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_nearest_rows_and_gaps_as_numpy(
    n: int, n_points: int, single: bool, fortran: bool, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    dtype = np.float32 if single else np.float64
    x = rng.normal(size=(n, 5)).astype(dtype)
    x = np.asfortranarray(x) if fortran else x
    points = rng.normal(size=(n_points, 5)).astype(dtype)
    norms = (x * x).sum(axis=1)
    index = np.empty(n, dtype=np.intp)
    gaps = np.empty(n, dtype=dtype)
    kernels.nearest_rows(x, norms, points, (points * points).sum(axis=1), index, gaps)
    wide, wide_points = x.astype(float), points.astype(float)
    exact = ((wide[:, None, :] - wide_points[None, :, :]) ** 2).sum(axis=2)
    np.testing.assert_array_equal(index, exact.argmin(axis=1) if n else index)
    np.testing.assert_allclose(gaps, exact.min(axis=1) if n else gaps, rtol=1e-4, atol=1e-4)

    labels = rng.integers(0, n_points, n).astype(np.int32)
    out = np.empty(n, dtype=dtype)
    kernels.row_gaps(x, labels, points, out)
    np.testing.assert_allclose(out, exact[np.arange(n), labels], rtol=1e-5, atol=1e-5)


def test_a_row_on_a_point_is_at_distance_zero_not_below() -> None:
    x = np.array([[1e8, 1.0], [3.0, 4.0]])
    index = np.empty(2, dtype=np.intp)
    gaps = np.empty(2)
    kernels.nearest_rows(
        x, (x * x).sum(axis=1), x[::-1].copy(), (x * x).sum(axis=1)[::-1].copy(), index, gaps
    )
    np.testing.assert_array_equal(index, [1, 0])
    assert (gaps >= 0).all()


def test_equal_scores_go_to_the_first_point() -> None:
    x = np.zeros((4, 2))
    labels = np.empty(4, dtype=np.int32)
    sums, totals = np.zeros((3, 2)), np.zeros(3)
    centers = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    kernels.lloyd_rows(x, centers, (centers**2).sum(axis=1), np.empty(0), labels, sums, totals)
    np.testing.assert_array_equal(labels, [0, 0, 0, 0])
    np.testing.assert_array_equal(totals, [4, 0, 0])
