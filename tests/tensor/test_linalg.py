import numpy as np
import pytest
import scipy.linalg
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.engine.node import op_name_of
from jupyter_mars.engine.plan import plan_stages
from tests.conftest import assert_same, chunkings

RNG = np.random.default_rng(5)
LinAlgError = np.linalg.LinAlgError


def _spd(n, dtype=float):
    m = RNG.random((n, n))
    if np.dtype(dtype).kind == "c":
        m = m + 1j * RNG.random((n, n))
    return (m @ m.conj().T + n * np.eye(n)).astype(dtype)


def _fetch(*tensors):
    mars.execute(*tensors)
    return [t.fetch() for t in tensors]


def _check_qr(q, r, a):
    k = min(a.shape)
    assert q.shape == (a.shape[0], k)
    assert r.shape == (k, a.shape[1])
    np.testing.assert_allclose(q @ r, a, atol=1e-10)
    np.testing.assert_allclose(q.conj().T @ q, np.eye(k), atol=1e-10)
    np.testing.assert_allclose(np.triu(r), r, atol=0)
    np.testing.assert_allclose(np.abs(np.diag(r)), np.abs(np.diag(np.linalg.qr(a)[1])))


def _task_keys(*tensors):
    stage = next(plan_stages([t.node for t in tensors], {}))
    return list(stage.graph)


# ---- qr -------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(20, 4), (9, 9), (4, 7), (12, 1)])
def test_qr_reconstructs_over_chunkings(shape):
    a = RNG.random(shape)
    for chunk in [*chunkings(shape), (5, 2)]:
        q, r = mt.linalg.qr(mt.tensor(a, chunk_size=chunk))
        assert q.dtype == np.float64
        assert r.dtype == np.float64
        _check_qr(*_fetch(q, r), a)


@settings(max_examples=15)
@given(rows=st.integers(1, 30), cols=st.integers(1, 6), data=st.data())
def test_qr_tall_any_row_chunks(rows, cols, data):
    a = RNG.random((rows, cols))
    row_chunk = data.draw(st.integers(1, rows))
    col_chunk = data.draw(st.integers(1, cols))
    q, r = mt.linalg.qr(mt.tensor(a, chunk_size=(row_chunk, col_chunk)))
    _check_qr(*_fetch(q, r), a)


def test_qr_uses_tsqr_for_row_chunked_tall_matrices():
    a = mt.tensor(RNG.random((40, 3)), chunk_size=(10, 3))
    q, r = mt.linalg.qr(a)
    keys = _task_keys(q, r)
    assert sum(1 for k in keys if k[1] == "qr") == 4  # one QR per row block
    assert sum(1 for k in keys if k[1] == "stack") == 1  # one QR of the stacked R factors
    assert {op_name_of(k) for k in keys} <= {"qr", "qrq", "qrr", "tensor_data", "rechunk"}
    assert q.shape == (40, 3)
    assert r.shape == (3, 3)


def test_qr_complex_and_float32():
    a = (RNG.random((12, 3)) + 1j * RNG.random((12, 3))).astype(np.complex64)
    q, r = mt.linalg.qr(mt.tensor(a, chunk_size=(4, 2)))
    assert q.dtype == np.complex64
    qv, rv = _fetch(q, r)
    np.testing.assert_allclose(qv @ rv, a, atol=1e-5)
    f = RNG.random((12, 3)).astype(np.float32)
    q, r = mt.linalg.qr(mt.tensor(f, chunk_size=4))
    assert q.dtype == np.float32
    np.testing.assert_allclose(np.matmul(*_fetch(q, r)), f, atol=1e-5)


def test_qr_modes():
    a = RNG.random((10, 3))
    t = mt.tensor(a, chunk_size=(4, 3))
    r = mt.linalg.qr(t, mode="r").execute().fetch()
    np.testing.assert_allclose(np.abs(r), np.abs(np.linalg.qr(a, mode="r")))
    q, r = mt.linalg.qr(t, mode="complete")
    qv, rv = _fetch(q, r)
    assert qv.shape == (10, 10)
    assert rv.shape == (10, 3)
    np.testing.assert_allclose(qv @ rv, a, atol=1e-12)
    h, tau = mt.linalg.qr(t, mode="raw")
    hv, tauv = _fetch(h, tau)
    np.testing.assert_allclose(hv, np.linalg.qr(a, mode="raw")[0])
    np.testing.assert_allclose(tauv, np.linalg.qr(a, mode="raw")[1])


