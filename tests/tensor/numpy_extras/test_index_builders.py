"""``ix_`` and ``ravel_multi_index`` against NumPy over three chunkings."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

_X = np.arange(12).reshape(3, 4)


@pytest.mark.parametrize("chunks", chunkings(_X.shape))
def test_ix_matches_numpy(chunks: object) -> None:
    t = mt.tensor(_X, chunk_size=chunks)
    mask = [True, False, True, True]
    got = mt.ix_(mt.tensor([2, 0], chunk_size=1), mask)
    for g, e in zip(got, np.ix_([2, 0], mask)):
        assert_same(g, e)
    assert_same(t[mt.ix_([2, 0], [1, 3])], _X[np.ix_([2, 0], [1, 3])])
    assert_same(mt.ix_([])[0], np.ix_([])[0])
    with pytest.raises(ValueError, match="Cross index must be 1 dimensional"):
        mt.ix_(np.ones((2, 2), int))


@pytest.mark.parametrize("chunks", chunkings(_X.shape))
def test_ravel_multi_index_matches_numpy(chunks: object) -> None:
    t = mt.tensor(_X, chunk_size=chunks)
    rows = mt.tensor([1, 2, 0], chunk_size=chunks[0] if isinstance(chunks, tuple) else chunks)
    assert_same(
        mt.ravel_multi_index((rows, [0, 3, 1]), (3, 4)),
        np.ravel_multi_index(([1, 2, 0], [0, 3, 1]), (3, 4)),
    )
    assert_same(
        mt.ravel_multi_index((t, t + 1), (12, 13), mode="wrap", order="F"),
        np.ravel_multi_index((_X, _X + 1), (12, 13), mode="wrap", order="F"),
    )
    assert_same(
        mt.ravel_multi_index((t, t), (5, 7), mode=("clip", "wrap")),
        np.ravel_multi_index((_X, _X), (5, 7), mode=("clip", "wrap")),
    )


def test_ravel_multi_index_bad_input() -> None:
    with pytest.raises(ValueError, match="sequence of length 2"):
        mt.ravel_multi_index(([1, 2],), (3, 4))
    with pytest.raises(TypeError, match="only int indices permitted"):
        mt.ravel_multi_index(([1.0, 2], [0, 1]), (3, 4))
    with pytest.raises(ValueError, match="clipmode"):
        mt.ravel_multi_index(([1], [0]), (3, 4), mode="bogus")
    late = mt.ravel_multi_index(([1, 2], [0, 5]), (3, 4))  # the data is out of range
    with pytest.raises(ValueError, match="invalid entry in coordinates array"):
        late.execute()
