"""``result_type``, ``ndim``, ``scalar``, ``copy``, ``copyto``, ``ascontiguousarray``,
``asfortranarray``, ``broadcast_arrays`` and the ``product``/``innerproduct`` aliases."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_A = np.arange(12.0).reshape(3, 4)


def test_result_type_and_ndim_follow_numpy() -> None:
    f32 = mt.ones(3, dtype=np.float32)
    assert mt.result_type(f32, 1.0) == np.result_type(np.ones(3, np.float32), 1.0)
    assert mt.result_type(f32, mt.ones(2, dtype=np.int64)) == np.float64
    assert mt.result_type("i4", np.float32) == np.float64
    assert mt.ndim(mt.ones((2, 3))) == 2
    assert mt.ndim([[1, 2]]) == 2
    assert mt.ndim(3) == 0


def test_scalar_is_a_zero_dimensional_tensor() -> None:
    assert_same(mt.scalar(3), np.array(3))
    assert_same(mt.scalar(1.5, dtype=np.float32), np.array(1.5, dtype=np.float32))
    with pytest.raises(ValueError, match="must be a scalar"):
        mt.scalar([1, 2])


def test_copy_does_not_follow_later_assignments() -> None:
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A, chunk_size=chunks)
        y = mt.copy(x)
        x[0, 0] = -1.0
        assert_same(y, _A)
        assert mt.copy(_A).shape == _A.shape
    with pytest.raises(ValueError, match="order"):
        mt.copy(mt.ones(2), order="X")


def test_contiguous_and_fortran_give_at_least_one_dimension() -> None:
    assert_same(mt.ascontiguousarray(5), np.ascontiguousarray(5))
    assert_same(mt.asfortranarray(_A, dtype=np.float32), np.asfortranarray(_A, dtype=np.float32))
    assert_same(mt.ascontiguousarray(mt.tensor(_A, chunk_size=2)), _A)


def test_copyto_writes_into_the_tensor() -> None:
    src = np.arange(4.0) * 10
    mask = np.array([True, False, True, False])
    for chunks in chunkings(_A.shape):
        dst = mt.tensor(_A, chunk_size=chunks)
        before = dst + 0
        mt.copyto(dst, src)
        expected = _A.copy()
        np.copyto(expected, src)
        assert_same(dst, expected)
        assert_same(before, _A)  # made from the old value

        dst = mt.tensor(_A.astype(np.int64), chunk_size=chunks)
        mt.copyto(dst, mt.tensor([7, 8, 9, 10]), where=mask)
        expected = _A.astype(np.int64)
        np.copyto(expected, np.array([7, 8, 9, 10]), where=mask)
        assert_same(dst, expected)


def test_copyto_into_a_numpy_array() -> None:
    out = np.zeros(3)
    mt.copyto(out, mt.tensor([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(out, [1.0, 2.0, 3.0])


def test_copyto_checks_casting_and_shapes_at_the_call() -> None:
    ints = mt.zeros(3, dtype=np.int64)
    with pytest.raises(TypeError, match="Cannot cast scalar from dtype\\('float64'\\)"):
        mt.copyto(ints, 1.5)
    with pytest.raises(TypeError, match="Cannot cast array data"):
        mt.copyto(ints, mt.ones(3))
    mt.copyto(ints, mt.ones(3), casting="unsafe")
    assert_same(ints, np.ones(3, dtype=np.int64))
    with pytest.raises(ValueError, match="could not broadcast input array from shape"):
        mt.copyto(mt.zeros(3), mt.ones(2))
    with pytest.raises(ValueError, match="could not broadcast where mask"):
        mt.copyto(mt.zeros(3), 1.0, where=[True, False])
    with pytest.raises(TypeError, match="must be a tensor"):
        mt.copyto([1, 2], 1)


def test_broadcast_arrays_match_numpy() -> None:
    a, b = np.arange(3.0), np.arange(4).reshape(4, 1)
    for chunks in chunkings((4, 3)):
        x = mt.tensor(b, chunk_size=chunks)
        got = mt.broadcast_arrays(a, x, 1)
        assert isinstance(got, tuple)
        for g, e in zip(got, np.broadcast_arrays(a, b, 1)):
            assert_same(g, e)
    with pytest.raises(ValueError, match="could not be broadcast"):
        mt.broadcast_arrays(mt.ones(2), mt.ones(3))


def test_product_and_innerproduct_are_prod_and_inner() -> None:
    assert mt.product is mt.prod
    assert mt.innerproduct is mt.inner
    for chunks in chunkings(_A.shape):
        x = mt.tensor(_A + 1, chunk_size=chunks)
        assert_same(mt.product(x, axis=0), np.prod(_A + 1, axis=0))


def test_numpy_functions_dispatch_to_the_routines() -> None:
    t = mt.tensor(_A, chunk_size=2)
    assert np.ndim(t) == 2
    assert np.result_type(t, np.float32) == np.float64
    assert_same(np.diff(t), np.diff(_A))
    assert_same(np.insert(t, 1, 5.0), np.insert(_A, 1, 5.0))
    y = t.copy()
    t[0, 0] = 100.0
    assert_same(y, _A)
