"""The ``"mars"`` joblib backend: scikit-learn's own parallel loops as tasks of the
default session, embedded and on a real local cluster, with scikit-learn's results."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import joblib
import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import GridSearchCV
from sklearn.svm import SVC

import jupyter_mars as mars
from jupyter_mars.learn.contrib.joblib import MarsDistributedBackend, register_mars_backend
from jupyter_mars.learn.utils import MarsBackend
from tests.cluster.processes import CliCluster, cli_cluster, remote_session

X, Y = load_iris(return_X_y=True)
GRID = {"C": [0.1, 1.0, 10.0], "gamma": ["scale", 0.1]}


def assert_same_search(ours: GridSearchCV, theirs: GridSearchCV) -> None:
    assert ours.best_params_ == theirs.best_params_
    assert ours.best_score_ == theirs.best_score_
    for key in ("mean_test_score", "std_test_score", "rank_test_score"):
        np.testing.assert_array_equal(ours.cv_results_[key], theirs.cv_results_[key])


def where_it_runs(_: int) -> tuple[int, str]:
    return os.getpid(), threading.current_thread().name


def fail(i: int) -> int:
    if i == 3:
        raise ValueError(f"call {i} failed")
    return i


@pytest.fixture(scope="module")
def reference() -> GridSearchCV:
    return GridSearchCV(SVC(), GRID).fit(X, Y)


def test_grid_search_runs_its_fits_as_tasks_of_the_embedded_session(
    session: Any, reference: GridSearchCV
) -> None:
    with joblib.parallel_backend("mars"):
        backend, _ = joblib.parallel.get_active_backend()
        assert isinstance(backend, MarsBackend)
        ours = GridSearchCV(SVC(), GRID, n_jobs=-1).fit(X, Y)
        places = joblib.Parallel()(joblib.delayed(where_it_runs)(i) for i in range(4))
    assert_same_search(ours, reference)
    assert {pid for pid, _ in places} == {os.getpid()}
    assert all(name.startswith("mars-embedded") for _, name in places)
    assert "joblib batch" in {record.name for record in session.engine.history.latest()}


def test_forests_fit_alike_and_errors_reach_the_caller(session: Any) -> None:
    with joblib.parallel_backend("mars"):
        forest = RandomForestClassifier(n_estimators=12, n_jobs=-1, random_state=0).fit(X, Y)
        with pytest.raises(ValueError, match="call 3 failed"):
            joblib.Parallel(n_jobs=2)(joblib.delayed(fail)(i) for i in range(6))
        again = joblib.Parallel(n_jobs=2)(joblib.delayed(fail)(i) for i in range(3))
    assert again == [0, 1, 2]
    sequential = RandomForestClassifier(n_estimators=12, random_state=0).fit(X, Y)
    np.testing.assert_array_equal(forest.predict_proba(X), sequential.predict_proba(X))


def test_mars_s_module_names_and_arguments(session: Any) -> None:
    register_mars_backend()
    assert MarsDistributedBackend is MarsBackend
    with joblib.parallel_backend("mars", n_parallel=3):
        backend, _ = joblib.parallel.get_active_backend()
        assert backend.effective_n_jobs(-1) == 3
        assert backend.effective_n_jobs(-2) == 2
        assert joblib.Parallel()(joblib.delayed(abs)(-i) for i in range(5)) == [0, 1, 2, 3, 4]
    for bad in (0, -1, 2.5, True, "4"):
        with pytest.raises(ValueError, match="n_parallel must be a positive int"):
            MarsBackend(n_parallel=bad)
    with pytest.raises(ValueError, match="service address or a session, not both"):
        MarsBackend(service="http://127.0.0.1:1", session=session)
    with pytest.raises(TypeError, match="service must be a cluster's address"):
        MarsBackend(service=7)


def test_n_jobs_counts_the_sessions_cores(session: Any) -> None:
    backend = MarsBackend()
    assert backend.effective_n_jobs(-1) == session.n_cpu
    assert backend.effective_n_jobs(-2) == max(session.n_cpu - 1, 1)
    assert backend.effective_n_jobs(5) == 5
    with pytest.raises(ValueError, match="n_jobs == 0"):
        backend.effective_n_jobs(0)


@pytest.fixture(scope="module")
def cluster() -> Iterator[CliCluster]:
    with cli_cluster(1, "--n-cpu", "2") as c:  # one process to import scikit-learn
        yield c


def test_grid_search_runs_on_a_clusters_workers(
    cluster: CliCluster, session: Any, reference: GridSearchCV
) -> None:
    workers = {w.popen.pid for w in cluster.workers}
    with remote_session(cluster, session) as remote:
        with joblib.parallel_backend("mars", session=remote):
            assert joblib.parallel.get_active_backend()[0].effective_n_jobs(-1) == 2
            pids = joblib.Parallel()(joblib.delayed(os.getpid)() for _ in range(4))
        assert set(pids) <= workers
        remote.as_default()  # the default session's runtime: the cluster's
        with joblib.parallel_backend("mars"):
            ours = GridSearchCV(SVC(), GRID, n_jobs=-1).fit(X, Y)
    assert_same_search(ours, reference)
    assert mars.get_default_session() is session


def test_a_service_address_opens_a_session_of_that_cluster(
    cluster: CliCluster, session: Any, reference: GridSearchCV, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MARS_TOKEN", cluster.token)
    workers = {w.popen.pid for w in cluster.workers}
    with joblib.parallel_backend("mars", service=cluster.url, n_parallel=2):
        pids = joblib.Parallel(n_jobs=-1)(joblib.delayed(os.getpid)() for _ in range(4))
        ours = GridSearchCV(SVC(), GRID, n_jobs=-1).fit(X, Y)
    assert set(pids) <= workers
    assert_same_search(ours, reference)
    assert mars.get_default_session() is session
