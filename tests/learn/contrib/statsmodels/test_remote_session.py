"""A distributed statsmodels fit on a cluster of real supervisor and worker processes:
each partition's task, with its model class and estimation, travels to a worker."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

sm = pytest.importorskip("statsmodels.api")

import jupyter_mars.tensor as mt  # noqa: E402
from jupyter_mars.learn.contrib.statsmodels import MarsDistributedModel  # noqa: E402
from tests.cluster.processes import cli_cluster, remote_session  # noqa: E402

RNG = np.random.default_rng(3)
X = np.column_stack([np.ones(900), RNG.normal(size=(900, 3))])
Y = X @ np.array([0.5, 1.0, -1.0, 2.0]) + RNG.normal(size=900)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with cli_cluster(1, "--n-cpu", "2") as c:
        yield c


@pytest.fixture
def remote(cluster: Any, session: Any) -> Iterator[Any]:
    with remote_session(cluster, session) as remote:
        yield remote


def test_fit_and_predict_on_a_cluster(remote: Any) -> None:
    x = mt.tensor(X, chunk_size=200)
    model = MarsDistributedModel(factor=1.5, estimation_method="unregularized_naive")
    result = model.fit(Y, x, session=remote)
    parts = np.array_split(np.arange(900), 3)  # the cluster's 2 cores x 1.5
    fits = [sm.OLS(Y[i], X[i]).fit() for i in parts]
    np.testing.assert_allclose(result.params, np.mean([f.params for f in fits], axis=0))
    np.testing.assert_allclose(result.bse**2, sum(f.bse**2 for f in fits) / 9)
    predicted = result.predict(x).execute(session=remote).fetch(session=remote)
    np.testing.assert_allclose(predicted, X @ result.params)

    debiased = MarsDistributedModel(
        num_partitions=2, model_class=sm.GLM, init_kwds={"family": sm.families.Gaussian()}
    ).fit(Y, x, session=remote, alpha=0.01)
    whole = sm.OLS(Y, X).fit()
    assert np.all(np.abs(debiased.params - whole.params) < 0.5 * whole.bse)
