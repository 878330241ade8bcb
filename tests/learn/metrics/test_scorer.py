"""Chunk-wise scorers against scikit-learn's metrics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics

import jupyter_mars.tensor as mt
from jupyter_mars.learn.metrics.scorer import SCORERS, score_predictions

REFERENCE = {
    "accuracy": metrics.accuracy_score,
    "r2": metrics.r2_score,
    "neg_mean_squared_error": lambda y, p, **kw: -metrics.mean_squared_error(y, p, **kw),
    "neg_root_mean_squared_error": lambda y, p, **kw: -metrics.root_mean_squared_error(y, p, **kw),
    "neg_mean_absolute_error": lambda y, p, **kw: -metrics.mean_absolute_error(y, p, **kw),
}


@settings(max_examples=10, deadline=None)
@given(
    n=st.integers(2, 40),
    outputs=st.sampled_from([0, 1, 3]),
    chunk=st.integers(1, 15),
    weighted=st.booleans(),
    name=st.sampled_from(sorted(SCORERS)),
)
def test_scores_equal_scikit_learns(
    n: int, outputs: int, chunk: int, weighted: bool, name: str
) -> None:
    rng = np.random.default_rng(n + outputs)
    shape = (n,) if outputs == 0 else (n, outputs)
    if name == "accuracy":  # scikit-learn's accuracy takes 2-d targets of 0 and 1 only
        top = 3 if outputs == 0 else 2
        y, pred = rng.integers(0, top, shape), rng.integers(0, top, shape)
    else:
        y, pred = rng.normal(size=shape), rng.normal(size=shape)
    weights = rng.random(n) if weighted else None
    kwargs = {} if weights is None else {"sample_weight": weights}
    expected = REFERENCE[name](y, pred, **kwargs)
    chunks = (chunk,) if outputs == 0 else (chunk, 1)
    got = score_predictions(
        name,
        mt.tensor(y, chunk_size=chunks),
        mt.tensor(pred, chunk_size=max(1, chunk - 1)),
        None if weights is None else mt.tensor(weights, chunk_size=chunk + 1),
    )
    assert isinstance(got, float)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)


def test_constant_targets_score_as_scikit_learn_forces_them() -> None:
    y = np.ones(6)
    assert score_predictions("r2", y, y) == metrics.r2_score(y, y) == 1.0
    assert score_predictions("r2", y, y + 1) == metrics.r2_score(y, y + 1) == 0.0
    labels = np.array(["a", "b", "a"], dtype=object)
    assert score_predictions("accuracy", labels, np.array(["a", "a", "a"])) == pytest.approx(2 / 3)


def test_unknown_scorer_and_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="scoring='roc_auc'"):
        score_predictions("roc_auc", np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        score_predictions("r2", np.zeros(3), np.zeros(4))
