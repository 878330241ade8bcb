"""The engine's sparse pieces: assembling CSR chunks, cutting them anew, their size, and
the rule that says which element-wise results stay sparse."""

import numpy as np
import pytest
import scipy.sparse as sps

from jupyter_mars.engine.sizeof import sizeof
from jupyter_mars.engine.sparse import assemble_sparse, fill_sparse, to_dense, to_sparse
from jupyter_mars.engine.sparse_ops import (
    DenseOperand,
    SparseOperand,
    keeps_zeros,
    sparse_elementwise,
)

F8 = np.dtype("f8")


def _matrix(shape, seed=0):
    return sps.random(*shape, density=0.4, format="csr", random_state=np.random.default_rng(seed))


def test_assemble_sparse_follows_the_chunk_grid():
    m = _matrix((5, 7))
    chunks = [m[r, c] for r in (slice(0, 2), slice(2, 5)) for c in (slice(0, 3), slice(3, 7))]
    out = assemble_sparse((2, 2), chunks, F8)
    assert isinstance(out, sps.csr_matrix)
    np.testing.assert_array_equal(out.toarray(), m.toarray())


def test_fill_sparse_places_pieces_like_a_dense_fill():
    m = _matrix((4, 6))
    regions = [
        ((slice(1, 4), slice(0, 2)), (slice(0, 3), slice(0, 2))),
        ((slice(0, 3), slice(4, 6)), (slice(0, 3), slice(2, 4))),
    ]
    out = fill_sparse((3, 4), F8, regions, [m, m])
    expected = np.hstack([m.toarray()[1:4, 0:2], m.toarray()[0:3, 4:6]])
    np.testing.assert_array_equal(out.toarray(), expected)


def test_sizeof_counts_the_arrays_a_sparse_matrix_keeps():
    m = _matrix((50, 40))
    assert sizeof(m) == m.data.nbytes + m.indices.nbytes + m.indptr.nbytes
    assert sizeof(m.tocoo()) > m.nnz * 8


def test_to_dense_and_to_sparse_leave_their_own_kind_alone():
    m = _matrix((3, 3))
    assert to_sparse(m) is m
    dense = np.ones((2, 2))
    assert to_dense(dense) is dense
    assert isinstance(to_sparse(dense), sps.csr_matrix)


@pytest.mark.parametrize(
    ("func", "operands", "kwargs", "expected"),
    [
        (np.multiply, [SparseOperand(F8), 3.0], {}, True),
        (np.add, [SparseOperand(F8), 1.0], {}, False),
        (np.add, [SparseOperand(F8), SparseOperand(F8)], {}, True),
        (np.multiply, [SparseOperand(F8), DenseOperand(F8)], {}, True),
        (np.divide, [SparseOperand(F8), DenseOperand(F8)], {}, False),
        (np.cos, [SparseOperand(F8)], {}, False),
        (np.sin, [SparseOperand(F8)], {}, True),
        (np.equal, [SparseOperand(F8), 0], {}, False),
        (np.power, [SparseOperand(F8), 2], {}, True),
    ],
)
def test_keeps_zeros(func, operands, kwargs, expected):
    assert keeps_zeros(func, operands, kwargs) is expected


def test_sparse_elementwise_works_on_stored_values_or_dense_chunks():
    m = _matrix((4, 5))
    m.data -= 0.5
    out = sparse_elementwise(np.sin, True, F8, m)
    assert isinstance(out, sps.csr_matrix)
    assert out.nnz == m.nnz
    np.testing.assert_allclose(out.toarray(), np.sin(m.toarray()))
    dense = sparse_elementwise(np.cos, False, F8, m)
    np.testing.assert_allclose(dense, np.cos(m.toarray()))
