"""MarsDistributedModel against statsmodels: its DistributedModel on the same partitions,
and one fit on the whole data."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sm = pytest.importorskip("statsmodels.api")
distributed = pytest.importorskip("statsmodels.base.distributed_estimation")

import jupyter_mars.dataframe as md  # noqa: E402
import jupyter_mars.tensor as mt  # noqa: E402
from jupyter_mars.learn.contrib.statsmodels import (  # noqa: E402
    MarsDistributedModel,
    MarsResults,
)

RNG = np.random.default_rng(0)
N, P = 1200, 5
X = np.column_stack([np.ones(N), RNG.normal(size=(N, P - 1))])
BETA = np.array([0.5, 1.0, -2.0, 0.0, 3.0])
Y = X @ BETA + RNG.normal(size=N)
Y_BINARY = (X @ (BETA / 3) + RNG.logistic(size=N) > 0).astype(np.float64)
ROW_CHUNKS = [170, N]
"""Chunkings of the input: uneven blocks that cross the partitions, and one block."""

STATSMODELS_METHODS = {
    "regularized_debiased": (distributed._est_regularized_debiased, distributed._join_debiased),
    "regularized_naive": (distributed._est_regularized_naive, distributed._join_naive),
    "unregularized_naive": (distributed._est_unregularized_naive, distributed._join_naive),
}


def statsmodels_fit(
    y: np.ndarray, x: np.ndarray, partitions: int, method: str, **kwargs: Any
) -> np.ndarray:
    """statsmodels' DistributedModel on the rows split as ``np.array_split`` splits them."""
    estimate, join = STATSMODELS_METHODS[method]
    model = distributed.DistributedModel(
        partitions,
        model_class=kwargs.pop("model_class", None),
        init_kwds=kwargs.pop("init_kwds", None),
        estimation_method=estimate,
        join_method=join,
    )
    parts = np.array_split(np.arange(len(y)), partitions)
    result = model.fit(((y[i], x[i]) for i in parts), fit_kwds=kwargs)
    return np.asarray(result.params)


@pytest.mark.parametrize("rows", ROW_CHUNKS)
@pytest.mark.parametrize(
    ("method", "fit_kwds"),
    [
        ("regularized_debiased", {"alpha": 0.05}),
        ("regularized_naive", {"alpha": 0.05, "L1_wt": 0.5}),
        ("unregularized_naive", {}),
    ],
)
def test_ols_is_statsmodels_distributed_model_on_the_same_partitions(
    rows: int, method: str, fit_kwds: dict[str, Any]
) -> None:
    x, y = mt.tensor(X, chunk_size=(rows, 2)), mt.tensor(Y, chunk_size=rows + 30)
    result = MarsDistributedModel(num_partitions=4, estimation_method=method).fit(y, x, **fit_kwds)
    assert isinstance(result, MarsResults)
    expected = statsmodels_fit(Y, X, 4, method, **fit_kwds)
    np.testing.assert_allclose(result.params, expected, rtol=1e-10, atol=1e-12)


def test_the_default_is_statsmodels_debiased_estimate() -> None:
    result = MarsDistributedModel(num_partitions=3).fit(Y, X, alpha=0.1)
    expected = statsmodels_fit(Y, X, 3, "regularized_debiased", alpha=0.1)
    np.testing.assert_allclose(result.params, expected, rtol=1e-10)
    assert type(result.model).__name__ == "RegularizedResults"


@pytest.mark.parametrize("rows", ROW_CHUNKS)
def test_equal_partitions_average_to_the_whole_fit(rows: int) -> None:
    # four copies of the same rows: every partition's fit is the whole data's
    x, y = np.tile(X[:300], (4, 1)), np.tile(Y[:300], 4)
    result = MarsDistributedModel(num_partitions=4, estimation_method="unregularized_naive").fit(
        mt.tensor(y, chunk_size=rows), mt.tensor(x, chunk_size=rows)
    )
    whole = sm.OLS(y, x).fit()
    np.testing.assert_allclose(result.params, whole.params, rtol=1e-10)
    # the partitions' residual degrees of freedom are 4 x 5 where the whole fit's are 5
    np.testing.assert_allclose(result.bse, whole.bse, rtol=0.01)


