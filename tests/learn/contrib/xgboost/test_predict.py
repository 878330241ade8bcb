"""``predict``: a booster's predictions one row block at a time, as ``Booster.predict``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import xgboost
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.contrib.xgboost import MarsDMatrix, predict
from jupyter_mars.learn.utils import fetch_all

X, Y = make_classification(
    200, 4, n_informative=2, n_redundant=1, n_classes=3, n_clusters_per_class=1, random_state=3
)
BINARY = xgboost.train({"objective": "binary:logistic"}, xgboost.DMatrix(X, label=Y > 0), 4)
MULTI = xgboost.train(
    {"objective": "multi:softprob", "num_class": 3}, xgboost.DMatrix(X, label=Y), 4
)


def values(t):
    return fetch_all(t)[0]


@settings(max_examples=8, deadline=None)
@given(rows=st.integers(1, 200), columns=st.integers(1, 4))
def test_predictions_equal_the_booster_on_any_chunking(rows, columns) -> None:
    x = mt.tensor(X, chunk_size=(rows, columns))
    for booster in (BINARY, MULTI):
        got = predict(booster, x)
        expected = booster.predict(xgboost.DMatrix(X))
        assert got.shape == expected.shape
        assert got.dtype == expected.dtype == np.float32
        np.testing.assert_array_equal(values(got), expected)


@pytest.mark.parametrize("rows", [30, 200])
def test_margins_leaves_and_contributions_as_the_booster_gives_them(rows) -> None:
    x = mt.tensor(X, chunk_size=rows)
    local = xgboost.DMatrix(X)
    for kwargs in ({"output_margin": True}, {"pred_leaf": True}, {"pred_contribs": True}):
        np.testing.assert_array_equal(
            values(predict(MULTI, x, **kwargs)), MULTI.predict(local, **kwargs)
        )
    np.testing.assert_array_equal(
        values(predict(BINARY, x, iteration_range=(0, 2))),
        BINARY.predict(local, iteration_range=(0, 2)),
    )


def test_arrays_and_matrices_with_base_margins() -> None:
    margin = np.linspace(-1, 1, 200)
    expected = BINARY.predict(xgboost.DMatrix(X, base_margin=margin))
    matrix = MarsDMatrix(mt.tensor(X, chunk_size=70), base_margin=mt.tensor(margin, chunk_size=33))
    np.testing.assert_array_equal(values(predict(BINARY, matrix)), expected)
    np.testing.assert_array_equal(values(predict(BINARY, X)), BINARY.predict(xgboost.DMatrix(X)))


def test_a_frame_gives_a_lazy_series_on_its_index() -> None:
    frame = pd.DataFrame(X, columns=list("abcd"), index=np.arange(200) * 3)
    booster = xgboost.train(
        {"objective": "binary:logistic"}, xgboost.DMatrix(frame, label=Y > 0), 4
    )
    lazy = md.DataFrame(frame, chunk_size=45)
    got = predict(booster, lazy)
    assert isinstance(got, md.Series)
    expected = pd.Series(booster.predict(xgboost.DMatrix(frame)), index=frame.index)
    pd.testing.assert_series_equal(values(got), expected.rename("predictions"))
    by_class = values(predict(MULTI, md.DataFrame(pd.DataFrame(X), chunk_size=45)))
    assert isinstance(by_class, pd.DataFrame)
    np.testing.assert_array_equal(by_class.to_numpy(), MULTI.predict(xgboost.DMatrix(X)))


def test_bad_models_and_data_raise() -> None:
    with pytest.raises(TypeError, match="xgboost.Booster"):
        predict(object(), X)
    with pytest.raises(ValueError, match="Feature shape mismatch"):
        predict(BINARY, X[:, :3])
    named = xgboost.train({}, xgboost.DMatrix(pd.DataFrame(X, columns=list("abcd")), label=Y), 1)
    with pytest.raises(ValueError, match="feature_names mismatch"):
        predict(named, pd.DataFrame(X, columns=list("wxyz")))


def test_row_blocks_left_empty_predict_nothing() -> None:
    x = mt.tensor(X, chunk_size=50)
    kept = mt.tensor(np.arange(200) >= 50, chunk_size=50)  # the first block keeps no row
    for booster in (BINARY, MULTI):
        expected = booster.predict(xgboost.DMatrix(X[50:]))
        np.testing.assert_array_equal(values(predict(booster, x[kept])), expected)
