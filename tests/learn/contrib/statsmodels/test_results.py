"""MarsResults: statsmodels' attributes, and predictions as lazy tensors."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pandas as pd
import pytest

sm = pytest.importorskip("statsmodels.api")

import jupyter_mars.dataframe as md  # noqa: E402
import jupyter_mars.tensor as mt  # noqa: E402
from jupyter_mars.learn.contrib.statsmodels import (  # noqa: E402
    MarsDistributedModel,
    MarsResults,
)
from jupyter_mars.learn.utils import fetch_all  # noqa: E402
from jupyter_mars.tensor.core import Tensor  # noqa: E402

RNG = np.random.default_rng(1)
N, P = 600, 4
X = np.column_stack([np.ones(N), RNG.normal(size=(N, P - 1))])
Y = X @ np.array([1.0, 2.0, -1.0, 0.5]) + RNG.normal(size=N)
COUNTS = RNG.poisson(np.exp(X @ np.array([0.2, 0.3, -0.2, 0.1])))


@pytest.fixture(scope="module")
def averaged() -> MarsResults:
    model = MarsDistributedModel(num_partitions=3, estimation_method="unregularized_naive")
    return model.fit(Y, X)


def values(t: Tensor) -> Any:
    return fetch_all(t)[0]


@pytest.mark.parametrize(
    "as_input",
    [
        lambda x: x,
        lambda x: mt.tensor(x, chunk_size=(70, 3)),
        lambda x: mt.tensor(x, chunk_size=N),
        lambda x: md.DataFrame(pd.DataFrame(x), chunk_size=130),
        pd.DataFrame,
    ],
    ids=["array", "tensor-uneven", "tensor-one-chunk", "frame", "pandas"],
)
def test_predict_is_lazy_and_equals_statsmodels(averaged: MarsResults, as_input: Any) -> None:
    predicted = averaged.predict(as_input(X))
    assert isinstance(predicted, Tensor)
    assert predicted.shape == (N,)
    assert predicted.dtype == np.float64
    np.testing.assert_allclose(values(predicted), X @ averaged.params, rtol=1e-12)


def test_predict_of_a_glm_gives_the_mean() -> None:
    model = MarsDistributedModel(
        num_partitions=2,
        model_class=sm.GLM,
        init_kwds={"family": sm.families.Poisson()},
        estimation_method="unregularized_naive",
    )
    result = model.fit(COUNTS, mt.tensor(X, chunk_size=200))
    whole = sm.GLM(COUNTS, X, family=sm.families.Poisson()).fit()
    predicted = values(result.predict(mt.tensor(X, chunk_size=77)))
    np.testing.assert_allclose(predicted, np.exp(X @ result.params), rtol=1e-12)
    np.testing.assert_allclose(predicted, whole.predict(X), rtol=0.05)
    linear = values(result.predict(X[:10], which="linear"))  # keywords go to statsmodels
    np.testing.assert_allclose(linear, X[:10] @ result.params, rtol=1e-12)


def test_predict_of_debiased_results_gives_the_linear_prediction() -> None:
    result = MarsDistributedModel(num_partitions=2).fit(Y, X, alpha=0.05)
    predicted = result.predict(mt.tensor(X[:50], chunk_size=(20, 2)))
    np.testing.assert_allclose(values(predicted), X[:50] @ result.params, rtol=1e-12)


def test_statsmodels_attributes_are_read_through(averaged: MarsResults) -> None:
    statsmodels_results = averaged.model
    assert type(statsmodels_results).__name__ == "AveragedResults"
    np.testing.assert_array_equal(averaged.params, statsmodels_results.params)
    np.testing.assert_allclose(averaged.bse, np.sqrt(np.diag(averaged.cov_params())))
    np.testing.assert_allclose(averaged.tvalues, averaged.params / averaged.bse)
    assert averaged.conf_int().shape == (P, 2)
    assert {"params", "bse", "predict", "model"} <= set(dir(averaged))
    assert "AveragedResults" in repr(averaged)
    with pytest.raises(AttributeError, match="no_such_attribute"):
        _ = averaged.no_such_attribute


def test_regularized_results_have_no_standard_errors() -> None:
    result = MarsDistributedModel(num_partitions=2).fit(Y, X, alpha=0.05)
    assert not hasattr(result, "bse")


def test_results_pickle_and_copy(averaged: MarsResults) -> None:
    for other in (pickle.loads(pickle.dumps(averaged)), copy.copy(averaged)):
        np.testing.assert_array_equal(other.params, averaged.params)
        np.testing.assert_allclose(values(other.predict(X[:5])), X[:5] @ averaged.params)


def test_predict_checks_the_columns(averaged: MarsResults) -> None:
    with pytest.raises(ValueError, match="exog has 3 columns, but the model was fitted on 4"):
        averaged.predict(X[:, :3])
    with pytest.raises(ValueError, match="exog must be 1-d or 2-d"):
        averaged.predict(X[:, :, None])
    with pytest.raises(ValueError, match="exog contains NaN"):
        averaged.predict(np.full((2, P), np.nan))


def test_one_column_model_predicts_from_a_vector() -> None:
    result = MarsDistributedModel(num_partitions=2, estimation_method="unregularized_naive").fit(
        Y, X[:, 1]
    )
    predicted = values(result.predict(mt.tensor(X[:, 1], chunk_size=100)))
    np.testing.assert_allclose(predicted, X[:, 1] * result.params[0], rtol=1e-12)
