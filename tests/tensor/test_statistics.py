"""Statistics against NumPy: percentile/quantile/median, histogram, bincount, digitize, cov."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

RNG = np.random.default_rng(7)
METHODS = ["linear", "lower", "higher", "nearest", "midpoint"]


def _nsplits(session: Any, t: mt.Tensor) -> tuple[tuple[float, ...], ...]:
    nsplits: tuple[tuple[float, ...], ...] = session.engine.executed[t.key].nsplits
    return nsplits


# ---- percentile / quantile / median ----------------------------------------------------------


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (0, 1, 2)])
def test_percentile_over_chunkings_axes_and_keepdims(axis: Any) -> None:
    a = RNG.random((5, 6, 4))
    q = [0, 12.5, 50, 99, 100]
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        for keepdims in (False, True):
            assert_same(
                mt.percentile(x, q, axis=axis, keepdims=keepdims),
                np.percentile(a, q, axis=axis, keepdims=keepdims),
            )


@pytest.mark.parametrize("method", METHODS)
def test_percentile_and_quantile_methods(method: str) -> None:
    a = RNG.integers(0, 100, size=(7, 5))
    x = mt.tensor(a, chunk_size=(3, 2))
    for axis in (None, 0, 1):
        assert_same(
            mt.percentile(x, 37, axis=axis, method=method),
            np.percentile(a, 37, axis=axis, method=method),  # type: ignore[call-overload]
        )
        assert_same(
            mt.quantile(x, [0.1, 0.75], axis=axis, method=method),
            np.quantile(a, [0.1, 0.75], axis=axis, method=method),  # type: ignore[call-overload]
        )


def test_quantile_keeps_numpy_dtypes() -> None:
    a32 = RNG.random(10).astype(np.float32)
    assert_same(mt.quantile(mt.tensor(a32, chunk_size=3), 0.5), np.quantile(a32, 0.5))
    ints = np.arange(10, dtype=np.int16)
    result = mt.percentile(mt.tensor(ints, chunk_size=4), 30, method="lower")
    assert_same(result, np.percentile(ints, 30, method="lower"))


def test_median_and_nan_variants() -> None:
    a = RNG.random((6, 5))
    a[1, 2] = a[4, 0] = np.nan
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        for axis in (None, 0, 1, (0, 1)):
            assert_same(mt.median(x, axis=axis), np.median(a, axis=axis))
            assert_same(mt.nanmedian(x, axis=axis), np.nanmedian(a, axis=axis))
            assert_same(mt.nanpercentile(x, [5, 60], axis=axis), np.nanpercentile(a, [5, 60], axis))
            assert_same(mt.nanquantile(x, 0.3, axis=axis), np.nanquantile(a, 0.3, axis=axis))
        assert_same(mt.median(x, axis=1, keepdims=True), np.median(a, axis=1, keepdims=True))


def test_percentile_with_tensor_q_and_lazy_input_of_unknown_length() -> None:
    a = RNG.integers(0, 40, size=50).astype(float)
    x = mt.tensor(a, chunk_size=8)
    q = mt.tensor([10.0, 75.0], chunk_size=1)
    assert_same(mt.percentile(x, q), np.percentile(a, [10.0, 75.0]))
    u = mt.unique(x)
    assert_same(mt.median(u), np.median(np.unique(a)))
    assert_same(
        mt.quantile(u, [0.2, 0.9], method="nearest"),
        np.quantile(np.unique(a), [0.2, 0.9], method="nearest"),
    )


def test_percentile_keeps_other_axes_chunks(session: Any) -> None:
    a = RNG.random((6, 8))
    result = mt.percentile(mt.tensor(a, chunk_size=(2, 3)), [10, 90], axis=0).execute()
    assert _nsplits(session, result) == ((2,), (3, 3, 2))


@st.composite
def reduction_case(draw: Any) -> tuple[np.ndarray, tuple[int, ...], Any]:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=ndim, max_size=ndim)))
    chunks = tuple(draw(st.integers(1, n)) for n in shape)
    axes = draw(
        st.one_of(
            st.none(),
            st.integers(-ndim, ndim - 1),
            st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True).map(tuple),
        )
    )
    return RNG.normal(size=shape), chunks, axes


@given(reduction_case(), st.lists(st.floats(0, 100), min_size=0, max_size=3), st.booleans())
def test_percentile_hypothesis(
    case: tuple[np.ndarray, tuple[int, ...], Any], q: list[float], keepdims: bool
) -> None:
    a, chunks, axis = case
    x = mt.tensor(a, chunk_size=chunks)
    expected = np.percentile(a, q, axis=axis, keepdims=keepdims)
    result = mt.percentile(x, q, axis=axis, keepdims=keepdims)
    assert result.shape == expected.shape
    assert_same(result, expected)
    assert_same(mt.median(x, axis=axis), np.median(a, axis=axis))


def test_percentile_bad_arguments_raise_at_call() -> None:
    x = mt.tensor(RNG.random((3, 4)), chunk_size=2)
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        mt.percentile(x, 101)
    with pytest.raises(ValueError, match=r"Percentiles must be in the range"):
        mt.percentile(x, [-1, 50])
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        mt.quantile(x, 1.5)
    with pytest.raises(np.exceptions.AxisError):
        mt.percentile(x, 50, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        mt.median(x, axis=(0, -3))
    with pytest.raises(ValueError, match="method"):
        mt.quantile(x, 0.5, method="bogus")
    with pytest.raises(TypeError, match="out"):
        mt.median(x, out=np.empty(4))
    with pytest.raises(NotImplementedError, match="weights"):
        mt.quantile(x, 0.5, method="inverted_cdf", weights=np.ones((3, 4)))


# ---- histogram ---------------------------------------------------------------------------------


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
def test_histogram_matches_numpy(kwargs: dict[str, Any]) -> None:
    a = RNG.normal(size=(7, 5))
    expected_hist, expected_edges = np.histogram(a, **kwargs)
    for chunks in chunkings(a.shape):
        hist, edges = mt.histogram(mt.tensor(a, chunk_size=chunks), **kwargs)
        assert_same(hist, expected_hist)
        assert_same(edges, expected_edges)
        assert_same(
            mt.histogram_bin_edges(
                mt.tensor(a, chunk_size=chunks),
                **{k: v for k, v in kwargs.items() if k != "density"},
            ),
            expected_edges,
        )


def test_histogram_with_weights() -> None:
    a = RNG.normal(size=30)
    w = RNG.random(30)
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        weights = mt.tensor(w, chunk_size=4)  # chunked differently from a on purpose
        for kwargs in ({}, {"bins": 3, "range": (0, 1)}, {"density": True}):
            hist, edges = mt.histogram(x, weights=weights, **kwargs)
            expected = np.histogram(a, weights=w, **kwargs)
            assert_same(hist, expected[0])
            assert_same(edges, expected[1])
    int_weights = np.arange(30)
    assert_same(
        mt.histogram(mt.tensor(a, chunk_size=7), weights=int_weights)[0],
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


# ---- bincount ------------------------------------------------------------------------------------


def test_bincount_over_chunkings() -> None:
    a = RNG.integers(0, 12, size=23)
    w = RNG.random(23)
    for chunks in chunkings(a.shape):
        x = mt.tensor(a, chunk_size=chunks)
        assert_same(mt.bincount(x), np.bincount(a))
        assert_same(mt.bincount(x, minlength=30), np.bincount(a, minlength=30))
        assert_same(mt.bincount(x, mt.tensor(w, chunk_size=5)), np.bincount(a, w))
        assert_same(mt.bincount(x, weights=w, minlength=3), np.bincount(a, w, 3))


def test_bincount_length_is_found_by_iterative_tiling() -> None:
    a = np.array([3, 0, 7, 7, 1], dtype=np.uint8)
    result = mt.bincount(mt.tensor(a, chunk_size=2))
    assert math.isnan(result.shape[0])
    assert_same(result, np.bincount(a))
    assert result.shape == (8,)
    assert_same(mt.bincount(mt.tensor(np.array([], dtype=int)), minlength=4), np.zeros(4, np.intp))


def test_bincount_bad_arguments() -> None:
    with pytest.raises(ValueError, match="too deep"):
        mt.bincount(mt.tensor(np.ones((2, 2), dtype=int)))
    with pytest.raises(ValueError, match="too small depth"):
        mt.bincount(mt.tensor(np.array(3)))
    with pytest.raises(TypeError, match="safe"):
        mt.bincount(mt.tensor(np.ones(3)))
    with pytest.raises(ValueError, match="minlength"):
        mt.bincount(mt.tensor(np.ones(3, dtype=int)), minlength=-1)
    with pytest.raises(ValueError, match="same length"):
        mt.bincount(mt.tensor(np.ones(3, dtype=int)), weights=np.ones(4))
    negative = mt.bincount(mt.tensor(np.array([1, -1, 2]), chunk_size=2))
    with pytest.raises(ValueError, match="negative"):
        negative.execute()


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


# ---- cov / corrcoef --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs", [{}, {"rowvar": False}, {"bias": True}, {"ddof": 3}, {"dtype": np.float32}]
)
def test_cov_matches_numpy(kwargs: dict[str, Any]) -> None:
    a = RNG.normal(size=(3, 11))
    if kwargs.get("rowvar") is False:
        a = a.T
    for chunks in chunkings(a.shape):
        assert_same(
            mt.cov(mt.tensor(a, chunk_size=chunks), **kwargs), np.cov(a, **kwargs), rtol=1e-5
        )


def test_cov_with_y_one_dim_and_weights() -> None:
    a = RNG.normal(size=(2, 9))
    y = RNG.normal(size=9)
    x = mt.tensor(a, chunk_size=(1, 4))
    assert_same(mt.cov(x, mt.tensor(y, chunk_size=2)), np.cov(a, y))
    assert_same(mt.cov(mt.tensor(y, chunk_size=4)), np.cov(y))
    fw = RNG.integers(1, 4, size=9)
    aw = RNG.random(9)
    assert_same(mt.cov(x, fweights=fw, aweights=aw), np.cov(a, fweights=fw, aweights=aw))
    c = RNG.normal(size=(2, 6)) + 1j * RNG.normal(size=(2, 6))
    assert_same(mt.cov(mt.tensor(c, chunk_size=4)), np.cov(c))


def test_corrcoef_matches_numpy() -> None:
    a = RNG.normal(size=(4, 10))
    for chunks in chunkings(a.shape):
        assert_same(mt.corrcoef(mt.tensor(a, chunk_size=chunks)), np.corrcoef(a))
        assert_same(
            mt.corrcoef(mt.tensor(a, chunk_size=chunks), rowvar=False), np.corrcoef(a, rowvar=False)
        )
    assert_same(mt.corrcoef(a[0], a[1]), np.corrcoef(a[0], a[1]))
    assert_same(mt.corrcoef(mt.tensor(a[0], chunk_size=3)), np.corrcoef(a[0]))


def test_cov_bad_arguments() -> None:
    with pytest.raises(ValueError, match="more than 2 dimensions"):
        mt.cov(mt.tensor(np.ones((2, 2, 2))))
    with pytest.raises(ValueError, match="ddof must be integer"):
        mt.cov(mt.tensor(np.ones((2, 3))), ddof=1.5)
    with pytest.raises(ValueError, match="dimension"):
        mt.cov(mt.tensor(np.ones((2, 3))), np.ones(4))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        result = mt.cov(mt.tensor(np.ones((2, 1))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np.cov(np.ones((2, 1)))
        assert_same(result, expected)
