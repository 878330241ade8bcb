"""``einsum`` against NumPy: string and interleaved forms, fast paths, dtypes, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.gpu_kernels import NotOnGPU
from tests.conftest import chunkings, needs_gpu
from tests.tensor.conftest import on
from tests.tensor.products.helpers import check, chunk_for, dims, sample

EINSUM_CASES = [
    ("ij,jk->ik", [(4, 5), (5, 3)]),
    ("ij,kj->ik", [(4, 5), (3, 5)]),
    ("ij,jk->ki", [(4, 5), (5, 3)]),
    ("ij,jk", [(4, 5), (5, 3)]),
    ("ji", [(4, 5)]),
    ("ij->ji", [(4, 5)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ij->", [(4, 5)]),
    ("ij->j", [(4, 5)]),
    ("ijk->ik", [(3, 4, 5)]),
    ("i,j->ij", [(4,), (3,)]),
    ("i,i->", [(5,), (5,)]),
    ("i,i", [(5,), (5,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bij,bjk->bki", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("ijk,jil->kl", [(3, 4, 5), (4, 3, 2)]),
    ("i...->...", [(3, 4, 2)]),
    ("ij,ij->ij", [(1, 4), (3, 4)]),
    ("Ba,aC", [(2, 3), (3, 4)]),
]


@pytest.mark.parametrize(("spec", "shapes"), EINSUM_CASES)
def test_einsum_matches_numpy(spec, shapes, xp):
    arrays = [sample(s) for s in shapes]
    expected = np.einsum(spec, *arrays)
    for chunking_index in range(3):
        operands = [
            on(xp, mt.tensor(x, chunk_size=chunkings(x.shape)[chunking_index])) for x in arrays
        ]
        check(mt.einsum(spec, *operands), expected)


def test_einsum_interleaved_form_and_dtype():
    a, b = sample((3, 4), "i4"), sample((4, 2), "i4")
    ta, tb = mt.tensor(a, chunk_size=2), mt.tensor(b, chunk_size=3)
    check(mt.einsum(ta, [0, 1], tb, [1, 2], [0, 2]), np.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    check(mt.einsum(ta, [0, 1], tb, [1, 2]), np.einsum(a, [0, 1], b, [1, 2]))
    check(mt.einsum("ij,jk->ik", ta, tb, dtype="f8"), np.einsum("ij,jk->ik", a, b, dtype="f8"))
    check(
        mt.einsum("ij->i", ta, dtype="f8", casting="unsafe"),
        np.einsum("ij->i", a, dtype="f8", casting="unsafe"),
    )


@settings(max_examples=20)
@given(i=dims, j=dims, k=dims, data=st.data())
def test_einsum_batched_product_any_chunks(i, j, k, data):
    a, b = sample((2, i, j)), sample((2, j, k))
    ta = mt.tensor(a, chunk_size=data.draw(chunk_for(a.shape)))
    tb = mt.tensor(b, chunk_size=data.draw(chunk_for(b.shape)))
    check(mt.einsum("bij,bjk->bik", ta, tb), np.einsum("bij,bjk->bik", a, b))
    check(mt.einsum("bij,bij->j", ta, ta), np.einsum("bij,bij->j", a, a))


def test_einsum_errors():
    a = mt.tensor(np.ones((2, 3)))
    with pytest.raises(ValueError, match="does not match"):
        mt.einsum("ij,jk", a, np.ones((4, 5)))
    with pytest.raises(ValueError, match="operands"):
        mt.einsum("ij,jk->ik", a)
    with pytest.raises(ValueError, match="x"):
        mt.einsum("ij->x", a)
    with pytest.raises(ValueError, match="dimensions"):
        mt.einsum("i->i", a)
    with pytest.raises(TypeError, match="out"):
        mt.einsum("ij", a, out=np.empty((2, 3)))
    with pytest.raises(TypeError):
        mt.einsum("ij,jk", a, np.ones((3, 2)), dtype="i4")  # float -> int is not safe


@needs_gpu
def test_einsum_casting_on_a_gpu_names_to_cpu():
    a = mt.tensor(sample((3, 3)), chunk_size=2).to_gpu()
    with pytest.raises(NotOnGPU, match=r"einsum\(casting=\.\.\.\).*to_cpu"):
        mt.einsum("ij->i", a, casting="unsafe", dtype="f4")
