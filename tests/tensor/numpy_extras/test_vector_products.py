"""Vector products against NumPy over three chunkings."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_RNG = np.random.default_rng(7)
_A = _RNG.integers(-5, 5, (4, 3))
_B = _RNG.integers(-5, 5, (4, 3)).astype(np.int8)
_M = _RNG.normal(size=(2, 4, 3))
_C = _A + 1j * _A[::-1]


@pytest.mark.parametrize("chunks", chunkings(_A.shape))
def test_vecdot_matvec_vecmat_match_numpy(chunks: object) -> None:
    a, b = mt.tensor(_A, chunk_size=chunks), mt.tensor(_B, chunk_size=chunks)
    m_chunks = chunks if not isinstance(chunks, tuple) else (1, *chunks)
    m = mt.tensor(_M, chunk_size=m_chunks)
    assert_same(mt.vecdot(a, b), np.vecdot(_A, _B))
    assert_same(mt.vecdot(a, b, axis=0), np.vecdot(_A, _B, axis=0))
    assert_same(mt.vecdot(mt.tensor(_C, chunk_size=chunks), b), np.vecdot(_C, _B))
    assert_same(np.vecdot(a, b), np.vecdot(_A, _B))  # through __array_ufunc__
    assert_same(mt.matvec(m, b[0]), np.matvec(_M, _B[0]))
    assert_same(mt.matvec(m[0], b), np.matvec(_M[0], _B))
    mt_ = mt.tensor(_M.transpose(0, 2, 1), chunk_size=m_chunks)
    assert_same(mt.vecmat(a[0], mt_), np.vecmat(_A[0], _M.transpose(0, 2, 1)))
    assert_same(mt.vecmat(mt.tensor(_C[0]), mt_), np.vecmat(_C[0], _M.transpose(0, 2, 1)))


def test_vecdot_bad_input() -> None:
    with pytest.raises(ValueError, match="core dimension"):
        mt.vecdot(mt.ones(3), mt.ones(4))
    with pytest.raises(np.exceptions.AxisError):
        mt.vecdot(mt.ones(3), mt.ones(3), axis=1)
    with pytest.raises(ValueError, match="at least one dimension"):
        mt.vecdot(mt.tensor(1.0), mt.ones(3))


@pytest.mark.parametrize("chunks", chunkings(_A.shape))
def test_cross_matches_numpy(chunks: object) -> None:
    a, b = mt.tensor(_A, chunk_size=chunks), mt.tensor(_B, chunk_size=chunks)
    assert_same(mt.cross(a, b), np.cross(_A, _B))
    assert_same(mt.cross(a[0], b), np.cross(_A[0], _B))
    kwargs = {"axisa": 0, "axisb": 0, "axisc": 0}
    assert_same(mt.cross(a.T, b.T, **kwargs), np.cross(_A.T, _B.T, **kwargs))
    assert_same(mt.cross(a.T, b.T, axis=0), np.cross(_A.T, _B.T, axis=0))
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors"):
        got = [mt.cross(a[:, :2], b), mt.cross(a, b[:, :2]), mt.cross(a[:, :2], b[:, :2])]
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors"):
        expected = [
            np.cross(_A[:, :2], _B),
            np.cross(_A, _B[:, :2]),
            np.cross(_A[:, :2], _B[:, :2]),
        ]
    for g, e in zip(got, expected):
        assert_same(g, e)


def test_cross_bad_input() -> None:
    with pytest.raises(ValueError, match="dimension must be 2 or 3"):
        mt.cross(mt.ones(4), mt.ones(3))
    with pytest.raises(np.exceptions.AxisError):
        mt.cross(mt.ones(3), mt.ones(3), axisa=1)


@pytest.mark.parametrize("chunks", chunkings(_A.shape))
def test_kron_matches_numpy(chunks: object) -> None:
    a, b = mt.tensor(_A, chunk_size=chunks), mt.tensor(_B, chunk_size=chunks)
    assert_same(mt.kron(a, b), np.kron(_A, _B))
    assert_same(mt.kron(a[0], b), np.kron(_A[0], _B))
    assert_same(mt.kron(a, 3), np.kron(_A, 3))
    assert_same(mt.kron(mt.tensor(_M, chunk_size=2), b), np.kron(_M, _B))


def test_einsum_path_matches_numpy() -> None:
    ops = [np.ones((2, 3)), np.ones((3, 4)), np.ones((4, 5))]
    got = mt.einsum_path("ij,jk,kl->il", mt.tensor(ops[0]), ops[1], mt.tensor(ops[2]))
    expected = np.einsum_path("ij,jk,kl->il", *ops)
    assert got[0] == expected[0]
    assert got[1] == expected[1]
