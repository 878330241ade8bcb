"""``Tensor.flat`` and ``Tensor.view(dtype)`` against NumPy over three chunkings."""

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

N = np.arange(24, dtype=np.int32).reshape(4, 6)


@pytest.mark.parametrize("chunks", chunkings(N.shape))
def test_flat_reads_like_numpy(chunks):
    t = mt.tensor(N, chunk_size=chunks)
    assert len(t.flat) == N.size
    assert_same(t.flat[5], N.flat[5])
    assert_same(t.flat[[1, 7, 23]], N.flat[[1, 7, 23]])
    assert_same(t.flat[3:20:4], N.flat[3:20:4])
    assert list(t.flat) == list(N.flat)
    assert_same(np.asarray(t.flat), np.asarray(N.flat))


@pytest.mark.parametrize("chunks", chunkings(N.shape))
def test_flat_assignment_repeats_a_short_value_and_writes_through_views(chunks):
    n, t = N.copy(), mt.tensor(N, chunk_size=chunks)
    n.flat[[1, 2, 3]] = [9, 8]
    t.flat[[1, 2, 3]] = [9, 8]
    n.flat[10:14] = -1
    t.flat[10:14] = -1
    nv, tv = n[1:], t[1:]
    nv.flat[0] = 55
    tv.flat[0] = 55
    assert_same(t, n)
    n.flat = [1, 2, 3]
    t.flat = [1, 2, 3]
    assert_same(t, n)


@pytest.mark.parametrize("chunks", chunkings(N.shape))
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.uint8, np.int64, np.complex64, None])
def test_view_reinterprets_like_numpy(chunks, dtype):
    t = mt.tensor(N, chunk_size=chunks)
    assert_same(t.view(dtype), N.view(dtype))
    assert_same(t.view(), N.view())
    assert_same(t[:, 2:].view(np.int16), N[:, 2:].view(np.int16))


@pytest.mark.parametrize("chunks", chunkings(N.shape))
def test_view_writes_through_both_ways(chunks):
    n, t = N.copy(), mt.tensor(N, chunk_size=chunks)
    nv, tv = n.view(np.int16), t.view(np.int16)
    nv[0, 1] = 7
    tv[0, 1] = 7
    assert_same(t, n)
    n[3, 3] = 1 << 20
    t[3, 3] = 1 << 20
    assert_same(tv, nv)


def test_view_errors_are_numpys():
    t = mt.tensor(N[:, :5])
    for array, dtype in [(N[:, :5], np.int64), (np.zeros((), np.int32), np.int16)]:
        with pytest.raises(ValueError, match="dtype") as numpy_error:
            array.view(dtype)
        with pytest.raises(ValueError, match="dtype") as ours:
            mt.tensor(array).view(dtype)
        assert str(ours.value) == str(numpy_error.value)
    with pytest.raises(ValueError, match="smaller dtype"):
        mt.zeros(3, dtype="V3").view(np.int16)
    with pytest.raises(TypeError):
        t.view(np.ndarray)
