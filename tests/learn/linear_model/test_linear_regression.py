"""``LinearRegression`` against scikit-learn's on the same data, over several chunkings:
one and several targets, sample weights, no intercept, rank-deficient and wide data,
non-negative coefficients, and scikit-learn's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import decomposition as skd
from sklearn import linear_model as sk
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import make_pipeline

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.decomposition import PCA
from jupyter_mars.learn.linear_model import LinearRegression
from jupyter_mars.learn.utils import fetch_all
from jupyter_mars.tensor.core import Tensor

RNG = np.random.default_rng(2)
X = RNG.normal(size=(90, 5)) + 2.0
Y1 = X @ np.array([1.0, -2.0, 0.5, 0.0, 3.0]) + 0.3 * RNG.normal(size=90) + 4.0
Y2 = np.c_[Y1, 2.0 - 0.5 * Y1 + RNG.normal(size=90)]
WEIGHTS = RNG.random(90) * 2
RANK_DEFICIENT = np.c_[X, X[:, 0] - X[:, 1]]
CHUNKS = [(17, 5), (30, 2), (90, 6)]


def assert_same_fit(ours: Any, theirs: Any, rtol: float = 1e-7) -> None:
    for name in ["coef_", "intercept_", "rank_", "singular_"]:
        if not hasattr(theirs, name):
            assert not hasattr(ours, name), name
            continue
        got, expected = getattr(ours, name), getattr(theirs, name)
        assert np.shape(got) == np.shape(expected), name
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=1e-9, err_msg=name)
    assert ours.coef_.dtype == theirs.coef_.dtype
    assert ours.n_features_in_ == theirs.n_features_in_


CASES = [
    pytest.param(X, Y1, None, {}, id="one-target"),
    pytest.param(X, Y2, None, {}, id="two-targets"),
    pytest.param(X, Y2[:, :1], None, {}, id="a-column-target"),
    pytest.param(X, Y1, WEIGHTS, {}, id="weighted"),
    pytest.param(X, Y2, WEIGHTS, {}, id="weighted-two-targets"),
    pytest.param(X, Y1, None, {"fit_intercept": False}, id="no-intercept"),
    pytest.param(X, Y1, WEIGHTS, {"fit_intercept": False}, id="weighted-no-intercept"),
    pytest.param(RANK_DEFICIENT, Y1, None, {}, id="rank-deficient"),
    pytest.param(X, Y1, None, {"tol": 0.5}, id="coarse-tol"),
    pytest.param(X, -Y2, WEIGHTS, {"positive": True}, id="positive"),
]


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize(("data", "target", "weights", "kwargs"), CASES)
def test_fits_and_predicts_as_scikit_learn(
    data: np.ndarray, target: np.ndarray, weights: Any, kwargs: dict[str, Any], chunks: Any
) -> None:
    x = mt.tensor(data, chunk_size=chunks)
    ours = LinearRegression(**kwargs).fit(x, target, sample_weight=weights)
    theirs = sk.LinearRegression(**kwargs).fit(data, target, sample_weight=weights)
    assert_same_fit(ours, theirs)
    predicted = ours.predict(x)
    assert isinstance(predicted, Tensor)
    np.testing.assert_allclose(predicted.execute().fetch(), theirs.predict(data), atol=1e-9)
    score = ours.score(x, target, sample_weight=weights)
    assert isinstance(score, float)
    assert score == pytest.approx(theirs.score(data, target, sample_weight=weights), abs=1e-12)


@given(
    rows=st.integers(2, 30),
    cols=st.integers(1, 6),
    chunk=st.integers(1, 30),
    targets=st.sampled_from([0, 1, 3]),
    seed=st.integers(0, 2**16),
)
@settings(max_examples=15, deadline=None)
def test_matches_on_any_shape_and_chunking(
    rows: int, cols: int, chunk: int, targets: int, seed: int
) -> None:
    """Wide data (fewer rows than columns) too: the minimum-norm solution."""
    rng = np.random.default_rng(seed)
    data = rng.normal(size=(rows, cols))
    target = rng.normal(size=(rows, targets) if targets else rows)
    x = mt.tensor(data, chunk_size=(chunk, max(1, cols // 2)))
    assert_same_fit(LinearRegression().fit(x, target), sk.LinearRegression().fit(data, target))


def test_every_form_of_input_fits_the_same() -> None:
    frame = pd.DataFrame(X, columns=list("abcde"))
    theirs = sk.LinearRegression().fit(X, Y1)
    for data, target in [
        (X.tolist(), Y1.tolist()),
        (frame, pd.Series(Y1)),
        (mt.tensor(X, chunk_size=20), mt.tensor(Y1, chunk_size=25)),
        (md.DataFrame(frame, chunk_size=20), md.Series(pd.Series(Y1), chunk_size=20)),
    ]:
        assert_same_fit(LinearRegression().fit(data, target), theirs)
    weighted = sk.LinearRegression().fit(X, Y1, sample_weight=WEIGHTS)
    for weights, expected in [
        (WEIGHTS.tolist(), weighted),
        (mt.tensor(WEIGHTS, chunk_size=40), weighted),
        (pd.Series(WEIGHTS), weighted),
        (2.5, sk.LinearRegression().fit(X, Y1, sample_weight=2.5)),
    ]:
        assert_same_fit(LinearRegression().fit(X, Y1, sample_weight=weights), expected)


def test_rows_known_only_after_computing_are_computed_first() -> None:
    frame = pd.DataFrame(np.c_[X, Y1], columns=list("abcdey"))
    lazy = md.DataFrame(frame, chunk_size=25)
    cut = frame.a.median()
    lazy, kept = lazy[lazy.a > cut], frame[frame.a > cut]
    ours = LinearRegression().fit(lazy[list("abcde")], lazy["y"])
    assert_same_fit(ours, sk.LinearRegression().fit(kept[list("abcde")].to_numpy(), kept.y))


def test_float32_stays_float32() -> None:
    single = X.astype(np.float32)
    ours = LinearRegression().fit(single, Y1)
    theirs = sk.LinearRegression().fit(single, Y1)
    assert ours.coef_.dtype == theirs.coef_.dtype == np.float32
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-4, atol=1e-5)


def test_constant_targets_score_as_scikit_learn() -> None:
    constant = np.full(90, 2.0)
    ours = LinearRegression().fit(X, constant)
    theirs = sk.LinearRegression().fit(X, constant)
    assert ours.score(X, constant) == theirs.score(X, constant) == 1.0
    assert ours.score(X, Y1) == pytest.approx(theirs.score(X, Y1), abs=1e-12)


@pytest.mark.parametrize(
    ("weights", "match"),
    [
        (-WEIGHTS, "Negative values in data passed to `sample_weight`"),
        (np.zeros(90), "at least one non-zero number"),
        (WEIGHTS[:80], r"sample_weight.shape == \(80,\), expected \(90,\)"),
        (np.ones((90, 2)), "Sample weights must be 1D array or scalar"),
        (np.r_[np.nan, WEIGHTS[1:]], "Input sample_weight contains NaN"),
    ],
)
def test_bad_sample_weights_raise_scikit_learns_errors(weights: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        sk.LinearRegression().fit(X, Y1, sample_weight=weights)
    with pytest.raises(ValueError, match=match):
        LinearRegression().fit(X, Y1, sample_weight=weights)


def test_bad_weights_in_a_tensor_raise_when_computed() -> None:
    negative = mt.tensor(-WEIGHTS, chunk_size=30)
    with pytest.raises(ValueError, match="Negative values in data passed to `sample_weight`"):
        LinearRegression().fit(X, Y1, sample_weight=negative)
    zeros = mt.zeros(90, chunk_size=30)
    with pytest.raises(ValueError, match="at least one non-zero number"):
        LinearRegression().fit(X, Y1, sample_weight=zeros)


def test_bad_arguments_and_data_raise() -> None:
    with pytest.raises(ValueError, match="tol"):
        LinearRegression(tol=-1.0).fit(X, Y1)
    with pytest.raises(ValueError, match="fit_intercept"):
        LinearRegression(fit_intercept="yes").fit(X, Y1)
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[90, 80\]"):
        LinearRegression().fit(X, Y1[:80])
    with pytest.raises(ValueError, match="requires y to be passed"):
        LinearRegression().fit(X, None)
    with pytest.raises(NotFittedError):
        LinearRegression().predict(X)
    with pytest.raises(ValueError, match="X has 4 features, but LinearRegression is expecting 5"):
        LinearRegression().fit(X, Y1).predict(X[:, :4])


def test_it_is_a_scikit_learn_estimator() -> None:
    model = LinearRegression(fit_intercept=False, positive=True)
    assert clone(model).get_params() == model.get_params()
    pipeline = make_pipeline(PCA(3), LinearRegression()).fit(X, Y1)
    expected = make_pipeline(skd.PCA(3), sk.LinearRegression()).fit(X, Y1)
    (got,) = fetch_all(pipeline.predict(X))
    np.testing.assert_allclose(got, expected.predict(X), atol=1e-8)
    assert pipeline.score(X, Y1) == pytest.approx(expected.score(X, Y1), abs=1e-12)
