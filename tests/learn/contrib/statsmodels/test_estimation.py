"""The averaged estimation: each partition's fit with its covariance, and their join."""

from __future__ import annotations

import numpy as np
import pytest

sm = pytest.importorskip("statsmodels.api")

from jupyter_mars.learn.contrib.statsmodels.estimation import (  # noqa: E402
    ESTIMATIONS,
    averaged_covariance,
    fit_unregularized,
    join_averages,
)

RNG = np.random.default_rng(2)
X = np.column_stack([np.ones(200), RNG.normal(size=(200, 2))])
Y = X @ np.array([1.0, -1.0, 2.0]) + RNG.normal(size=200)


def test_a_partition_gives_its_fit_and_covariance() -> None:
    params, covariance = fit_unregularized(sm.OLS(Y, X), 0, 1)
    whole = sm.OLS(Y, X).fit()
    np.testing.assert_allclose(params, whole.params)
    np.testing.assert_allclose(covariance, whole.cov_params())
    logit = sm.Logit((Y > 1).astype(float), X)
    params, covariance = fit_unregularized(logit, 0, 1, fit_kwds={"disp": 0})
    np.testing.assert_allclose(params, logit.fit(disp=0).params)


def test_join_averages_and_thresholds() -> None:
    results = [(np.array([1.0, 0.1, -3.0]), np.eye(3)), (np.array([3.0, -0.05, -1.0]), np.eye(3))]
    np.testing.assert_allclose(join_averages(results), [2.0, 0.025, -2.0])
    np.testing.assert_allclose(join_averages(results, threshold=0.1), [2.0, 0.0, -2.0])


def test_the_covariance_of_a_mean_of_independent_estimates() -> None:
    results = [(np.zeros(2), np.diag([4.0, 1.0])), (np.zeros(2), np.diag([8.0, 3.0]))]
    np.testing.assert_allclose(averaged_covariance(results), np.diag([3.0, 1.0]))


def test_only_the_regularized_methods_need_alpha() -> None:
    assert {name for name, e in ESTIMATIONS.items() if e.needs_alpha} == {
        "regularized_debiased",
        "regularized_naive",
    }
    assert ESTIMATIONS["unregularized_naive"].covariance is averaged_covariance