@pytest.mark.parametrize("partitions", [2, 5])
def test_averaged_ols_is_close_to_the_whole_fit(partitions: int) -> None:
    result = MarsDistributedModel(
        num_partitions=partitions, estimation_method="unregularized_naive"
    ).fit(Y, mt.tensor(X, chunk_size=250))
    whole = sm.OLS(Y, X).fit()
    assert np.all(np.abs(result.params - whole.params) < 0.2 * whole.bse)
    np.testing.assert_allclose(result.bse, whole.bse, rtol=0.05)
    np.testing.assert_allclose(result.conf_int(), whole.conf_int(), atol=0.02)
    assert np.all(result.pvalues[[0, 1, 2, 4]] < 1e-6)


def test_debiased_ols_is_close_to_the_whole_fit() -> None:
    result = MarsDistributedModel(num_partitions=3).fit(Y, X, alpha=0.01)
    whole = sm.OLS(Y, X).fit()
    assert np.all(np.abs(result.params - whole.params) < 0.5 * whole.bse)


@pytest.mark.parametrize("rows", ROW_CHUNKS)
def test_glm_binomial_is_statsmodels_distributed_model(rows: int) -> None:
    init_kwds = {"family": sm.families.Binomial()}
    x = md.DataFrame(pd.DataFrame(X), chunk_size=rows)
    y = md.Series(pd.Series(Y_BINARY), chunk_size=rows)
    model = MarsDistributedModel(num_partitions=3, model_class=sm.GLM, init_kwds=init_kwds)
    result = model.fit(y, x, alpha=0.01)
    expected = statsmodels_fit(
        Y_BINARY, X, 3, "regularized_debiased", model_class=sm.GLM, init_kwds=init_kwds, alpha=0.01
    )
    np.testing.assert_allclose(result.params, expected, rtol=1e-8)
    whole = sm.GLM(Y_BINARY, X, family=sm.families.Binomial()).fit()
    assert np.all(np.abs(result.params - whole.params) < whole.bse)


def test_logit_averaged_is_close_to_the_whole_fit() -> None:
    model = MarsDistributedModel(
        num_partitions=3, model_class=sm.Logit, estimation_method="unregularized_naive"
    )
    result = model.fit(pd.Series(Y_BINARY), pd.DataFrame(X), disp=0)
    whole = sm.Logit(Y_BINARY, X).fit(disp=0)
    assert np.all(np.abs(result.params - whole.params) < 0.5 * whole.bse)
    np.testing.assert_allclose(result.bse, whole.bse, rtol=0.1)


@settings(max_examples=8, deadline=None)
@given(
    rows=st.integers(20, 120),
    features=st.integers(1, 4),
    partitions=st.integers(1, 4),
    chunk=st.integers(3, 130),
)
def test_any_shape_and_chunking_gives_statsmodels_partitions(
    rows: int, features: int, partitions: int, chunk: int
) -> None:
    rng = np.random.default_rng(rows * 10 + features)
    x = rng.normal(size=(rows, features))
    y = x.sum(axis=1) + rng.normal(size=rows)
    model = MarsDistributedModel(num_partitions=partitions, estimation_method="unregularized_naive")
    result = model.fit(mt.tensor(y, chunk_size=chunk), mt.tensor(x, chunk_size=(chunk, 1)))
    expected = statsmodels_fit(y, x, partitions, "unregularized_naive")
    np.testing.assert_allclose(result.params, expected, rtol=1e-9, atol=1e-12)


def record_partitions(
    model: Any, partition: int, partitions: int, fit_kwds: dict[str, Any] | None = None
) -> tuple[int, int, int]:
    return partition, partitions, int(model.nobs)


def list_join(results: list[Any], tag: str = "") -> np.ndarray:
    return np.array([[*r, len(tag)] for r in results], dtype=np.float64)


def test_a_callable_estimation_sees_each_partition_in_order() -> None:
    model = MarsDistributedModel(
        num_partitions=3,
        estimation_method=record_partitions,
        join_method=list_join,
        join_kwds={"tag": "ab"},
        results_class=distributed.DistributedResults,
    )
    result = model.fit(mt.tensor(Y[:10], chunk_size=4), X[:10])
    np.testing.assert_array_equal(result.params, [[0, 3, 4, 2], [1, 3, 3, 2], [2, 3, 3, 2]])
    assert isinstance(result.model, distributed.DistributedResults)


