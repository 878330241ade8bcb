"""``LGBMClassifier``, ``LGBMRegressor`` and ``LGBMRanker`` against LightGBM's own."""

from __future__ import annotations

import lightgbm
import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression
from sklearn.exceptions import NotFittedError

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.contrib.lightgbm import LGBMClassifier, LGBMRanker, LGBMRegressor
from jupyter_mars.learn.utils import fetch_all

X2, Y2 = make_classification(300, 5, n_informative=3, random_state=7)
X3, Y3 = make_classification(300, 5, n_informative=3, n_classes=3, random_state=8)
LABELS = np.array(["ant", "bee", "cat"])[Y3]
XR, YR = make_regression(300, 5, noise=2.0, random_state=9)
QUERIES = np.random.default_rng(10).integers(3, 12, 40)
XQ = np.random.default_rng(11).random((int(QUERIES.sum()), 4))
YQ = np.random.default_rng(12).integers(0, 4, len(XQ))
SMALL = {"n_estimators": 8, "num_leaves": 7, "min_child_samples": 5, "verbose": -1}
ROWS = [70, 300]


def values(t):
    return fetch_all(t)[0]


@pytest.mark.parametrize("rows", ROWS)
@pytest.mark.parametrize(("x", "y"), [(X2, Y2), (X3, LABELS)])
def test_classifier_predicts_as_lightgbm_fitted_on_the_whole_data(rows, x, y) -> None:
    ours = LGBMClassifier(**SMALL)
    assert ours.fit(mt.tensor(x, chunk_size=(rows, 3)), y) is ours
    theirs = lightgbm.LGBMClassifier(**SMALL).fit(x, y)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    assert (ours.n_classes_, ours.n_features_in_) == (theirs.n_classes_, theirs.n_features_in_)
    proba = ours.predict_proba(mt.tensor(x, chunk_size=rows))
    assert proba.shape == (300, ours.n_classes_)
    np.testing.assert_array_equal(values(proba), theirs.predict_proba(x))
    predicted = values(ours.predict(x))
    np.testing.assert_array_equal(predicted, theirs.predict(x))
    assert predicted.dtype == theirs.predict(x).dtype
    np.testing.assert_array_equal(
        values(ours.predict(x, raw_score=True)), theirs.predict(x, raw_score=True)
    )
    score = ours.score(x, y)
    assert isinstance(score, float)
    assert score == pytest.approx(theirs.score(x, y))


def test_balanced_class_weights_are_the_whole_training_set_s() -> None:
    ours = LGBMClassifier(class_weight="balanced", **SMALL).fit(mt.tensor(X3, chunk_size=40), Y3)
    theirs = lightgbm.LGBMClassifier(class_weight="balanced", **SMALL).fit(X3, Y3)
    assert ours.get_params()["class_weight"] == "balanced"
    np.testing.assert_allclose(values(ours.predict_proba(X3)), theirs.predict_proba(X3))


@pytest.mark.parametrize("rows", ROWS)
def test_regressor_predicts_as_lightgbm_fitted_on_the_whole_data(rows) -> None:
    weight = np.linspace(0.5, 2, 300)
    init = np.full(300, 0.5)
    ours = LGBMRegressor(**SMALL).fit(
        mt.tensor(XR, chunk_size=rows),
        mt.tensor(YR, chunk_size=45),
        sample_weight=weight,
        init_score=init,
    )
    theirs = lightgbm.LGBMRegressor(**SMALL).fit(XR, YR, sample_weight=weight, init_score=init)
    np.testing.assert_array_equal(
        values(ours.predict(mt.tensor(XR, chunk_size=rows))), theirs.predict(XR)
    )
    assert ours.score(XR, YR) == pytest.approx(theirs.score(XR, YR))
    leaves = ours.predict(XR, pred_leaf=True)
    np.testing.assert_array_equal(values(leaves), theirs.predict(XR, pred_leaf=True))


@pytest.mark.parametrize("rows", [50, len(XQ)])
def test_ranker_keeps_each_query_whole_and_ranks_as_lightgbm(rows) -> None:
    ours = LGBMRanker(**SMALL).fit(mt.tensor(XQ, chunk_size=rows), YQ, group=QUERIES)
    theirs = lightgbm.LGBMRanker(**SMALL).fit(XQ, YQ, group=QUERIES)
    np.testing.assert_array_equal(values(ours.predict(XQ)), theirs.predict(XQ))
    as_tensor = LGBMRanker(**SMALL).fit(XQ, YQ, group=mt.tensor(QUERIES))
    np.testing.assert_array_equal(values(as_tensor.predict(XQ)), theirs.predict(XQ))


