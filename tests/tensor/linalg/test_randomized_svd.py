"""``randomized_svd`` against NumPy's SVD, and the products ``mt.linalg`` lists."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

RNG = np.random.default_rng(7)
LOW_RANK = RNG.standard_normal((120, 4)) @ RNG.standard_normal((4, 45))


def flipped(u: np.ndarray, vt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sign convention: each U column's largest entry (in absolute value) positive."""
    signs = np.sign(u[np.argmax(np.abs(u), axis=0), np.arange(u.shape[1])])
    return u * signs, vt * signs[:, None]


def run(*tensors: Any) -> list[np.ndarray]:
    return [t.execute().fetch() for t in tensors]


@pytest.mark.parametrize("chunk_size", chunkings(LOW_RANK.shape)[1:] + [(30, 45), (120, 10)])
def test_a_low_rank_matrix_is_reconstructed_with_numpy_singular_values(chunk_size: Any) -> None:
    m = mt.tensor(LOW_RANK, chunk_size=chunk_size)
    u, s, vt = mt.linalg.randomized_svd(m, 4)
    assert (u.shape, s.shape, vt.shape) == ((120, 4), (4,), (4, 45))
    got_u, got_s, got_vt = run(u, s, vt)
    assert got_u.dtype == got_s.dtype == got_vt.dtype == np.float64
    np.testing.assert_allclose((got_u * got_s) @ got_vt, LOW_RANK, atol=1e-9)
    exp_u, exp_s, exp_vt = np.linalg.svd(LOW_RANK, full_matrices=False)
    np.testing.assert_allclose(got_s, exp_s[:4], rtol=1e-10)
    exp_u, exp_vt = flipped(exp_u[:, :4], exp_vt[:4])
    np.testing.assert_allclose(got_u, exp_u, atol=1e-9)
    np.testing.assert_allclose(got_vt, exp_vt, atol=1e-9)
    np.testing.assert_allclose(got_u.T @ got_u, np.eye(4), atol=1e-10)


def test_singular_values_of_a_full_rank_matrix_match_numpy_top_k() -> None:
    # a fast-decaying spectrum, as randomized SVD is meant for
    q1, _ = np.linalg.qr(RNG.standard_normal((90, 30)))
    q2, _ = np.linalg.qr(RNG.standard_normal((40, 30)))
    a = (q1 * 0.5 ** np.arange(30)) @ q2.T
    for chunks in [(90, 40), (25, 40), (30, 15)]:
        s = mt.linalg.randomized_svd(mt.tensor(a, chunk_size=chunks), 6, random_state=3)[1]
        np.testing.assert_allclose(s.execute().fetch(), np.linalg.svd(a)[1][:6], rtol=1e-8)


def test_a_wide_matrix_is_factored_through_its_transpose() -> None:
    wide = LOW_RANK.T
    u, s, vt = mt.linalg.randomized_svd(mt.tensor(wide, chunk_size=(20, 50)), 3, n_iter=2)
    got_u, got_s, got_vt = run(u, s, vt)
    assert (got_u.shape, got_s.shape, got_vt.shape) == ((45, 3), (3,), (3, 120))
    np.testing.assert_allclose(got_s, np.linalg.svd(wide)[1][:3], rtol=1e-8)
    # the signs follow the returned U's columns either way
    np.testing.assert_allclose(got_u, flipped(got_u, got_vt)[0])
    same = mt.linalg.randomized_svd(wide, 3, n_iter=2, transpose=False)[1]
    np.testing.assert_allclose(same.execute().fetch(), got_s, rtol=1e-8)


def test_options_and_random_state() -> None:
    a = mt.tensor(LOW_RANK, chunk_size=40)
    for normalizer in ("QR", "LU", "none"):
        s = mt.linalg.randomized_svd(a, 2, power_iteration_normalizer=normalizer, n_iter=3)[1]
        np.testing.assert_allclose(s.execute().fetch(), np.linalg.svd(LOW_RANK)[1][:2])
    first = mt.linalg.randomized_svd(a, 2, flip_sign=False, random_state=5)[0].execute().fetch()
    again = mt.linalg.randomized_svd(a, 2, flip_sign=False, random_state=5)[0].execute().fetch()
    np.testing.assert_array_equal(first, again)
    state = mt.random.RandomState(1)
    assert mt.linalg.randomized_svd(a, 2, random_state=state)[1].shape == (2,)
    ints = np.arange(12).reshape(4, 3)
    s = mt.linalg.randomized_svd(ints, 1, n_oversamples=0, random_state=None)[1]
    assert_same(s, np.linalg.svd(ints.astype(float))[1][:1])


def test_bad_arguments_raise_at_the_call() -> None:
    a = mt.ones((6, 4))
    with pytest.raises(ValueError, match="n_components \\(=5\\) must be at most"):
        mt.linalg.randomized_svd(a, 5)
    with pytest.raises(ValueError, match="n_components must be at least 1"):
        mt.linalg.randomized_svd(a, 0)
    with pytest.raises(TypeError, match="n_components must be an int"):
        mt.linalg.randomized_svd(a, 1.5)
    with pytest.raises(ValueError, match="2-d"):
        mt.linalg.randomized_svd(mt.ones(3), 1)
    with pytest.raises(ValueError, match="n_iter"):
        mt.linalg.randomized_svd(a, 1, n_iter="many")
    with pytest.raises(ValueError, match="power_iteration_normalizer"):
        mt.linalg.randomized_svd(a, 1, power_iteration_normalizer="qr")
    with pytest.raises(ValueError, match="transpose"):
        mt.linalg.randomized_svd(a, 1, transpose="yes")
    with pytest.raises(ValueError, match="random_state"):
        mt.linalg.randomized_svd(a, 1, random_state="seed")


def test_products_in_linalg_are_the_main_namespace_functions() -> None:
    for name in ("dot", "vdot", "matmul", "inner", "tensordot"):
        assert getattr(mt.linalg, name) is getattr(mt, name)
    assert mt.linalg.innerproduct is mt.innerproduct is mt.inner
    a = RNG.standard_normal((5, 4))
    b = RNG.standard_normal((3, 4))
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.linalg.innerproduct(x, b), np.inner(a, b))
        assert_same(mt.linalg.dot(x, b.T), np.dot(a, b.T))
        assert_same(mt.linalg.tensordot(x, b, axes=([1], [1])), np.tensordot(a, b, ([1], [1])))
