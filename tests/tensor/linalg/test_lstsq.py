"""``lstsq`` (from TSQR) against NumPy, rank-deficient systems, errors."""

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.linalg.helpers import RNG, LinAlgError


@pytest.mark.parametrize(
    ("shape_a", "shape_b"),
    [((20, 4), (20,)), ((20, 4), (20, 3)), ((3, 6), (3, 2)), ((9, 9), (9,))],
)
def test_lstsq_matches_numpy(shape_a, shape_b, xp):
    a, b = RNG.random(shape_a), RNG.random(shape_b)
    expected = np.linalg.lstsq(a, b)
    for chunk in [*chunkings(shape_a), 4]:
        x, residuals, rank, s = mt.linalg.lstsq(on(xp, mt.tensor(a, chunk_size=chunk)), b)
        for got, exp in zip((x, residuals, rank, s), expected):
            assert_same(got, exp)


def test_lstsq_rank_deficient_gives_minimum_norm_and_no_residuals():
    a = np.ones((10, 3))
    b = RNG.random(10)
    x, residuals, rank, s = mt.linalg.lstsq(mt.tensor(a, chunk_size=4), b)
    assert np.isnan(residuals.shape[0])
    expected = np.linalg.lstsq(a, b)
    assert_same(x, expected[0])
    assert_same(residuals, expected[1])
    assert residuals.shape == (0,)
    assert int(rank.execute().fetch()) == 1


def test_lstsq_bad_input():
    with pytest.raises(LinAlgError, match="Incompatible dimensions"):
        mt.linalg.lstsq(mt.tensor(np.ones((3, 3))), np.ones(4))
    with pytest.raises(LinAlgError, match="3-dimensional array given"):
        mt.linalg.lstsq(mt.tensor(np.ones((3, 3, 3))), np.ones(3))
