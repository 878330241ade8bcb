"""``LabelPropagation`` against scikit-learn's on the same data."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import semi_supervised as sk
from sklearn.base import clone
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning, NotFittedError

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.semi_supervised import LabelPropagation
from jupyter_mars.learn.utils import fetch_all

X, Y = make_blobs(160, 3, centers=3, cluster_std=2.0, random_state=0)
X = X / 10
PARTIAL = Y.copy()
PARTIAL[np.random.RandomState(0).rand(160) < 0.7] = -1
CHUNKS = [(37, 2), (160, 3)]


def values(t: Any) -> Any:
    return fetch_all(t)[0]


def assert_same_fit(ours: Any, theirs: Any) -> None:
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    assert ours.n_iter_ == theirs.n_iter_
    np.testing.assert_allclose(ours.label_distributions_, theirs.label_distributions_, atol=1e-10)
    np.testing.assert_array_equal(ours.transduction_, theirs.transduction_)


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize(
    "params", [{}, {"gamma": 5}, {"kernel": "knn"}, {"kernel": "knn", "n_neighbors": 12}]
)
def test_propagation_and_predictions_equal_scikit_learns(chunks: Any, params: Any) -> None:
    ours = LabelPropagation(**params).fit(mt.tensor(X, chunk_size=chunks), PARTIAL)
    theirs = sk.LabelPropagation(**params).fit(X, PARTIAL)
    assert_same_fit(ours, theirs)
    new = X[::3] + 0.01
    x = mt.tensor(new, chunk_size=chunks)
    np.testing.assert_allclose(values(ours.predict_proba(x)), theirs.predict_proba(new), atol=1e-10)
    np.testing.assert_array_equal(values(ours.predict(x)), theirs.predict(new))
    assert ours.score(x, Y[::3]) == pytest.approx(theirs.score(new, Y[::3]))


@settings(max_examples=8, deadline=None)
@given(
    n=st.integers(4, 40),
    n_features=st.integers(1, 4),
    rows=st.integers(1, 15),
    unlabeled=st.floats(0.0, 0.8),
    gamma=st.sampled_from([1.0, 20.0]),
)
def test_any_shape_and_chunking_propagates_as_scikit_learn(
    n: int, n_features: int, rows: int, unlabeled: float, gamma: float
) -> None:
    rng = np.random.RandomState(n)
    data = rng.rand(n, n_features)
    labels = rng.randint(0, 3, n)
    labels[rng.rand(n) < unlabeled] = -1
    labels[0] = 2  # one labeled sample at least
    # some draws do not converge: both warn then, and stop after the same iterations
    with warnings.catch_warnings(record=True) as theirs_said:
        warnings.simplefilter("always", ConvergenceWarning)
        theirs = sk.LabelPropagation(gamma=gamma).fit(data, labels)
    with warnings.catch_warnings(record=True) as ours_said:
        warnings.simplefilter("always", ConvergenceWarning)
        ours = LabelPropagation(gamma=gamma).fit(mt.tensor(data, chunk_size=(rows, 2)), labels)
    warned = [
        [str(w.message) for w in said if w.category is ConvergenceWarning]
        for said in (ours_said, theirs_said)
    ]
    assert warned[0] == warned[1]
    assert_same_fit(ours, theirs)


def test_running_out_of_iterations_warns_as_scikit_learn() -> None:
    with pytest.warns(ConvergenceWarning, match="max_iter=2 was reached"):
        theirs = sk.LabelPropagation(max_iter=2).fit(X, PARTIAL)
    with pytest.warns(ConvergenceWarning, match="max_iter=2 was reached"):
        ours = LabelPropagation(max_iter=2).fit(mt.tensor(X, chunk_size=50), PARTIAL)
    assert ours.n_iter_ == theirs.n_iter_ == 2
    np.testing.assert_allclose(ours.label_distributions_, theirs.label_distributions_)


def test_frames_and_lists_as_inputs() -> None:
    frame = md.DataFrame(pd.DataFrame(X, columns=["a", "b", "c"]), chunk_size=45)
    ours = LabelPropagation(kernel="knn").fit(frame, PARTIAL.tolist())
    theirs = sk.LabelPropagation(kernel="knn").fit(X, PARTIAL)
    assert_same_fit(ours, theirs)
    np.testing.assert_array_equal(values(ours.predict(frame)), theirs.predict(X))


def test_bad_parameters_unfitted_use_and_cloning() -> None:
    for params, match in [
        ({"kernel": "linear"}, "kernel"),
        ({"gamma": -1.0}, "gamma"),
        ({"n_neighbors": 0}, "n_neighbors"),
        ({"max_iter": 0}, "max_iter"),
        ({"tol": -0.1}, "tol"),
    ]:
        with pytest.raises(ValueError, match=match):
            LabelPropagation(**params).fit(X, PARTIAL)
    with pytest.raises(ValueError, match="Unknown label type"):
        LabelPropagation().fit(X, np.linspace(0, 1, 160))
    model = LabelPropagation(gamma=3.0)
    with pytest.raises(NotFittedError):
        model.predict(X)
    model.fit(X, PARTIAL)
    with pytest.raises(ValueError, match="X has 2 features"):
        model.predict(X[:, :2])
    copy = clone(model)
    assert copy.get_params() == model.get_params()
    assert not hasattr(copy, "label_distributions_")
