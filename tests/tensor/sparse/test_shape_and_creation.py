"""Transposes, slices, triangles and the creation functions with ``sparse=True``."""

import numpy as np
import pytest
import scipy.sparse as sps

import jupyter_mars.tensor as mt
from tests.conftest import chunkings
from tests.tensor.sparse.helpers import check, sample

SHAPE = (7, 6)


@pytest.mark.parametrize("chunk", chunkings(SHAPE))
def test_transpose_stays_sparse(chunk):
    m = sample(SHAPE)
    x = mt.tensor(m, chunk_size=chunk)
    check(x.T, m.T, sparse=True)
    check(mt.transpose(x, (1, 0)), m.T, sparse=True)
    check(mt.swapaxes(x, 0, 1), m.T, sparse=True)


@pytest.mark.parametrize("chunk", chunkings(SHAPE))
@pytest.mark.parametrize(
    "index",
    [
        (slice(1, 5),),
        (slice(None), slice(2, 5)),
        (slice(6, 0, -2), slice(None, None, 3)),
        (slice(-3, None), slice(None, -1)),
        (slice(3, 3),),
    ],
)
def test_slices_of_rows_and_columns_stay_sparse(index, chunk):
    m = sample(SHAPE)
    check(mt.tensor(m, chunk_size=chunk)[index], m.toarray()[index], sparse=True)


@pytest.mark.parametrize("index", [2, (slice(None), -1), (1, 3), (None, slice(1, 3))])
def test_integer_and_new_axis_indices_give_dense_results(index):
    m = sample(SHAPE)
    check(mt.tensor(m, chunk_size=3)[index], m.toarray()[index], sparse=False)


def test_fancy_indices_give_dense_results():
    m = sample(SHAPE)
    x = mt.tensor(m, chunk_size=3)
    check(x[[0, 3, 5]], m.toarray()[[0, 3, 5]], sparse=False)
    check(x[x > 0], m.toarray()[m.toarray() > 0], sparse=False)


@pytest.mark.parametrize("chunk", chunkings(SHAPE))
@pytest.mark.parametrize("k", [-2, 0, 3])
def test_tril_and_triu_stay_sparse(k, chunk):
    m = sample(SHAPE, density=0.6)
    x = mt.tensor(m, chunk_size=chunk)
    check(mt.tril(x, k), np.tril(m.toarray(), k), sparse=True)
    check(mt.triu(x, k), np.triu(m.toarray(), k), sparse=True)


@pytest.mark.parametrize("chunk", chunkings(SHAPE))
def test_zeros_eye_identity_with_sparse_true(chunk):
    z = mt.zeros(SHAPE, dtype="i4", chunk_size=chunk, sparse=True)
    check(z, np.zeros(SHAPE, dtype="i4"), sparse=True)
    assert z.execute().fetch().nnz == 0
    for k in (-3, 0, 2, 9):
        check(mt.eye(7, 6, k=k, chunk_size=chunk, sparse=True), np.eye(7, 6, k), sparse=True)
    check(mt.identity(6, chunk_size=chunk, sparse=True), np.identity(6), sparse=True)
    assert not mt.eye(3).issparse()


@pytest.mark.parametrize("chunk", [1, 2, 5])
def test_diag_with_sparse_true_and_of_a_sparse_matrix(chunk):
    v = np.arange(1.0, 6.0)
    check(mt.diag(v, k=1, sparse=True, chunk_size=chunk), np.diag(v, 1), sparse=True)
    m = sample(SHAPE, density=0.7)
    check(mt.diag(m, k=-1, chunk_size=chunk), m.diagonal(-1), sparse=False)
    check(mt.diag(mt.tensor(m, chunk_size=chunk)), m.diagonal(), sparse=False)


def test_sparse_results_combine_with_each_other():
    x = mt.eye(5, sparse=True, chunk_size=2) * 3 + mt.tensor(sps.eye(5, k=1), chunk_size=3)
    expected = np.eye(5) * 3 + np.eye(5, k=1)
    check(x, expected, sparse=True)
    check((x @ x.T).sum(axis=1), (expected @ expected.T).sum(axis=1), sparse=False)


@pytest.mark.parametrize("chunk", chunkings(SHAPE))
def test_joining_sparse_tensors_stays_sparse(chunk):
    a, b = sample(SHAPE), sample(SHAPE, seed=1).astype("f4")
    x, y = mt.tensor(a, chunk_size=chunk), mt.tensor(b, chunk_size=(3, 2))
    da, db = a.toarray(), b.toarray()
    check(mt.concatenate([x, y]), np.concatenate([da, db]), sparse=True)
    check(mt.hstack([x, y, x]), np.hstack([da, db, da]), sparse=True)
    check(mt.vstack([x, da]), np.vstack([da, da]), sparse=False)
    check(mt.stack([x, y]), np.stack([da, db]), sparse=False)
