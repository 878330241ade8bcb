"""``det`` and ``slogdet`` (from the blocked LU) against NumPy."""

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.linalg.helpers import RNG, LinAlgError


def test_det_and_slogdet_match_numpy(xp):
    a = RNG.random((8, 8))
    for chunk in [*chunkings(a.shape), 3]:
        t = on(xp, mt.tensor(a, chunk_size=chunk))
        assert_same(mt.linalg.det(t), np.linalg.det(a))
        sign, logdet = mt.linalg.slogdet(t)
        expected = np.linalg.slogdet(a)
        assert_same(sign, expected.sign)
        assert_same(logdet, expected.logabsdet)
    assert_same(mt.linalg.det(on(xp, mt.tensor(np.ones((4, 4)), chunk_size=2))), 0.0)
    c = RNG.random((5, 5)) + 1j * RNG.random((5, 5))
    assert_same(mt.linalg.det(on(xp, mt.tensor(c, chunk_size=2))), np.linalg.det(c))
    sign, logdet = mt.linalg.slogdet(on(xp, mt.tensor(c, chunk_size=2)))
    assert_same(sign, np.linalg.slogdet(c).sign)
    assert_same(logdet, np.linalg.slogdet(c).logabsdet)
    i = np.array([[2, 1], [1, 3]], dtype=np.int32)
    assert_same(mt.linalg.det(on(xp, mt.tensor(i, chunk_size=1))), np.linalg.det(i))
    stack = RNG.random((3, 4, 4))
    assert_same(mt.linalg.det(on(xp, mt.tensor(stack, chunk_size=2))), np.linalg.det(stack))
    with pytest.raises(LinAlgError, match="must be square"):
        mt.linalg.det(on(xp, mt.tensor(np.ones((2, 3)))))
