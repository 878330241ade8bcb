"""The classifier each trainer fits: told every class, whatever classes its rows hold."""

from __future__ import annotations

import lightgbm
import numpy as np
from sklearn.datasets import make_classification

from jupyter_mars.learn.contrib.lightgbm.local import KnownClassesClassifier, metrics_for

X, Y = make_classification(200, 4, n_informative=3, n_redundant=0, n_classes=3, random_state=13)
LABELS = np.array(["a", "b", "c"])[Y]
SMALL = {"n_estimators": 4, "num_leaves": 5, "verbose": -1}


def test_rows_holding_every_class_fit_as_lightgbm_s_classifier() -> None:
    ours = KnownClassesClassifier(**SMALL).fit_with_classes(
        np.array(["a", "b", "c"]), X, LABELS, eval_X=(X,), eval_y=(LABELS,), eval_metric="error"
    )
    theirs = lightgbm.LGBMClassifier(**SMALL).fit(X, LABELS, eval_metric="error")
    np.testing.assert_array_equal(ours.predict_proba(X), theirs.predict_proba(X))
    assert set(ours.evals_result_["training"]) == {"multi_logloss", "multi_error"}


def test_rows_lacking_a_class_still_number_and_count_every_class() -> None:
    rows = LABELS != "b"
    ours = KnownClassesClassifier(**SMALL).fit_with_classes(
        np.array(["a", "b", "c"]), X[rows], LABELS[rows]
    )
    assert ours.n_classes_ == 3
    np.testing.assert_array_equal(ours.classes_, ["a", "b", "c"])
    assert ours.predict_proba(X).shape == (200, 3)
    assert ours.booster_.params["num_class"] == 3
    # a binary problem whose rows hold one class only is still the same binary problem
    only = KnownClassesClassifier(**SMALL).fit_with_classes(np.array([0, 1]), X[:20], np.ones(20))
    assert only.n_classes_ == 2
    assert (only.predict(X) == 1).all()


def test_class_weights_are_given_by_class() -> None:
    weights = {"a": 1.0, "b": 5.0, "c": 1.0}
    ours = KnownClassesClassifier(class_weight=weights, **SMALL).fit_with_classes(
        np.array(["a", "b", "c"]), X, LABELS
    )
    theirs = lightgbm.LGBMClassifier(class_weight=weights, **SMALL).fit(X, LABELS)
    np.testing.assert_array_equal(ours.predict_proba(X), theirs.predict_proba(X))


def test_metrics_are_named_for_the_number_of_classes() -> None:
    assert metrics_for(["logloss", "auc"], 2) == ["binary_logloss", "auc"]
    assert metrics_for("error", 5) == ["multi_error"]
    assert metrics_for(None, 2) == []
    assert metrics_for(len, 2) is len