def test_qr_of_a_stack_of_matrices():
    a = RNG.random((3, 6, 4))
    q, r = mt.linalg.qr(mt.tensor(a, chunk_size=(2, 3, 2)))
    qv, rv = _fetch(q, r)
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


# ---- svd ------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(20, 4), (4, 20), (7, 7), (5, 1)])
def test_svd_reconstructs_over_chunkings(shape):
    a = RNG.random(shape)
    k = min(shape)
    for chunk in [*chunkings(shape), (3, 3)]:
        u, s, vh = mt.linalg.svd(mt.tensor(a, chunk_size=chunk))
        uv, sv, vhv = _fetch(u, s, vh)
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
    uv, sv, vhv = _fetch(u, s, vh)
    assert uv.shape == (6, 6)
    np.testing.assert_allclose(uv[:, :3] * sv @ vhv, a, atol=1e-12)
    c = RNG.random((8, 3)) + 1j * RNG.random((8, 3))
    u, s, vh = mt.linalg.svd(mt.tensor(c, chunk_size=(3, 3)))
    assert u.dtype == np.complex128
    assert s.dtype == np.float64
    uv, sv, vhv = _fetch(u, s, vh)
    np.testing.assert_allclose((uv * sv) @ vhv, c, atol=1e-12)
    x = RNG.random((2, 5, 3))
    assert_same(
        mt.linalg.svd(mt.tensor(x, chunk_size=2), compute_uv=False),
        np.linalg.svd(x, compute_uv=False),
    )
    u, s, vh = mt.linalg.svd(mt.tensor(x, chunk_size=2))
    uv, sv, vhv = _fetch(u, s, vh)
    np.testing.assert_allclose(uv * sv[:, None, :] @ vhv, x, atol=1e-12)


def test_svd_bad_input():
    with pytest.raises(LinAlgError, match="at least two-dimensional"):
        mt.linalg.svd(mt.tensor(np.ones(3)))


# ---- cholesky -------------------------------------------------------------------------------


def test_cholesky_matches_numpy_over_chunkings():
    a = _spd(9)
    for chunk in [*chunkings(a.shape), 2, (4, 3)]:
        t = mt.tensor(a, chunk_size=chunk)
        assert_same(mt.linalg.cholesky(t), np.linalg.cholesky(a))
        assert_same(mt.linalg.cholesky(t, lower=False), np.linalg.cholesky(a).T)
        assert_same(mt.linalg.cholesky(t, upper=True), np.linalg.cholesky(a, upper=True))


@settings(max_examples=10)
@given(n=st.integers(1, 12), data=st.data())
def test_cholesky_reconstructs_any_chunks(n, data):
    a = _spd(n)
    chunk = data.draw(st.integers(1, n))
    low = mt.linalg.cholesky(mt.tensor(a, chunk_size=chunk)).execute().fetch()
    np.testing.assert_allclose(low @ low.T, a)
    np.testing.assert_allclose(np.tril(low), low, atol=0)


def test_cholesky_complex_int_and_stacks():
    c = _spd(5, complex)
    assert_same(mt.linalg.cholesky(mt.tensor(c, chunk_size=2)), np.linalg.cholesky(c))
    i = np.array([[4, 2], [2, 3]])
    assert_same(mt.linalg.cholesky(mt.tensor(i, chunk_size=1)), np.linalg.cholesky(i))
    stack = np.stack([_spd(4), _spd(4)])
    assert_same(mt.linalg.cholesky(mt.tensor(stack, chunk_size=2)), np.linalg.cholesky(stack))


def test_cholesky_reads_only_the_lower_triangle():
    a = _spd(6)
    dirty = np.tril(a) + np.triu(RNG.random((6, 6)), 1)
    assert_same(mt.linalg.cholesky(mt.tensor(dirty, chunk_size=2)), np.linalg.cholesky(dirty))


def test_cholesky_not_positive_definite_raises_at_execute():
    a = -np.eye(4)
    factor = mt.linalg.cholesky(mt.tensor(a, chunk_size=2))
    with pytest.raises(LinAlgError):
        factor.execute()


