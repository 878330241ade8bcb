"""``r2_score`` against scikit-learn's on the same data, over several chunkings."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk
from sklearn.exceptions import UndefinedMetricWarning

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.metrics import r2_score
from jupyter_mars.tensor.core import Tensor

RNG = np.random.default_rng(3)
N = 17
Y_TRUE = RNG.random((N, 3))
Y_PRED = Y_TRUE + RNG.normal(0, 0.3, (N, 3))
Y_TRUE[:, 1] = 0.0  # a constant output (zero: its weighted mean is exact in any order)
WEIGHT = RNG.random(N)
MULTIOUTPUT = ["uniform_average", "raw_values", "variance_weighted", np.array([1.0, 2.0, 3.0])]


def data(score: Tensor) -> Any:
    assert isinstance(score, Tensor)
    return score.execute().fetch()


@pytest.mark.parametrize("chunks", [(5, 2), (N, 3)])
@pytest.mark.parametrize("multioutput", MULTIOUTPUT, ids=str)
@pytest.mark.parametrize(
    "kwargs", [{}, {"sample_weight": WEIGHT}, {"force_finite": False}], ids=str
)
def test_r2_of_several_outputs_is_scikit_learns(
    chunks: Any, multioutput: Any, kwargs: dict[str, Any]
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # 0/0 without force_finite, both
        expected = sk.r2_score(Y_TRUE, Y_PRED, multioutput=multioutput, **kwargs)
        got = data(
            r2_score(
                mt.tensor(Y_TRUE, chunk_size=chunks),
                mt.tensor(Y_PRED, chunk_size=chunks),
                multioutput=multioutput,
                **kwargs,
            )
        )
    np.testing.assert_allclose(got, expected)
    assert np.shape(got) == np.shape(expected)


def test_r2_of_one_output_in_every_form() -> None:
    y_true, y_pred = Y_TRUE[:, 0], Y_PRED[:, 0]
    expected = sk.r2_score(y_true, y_pred, sample_weight=WEIGHT)
    forms = [
        (list(y_true), list(y_pred)),
        (pd.Series(y_true), pd.Series(y_pred)),
        (mt.tensor(y_true, chunk_size=4), y_pred),
        (md.Series(pd.Series(y_true), chunk_size=4), md.Series(pd.Series(y_pred), chunk_size=6)),
    ]
    for true, pred in forms:
        got = r2_score(true, pred, sample_weight=WEIGHT)
        assert got.ndim == 0
        np.testing.assert_allclose(float(data(got)), expected)
    frame = md.DataFrame(pd.DataFrame(Y_TRUE), chunk_size=4)
    np.testing.assert_allclose(data(r2_score(frame, Y_PRED)), sk.r2_score(Y_TRUE, Y_PRED))


def test_float32_targets_score_in_float32() -> None:
    y_true, y_pred = Y_TRUE.astype(np.float32), Y_PRED.astype(np.float32)
    got = r2_score(mt.tensor(y_true, chunk_size=5), y_pred)
    assert got.dtype == np.float32
    np.testing.assert_allclose(float(data(got)), sk.r2_score(y_true, y_pred), rtol=1e-5)


def test_fewer_than_two_samples_warn_and_score_nan() -> None:
    with pytest.warns(UndefinedMetricWarning, match="less than two samples"):
        expected = sk.r2_score([1.0], [2.0])
    with pytest.warns(UndefinedMetricWarning, match="less than two samples"):
        got = r2_score([1.0], [2.0])
    assert np.isnan(data(got))
    assert np.isnan(expected)


@pytest.mark.parametrize(
    ("y_true", "y_pred", "kwargs", "message"),
    [
        (Y_TRUE, Y_PRED[:, :2], {}, "different number of output"),
        (Y_TRUE, Y_PRED[:5], {}, "inconsistent numbers of samples"),
        (Y_TRUE, Y_PRED, {"multioutput": "mean"}, "multioutput"),
        (Y_TRUE[:, 0], Y_PRED[:, 0], {"multioutput": [1.0]}, "only in multi-output"),
        (Y_TRUE, Y_PRED, {"multioutput": [1.0, 2.0]}, "equally many custom weights"),
        (Y_TRUE, Y_PRED, {"sample_weight": np.zeros(N)}, "at least one non-zero"),
        (np.full(N, np.nan), Y_PRED[:, 0], {}, "Input contains NaN"),
    ],
)
def test_bad_input_raises_scikit_learns_errors(
    y_true: Any, y_pred: Any, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        sk.r2_score(y_true, y_pred, **kwargs)
    with pytest.raises(ValueError, match=message):
        r2_score(y_true, y_pred, **kwargs)


def test_values_in_tensors_are_checked_at_the_call() -> None:
    # computed when called, as Mars's metrics are: the error is raised at the call
    with pytest.raises(ValueError, match="at least one non-zero"):
        r2_score(Y_TRUE, Y_PRED, sample_weight=mt.zeros(N, chunk_size=5))
    with pytest.raises(ValueError, match="contains NaN"):
        r2_score(mt.tensor(np.full(N, np.nan), chunk_size=5), Y_PRED[:, 0])


@settings(max_examples=8, deadline=None)
@given(data_=st.data())
def test_random_targets(data_: st.DataObject) -> None:
    n = data_.draw(st.integers(2, 15))
    values = st.lists(st.integers(-3, 3).map(float), min_size=n, max_size=n)
    y_true, y_pred = np.array(data_.draw(values)), np.array(data_.draw(values))
    chunk = data_.draw(st.integers(1, n))
    got = r2_score(mt.tensor(y_true, chunk_size=chunk), y_pred)
    np.testing.assert_allclose(float(data(got)), sk.r2_score(y_true, y_pred), atol=1e-12)
