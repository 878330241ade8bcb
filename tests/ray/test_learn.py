"""``jupyter_mars.learn`` on a real local Ray cluster: estimators fit on the Ray session
as on the embedded one, and the distributed XGBoost and LightGBM trainers and the joblib
backend run their tasks on Ray's workers."""

from __future__ import annotations

from typing import Any

import joblib
import lightgbm
import numpy as np
import pytest
import xgboost
from sklearn.datasets import make_blobs, make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import GridSearchCV

import jupyter_mars.learn.utils  # noqa: F401 - registers the "mars" joblib backend
import jupyter_mars.tensor as mt
from jupyter_mars.learn.cluster import KMeans
from jupyter_mars.learn.contrib.lightgbm import LGBMClassifier
from jupyter_mars.learn.contrib.xgboost import MarsDMatrix, predict, train
from jupyter_mars.learn.decomposition import PCA
from jupyter_mars.learn.linear_model import LogisticRegression
from jupyter_mars.learn.utils import fetch_all

ray = pytest.importorskip("ray", reason="Ray is optional: pip install 'jupyter_mars[ray]'")

X, Y = make_classification(2000, 6, n_informative=4, random_state=21)


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
def test_kmeans_fits_on_ray_as_on_the_embedded_session(
    on_ray: Any, session: Any, algorithm: str
) -> None:
    blobs, _ = make_blobs(900, n_features=4, centers=4, random_state=3)
    params = {"n_clusters": 4, "random_state": 1, "algorithm": algorithm}
    here = KMeans(**params).fit(mt.tensor(blobs, chunk_size=200), session=session)
    there = KMeans(**params).fit(mt.tensor(blobs, chunk_size=200), session=on_ray)
    np.testing.assert_array_equal(there.labels_, here.labels_)
    np.testing.assert_allclose(there.cluster_centers_, here.cluster_centers_)
    (predicted,) = fetch_all(there.predict(blobs[:50]), session=on_ray)
    np.testing.assert_array_equal(predicted, here.labels_[:50])


def test_pca_and_logistic_regression_fit_on_ray(on_ray: Any, session: Any) -> None:
    x, y = mt.tensor(X, chunk_size=300), mt.tensor(Y, chunk_size=300)
    pca = PCA(3).fit(x, session=on_ray)
    expected = PCA(3).fit(x, session=session)
    np.testing.assert_allclose(pca.explained_variance_, expected.explained_variance_)
    model = LogisticRegression().fit(x, y, session=on_ray)
    assert model.score(X, Y, session=on_ray) == pytest.approx(
        LogisticRegression().fit(x, y, session=session).score(X, Y), abs=0.01
    )


def test_xgboost_and_lightgbm_train_on_ray(on_ray: Any) -> None:
    x, y = mt.tensor(X, chunk_size=500), mt.tensor(Y, chunk_size=500)
    params = {"objective": "binary:logistic", "max_depth": 4}
    booster = train(params, MarsDMatrix(x, label=y), 10, session=on_ray)
    local = xgboost.train(params, xgboost.DMatrix(X, label=Y), 10)
    expected = np.mean((local.predict(xgboost.DMatrix(X)) > 0.5) == Y)
    (found,) = fetch_all(predict(booster, x), session=on_ray)
    assert np.mean((found > 0.5) == Y) >= expected - 0.02

    small = {"n_estimators": 20, "num_leaves": 15, "verbose": -1}
    model = LGBMClassifier(**small).fit(x, y, session=on_ray)
    reference = lightgbm.LGBMClassifier(**small).fit(X, Y)
    assert model.score(X, Y, session=on_ray) >= reference.score(X, Y) - 0.02


def test_the_joblib_backend_runs_scikit_learns_loops_on_ray(on_ray: Any) -> None:
    search = GridSearchCV(
        RandomForestClassifier(n_estimators=5, random_state=0), {"max_depth": [2, 4]}, n_jobs=-1
    )
    with joblib.parallel_backend("mars", session=on_ray):
        search.fit(X[:400], Y[:400])
    alone = GridSearchCV(
        RandomForestClassifier(n_estimators=5, random_state=0), {"max_depth": [2, 4]}
    ).fit(X[:400], Y[:400])
    assert search.best_params_ == alone.best_params_
    np.testing.assert_allclose(
        search.cv_results_["mean_test_score"], alone.cv_results_["mean_test_score"]
    )