def test_factor_is_times_the_session_cores(session: Any) -> None:
    model = MarsDistributedModel(
        factor=1.5, num_partitions=7, estimation_method=record_partitions, join_method=list_join
    )
    result = model.fit(Y, X, session=session)
    assert result.params.shape[0] == int(session.n_cpu * 1.5)
    small = MarsDistributedModel(
        factor=0.1, estimation_method=record_partitions, join_method=list_join
    )
    assert small.fit(Y, X, session=session).params.shape[0] == 1  # never none


def test_data_of_unknown_length_is_computed_first() -> None:
    frame = md.DataFrame(pd.DataFrame(X, columns=list("abcde")), chunk_size=300)
    kept = frame[frame["b"] > 0]
    mask = X[:, 1] > 0
    result = MarsDistributedModel(num_partitions=2, estimation_method="unregularized_naive").fit(
        md.Series(pd.Series(Y), chunk_size=300)[frame["b"] > 0], kept
    )
    expected = statsmodels_fit(Y[mask], X[mask], 2, "unregularized_naive")
    np.testing.assert_allclose(result.params, expected, rtol=1e-10)


def test_one_dimensional_exog_and_column_endog() -> None:
    result = MarsDistributedModel(num_partitions=2, estimation_method="unregularized_naive").fit(
        Y[:, None], X[:, 1]
    )
    expected = statsmodels_fit(Y, X[:, [1]], 2, "unregularized_naive")
    np.testing.assert_allclose(result.params, expected, rtol=1e-10)


def test_missing_values_are_dropped_by_a_model_that_drops_them() -> None:
    x = X.copy()
    x[5, 2] = np.nan
    with pytest.raises(ValueError, match="exog contains NaN"):
        MarsDistributedModel(num_partitions=2).fit(Y, x, alpha=0.1)
    result = MarsDistributedModel(
        num_partitions=2, init_kwds={"missing": "drop"}, estimation_method="unregularized_naive"
    ).fit(Y, x)
    assert np.all(np.isfinite(result.params))


@pytest.mark.parametrize(
    ("arguments", "error", "match"),
    [
        ({"num_partitions": 0}, ValueError, "num_partitions"),
        ({"num_partitions": 2.5}, TypeError, "num_partitions"),
        ({"num_partitions": N + 1}, ValueError, "num_partitions"),
        ({"factor": 0}, ValueError, "factor"),
        ({"factor": "two"}, TypeError, "factor"),
        ({"estimation_method": "median"}, ValueError, "estimation_method"),
        ({"model_class": "OLS"}, TypeError, "model_class"),
        ({"init_kwds": [("missing", "drop")]}, TypeError, "init_kwds"),
        ({"join_kwds": 3}, TypeError, "join_kwds"),
    ],
)
def test_bad_arguments_raise_at_fit(arguments: dict[str, Any], error: type, match: str) -> None:
    model = MarsDistributedModel(**arguments)  # stored as given, checked by fit
    with pytest.raises(error, match=match):
        model.fit(Y, X, alpha=0.1)


def test_regularized_estimation_needs_alpha() -> None:
    with pytest.raises(ValueError, match="alpha"):
        MarsDistributedModel(num_partitions=2).fit(Y, X)
    with pytest.raises(ValueError, match="alpha"):
        MarsDistributedModel(estimation_method="regularized_naive").fit(Y, X, L1_wt=0.5)


def test_bad_data_raises_at_fit() -> None:
    model = MarsDistributedModel(num_partitions=2, estimation_method="unregularized_naive")
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        model.fit(Y[:-1], X)
    with pytest.raises(ValueError, match="exog must be 1-d or 2-d"):
        model.fit(Y, X.reshape(N, P, 1))
    with pytest.raises(ValueError, match="endog must be 1-d or 2-d"):
        model.fit(Y.reshape(N, 1, 1), X)
    with pytest.raises(ValueError, match="exog contains infinity"):
        model.fit(Y, np.where(X > 2.5, np.inf, X))