def test_cholesky_bad_input():
    with pytest.raises(LinAlgError, match="must be square"):
        mt.linalg.cholesky(mt.tensor(np.ones((3, 4))))
    with pytest.raises(LinAlgError, match="at least two-dimensional"):
        mt.linalg.cholesky(mt.tensor(np.ones(3)))


# ---- lu -------------------------------------------------------------------------------------


def test_lu_matches_scipy_over_chunkings():
    a = RNG.random((9, 9))
    expected = scipy.linalg.lu(a)
    for chunk in [*chunkings(a.shape), 2, (4, 2)]:
        p, low, up = mt.linalg.lu(mt.tensor(a, chunk_size=chunk))
        for got, exp in zip(_fetch(p, low, up), expected):
            np.testing.assert_allclose(got, exp, atol=1e-12)
        pl, up = mt.linalg.lu(mt.tensor(a, chunk_size=chunk), permute_l=True)
        plv, upv = _fetch(pl, up)
        np.testing.assert_allclose(plv @ upv, a, atol=1e-12)
        p, low, up = mt.linalg.lu(mt.tensor(a, chunk_size=chunk), p_indices=True)
        assert_same(p, scipy.linalg.lu(a, p_indices=True)[0])


@settings(max_examples=10)
@given(n=st.integers(1, 12), data=st.data())
def test_lu_reconstructs_any_chunks(n, data):
    a = RNG.random((n, n))
    chunk = data.draw(st.integers(1, n))
    p, low, up = _fetch(*mt.linalg.lu(mt.tensor(a, chunk_size=chunk)))
    np.testing.assert_allclose(p @ low @ up, a, atol=1e-10)
    np.testing.assert_allclose(np.tril(low), low, atol=0)
    np.testing.assert_allclose(np.diag(low), 1)
    np.testing.assert_allclose(np.triu(up), up, atol=0)
    assert np.all(np.abs(low) <= 1 + 1e-12)  # partial pivoting


def test_lu_dtypes_rectangular_and_stacks():
    f = RNG.random((5, 5)).astype(np.float32)
    p, low, up = mt.linalg.lu(mt.tensor(f, chunk_size=2))
    assert (p.dtype, low.dtype, up.dtype) == tuple(x.dtype for x in scipy.linalg.lu(f))
    np.testing.assert_allclose(np.linalg.multi_dot(_fetch(p, low, up)), f, atol=1e-5)
    r = RNG.random((6, 4))
    for got, exp in zip(_fetch(*mt.linalg.lu(mt.tensor(r, chunk_size=2))), scipy.linalg.lu(r)):
        np.testing.assert_allclose(got, exp)
    s = RNG.random((2, 4, 4))
    for got, exp in zip(_fetch(*mt.linalg.lu(mt.tensor(s, chunk_size=2))), scipy.linalg.lu(s)):
        np.testing.assert_allclose(got, exp)
    got = mt.linalg.lu(mt.tensor(s, chunk_size=2), p_indices=True)[0]
    assert_same(got, scipy.linalg.lu(s, p_indices=True)[0])


def test_lu_bad_input():
    with pytest.raises(LinAlgError, match="1-dimensional"):
        mt.linalg.lu(mt.tensor(np.ones(4)))


# ---- solve, inv, det --------------------------------------------------------------------------


def test_solve_matches_numpy_over_chunkings():
    a = RNG.random((8, 8)) + 4 * np.eye(8)
    b = RNG.random((8, 3))
    for chunk in [*chunkings(a.shape), 3]:
        ta = mt.tensor(a, chunk_size=chunk)
        assert_same(mt.linalg.solve(ta, mt.tensor(b, chunk_size=2)), np.linalg.solve(a, b))
        assert_same(mt.linalg.solve(ta, b[:, 0]), np.linalg.solve(a, b[:, 0]))


@settings(max_examples=10)
@given(n=st.integers(1, 10), k=st.integers(1, 4), data=st.data())
def test_solve_any_chunks(n, k, data):
    a = RNG.random((n, n)) + n * np.eye(n)
    b = RNG.random((n, k))
    ta = mt.tensor(a, chunk_size=data.draw(st.integers(1, n)))
    tb = mt.tensor(b, chunk_size=(data.draw(st.integers(1, n)), data.draw(st.integers(1, k))))
    assert_same(mt.linalg.solve(ta, tb), np.linalg.solve(a, b))


