"""``train`` and ``MarsDMatrix`` against ``xgboost.train`` on the whole data in one process."""

from __future__ import annotations

import threading

import numpy as np
import pandas as pd
import pytest
import xgboost
from sklearn.datasets import make_classification
from xgboost.tracker import RabitTracker

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.contrib.parts import Part
from jupyter_mars.learn.contrib.xgboost import MarsDMatrix, train
from jupyter_mars.learn.contrib.xgboost.dmatrix import MatrixSpec
from jupyter_mars.learn.contrib.xgboost.training import TrainerConfig, train_group

X, Y = make_classification(300, 5, n_informative=3, random_state=2)
RNG = np.random.default_rng(2)
WEIGHT = RNG.random(300) + 0.5
MARGIN = RNG.normal(size=300)
PARAMS = {"objective": "binary:logistic", "max_depth": 3, "eval_metric": ["logloss", "auc"]}
ROWS = [70, 300]


def whole(**kwargs):
    return xgboost.DMatrix(X, label=Y, **kwargs)


@pytest.mark.parametrize("rows", ROWS)
def test_one_worker_trains_the_model_xgboost_trains_on_the_whole_data(rows) -> None:
    dtrain = MarsDMatrix(
        mt.tensor(X, chunk_size=(rows, 2)),
        label=mt.tensor(Y, chunk_size=41),
        weight=WEIGHT,
        base_margin=MARGIN,
    )
    history: dict = {}
    booster = train(
        PARAMS, dtrain, num_boost_round=5, evals=[(dtrain, "train")], evals_result=history
    )
    expected_history: dict = {}
    local = whole(weight=WEIGHT, base_margin=MARGIN)
    expected = xgboost.train(
        PARAMS,
        local,
        5,
        evals=[(local, "train")],
        evals_result=expected_history,
        verbose_eval=False,
    )
    assert isinstance(booster, xgboost.Booster)
    np.testing.assert_array_equal(booster.predict(whole()), expected.predict(whole()))
    assert history == expected_history


def test_evaluation_sets_and_early_stopping_as_xgboost() -> None:
    train_x, valid_x, train_y, valid_y = X[:200], X[200:], Y[:200], Y[200:]
    dtrain = MarsDMatrix(mt.tensor(train_x, chunk_size=60), label=train_y)
    dvalid = MarsDMatrix(mt.tensor(valid_x, chunk_size=30), label=mt.tensor(valid_y))
    history: dict = {}
    params = {"objective": "binary:logistic", "eta": 0.8, "max_depth": 6}
    kwargs = {"num_boost_round": 50, "early_stopping_rounds": 2, "verbose_eval": False}
    booster = train(
        params, dtrain, evals=[(dtrain, "a"), (dvalid, "b")], evals_result=history, **kwargs
    )
    expected_history: dict = {}
    local_train = xgboost.DMatrix(train_x, label=train_y)
    local_valid = xgboost.DMatrix(valid_x, label=valid_y)
    expected = xgboost.train(
        params,
        local_train,
        evals=[(local_train, "a"), (local_valid, "b")],
        evals_result=expected_history,
        **kwargs,
    )
    assert booster.best_iteration == expected.best_iteration < 49
    assert history == expected_history


def test_frames_give_their_columns_as_feature_names() -> None:
    frame = pd.DataFrame(X, columns=list("abcde"))
    lazy = md.DataFrame(frame, chunk_size=90)
    label = md.Series(pd.Series(Y), chunk_size=90)
    for data, target in ((frame, pd.Series(Y)), (lazy, label)):
        booster = train(PARAMS, MarsDMatrix(data, label=target), num_boost_round=3)
        assert booster.feature_names == list("abcde")
        expected = xgboost.train(PARAMS, xgboost.DMatrix(frame, label=Y), 3)
        np.testing.assert_array_equal(
            booster.predict(xgboost.DMatrix(frame)), expected.predict(xgboost.DMatrix(frame))
        )


def test_missing_values_are_the_value_given() -> None:
    data = X.copy()
    data[::7, 1] = -999.0
    booster = train(PARAMS, MarsDMatrix(mt.tensor(data, chunk_size=50), Y, missing=-999.0), 4)
    expected = xgboost.train(PARAMS, xgboost.DMatrix(data, label=Y, missing=-999.0), 4)
    probe = xgboost.DMatrix(data, missing=-999.0)
    np.testing.assert_array_equal(booster.predict(probe), expected.predict(probe))


def test_bad_arguments_raise_as_xgboost_raises_them() -> None:
    dtrain = MarsDMatrix(X, label=Y)
    with pytest.raises(TypeError, match="invalid training matrix"):
        train(PARAMS, xgboost.DMatrix(X, label=Y))
    with pytest.raises(TypeError, match="evals"):
        train(PARAMS, dtrain, evals=[dtrain])
    with pytest.raises(TypeError, match="MarsDMatrix in evals"):
        train(PARAMS, dtrain, evals=[(xgboost.DMatrix(X), "x")])
    with pytest.raises(xgboost.core.XGBoostError, match="Unknown objective"):
        train({"objective": "no:such"}, dtrain)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        MarsDMatrix(X, label=Y[:-1])
    with pytest.raises(ValueError, match="feature_names"):
        MarsDMatrix(X, feature_names=["a"])
    with pytest.raises(ValueError, match="Expected 2D array"):
        MarsDMatrix(Y, label=Y)


def test_matrix_is_lazy_and_tells_its_shape() -> None:
    matrix = MarsDMatrix(mt.tensor(X, chunk_size=100), label=Y)
    assert matrix.shape == (300, 5)
    assert (matrix.num_row(), matrix.num_col()) == (300, 5)
    assert "shape=(300, 5)" in repr(matrix)


def test_trainers_joined_by_the_collective_train_one_model_of_all_their_rows() -> None:
    """The trainers' code as each cluster worker runs it, here on two threads."""
    halves = [Part(X[i::2], label=Y[i::2].astype(float)) for i in range(2)]
    tracker = RabitTracker(n_workers=2, host_ip="127.0.0.1", sortby="task", timeout=30)
    tracker.start()
    spec = MatrixSpec(5, None, None, None)
    config = TrainerConfig(
        PARAMS, 5, {"verbose_eval": False}, spec, ((None, "train"),), tracker.worker_args(), (0,)
    )
    results: dict = {}

    def run(index: int) -> None:
        results[index] = train_group(config, index, [halves[index]])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    tracker.wait_for(30)
    assert [results[i]["rank"] for i in range(2)] == [0, 1]
    assert results[1]["booster"] is None
    assert [results[i]["rows"] for i in range(2)] == [150, 150]
    # the metrics are those of all the rows, on each trainer
    assert results[0]["history"] == results[1]["history"]
    accuracy = np.mean((results[0]["booster"].predict(whole()) > 0.5) == Y)
    expected = xgboost.train(PARAMS, whole(), 5)
    assert accuracy >= np.mean((expected.predict(whole()) > 0.5) == Y) - 0.02