def test_evaluation_sets_give_the_metrics_lightgbm_gives() -> None:
    valid = (XR[200:], YR[200:])
    ours = LGBMRegressor(**SMALL).fit(
        mt.tensor(XR[:200], chunk_size=60), YR[:200], eval_set=[valid], eval_metric="l1"
    )
    theirs = lightgbm.LGBMRegressor(**SMALL).fit(
        XR[:200], YR[:200], eval_X=(valid[0],), eval_y=(valid[1],), eval_metric="l1"
    )
    assert ours.evals_result_ == theirs.evals_result_
    assert ours.best_score_ == theirs.best_score_
    # the training rows themselves are "training", as LightGBM's regressor names them;
    # its classifier 4.7 compares the labels it numbered with those given, and names them
    # "valid_0"
    same = LGBMClassifier(**SMALL).fit(X2, Y2, eval_X=(X2,), eval_y=(Y2,))
    expected = lightgbm.LGBMClassifier(**SMALL).fit(X2, Y2, eval_X=(X2,), eval_y=(Y2,))
    assert same.evals_result_ == {"training": expected.evals_result_["valid_0"]}
    ranked = LGBMRanker(**SMALL).fit(
        XQ, YQ, group=QUERIES, eval_set=[(XQ[:100], YQ[:100])], eval_group=[[50, 50]], eval_at=[3]
    )
    expected = lightgbm.LGBMRanker(**SMALL).fit(
        XQ,
        YQ,
        group=QUERIES,
        eval_X=(XQ[:100],),
        eval_y=(YQ[:100],),
        eval_group=[[50, 50]],
        eval_at=[3],
    )
    assert ranked.evals_result_ == expected.evals_result_


def test_early_stopping_stops_where_lightgbm_stops() -> None:
    kwargs = {**SMALL, "n_estimators": 200, "learning_rate": 0.5}
    stop = [lightgbm.early_stopping(3, verbose=False)]
    valid = (XR[200:], YR[200:])
    ours = LGBMRegressor(**kwargs).fit(XR[:200], YR[:200], eval_set=[valid], callbacks=stop)
    theirs = lightgbm.LGBMRegressor(**kwargs).fit(
        XR[:200], YR[:200], eval_X=(valid[0],), eval_y=(valid[1],), callbacks=stop
    )
    assert ours.best_iteration_ == theirs.best_iteration_ < 200


def test_frames_are_inputs_with_their_column_names() -> None:
    frame = pd.DataFrame(X2, columns=list("abcde"))
    ours = LGBMClassifier(**SMALL).fit(md.DataFrame(frame, chunk_size=80), pd.Series(Y2))
    theirs = lightgbm.LGBMClassifier(**SMALL).fit(frame, Y2)
    assert ours.feature_name_ == theirs.feature_name_ == list("abcde")
    np.testing.assert_array_equal(ours.feature_names_in_, theirs.feature_names_in_)
    np.testing.assert_array_equal(values(ours.predict_proba(frame)), theirs.predict_proba(frame))
    np.testing.assert_array_equal(
        values(ours.predict(md.DataFrame(frame, chunk_size=90))), theirs.predict(frame)
    )


def test_estimators_clone_with_their_parameters() -> None:
    model = LGBMRegressor(num_leaves=5, reg_alpha=0.1, extra_trees=True)
    copy = clone(model)
    assert copy.get_params() == model.get_params()
    assert copy.get_params()["extra_trees"] is True
    fitted = LGBMRegressor(**SMALL).fit(XR, YR)
    assert "machines" not in fitted.get_params()
    assert fitted.get_params() == LGBMRegressor(**SMALL).get_params()


def test_errors_as_lightgbm_raises_them() -> None:
    with pytest.raises(NotFittedError):
        LGBMClassifier().predict(X2)
    with pytest.raises(NotFittedError):
        LGBMRanker().predict(XQ)
    with pytest.raises(ValueError, match="Should set group"):
        LGBMRanker(**SMALL).fit(XQ, YQ)
    with pytest.raises(ValueError, match="eval_group cannot be None"):
        LGBMRanker(**SMALL).fit(XQ, YQ, group=QUERIES, eval_set=[(XQ, YQ)])
    with pytest.raises(ValueError, match="Sum of query counts"):
        LGBMRanker(**SMALL).fit(XQ, YQ, group=QUERIES[1:])
    with pytest.raises(ValueError, match="either 'eval_set' or 'eval_X'"):
        LGBMRegressor(**SMALL).fit(XR, YR, eval_set=[(XR, YR)], eval_X=(XR,), eval_y=(YR,))
    with pytest.raises(ValueError, match="eval_X and eval_y"):
        LGBMRegressor(**SMALL).fit(XR, YR, eval_X=(XR,))
    with pytest.raises(ValueError, match="Input y contains NaN"):
        LGBMRegressor(**SMALL).fit(XR, np.where(YR > 0, np.nan, YR))
    with pytest.raises(ValueError, match="network parameters"):
        LGBMRegressor(machines="127.0.0.1:1234").fit(XR, YR)
    with pytest.raises(lightgbm.basic.LightGBMError, match="num_leaves"):
        LGBMRegressor(num_leaves=1, verbose=-1).fit(XR, YR)
    fitted = LGBMRegressor(**SMALL).fit(XR, YR)
    with pytest.raises(ValueError, match="Number of features of the model must match"):
        fitted.predict(XR[:, :3])


def test_row_blocks_of_unknown_lengths_are_cut_between_queries_too() -> None:
    x = mt.tensor(XQ, chunk_size=60)
    kept = x[mt.tensor(np.ones(len(XQ), dtype=bool), chunk_size=60)]  # lengths unknown
    ours = LGBMRanker(**SMALL).fit(kept, YQ, group=QUERIES)
    theirs = lightgbm.LGBMRanker(**SMALL).fit(XQ, YQ, group=QUERIES)
    np.testing.assert_array_equal(values(ours.predict(XQ)), theirs.predict(XQ))