def test_solve_integer_and_stacked_inputs():
    a = np.array([[3, 1], [1, 2]])
    assert_same(
        mt.linalg.solve(mt.tensor(a, chunk_size=1), np.array([9, 8])),
        np.linalg.solve(a, np.array([9, 8])),
    )
    stack = RNG.random((3, 4, 4)) + 4 * np.eye(4)
    b = RNG.random((3, 4, 2))
    assert_same(
        mt.linalg.solve(mt.tensor(stack, chunk_size=2), mt.tensor(b, chunk_size=2)),
        np.linalg.solve(stack, b),
    )
    assert_same(
        mt.linalg.solve(mt.tensor(stack, chunk_size=2), b[0, :, 0]),
        np.linalg.solve(stack, b[0, :, 0]),
    )
    one = RNG.random((1, 4, 4)) + 4 * np.eye(4)
    assert_same(
        mt.linalg.solve(mt.tensor(one, chunk_size=2), mt.tensor(b, chunk_size=1)),
        np.linalg.solve(one, b),
    )


def test_solve_singular_raises_at_execute():
    x = mt.linalg.solve(mt.tensor(np.ones((4, 4)), chunk_size=2), np.ones(4))
    with pytest.raises(LinAlgError, match="Singular matrix"):
        x.execute()


def test_solve_bad_input():
    with pytest.raises(ValueError, match=r"solve1: .* \(size 2 is different from 3\)"):
        mt.linalg.solve(mt.tensor(np.eye(3)), np.ones(2))
    with pytest.raises(ValueError, match=r"solve: .* \(size 2 is different from 3\)"):
        mt.linalg.solve(mt.tensor(np.eye(3)), np.ones((2, 2)))
    with pytest.raises(LinAlgError, match="must be square"):
        mt.linalg.solve(mt.tensor(np.ones((2, 3))), np.ones(2))
    with pytest.raises(ValueError, match="could not be broadcast"):
        mt.linalg.solve(mt.tensor(np.ones((2, 3, 3))), np.ones((4, 3, 1)))


def test_inv_matches_numpy_over_chunkings():
    a = RNG.random((7, 7)) + 3 * np.eye(7)
    for chunk in [*chunkings(a.shape), 3]:
        assert_same(mt.linalg.inv(mt.tensor(a, chunk_size=chunk)), np.linalg.inv(a))
    f = a.astype(np.float32)
    assert_same(mt.linalg.inv(mt.tensor(f, chunk_size=3)), np.linalg.inv(f), rtol=1e-4)
    stack = np.stack([a, 2 * a])
    assert_same(mt.linalg.inv(mt.tensor(stack, chunk_size=3)), np.linalg.inv(stack))
    with pytest.raises(LinAlgError, match="Singular matrix"):
        mt.linalg.inv(mt.tensor(np.zeros((4, 4)), chunk_size=2)).execute()


def test_det_and_slogdet_match_numpy():
    a = RNG.random((8, 8))
    for chunk in [*chunkings(a.shape), 3]:
        t = mt.tensor(a, chunk_size=chunk)
        assert_same(mt.linalg.det(t), np.linalg.det(a))
        sign, logdet = mt.linalg.slogdet(t)
        expected = np.linalg.slogdet(a)
        assert_same(sign, expected.sign)
        assert_same(logdet, expected.logabsdet)
    assert_same(mt.linalg.det(mt.tensor(np.ones((4, 4)), chunk_size=2)), 0.0)
    c = RNG.random((5, 5)) + 1j * RNG.random((5, 5))
    assert_same(mt.linalg.det(mt.tensor(c, chunk_size=2)), np.linalg.det(c))
    sign, logdet = mt.linalg.slogdet(mt.tensor(c, chunk_size=2))
    assert_same(sign, np.linalg.slogdet(c).sign)
    assert_same(logdet, np.linalg.slogdet(c).logabsdet)
    i = np.array([[2, 1], [1, 3]], dtype=np.int32)
    assert_same(mt.linalg.det(mt.tensor(i, chunk_size=1)), np.linalg.det(i))
    stack = RNG.random((3, 4, 4))
    assert_same(mt.linalg.det(mt.tensor(stack, chunk_size=2)), np.linalg.det(stack))
    with pytest.raises(LinAlgError, match="must be square"):
        mt.linalg.det(mt.tensor(np.ones((2, 3))))


