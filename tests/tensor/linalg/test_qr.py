"""``qr`` (TSQR) and ``svd``: reconstruction, modes, dtypes, stacks, task structure."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.engine.node import op_name_of
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.linalg.helpers import RNG, LinAlgError, fetch, task_keys


def _check_qr(q, r, a):
    k = min(a.shape)
    assert q.shape == (a.shape[0], k)
    assert r.shape == (k, a.shape[1])
    np.testing.assert_allclose(q @ r, a, atol=1e-10)
    np.testing.assert_allclose(q.conj().T @ q, np.eye(k), atol=1e-10)
    np.testing.assert_allclose(np.triu(r), r, atol=0)
    np.testing.assert_allclose(np.abs(np.diag(r)), np.abs(np.diag(np.linalg.qr(a)[1])))


@pytest.mark.parametrize("shape", [(20, 4), (9, 9), (4, 7), (12, 1)])
def test_qr_reconstructs_over_chunkings(shape, xp):
    a = RNG.random(shape)
    for chunk in [*chunkings(shape), (5, 2)]:
        q, r = mt.linalg.qr(on(xp, mt.tensor(a, chunk_size=chunk)))
        assert q.dtype == np.float64
        assert r.dtype == np.float64
        _check_qr(*fetch(q, r), a)


@settings(max_examples=15)
@given(rows=st.integers(1, 30), cols=st.integers(1, 6), data=st.data())
def test_qr_tall_any_row_chunks(rows, cols, data):
    a = RNG.random((rows, cols))
    row_chunk = data.draw(st.integers(1, rows))
    col_chunk = data.draw(st.integers(1, cols))
    q, r = mt.linalg.qr(mt.tensor(a, chunk_size=(row_chunk, col_chunk)))
    _check_qr(*fetch(q, r), a)


def test_qr_uses_tsqr_for_row_chunked_tall_matrices():
    a = mt.tensor(RNG.random((40, 3)), chunk_size=(10, 3))
    q, r = mt.linalg.qr(a)
    keys = task_keys(q, r)
    assert sum(1 for k in keys if k[1] == "qr") == 4  # one QR per row block
    assert sum(1 for k in keys if k[1] == "stack") == 1  # one QR of the stacked R factors
    assert {op_name_of(k) for k in keys} <= {"qr", "qrq", "qrr", "tensor_data", "rechunk"}
    assert q.shape == (40, 3)
    assert r.shape == (3, 3)


def test_qr_complex_and_float32(xp):
    a = (RNG.random((12, 3)) + 1j * RNG.random((12, 3))).astype(np.complex64)
    q, r = mt.linalg.qr(on(xp, mt.tensor(a, chunk_size=(4, 2))))
    assert q.dtype == np.complex64
    qv, rv = fetch(q, r)
    np.testing.assert_allclose(qv @ rv, a, atol=1e-5)
    f = RNG.random((12, 3)).astype(np.float32)
    q, r = mt.linalg.qr(on(xp, mt.tensor(f, chunk_size=4)))
    assert q.dtype == np.float32
    np.testing.assert_allclose(np.matmul(*fetch(q, r)), f, atol=1e-5)


def test_qr_modes():
    a = RNG.random((10, 3))
    t = mt.tensor(a, chunk_size=(4, 3))
    r = mt.linalg.qr(t, mode="r").execute().fetch()
    np.testing.assert_allclose(np.abs(r), np.abs(np.linalg.qr(a, mode="r")))
    q, r = mt.linalg.qr(t, mode="complete")
    qv, rv = fetch(q, r)
    assert qv.shape == (10, 10)
    assert rv.shape == (10, 3)
    np.testing.assert_allclose(qv @ rv, a, atol=1e-12)
    h, tau = mt.linalg.qr(t, mode="raw")
    hv, tauv = fetch(h, tau)
    np.testing.assert_allclose(hv, np.linalg.qr(a, mode="raw")[0])
    np.testing.assert_allclose(tauv, np.linalg.qr(a, mode="raw")[1])


def test_qr_of_a_stack_of_matrices():
    a = RNG.random((3, 6, 4))
    q, r = mt.linalg.qr(mt.tensor(a, chunk_size=(2, 3, 2)))
    qv, rv = fetch(q, r)
    np.testing.assert_allclose(qv @ rv, a, atol=1e-12)
    assert qv.shape == (3, 6, 4)
    assert rv.shape == (3, 4, 4)


def test_qr_bad_input():
    with pytest.raises(LinAlgError, match="1-dimensional array given"):
        mt.linalg.qr(mt.tensor(np.ones(3)))
    with pytest.raises(ValueError, match="Unrecognized mode"):
        mt.linalg.qr(mt.tensor(np.ones((3, 2))), mode="full")
    with pytest.raises(TypeError, match="float16"):
        mt.linalg.qr(mt.tensor(np.ones((3, 2), dtype=np.float16)))


@pytest.mark.parametrize("shape", [(20, 4), (4, 20), (7, 7), (5, 1)])
def test_svd_reconstructs_over_chunkings(shape):
    a = RNG.random(shape)
    k = min(shape)
    for chunk in [*chunkings(shape), (3, 3)]:
        u, s, vh = mt.linalg.svd(mt.tensor(a, chunk_size=chunk))
        uv, sv, vhv = fetch(u, s, vh)
        assert uv.shape == (shape[0], k)
        assert sv.shape == (k,)
        assert vhv.shape == (k, shape[1])
        np.testing.assert_allclose(sv, np.linalg.svd(a, compute_uv=False))
        np.testing.assert_allclose((uv * sv) @ vhv, a, atol=1e-10)
        np.testing.assert_allclose(uv.T @ uv, np.eye(k), atol=1e-10)
        np.testing.assert_allclose(vhv @ vhv.T, np.eye(k), atol=1e-10)


@settings(max_examples=15)
@given(rows=st.integers(1, 25), cols=st.integers(1, 5), data=st.data())
def test_svd_singular_values_any_chunks(rows, cols, data):
    a = RNG.random((rows, cols))
    chunk = (data.draw(st.integers(1, rows)), data.draw(st.integers(1, cols)))
    s = mt.linalg.svd(mt.tensor(a, chunk_size=chunk), compute_uv=False)
    assert_same(s, np.linalg.svd(a, compute_uv=False))


def test_svd_full_matrices_complex_and_stacks():
    a = RNG.random((6, 3))
    u, s, vh = mt.linalg.svd(mt.tensor(a, chunk_size=2), full_matrices=True)
    uv, sv, vhv = fetch(u, s, vh)
    assert uv.shape == (6, 6)
    np.testing.assert_allclose(uv[:, :3] * sv @ vhv, a, atol=1e-12)
    c = RNG.random((8, 3)) + 1j * RNG.random((8, 3))
    u, s, vh = mt.linalg.svd(mt.tensor(c, chunk_size=(3, 3)))
    assert u.dtype == np.complex128
    assert s.dtype == np.float64
    uv, sv, vhv = fetch(u, s, vh)
    np.testing.assert_allclose((uv * sv) @ vhv, c, atol=1e-12)
    x = RNG.random((2, 5, 3))
    assert_same(
        mt.linalg.svd(mt.tensor(x, chunk_size=2), compute_uv=False),
        np.linalg.svd(x, compute_uv=False),
    )
    u, s, vh = mt.linalg.svd(mt.tensor(x, chunk_size=2))
    uv, sv, vhv = fetch(u, s, vh)
    np.testing.assert_allclose(uv * sv[:, None, :] @ vhv, x, atol=1e-12)


def test_svd_bad_input():
    with pytest.raises(LinAlgError, match="at least two-dimensional"):
        mt.linalg.svd(mt.tensor(np.ones(3)))
