"""Metrics are computed when called, as Mars's are: their tensors can be fetched (and
show their values) at once; the pairwise distances stay lazy."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics as sk

import jupyter_mars.tensor as mt
from jupyter_mars.learn.metrics import (
    accuracy_score,
    euclidean_distances,
    multilabel_confusion_matrix,
    precision_recall_fscore_support,
    r2_score,
    roc_curve,
)

Y = np.array([0, 1, 1, 0, 1, 0])
P = np.array([0, 1, 0, 0, 1, 1])
SCORES = np.array([0.1, 0.9, 0.4, 0.2, 0.8, 0.6])


def test_scores_are_computed_at_the_call() -> None:
    score = accuracy_score(mt.tensor(Y, chunk_size=4), mt.tensor(P, chunk_size=4))
    assert score.fetch() == sk.accuracy_score(Y, P)
    assert repr(score) == repr(np.array(sk.accuracy_score(Y, P)))
    assert float(score.execute().fetch()) == sk.accuracy_score(Y, P)
    assert r2_score(Y * 1.0, SCORES).fetch() == pytest.approx(sk.r2_score(Y * 1.0, SCORES))
    np.testing.assert_array_equal(
        multilabel_confusion_matrix(Y, P).fetch(), sk.multilabel_confusion_matrix(Y, P)
    )


def test_every_tensor_of_a_tuple_is_computed() -> None:
    curve = roc_curve(mt.tensor(Y, chunk_size=3), mt.tensor(SCORES, chunk_size=3))
    for ours, theirs in zip(curve, sk.roc_curve(Y, SCORES), strict=True):
        np.testing.assert_allclose(ours.fetch(), theirs)
    found = precision_recall_fscore_support(Y, P)
    for ours, theirs in zip(found, sk.precision_recall_fscore_support(Y, P), strict=True):
        np.testing.assert_allclose(ours.fetch(), theirs)


def test_pairwise_distances_stay_lazy() -> None:
    distances = euclidean_distances(mt.tensor(np.eye(3), chunk_size=2))
    with pytest.raises(ValueError, match="execute"):
        distances.fetch()
    np.testing.assert_allclose(distances.execute().fetch(), sk.euclidean_distances(np.eye(3)))
