"""Lloyd's block kernel: labels, sums and weights as a direct NumPy computation gives
them, in both float widths; the states of earlier iterations are let go."""

from __future__ import annotations

import gc

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.learn.cluster.iterations import run
from jupyter_mars.learn.cluster.lloyd import LloydAssignment, add_up, assign_block, nearest_gaps
from jupyter_mars.learn.cluster.samples import check_samples


def _expected(
    x: np.ndarray, centers: np.ndarray, weights: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    scores = (centers * centers).sum(axis=1) - 2 * x @ centers.T
    labels = scores.argmin(axis=1)
    w = np.ones(len(x)) if weights is None else weights
    sums = np.array([(x[labels == j] * w[labels == j, None]).sum(axis=0) for j in range(3)])
    return labels, sums, np.bincount(labels, weights=w, minlength=3)


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(1, 40),
    weighted=st.booleans(),
    single=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_the_block_kernel_labels_and_sums_as_numpy(
    n: int, weighted: bool, single: bool, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    dtype = np.float32 if single else np.float64
    x, centers = rng.normal(size=(n, 4)).astype(dtype), rng.normal(size=(3, 4)).astype(dtype)
    weights = rng.uniform(0.5, 2, n).astype(dtype) if weighted else None
    rest = [weights] if weights is not None else []
    first = assign_block(x, *rest, centers=centers, weighted=weighted, compare=False)
    second = assign_block(
        x, *rest, first, centers=centers[::-1].copy(), weighted=weighted, compare=True
    )
    labels, sums, total = _expected(x.astype(float), centers.astype(float), weights)
    np.testing.assert_array_equal(first.labels, labels)
    assert first.labels.dtype == np.int32
    assert first.totals.sums.dtype == dtype
    assert first.totals.weights.dtype == dtype
    np.testing.assert_allclose(first.totals.sums, sums, rtol=1e-5, atol=1e-5 if single else 1e-12)
    np.testing.assert_allclose(first.totals.weights, total, rtol=1e-6)
    assert first.totals.changed == -1
    assert second.totals.changed == np.count_nonzero(second.labels != first.labels)
    both = add_up(np.array([first.totals, second.totals], dtype=object))
    assert both.changed == -1
    np.testing.assert_allclose(both.weights, total + second.totals.weights, rtol=1e-6)


def test_ties_go_to_the_first_centre() -> None:
    state = assign_block(
        np.zeros((3, 2)), centers=np.array([[1.0, 0], [0, 1.0]]), weighted=False, compare=False
    )
    np.testing.assert_array_equal(state.labels, [0, 0, 0])


def test_the_states_of_earlier_iterations_are_let_go(session: mars.Session) -> None:
    x = np.random.default_rng(0).normal(size=(200, 3))
    samples, _ = check_samples(mt.tensor(x, chunk_size=45), None, 5, None, None)
    assignment = LloydAssignment(samples)
    centers = x[:5] - samples.mean
    held = []
    for _ in range(5):
        labels, keep, totals = assignment.step(centers, np.zeros(5))
        (items,) = samples.compute(keep=keep, wanted=[totals])
        assert len(items) == 5
        del labels, keep, totals
        gc.collect()
        held.append(sum(key.startswith("lloyd-") for key in session.engine.executed))
        centers = centers + 0.1
    assert held == [1, 1, 1, 1, 1]
    found = run(samples, centers, LloydAssignment(samples), 50, 0.0)
    assert found.n_iter > 1


def test_no_points_leave_every_row_infinitely_far() -> None:
    x = np.random.RandomState(0).rand(50, 3)
    index, gaps = nearest_gaps(x, (x * x).sum(axis=1), np.empty((0, 3)))
    np.testing.assert_array_equal(index, np.zeros(50, dtype=np.intp))
    assert np.isposinf(gaps).all()
