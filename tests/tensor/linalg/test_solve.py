"""``solve`` and ``inv`` (blocked LU, then substitution) against NumPy."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.linalg.helpers import RNG, LinAlgError


def test_solve_matches_numpy_over_chunkings(xp):
    a = RNG.random((8, 8)) + 4 * np.eye(8)
    b = RNG.random((8, 3))
    for chunk in [*chunkings(a.shape), 3]:
        ta = on(xp, mt.tensor(a, chunk_size=chunk))
        assert_same(mt.linalg.solve(ta, on(xp, mt.tensor(b, chunk_size=2))), np.linalg.solve(a, b))
        assert_same(mt.linalg.solve(ta, b[:, 0]), np.linalg.solve(a, b[:, 0]))


@settings(max_examples=10)
@given(n=st.integers(1, 10), k=st.integers(1, 4), data=st.data())
def test_solve_any_chunks(n, k, data):
    a = RNG.random((n, n)) + n * np.eye(n)
    b = RNG.random((n, k))
    ta = mt.tensor(a, chunk_size=data.draw(st.integers(1, n)))
    tb = mt.tensor(b, chunk_size=(data.draw(st.integers(1, n)), data.draw(st.integers(1, k))))
    assert_same(mt.linalg.solve(ta, tb), np.linalg.solve(a, b))


def test_solve_integer_and_stacked_inputs(xp):
    a = np.array([[3, 1], [1, 2]])
    assert_same(
        mt.linalg.solve(on(xp, mt.tensor(a, chunk_size=1)), np.array([9, 8])),
        np.linalg.solve(a, np.array([9, 8])),
    )
    stack = RNG.random((3, 4, 4)) + 4 * np.eye(4)
    b = RNG.random((3, 4, 2))
    assert_same(
        mt.linalg.solve(on(xp, mt.tensor(stack, chunk_size=2)), on(xp, mt.tensor(b, chunk_size=2))),
        np.linalg.solve(stack, b),
    )
    assert_same(
        mt.linalg.solve(on(xp, mt.tensor(stack, chunk_size=2)), b[0, :, 0]),
        np.linalg.solve(stack, b[0, :, 0]),
    )
    one = RNG.random((1, 4, 4)) + 4 * np.eye(4)
    assert_same(
        mt.linalg.solve(on(xp, mt.tensor(one, chunk_size=2)), on(xp, mt.tensor(b, chunk_size=1))),
        np.linalg.solve(one, b),
    )


def test_solve_singular_raises_at_execute(xp):
    x = mt.linalg.solve(on(xp, mt.tensor(np.ones((4, 4)), chunk_size=2)), np.ones(4))
    with pytest.raises(LinAlgError, match="Singular matrix"):
        x.execute()


def test_solve_bad_input():
    with pytest.raises(ValueError, match=r"solve1: .* \(size 2 is different from 3\)"):
        mt.linalg.solve(mt.tensor(np.eye(3)), np.ones(2))
    with pytest.raises(ValueError, match=r"solve: .* \(size 2 is different from 3\)"):
        mt.linalg.solve(mt.tensor(np.eye(3)), np.ones((2, 2)))
    with pytest.raises(LinAlgError, match="must be square"):
        mt.linalg.solve(mt.tensor(np.ones((2, 3))), np.ones(2))
    with pytest.raises(ValueError, match="could not be broadcast"):
        mt.linalg.solve(mt.tensor(np.ones((2, 3, 3))), np.ones((4, 3, 1)))


def test_inv_matches_numpy_over_chunkings(xp):
    a = RNG.random((7, 7)) + 3 * np.eye(7)
    for chunk in [*chunkings(a.shape), 3]:
        assert_same(mt.linalg.inv(on(xp, mt.tensor(a, chunk_size=chunk))), np.linalg.inv(a))
    f = a.astype(np.float32)
    assert_same(mt.linalg.inv(on(xp, mt.tensor(f, chunk_size=3))), np.linalg.inv(f), rtol=1e-4)
    stack = np.stack([a, 2 * a])
    assert_same(mt.linalg.inv(on(xp, mt.tensor(stack, chunk_size=3))), np.linalg.inv(stack))
    with pytest.raises(LinAlgError, match="Singular matrix"):
        mt.linalg.inv(on(xp, mt.tensor(np.zeros((4, 4)), chunk_size=2))).execute()
