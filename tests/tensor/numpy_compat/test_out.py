"""``out=`` on ufuncs, reductions, scans, clip, around, dot and matmul: the result written
into the tensor given (which is returned), cast with NumPy's rules, and NumPy's errors at
the call."""

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

X = np.arange(24.0).reshape(4, 6) / 3 - 2


@pytest.mark.parametrize("chunks", chunkings(X.shape))
@pytest.mark.parametrize(
    ("name", "call", "shape", "dtype"),
    [
        ("add", lambda m, a, o: m.add(a, 1.5, out=o), (4, 6), np.float32),
        ("add-broadcast", lambda m, a, o: m.add(a, 1, out=o), (2, 4, 6), np.float64),
        ("add-positional", lambda m, a, o: m.add(a, a, o), (4, 6), np.complex128),
        ("sqrt-tuple", lambda m, a, o: m.sqrt(m.abs(a), out=(o,)), (4, 6), np.float64),
        ("sum", lambda m, a, o: m.sum(a, axis=0, out=o), (6,), np.int64),
        ("sum-positional", lambda m, a, o: m.sum(a, 1, None, o), (4,), np.float32),
        ("prod-keepdims", lambda m, a, o: m.prod(a, axis=1, keepdims=True, out=o), (4, 1), float),
        ("mean", lambda m, a, o: m.mean(a, axis=1, out=o), (4,), np.int64),
        ("var", lambda m, a, o: m.var(a, out=o), (), np.float32),
        ("max", lambda m, a, o: m.max(a, axis=0, out=o), (6,), np.float32),
        ("nansum", lambda m, a, o: m.nansum(a, axis=0, out=o), (6,), np.float64),
        ("argmax", lambda m, a, o: m.argmax(a, axis=1, out=o), (4,), np.int32),
        ("cumsum", lambda m, a, o: m.cumsum(a, out=o), (24,), np.int64),
        ("cumprod-axis", lambda m, a, o: m.cumprod(a, axis=0, out=o), (4, 6), np.float64),
        ("clip", lambda m, a, o: m.clip(a, -1, 2, out=o), (4, 6), np.float32),
        ("around", lambda m, a, o: m.around(a, 1, out=o), (4, 6), np.float64),
        ("dot", lambda m, a, o: m.dot(a, a.T, out=o), (4, 4), np.float64),
        ("matmul", lambda m, a, o: m.matmul(a.T, a, out=o), (6, 6), np.float32),
        ("median", lambda m, a, o: m.median(a, axis=0, out=o), (6,), np.float64),
    ],
)
def test_out_gets_numpys_result_and_is_returned(chunks, name, call, shape, dtype):
    expected = np.zeros(shape, dtype=dtype)
    call(np, X, expected)
    out = mt.zeros(shape, dtype=dtype, chunk_size=2)
    result = call(mt, mt.tensor(X, chunk_size=chunks), out)
    assert result is out
    assert_same(out, expected)


@pytest.mark.parametrize(
    ("call", "shape", "dtype"),
    [
        (lambda m, a, o: m.add(a, 1, out=o), (4, 6), np.int64),
        (lambda m, a, o: m.std(a, axis=1, out=o), (4,), np.int64),
        (lambda m, a, o: m.argmax(a, axis=1, out=o), (4,), np.float64),
        (lambda m, a, o: m.clip(a, 1, 2, out=o), (4, 6), np.int64),
        (lambda m, a, o: m.around(a, out=o), (4, 6), np.int64),
        (lambda m, a, o: m.dot(a, a.T, out=o), (4, 4), np.float32),
        (lambda m, a, o: m.matmul(a, a.T, out=o), (4, 4), np.int64),
        (lambda m, a, o: m.sum(a, axis=0, out=o), (1, 6), np.float64),
        (lambda m, a, o: m.add(a, 1, out=o), (6,), np.float64),
    ],
)
def test_bad_out_raises_numpys_error_at_the_call(call, shape, dtype):
    with pytest.raises((TypeError, ValueError)) as numpy_error:
        call(np, X, np.zeros(shape, dtype=dtype))
    out = mt.zeros(shape, dtype=dtype)
    with pytest.raises(type(numpy_error.value)) as ours:
        call(mt, mt.tensor(X, chunk_size=3), out)
    if "broadcast" not in str(numpy_error.value):
        assert str(ours.value) == str(numpy_error.value)


def test_wrong_length_of_a_reduction_out_names_out():
    with pytest.raises(ValueError, match="'out' has shape"):
        mt.sum(mt.tensor(X), axis=0, out=mt.zeros(5))


def test_out_must_be_a_tensor():
    with pytest.raises(TypeError, match="'out' must be a tensor"):
        mt.sum(mt.tensor(X), out=np.zeros(()))


def test_numpy_functions_with_out_dispatch_to_tensors():
    t = mt.tensor(X, chunk_size=(3, 4))
    out = mt.zeros(6)
    assert np.sum(t, axis=0, out=out) is out
    assert_same(out, X.sum(axis=0))
    out2 = mt.zeros((4, 6))
    np.multiply(t, 2, out=out2)
    assert_same(out2, X * 2)


def test_where_keeps_outs_values_elsewhere():
    t = mt.tensor(X, chunk_size=(3, 4))
    mask = X > 0
    expected = np.full(X.shape, -7.0)
    np.add(X, 100, out=expected, where=mask)
    out = mt.full(X.shape, -7.0)
    mt.add(t, 100, out=out, where=mask)
    assert_same(out, expected)


def test_out_can_be_an_input():
    t = mt.tensor(X, chunk_size=(3, 4))
    mt.multiply(t, 2, out=t)
    assert_same(t, X * 2)


def test_old_values_of_out_are_not_computed_when_all_are_overwritten():
    t = mt.tensor(X, chunk_size=3)
    out = mt.zeros(X.shape)
    old = out.node
    mt.add(t, 1, out=out)
    assert old not in out.node.inputs
    assert_same(out, X + 1)
