"""``solve_triangular`` (blocked substitution) against SciPy."""

import numpy as np
import pytest
import scipy.linalg

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.linalg.helpers import RNG


def test_solve_triangular_matches_scipy(xp):
    a = np.triu(RNG.random((7, 7))) + 2 * np.eye(7)
    b = RNG.random((7, 2))
    for chunk in [*chunkings(a.shape), 3]:
        ta = on(xp, mt.tensor(a, chunk_size=chunk))
        assert_same(
            mt.linalg.solve_triangular(ta, on(xp, mt.tensor(b, chunk_size=3))),
            scipy.linalg.solve_triangular(a, b),
        )
        assert_same(
            mt.linalg.solve_triangular(
                on(xp, mt.tensor(a.T, chunk_size=chunk)), b[:, 0], lower=True, unit_diagonal=True
            ),
            scipy.linalg.solve_triangular(a.T, b[:, 0], lower=True, unit_diagonal=True),
        )
    with pytest.raises(ValueError, match="square"):
        mt.linalg.solve_triangular(on(xp, mt.tensor(np.ones((2, 3)))), np.ones(2))
