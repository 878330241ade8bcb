"""Sparse tensors made and unmade: ``mt.tensor`` of a SciPy matrix, ``sparse=True``,
``issparse``/``tosparse``/``todense``, what ``fetch`` and ``np.asarray`` give."""

import numpy as np
import pytest
import scipy.sparse as sps

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.sparse.helpers import check, sample

SHAPE = (7, 6)


@pytest.mark.parametrize("chunk", chunkings(SHAPE))
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_tensor_of_a_scipy_matrix_fetches_the_same_csr_matrix(chunk, fmt):
    m = sample(SHAPE).asformat(fmt)
    t = mt.tensor(m, chunk_size=chunk)
    assert t.issparse()
    assert t.shape == SHAPE
    assert t.dtype == m.dtype
    check(t, m, sparse=True)


def test_asarray_and_array_of_a_sparse_array_give_sparse_tensors():
    m = sps.csr_array(sample(SHAPE))
    check(mt.asarray(m, chunk_size=3), m, sparse=True)
    check(mt.array(m), m, sparse=True)


@pytest.mark.parametrize("chunk", chunkings(SHAPE))
def test_tensor_with_sparse_true_stores_the_nonzeros(chunk):
    dense = sample(SHAPE).toarray()
    t = mt.tensor(dense, chunk_size=chunk, sparse=True)
    check(t, dense, sparse=True)
    assert t.execute().fetch().nnz == np.count_nonzero(dense)


def test_dtype_casts_the_stored_values():
    m = sample(SHAPE)
    check(mt.tensor(m, dtype="f4"), m.astype("f4"), sparse=True)


@pytest.mark.parametrize("chunk", chunkings(SHAPE))
def test_tosparse_and_todense_round_trip(chunk):
    dense = sample(SHAPE).toarray()
    t = mt.tensor(dense, chunk_size=chunk)
    assert not t.issparse()
    s = t.tosparse()
    check(s, dense, sparse=True)
    check(s.todense(), dense, sparse=False)
    assert s.tosparse() is s
    assert t.todense() is t


def test_asarray_of_a_sparse_tensor_is_dense():
    m = sample(SHAPE)
    t = mt.tensor(m, chunk_size=3)
    assert_same(np.asarray(t), m.toarray())
    assert "Compressed Sparse Row" in repr(t.execute())


def test_sparse_tensors_rechunk():
    m = sample(SHAPE)
    check(mt.tensor(m, chunk_size=2).rechunk(5), m, sparse=True)
    check(mt.tensor(m, chunk_size=(3, 4)).rechunk((2, 5)), m, sparse=True)


def test_operations_without_a_sparse_form_read_dense_chunks():
    m = sample(SHAPE)
    t = mt.tensor(m, chunk_size=3)
    check(mt.cumsum(t, axis=1), np.cumsum(m.toarray(), axis=1), sparse=False)
    check(mt.sort(t, axis=0), np.sort(m.toarray(), axis=0), sparse=False)
    check(t.reshape(6, 7), m.toarray().reshape(6, 7), sparse=False)
    check(mt.unique(t), np.unique(m.toarray()), sparse=False)
    check(mt.histogram(t, bins=4)[0], np.histogram(m.toarray(), bins=4)[0], sparse=False)


def test_a_frame_of_a_sparse_tensor_holds_its_values():
    m = sample(SHAPE)
    frame = md.DataFrame(mt.tensor(m, chunk_size=3)).execute().fetch()
    np.testing.assert_array_equal(frame.to_numpy(), m.toarray())


def test_tosparse_refuses_other_than_2d():
    with pytest.raises(ValueError, match="only 2-d tensors can be sparse"):
        mt.ones(5).tosparse()
    with pytest.raises(ValueError, match="only 2-d tensors can be sparse"):
        mt.tensor(np.ones((2, 2, 2)), sparse=True)


def test_sparse_creation_refuses_other_than_2d():
    with pytest.raises(ValueError, match=r"zeros\(\): sparse=True needs a 2-d shape"):
        mt.zeros((2, 3, 4), sparse=True)


def test_sparse_aware_operations_read_the_sparse_chunks_themselves():
    x = mt.tensor(sample(SHAPE), chunk_size=3)
    for result in (x * 2, x + x, x.sum(axis=0), x.mean(), x @ np.ones((6, 2)), x.T, x[1:3]):
        assert result.node.inputs[0] is x.node
    # an operation without a sparse form reads a dense form of each chunk
    assert mt.cumsum(x, axis=0).node.inputs[0] is not x.node


@pytest.mark.parametrize("chunk", chunkings((2, 3)))
def test_tosparse_missing_leaves_those_entries_unstored(chunk):
    a = np.array([[1.0, np.nan, 0.0], [np.nan, 2.0, 3.0]])
    nan_left_out = mt.tensor(a, chunk_size=chunk).tosparse(missing=np.nan)
    check(nan_left_out, np.nan_to_num(a), sparse=True)
    assert nan_left_out.execute().fetch().nnz == 4  # the stored zero counts
    check(mt.tensor(a, chunk_size=chunk).tosparse(missing=3), np.where(a == 3, 0, a), sparse=True)