def test_solve_triangular_matches_scipy():
    a = np.triu(RNG.random((7, 7))) + 2 * np.eye(7)
    b = RNG.random((7, 2))
    for chunk in [*chunkings(a.shape), 3]:
        ta = mt.tensor(a, chunk_size=chunk)
        assert_same(
            mt.linalg.solve_triangular(ta, mt.tensor(b, chunk_size=3)),
            scipy.linalg.solve_triangular(a, b),
        )
        assert_same(
            mt.linalg.solve_triangular(
                mt.tensor(a.T, chunk_size=chunk), b[:, 0], lower=True, unit_diagonal=True
            ),
            scipy.linalg.solve_triangular(a.T, b[:, 0], lower=True, unit_diagonal=True),
        )
    with pytest.raises(ValueError, match="square"):
        mt.linalg.solve_triangular(mt.tensor(np.ones((2, 3))), np.ones(2))


# ---- norm -------------------------------------------------------------------------------------

MATRIX_ORDS = [None, "fro", 1, -1, 2, -2, np.inf, -np.inf, "nuc"]
VECTOR_ORDS = [None, 0, 1, 2, 3.5, -1, np.inf, -np.inf]


@pytest.mark.parametrize("ord", MATRIX_ORDS)
def test_matrix_norms_match_numpy(ord):
    a = RNG.random((7, 5)) - 0.5
    for chunk in chunkings(a.shape):
        t = mt.tensor(a, chunk_size=chunk)
        assert_same(mt.linalg.norm(t, ord), np.linalg.norm(a, ord))
        assert_same(mt.linalg.norm(t, ord, keepdims=True), np.linalg.norm(a, ord, keepdims=True))
        assert_same(mt.linalg.norm(t, ord, axis=(1, 0)), np.linalg.norm(a, ord, axis=(1, 0)))


@pytest.mark.parametrize("ord", VECTOR_ORDS)
def test_vector_norms_match_numpy(ord):
    v = RNG.random(9) - 0.5
    a = RNG.random((4, 6)) - 0.5
    for chunk in chunkings(v.shape):
        assert_same(mt.linalg.norm(mt.tensor(v, chunk_size=chunk), ord), np.linalg.norm(v, ord))
    for axis in (0, 1, -1):
        t = mt.tensor(a, chunk_size=(3, 4))
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


# ---- lstsq ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape_a", "shape_b"),
    [((20, 4), (20,)), ((20, 4), (20, 3)), ((3, 6), (3, 2)), ((9, 9), (9,))],
)
def test_lstsq_matches_numpy(shape_a, shape_b):
    a, b = RNG.random(shape_a), RNG.random(shape_b)
    expected = np.linalg.lstsq(a, b)
    for chunk in [*chunkings(shape_a), 4]:
        x, residuals, rank, s = mt.linalg.lstsq(mt.tensor(a, chunk_size=chunk), b)
        for got, exp in zip((x, residuals, rank, s), expected):
            assert_same(got, exp)


def test_lstsq_rank_deficient_gives_minimum_norm_and_no_residuals():
    a = np.ones((10, 3))
    b = RNG.random(10)
    x, residuals, rank, s = mt.linalg.lstsq(mt.tensor(a, chunk_size=4), b)
    assert np.isnan(residuals.shape[0])
    expected = np.linalg.lstsq(a, b)
    assert_same(x, expected[0])
    assert_same(residuals, expected[1])
    assert residuals.shape == (0,)
    assert int(rank.execute().fetch()) == 1


def test_lstsq_bad_input():
    with pytest.raises(LinAlgError, match="Incompatible dimensions"):
        mt.linalg.lstsq(mt.tensor(np.ones((3, 3))), np.ones(4))
    with pytest.raises(LinAlgError, match="3-dimensional array given"):
        mt.linalg.lstsq(mt.tensor(np.ones((3, 3, 3))), np.ones(3))
