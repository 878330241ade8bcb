"""``histogramdd`` and ``histogram2d`` against NumPy over three chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same

_RNG = np.random.default_rng(3)
_S = _RNG.normal(size=(40, 3))
_W = _RNG.random(40)
_CHUNKS = [1, (7, 2), None]


def _assert_histogram(got: Any, expected: Any) -> None:
    hist, edges = got
    assert_same(hist, expected[0])
    assert len(edges) == len(expected[1])
    for g, e in zip(edges, expected[1]):
        assert_same(g, e)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"bins": (2, 3, 4)},
        {"range": [(-1, 1), (-2, 2), (0, 3)], "bins": 3},
        {"bins": [np.array([-3, 0, 3]), 2, np.linspace(-1, 1, 5)]},
        {"density": True, "bins": 3},
        {"weights": _W, "bins": 3},
    ],
)
def test_histogramdd_matches_numpy(kwargs: dict[str, Any]) -> None:
    expected = np.histogramdd(_S, **kwargs)
    for chunks in _CHUNKS:
        lazy = dict(kwargs)
        if "weights" in lazy:
            lazy["weights"] = mt.tensor(_W, chunk_size=7)
        _assert_histogram(mt.histogramdd(mt.tensor(_S, chunk_size=chunks), **lazy), expected)


def test_histogramdd_of_integers_and_constant_samples() -> None:
    ints = (_S * 3).astype(int)
    _assert_histogram(mt.histogramdd(mt.tensor(ints, chunk_size=9)), np.histogramdd(ints))
    same = np.ones((5, 2))
    _assert_histogram(mt.histogramdd(mt.tensor(same, chunk_size=2)), np.histogramdd(same))
    columns = [_S[:, 0], _S[:, 2]]
    _assert_histogram(
        mt.histogramdd([mt.tensor(c) for c in columns], 4), np.histogramdd(columns, 4)
    )


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"bins": [3, 4]},
        {"bins": np.linspace(-2, 2, 6)},
        {"bins": [np.linspace(-2, 2, 6), np.array([-1, 0, 1.0])]},
        {"range": [[-1, 1], [0, 2]]},
        {"density": True},
    ],
)
def test_histogram2d_matches_numpy(kwargs: dict[str, Any]) -> None:
    x, y = _S[:, 0], _S[:, 1]
    expected = np.histogram2d(x, y, **kwargs)
    for chunks in (1, 7, None):
        got = mt.histogram2d(mt.tensor(x, chunk_size=chunks), y, **kwargs)
        assert len(got) == 3
        for g, e in zip(got, expected):
            assert_same(g, e)


def test_histogramdd_bad_input() -> None:
    x = mt.ones((4, 2))
    with pytest.raises(ValueError, match="must be positive"):
        mt.histogramdd(x, bins=0)
    with pytest.raises(ValueError, match="monotonically increasing"):
        mt.histogramdd(x, bins=[[2, 1], 2])
    with pytest.raises(ValueError, match="max must be larger than min"):
        mt.histogramdd(x, range=[(1, 0), (0, 1)])
    with pytest.raises(ValueError, match="dimension of bins"):
        mt.histogramdd(x, bins=[1, 2, 3])
