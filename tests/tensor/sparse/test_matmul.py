"""``dot``, ``matmul`` and ``@`` with sparse operands against SciPy: sparse x sparse is
sparse, a dense operand gives a dense result."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import chunkings
from tests.tensor.sparse.helpers import check, sample

A_SHAPE, B_SHAPE = (7, 6), (6, 5)


@pytest.mark.parametrize("chunk", chunkings(A_SHAPE))
@pytest.mark.parametrize("func", ["matmul", "dot", "operator"])
def test_sparse_times_dense_is_dense(func, chunk):
    a = sample(A_SHAPE)
    b = np.random.default_rng(1).standard_normal(B_SHAPE)
    x, y = mt.tensor(a, chunk_size=chunk), mt.tensor(b, chunk_size=chunk)
    out = x @ y if func == "operator" else getattr(mt, func)(x, y)
    check(out, a @ b, sparse=False)


@pytest.mark.parametrize("chunk", chunkings(A_SHAPE))
def test_sparse_times_sparse_is_sparse(chunk):
    a, b = sample(A_SHAPE), sample(B_SHAPE, seed=1)
    x = mt.tensor(a, chunk_size=chunk)
    y = mt.tensor(b, chunk_size=(2, 3))  # other chunks along the contracted axis
    check(x @ y, a @ b, sparse=True)
    check(x.dot(y), a @ b, sparse=True)


@pytest.mark.parametrize("chunk", chunkings(A_SHAPE))
def test_dense_times_sparse_and_vectors(chunk):
    a = sample(A_SHAPE)
    rng = np.random.default_rng(2)
    left, v, w = rng.standard_normal((4, 7)), rng.standard_normal(6), rng.standard_normal(7)
    x = mt.tensor(a, chunk_size=chunk)
    check(mt.tensor(left, chunk_size=3) @ x, left @ a, sparse=False)
    check(x @ v, a @ v, sparse=False)
    check(mt.dot(w, x), w @ a, sparse=False)
    check(x.T @ x, (a.T @ a), sparse=True)


def test_integer_products_keep_numpy_dtypes():
    a, b = sample(A_SHAPE, dtype="i8"), sample(B_SHAPE, dtype="i4", seed=1)
    x, y = mt.tensor(a, chunk_size=3), mt.tensor(b, chunk_size=4)
    check(x @ y, a.toarray() @ b.toarray(), sparse=True)
    check(x @ b.toarray().astype("f4"), a.toarray() @ b.toarray().astype("f4"), sparse=False)


def test_misaligned_shapes_raise_at_the_call():
    x = mt.tensor(sample(A_SHAPE))
    with pytest.raises(ValueError, match="not aligned"):
        mt.dot(x, np.ones((5, 2)))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        x @ mt.tensor(sample((5, 2)))


@settings(max_examples=10, deadline=None)
@given(
    n=st.integers(1, 6),
    k=st.integers(1, 6),
    m=st.integers(1, 6),
    chunk=st.integers(1, 6),
    dense_right=st.booleans(),
)
def test_products_over_shapes_and_chunks(n, k, m, chunk, dense_right):
    a, b = sample((n, k), seed=n), sample((k, m), seed=m)
    right = b.toarray() if dense_right else b
    out = mt.tensor(a, chunk_size=chunk) @ mt.tensor(right, chunk_size=max(1, chunk - 1))
    check(out, a.toarray() @ b.toarray(), sparse=not dense_right)
