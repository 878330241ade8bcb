"""``histogram``, ``histogram_bin_edges`` and ``digitize`` against NumPy."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.conftest import on
from tests.tensor.statistics.helpers import RNG

HIST_CASES: list[dict[str, Any]] = [
    {},
    {"bins": 4},
    {"bins": 6, "range": (-1.0, 1.5)},
    {"bins": [-3, -0.5, 0, 0.25, 4]},
    {"bins": "auto"},
    {"bins": "sturges", "range": (-1, 1)},
    {"density": True},
    {"bins": [-2, 0, 1, 2], "density": True},
]


@pytest.mark.parametrize("kwargs", HIST_CASES)
def test_histogram_matches_numpy(kwargs: dict[str, Any], xp: Any) -> None:
    a = RNG.normal(size=(7, 5))
    expected_hist, expected_edges = np.histogram(a, **kwargs)
    for chunks in chunkings(a.shape):
        hist, edges = mt.histogram(on(xp, mt.tensor(a, chunk_size=chunks)), **kwargs)
        assert_same(hist, expected_hist)
        assert_same(edges, expected_edges)
        assert_same(
            mt.histogram_bin_edges(
                on(xp, mt.tensor(a, chunk_size=chunks)),
                **{k: v for k, v in kwargs.items() if k != "density"},
            ),
            expected_edges,
        )


def test_histogram_with_weights(xp: Any) -> None:
    a = RNG.normal(size=30)
    w = RNG.random(30)
    for chunks in chunkings(a.shape):
        x = on(xp, mt.tensor(a, chunk_size=chunks))
        weights = on(xp, mt.tensor(w, chunk_size=4))  # chunked differently from a on purpose
        for kwargs in ({}, {"bins": 3, "range": (0, 1)}, {"density": True}):
            hist, edges = mt.histogram(x, weights=weights, **kwargs)
            expected = np.histogram(a, weights=w, **kwargs)
            assert_same(hist, expected[0])
            assert_same(edges, expected[1])
    int_weights = np.arange(30)
    assert_same(
        mt.histogram(on(xp, mt.tensor(a, chunk_size=7)), weights=int_weights)[0],
        np.histogram(a, weights=int_weights)[0],
    )


@pytest.mark.parametrize(
    "data",
    [
        np.arange(20, dtype=np.int64) * 3 - 7,
        np.full(9, 2.5),
        np.array([], dtype=float),
        np.array([-128, 0, 127, 5], dtype=np.int8),
        RNG.random(11).astype(np.float32),
    ],
)
def test_histogram_automatic_range_edge_cases(data: np.ndarray) -> None:
    hist, edges = mt.histogram(mt.tensor(data, chunk_size=3), bins=5)
    expected = np.histogram(data, bins=5)
    assert_same(hist, expected[0])
    assert_same(edges, expected[1])


def test_histogram_string_bins_length_is_unknown_until_executed() -> None:
    a = RNG.normal(size=40)
    hist, edges = mt.histogram(mt.tensor(a, chunk_size=9), bins="fd")
    assert math.isnan(hist.shape[0])
    assert math.isnan(edges.shape[0])
    expected = np.histogram(a, bins="fd")
    assert_same(hist, expected[0])
    assert hist.shape == expected[0].shape


def test_histogram_with_tensor_bins() -> None:
    a = RNG.normal(size=25)
    bins = np.array([-1.0, 0.0, 0.3, 2.0])
    hist, edges = mt.histogram(mt.tensor(a, chunk_size=4), bins=mt.tensor(bins, chunk_size=2))
    assert_same(hist, np.histogram(a, bins=bins)[0])
    assert_same(edges, bins)


def test_histogram_bad_arguments_raise_at_call() -> None:
    x = mt.tensor(RNG.random(10), chunk_size=3)
    with pytest.raises(ValueError, match="`bins` must be positive"):
        mt.histogram(x, bins=0)
    with pytest.raises(ValueError, match="increase monotonically"):
        mt.histogram(x, bins=[0, 2, 1])
    with pytest.raises(ValueError, match="1d"):
        mt.histogram(x, bins=[[0, 1], [2, 3]])
    with pytest.raises(ValueError, match="not a valid estimator"):
        mt.histogram(x, bins="best")
    with pytest.raises(TypeError, match="bins"):
        mt.histogram(x, bins=2.5)
    with pytest.raises(ValueError, match="max must be larger than min"):
        mt.histogram(x, range=(1, 0))
    with pytest.raises(ValueError, match="not finite"):
        mt.histogram(x, range=(0, np.inf))
    with pytest.raises(ValueError, match="weights should have the same shape"):
        mt.histogram(x, weights=np.ones(9))
    with pytest.raises(TypeError, match="weighted data"):
        mt.histogram(x, bins="auto", weights=np.ones(10))
    with pytest.raises(ValueError, match="`bins` must be 1d"):
        mt.histogram(x, bins=mt.tensor(np.ones((2, 2))))


def test_histogram_of_nan_data_fails_at_execute() -> None:
    hist, _ = mt.histogram(mt.tensor(np.array([1.0, np.nan, 2.0]), chunk_size=2))
    with pytest.raises(ValueError, match="autodetected range"):
        hist.execute()


# ---- digitize --------------------------------------------------------------------------------


@pytest.mark.parametrize("bins", [[-1.0, 0.0, 0.5, 2.0], [2.0, 0.5, 0.0, -1.0]])
@pytest.mark.parametrize("right", [False, True])
def test_digitize_matches_numpy(bins: list[float], right: bool) -> None:
    a = RNG.normal(size=(4, 6)).round(1)
    a[0, 0] = 0.5
    for chunks in chunkings(a.shape):
        got = mt.digitize(mt.tensor(a, chunk_size=chunks), bins, right=right)
        assert_same(got, np.digitize(a, bins, right=right))


def test_digitize_bad_bins() -> None:
    with pytest.raises(ValueError, match="monotonically"):
        mt.digitize(mt.tensor(np.ones(3)), [0, 2, 1])
