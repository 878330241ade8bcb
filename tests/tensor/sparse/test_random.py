"""``mt.random.randint(..., density=d)``: a sparse tensor, as Mars's ``randint`` gives."""

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import chunkings

SHAPE = (12, 10)


@pytest.mark.parametrize("chunk", chunkings(SHAPE))
def test_randint_with_density_stores_about_that_fraction(chunk):
    t = mt.random.RandomState(0).randint(1, 9, size=SHAPE, density=0.25, chunk_size=chunk)
    assert t.issparse()
    assert t.dtype == np.dtype(int)
    m = t.execute().fetch()
    assert m.shape == SHAPE
    assert 15 <= m.nnz <= 45  # 30 expected
    assert m.data.min() >= 1
    assert m.data.max() < 9


def test_randint_with_density_follows_the_seed_and_keeps_zero_unstored():
    def draw():
        state = mt.random.RandomState(7)
        return state.randint(3, size=(9, 9), density=0.5, chunk_size=4, dtype="i2")

    a, b = draw().execute().fetch(), draw().execute().fetch()
    assert a.dtype == np.dtype("i2")
    assert (a != b).nnz == 0
    assert np.all(a.data != 0)
    np.testing.assert_array_equal(np.asarray(draw()), a.toarray())


def test_density_zero_and_one():
    assert mt.random.randint(5, 6, size=(4, 3), density=0.0).execute().fetch().nnz == 0
    full = mt.random.randint(5, 6, size=(4, 3), density=1.0, chunk_size=2)
    np.testing.assert_array_equal(np.asarray(full), np.full((4, 3), 5))


def test_bad_density_arguments_raise_at_the_call():
    with pytest.raises(ValueError, match="density must be in"):
        mt.random.randint(5, size=(3, 3), density=1.5)
    with pytest.raises(TypeError, match="density must be a number"):
        mt.random.randint(5, size=(3, 3), density=[0.1])
    with pytest.raises(ValueError, match="needs a 2-d size"):
        mt.random.randint(5, size=(3,), density=0.5)
    with pytest.raises(ValueError, match="high <= 0|low >= high"):
        mt.random.randint(0, size=(3, 3), density=0.5)
