"""``XGBClassifier`` and ``XGBRegressor`` against XGBoost's own on the same data."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import xgboost
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.contrib.xgboost import XGBClassifier, XGBRegressor
from jupyter_mars.learn.utils import fetch_all

X2, Y2 = make_classification(240, 5, n_informative=3, random_state=4)
X3, Y3 = make_classification(240, 5, n_informative=3, n_classes=3, random_state=5)
XR, YR = make_regression(240, 5, noise=3.0, random_state=6)
ROWS = [55, 240]


def values(t):
    return fetch_all(t)[0]


@pytest.mark.parametrize("rows", ROWS)
@pytest.mark.parametrize(("x", "y"), [(X2, Y2), (X3, Y3)])
def test_classifier_predicts_as_xgboost_fitted_on_the_whole_data(rows, x, y) -> None:
    ours = XGBClassifier(n_estimators=6, max_depth=3)
    assert ours.fit(mt.tensor(x, chunk_size=rows), mt.tensor(y, chunk_size=37)) is ours
    theirs = xgboost.XGBClassifier(n_estimators=6, max_depth=3).fit(x, y)
    assert (ours.n_classes_, ours.objective, ours.n_features_in_) == (
        theirs.n_classes_,
        theirs.objective,
        theirs.n_features_in_,
    )
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    proba = ours.predict_proba(mt.tensor(x, chunk_size=rows))
    assert proba.shape == (240, ours.n_classes_)
    np.testing.assert_array_equal(values(proba), theirs.predict_proba(x))
    predicted = values(ours.predict(x))
    np.testing.assert_array_equal(predicted, theirs.predict(x))
    assert predicted.dtype == theirs.predict(x).dtype
    np.testing.assert_array_equal(
        values(ours.predict(x, output_margin=True)), theirs.predict(x, output_margin=True)
    )
    score = ours.score(x, y)
    assert isinstance(score, float)
    assert score == pytest.approx(theirs.score(x, y))


def test_softmax_classifier_gives_classes_and_probabilities() -> None:
    ours = XGBClassifier(n_estimators=4, objective="multi:softmax").fit(X3, Y3)
    theirs = xgboost.XGBClassifier(n_estimators=4, objective="multi:softmax").fit(X3, Y3)
    np.testing.assert_array_equal(values(ours.predict(X3)), theirs.predict(X3))
    np.testing.assert_allclose(values(ours.predict_proba(X3)), theirs.predict_proba(X3), rtol=1e-6)


@pytest.mark.parametrize("rows", ROWS)
def test_regressor_predicts_as_xgboost_fitted_on_the_whole_data(rows) -> None:
    weight = np.linspace(0.5, 2, 240)
    ours = XGBRegressor(n_estimators=8).fit(
        mt.tensor(XR, chunk_size=rows), mt.tensor(YR, chunk_size=50), sample_weight=weight
    )
    theirs = xgboost.XGBRegressor(n_estimators=8).fit(XR, YR, sample_weight=weight)
    np.testing.assert_array_equal(
        values(ours.predict(mt.tensor(XR, chunk_size=rows))), theirs.predict(XR)
    )
    assert ours.score(XR, YR) == pytest.approx(theirs.score(XR, YR))


def test_eval_sets_and_early_stopping_as_xgboost() -> None:
    kwargs = {"n_estimators": 60, "learning_rate": 0.9, "early_stopping_rounds": 3}
    train_x, valid_x, train_y, valid_y = XR[:160], XR[160:], YR[:160], YR[160:]
    ours = XGBRegressor(**kwargs).fit(
        mt.tensor(train_x, chunk_size=50), train_y, eval_set=[(valid_x, valid_y)], verbose=False
    )
    theirs = xgboost.XGBRegressor(**kwargs).fit(
        train_x, train_y, eval_set=[(valid_x, valid_y)], verbose=False
    )
    assert ours.best_iteration == theirs.best_iteration
    assert ours.evals_result() == theirs.evals_result()
    # predictions use the trees up to the best iteration, as XGBoost's
    np.testing.assert_array_equal(values(ours.predict(valid_x)), theirs.predict(valid_x))
    same = XGBClassifier(n_estimators=3).fit(X2, Y2, eval_set=[(X2, Y2)], verbose=False)
    assert list(same.evals_result()) == ["validation_0"]


def test_frames_and_lazy_frames_are_inputs_with_their_column_names() -> None:
    frame = pd.DataFrame(X2, columns=list("abcde"))
    ours = XGBClassifier(n_estimators=4).fit(md.DataFrame(frame, chunk_size=70), pd.Series(Y2))
    theirs = xgboost.XGBClassifier(n_estimators=4).fit(frame, Y2)
    assert ours.get_booster().feature_names == list("abcde")
    np.testing.assert_array_equal(values(ours.predict_proba(frame)), theirs.predict_proba(frame))
    np.testing.assert_array_equal(
        values(ours.predict(md.DataFrame(frame, chunk_size=100))), theirs.predict(frame)
    )


def test_estimators_clone_and_go_in_pipelines() -> None:
    model = XGBRegressor(n_estimators=3, max_depth=2)
    copy = clone(model)
    assert copy.get_params() == model.get_params()
    assert copy.get_params()["max_depth"] == 2
    pipeline = make_pipeline(FunctionTransformer(), XGBRegressor(n_estimators=3)).fit(XR, YR)
    theirs = xgboost.XGBRegressor(n_estimators=3).fit(XR, YR)
    np.testing.assert_array_equal(values(pipeline.predict(XR)), theirs.predict(XR))


def test_errors_as_xgboost_raises_them() -> None:
    with pytest.raises(NotFittedError):
        XGBClassifier().predict(X2)
    with pytest.raises(NotFittedError):
        XGBRegressor().predict(XR)
    with pytest.raises(ValueError, match="Invalid classes inferred"):
        XGBClassifier(n_estimators=2).fit(X2, Y2 + 1)
    with pytest.raises(xgboost.core.XGBoostError, match="max_depth"):
        XGBRegressor(n_estimators=2, max_depth=-3).fit(XR, YR)
    fitted = XGBRegressor(n_estimators=2).fit(XR, YR)
    with pytest.raises(ValueError, match="Feature shape mismatch"):
        fitted.predict(XR[:, :2])
    with pytest.raises(TypeError, match="eval_set"):
        XGBRegressor(n_estimators=2).fit(XR, YR, eval_set=[XR])
