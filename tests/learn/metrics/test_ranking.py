"""``roc_curve`` and ``auc`` against scikit-learn's on the same data, over several
chunkings: the points, the thresholds and the warnings."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.metrics import auc, roc_curve
from jupyter_mars.tensor.core import Tensor

RNG = np.random.default_rng(4)
N = 26
Y_TRUE = RNG.integers(0, 2, N)
SCORES = np.round(RNG.random(N) + 0.4 * Y_TRUE, 1)  # tied scores, and collinear points
WEIGHT = RNG.integers(0, 4, N).astype(np.float64)  # some zero
CHUNKS = [7, N]


def recorded(func: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = func(*args, **kwargs)
    return result, [f"{w.category.__name__}: {w.message}" for w in caught]


def assert_same_curve(ours: tuple[Tensor, ...], theirs: tuple[np.ndarray, ...]) -> None:
    for got, expected in zip(ours, theirs, strict=True):
        assert isinstance(got, Tensor)
        data = got.execute().fetch()
        assert data.shape == expected.shape
        np.testing.assert_allclose(data, expected)


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"drop_intermediate": False}, {"sample_weight": WEIGHT}, {"sample_weight": WEIGHT + 0.5}],
    ids=["dropped", "all-points", "weighted", "float-weights"],
)
def test_roc_curve_is_scikit_learns(chunks: int, kwargs: dict[str, Any]) -> None:
    got = roc_curve(
        mt.tensor(Y_TRUE, chunk_size=chunks), mt.tensor(SCORES, chunk_size=chunks), **kwargs
    )
    assert_same_curve(got, sk.roc_curve(Y_TRUE, SCORES, **kwargs))


def test_roc_curve_of_string_labels_in_every_form() -> None:
    y_true = np.array(["neg", "pos"])[Y_TRUE]
    expected = sk.roc_curve(y_true, SCORES, pos_label="pos")
    forms = [
        (list(y_true), list(SCORES)),
        (pd.Series(y_true), pd.Series(SCORES)),
        (md.Series(pd.Series(y_true), chunk_size=5), md.Series(pd.Series(SCORES), chunk_size=9)),
    ]
    for true, score in forms:
        assert_same_curve(roc_curve(true, score, pos_label="pos"), expected)


def test_roc_curve_of_one_class_of_several() -> None:
    y_true = RNG.integers(0, 3, N)
    got = roc_curve(mt.tensor(y_true, chunk_size=7), SCORES, pos_label=2)
    assert_same_curve(got, sk.roc_curve(y_true, SCORES, pos_label=2))


@pytest.mark.parametrize("scores", [np.full(N, 0.5), np.arange(2.0)[Y_TRUE]], ids=["one", "two"])
def test_roc_curve_of_few_distinct_scores(scores: np.ndarray) -> None:
    got = roc_curve(mt.tensor(Y_TRUE, chunk_size=7), mt.tensor(scores, chunk_size=7))
    assert_same_curve(got, sk.roc_curve(Y_TRUE, scores))


@pytest.mark.parametrize("y_true", [np.ones(N, dtype=int), np.zeros(N, dtype=int)], ids=str)
def test_roc_curve_of_one_class_warns_as_scikit_learn_does(y_true: np.ndarray) -> None:
    expected, their_warnings = recorded(sk.roc_curve, y_true, SCORES)
    got, our_warnings = recorded(roc_curve, mt.tensor(y_true, chunk_size=7), SCORES)
    assert our_warnings == their_warnings
    assert len(our_warnings) == 1
    assert_same_curve(got, expected)


@pytest.mark.parametrize(
    ("y_true", "scores", "kwargs", "message"),
    [
        (["a", "b"], [0.1, 0.2], {}, "pos_label is not specified"),
        ([0, 1, 2], [0.1, 0.2, 0.3], {}, "multiclass format is not supported"),
        ([[0, 1], [1, 0]], [0.1, 0.2], {}, "multilabel-indicator format is not supported"),
        ([0, 1], [0.1, np.nan], {}, "Input contains NaN"),
        ([0, 1], [0.1, 0.2, 0.3], {}, "inconsistent numbers of samples"),
        ([0, 1], [0.1, 0.2], {"sample_weight": [0.0, 0.0]}, "at least one non-zero"),
    ],
)
def test_bad_input_raises_scikit_learns_errors(
    y_true: Any, scores: Any, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        sk.roc_curve(y_true, scores, **kwargs)
    with pytest.raises(ValueError, match=message):
        roc_curve(y_true, scores, **kwargs)


# ---- auc -----------------------------------------------------------------------------------------


def test_auc_of_a_lazy_curve_is_scikit_learns() -> None:
    fpr, tpr, _ = roc_curve(mt.tensor(Y_TRUE, chunk_size=7), mt.tensor(SCORES, chunk_size=7))
    area = auc(fpr, tpr)
    assert isinstance(area, Tensor)
    assert area.ndim == 0
    expected = sk.auc(*sk.roc_curve(Y_TRUE, SCORES)[:2])
    np.testing.assert_allclose(float(area.execute().fetch()), expected)


@pytest.mark.parametrize(
    ("x", "y"),
    [([0.0, 0.5, 1.0], [0.0, 1.0, 1.0]), ([1.0, 0.5, 0.0], [0.0, 1.0, 1.0]), ([0, 1], [3, 3])],
    ids=["increasing", "decreasing", "integers"],
)
def test_auc_either_way_is_scikit_learns(x: list[float], y: list[float]) -> None:
    for chunks in (1, 3):
        got = auc(mt.tensor(x, chunk_size=chunks), mt.tensor(y, chunk_size=chunks))
        assert float(got.execute().fetch()) == sk.auc(x, y)


@pytest.mark.parametrize(
    ("x", "y", "message"),
    [
        ([0.0, 1.0, 0.5], [1.0, 2.0, 3.0], "neither increasing nor decreasing"),
        ([0.0], [1.0], "At least 2 points are needed"),
        ([0.0, 1.0], [1.0], "inconsistent numbers of samples"),
    ],
)
def test_auc_refuses_what_scikit_learn_refuses(x: Any, y: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sk.auc(x, y)
    with pytest.raises(ValueError, match=message):
        auc(mt.tensor(x, chunk_size=2), y)


@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_random_label_vectors(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 14))
    y_true = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y_true[:2] = [0, 1]
    scores = np.array(data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))) / 4
    chunk = data.draw(st.integers(1, n))
    got = roc_curve(mt.tensor(y_true, chunk_size=chunk), mt.tensor(scores, chunk_size=chunk))
    assert_same_curve(got, sk.roc_curve(y_true, scores))
