"""Training on a real cluster of a supervisor and two worker processes: one trainer on
each worker, joined through the library's own network, with the model it would train on
the whole data in one process."""

from __future__ import annotations

import logging
import re
import socket

import lightgbm
import numpy as np
import pytest
import xgboost
from sklearn.datasets import make_classification

import jupyter_mars.tensor as mt
from jupyter_mars.learn.contrib.lightgbm import LGBMClassifier, LGBMRanker
from jupyter_mars.learn.contrib.xgboost import MarsDMatrix, XGBClassifier, XGBRegressor, train
from jupyter_mars.learn.utils import fetch_all
from tests.cluster.processes import cli_cluster, remote_session

X, Y = make_classification(4000, 8, n_informative=5, random_state=14)
TRAINER = re.compile(r"(XGBoost|LightGBM) trainer (\d+) ran in (\S+) \(thread (.+)\) on (\d+) rows")


@pytest.fixture(scope="module")
def cluster():
    with cli_cluster(2, "--n-cpu", "1") as c:
        yield c


@pytest.fixture
def remote(cluster, session):
    with remote_session(cluster, session) as remote:
        yield remote


@pytest.fixture
def trainers(caplog):
    """The trainers of each training, as its log tells them: (rank, place, rows). Each
    ran on a slot's thread, never on its worker's event loop (which would stop the
    worker's heartbeats while it trains)."""
    caplog.set_level(logging.DEBUG, logger="jupyter_mars.learn.contrib")

    def ran() -> list[tuple[int, str, int]]:
        found = [TRAINER.search(record.getMessage()) for record in caplog.records]
        caplog.clear()
        found = [m for m in found if m]
        assert all(m[4] != "MainThread" for m in found), [m[0] for m in found]
        return [(int(m[2]), m[3], int(m[5])) for m in found]

    return ran


def worker_places(cluster) -> set[str]:
    return {f"{socket.gethostname()}:{worker.popen.pid}" for worker in cluster.workers}


def blocks():
    """The data in blocks of rows: the workers' tasks that cut the training parts out of
    them spread over both workers."""
    return mt.tensor(X, chunk_size=500), mt.tensor(Y, chunk_size=500)


def test_xgboost_trains_one_worker_per_cluster_worker(cluster, remote, trainers) -> None:
    x, y = blocks()
    # the workers' first tasks import XGBoost and this package: the first training may
    # find all the data on whichever worker started first
    train({"objective": "binary:logistic"}, MarsDMatrix(x, y), 2, session=remote)
    trainers()
    history: dict = {}
    dtrain = MarsDMatrix(x, label=y)
    params = {"objective": "binary:logistic", "max_depth": 4}
    booster = train(
        params, dtrain, 10, evals=[(dtrain, "train")], evals_result=history, session=remote
    )
    ran = trainers()
    assert sorted(rank for rank, _, _ in ran) == [0, 1]
    assert {place for _, place, _ in ran} == worker_places(cluster)
    assert sum(rows for _, _, rows in ran) == len(X)
    local = xgboost.train(params, xgboost.DMatrix(X, label=Y), 10)
    accuracy = np.mean((booster.predict(xgboost.DMatrix(X)) > 0.5) == Y)
    expected = np.mean((local.predict(xgboost.DMatrix(X)) > 0.5) == Y)
    assert accuracy >= expected - 0.02
    assert len(history["train"]["logloss"]) == 10

    model = XGBClassifier(n_estimators=10, max_depth=4).fit(x, y, session=remote)
    assert {place for _, place, _ in trainers()} == worker_places(cluster)
    (predicted,) = fetch_all(model.predict(x), session=remote)
    assert np.mean(predicted == Y) >= expected - 0.02

    target = X @ np.arange(1.0, 9.0)
    regressor = XGBRegressor(n_estimators=20).fit(
        x, mt.tensor(target, chunk_size=700), session=remote
    )
    assert {place for _, place, _ in trainers()} == worker_places(cluster)
    (estimates,) = fetch_all(regressor.predict(x), session=remote)
    local_estimates = xgboost.XGBRegressor(n_estimators=20).fit(X, target).predict(X)
    rmse, local_rmse = (np.sqrt(np.mean((e - target) ** 2)) for e in (estimates, local_estimates))
    assert rmse <= local_rmse * 1.05


def test_lightgbm_trains_one_process_per_cluster_worker(cluster, remote, trainers) -> None:
    x, y = blocks()
    small = {"n_estimators": 20, "num_leaves": 15, "verbose": -1}
    LGBMClassifier(n_estimators=1, verbose=-1).fit(x, y, session=remote)  # imports, as above
    trainers()
    model = LGBMClassifier(**small).fit(x, y, eval_set=[(X[:500], Y[:500])], session=remote)
    ran = trainers()
    assert sorted(rank for rank, _, _ in ran) == [0, 1]
    assert {place for _, place, _ in ran} == worker_places(cluster)
    expected = lightgbm.LGBMClassifier(**small).fit(X, Y)
    assert model.score(X, Y, session=remote) >= expected.score(X, Y) - 0.02
    assert len(model.evals_result_["valid_0"]["binary_logloss"]) == 20
    # LightGBM's data-parallel learner: the trees agree with one process's closely
    (proba,) = fetch_all(model.predict_proba(x), session=remote)
    assert np.mean(np.abs(proba - expected.predict_proba(X))) < 0.05

    queries = np.full(400, 10)
    scores = np.random.default_rng(15).integers(0, 4, len(X))
    ranker = LGBMRanker(**small).fit(x, scores, group=queries, session=remote)
    assert {place for _, place, _ in trainers()} == worker_places(cluster)
    (ranked,) = fetch_all(ranker.predict(X[:50]), session=remote)
    assert ranked.shape == (50,)
