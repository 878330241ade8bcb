"""``make_classification``: scikit-learn's class sizes, features of the kinds asked for
(informative, redundant, repeated, noise), separable classes and flipped labels."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sklearn import datasets as sk
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from jupyter_mars.learn.datasets import make_classification
from jupyter_mars.learn.utils import fetch_all

KINDS = {"n_informative": 3, "n_redundant": 2, "n_repeated": 2}


@pytest.mark.parametrize("chunk_size", [None, (130, 4), 1000])
@pytest.mark.parametrize("shuffle", [True, False])
def test_classes_have_scikit_learns_sizes(chunk_size: Any, shuffle: bool) -> None:
    kwargs = {"n_classes": 3, "weights": [0.2, 0.5], "flip_y": 0.0, "shuffle": shuffle, **KINDS}
    X, y = make_classification(500, 9, random_state=4, chunk_size=chunk_size, **kwargs)  # noqa: N806
    assert (X.shape, X.dtype, y.shape, y.dtype) == ((500, 9), np.float64, (500,), np.int64)
    _, labels = fetch_all(X, y)
    _, expected = sk.make_classification(500, 9, random_state=4, **kwargs)
    np.testing.assert_array_equal(np.bincount(labels), np.bincount(expected))
    if not shuffle:  # clusters in order, as scikit-learn's
        np.testing.assert_array_equal(labels, expected)


@pytest.mark.parametrize("shuffle", [True, False])
def test_features_are_of_the_kinds_asked_for(shuffle: bool) -> None:
    bunch = make_classification(
        400, 10, random_state=2, shuffle=shuffle, return_X_y=False, chunk_size=(90, 3), **KINDS
    )
    x, _ = fetch_all(bunch.X, bunch.y)
    kinds = np.array(bunch.feature_info)
    assert sorted(kinds) == sorted(
        sk.make_classification(10, 10, random_state=2, return_X_y=False, **KINDS).feature_info
    )
    if not shuffle:
        assert (
            kinds.tolist()
            == ["informative"] * 3 + ["redundant"] * 2 + ["repeated"] * 2 + ["random"] * 3
        )
    informative = x[:, kinds == "informative"]
    # redundant features are combinations of the informative ones, repeated ones copies
    for column in x[:, kinds == "redundant"].T:
        _, residual, _, _ = np.linalg.lstsq(informative, column, rcond=None)
        assert residual[0] < 1e-8 * np.sum(column**2)
    for column in x[:, kinds == "repeated"].T:
        assert any(np.array_equal(column, x[:, j]) for j in np.flatnonzero(kinds != "repeated"))
    assert np.linalg.matrix_rank(x) == 3 + 3  # informative and noise; the rest depend on them
    np.testing.assert_allclose(x[:, kinds == "random"].std(axis=0), 1.0, rtol=0.2)


def test_classes_are_separable_as_scikit_learns() -> None:
    kwargs = {"n_informative": 4, "n_redundant": 0, "n_classes": 3, "flip_y": 0.0}
    ours = [
        cross_val_score(
            KNeighborsClassifier(),
            *fetch_all(*make_classification(300, 6, random_state=seed, chunk_size=100, **kwargs)),
        ).mean()
        for seed in range(4)
    ]
    theirs = [
        cross_val_score(
            KNeighborsClassifier(), *sk.make_classification(300, 6, random_state=seed, **kwargs)
        ).mean()
        for seed in range(4)
    ]
    assert abs(np.mean(ours) - np.mean(theirs)) < 0.1
    assert np.mean(ours) > 0.7


@pytest.mark.parametrize("seed", range(4))
def test_the_defaults_are_linearly_separable_as_scikit_learns(seed: int) -> None:
    """The clusters sit on scikit-learn's vertices for the same seed: with the defaults
    (two classes of two clusters in two informative features) its classes share no
    diagonal, so a linear model separates them as well as it does scikit-learn's."""
    ours = make_classification(4000, 20, random_state=seed, chunk_size=1000)
    theirs = sk.make_classification(4000, 20, random_state=seed)
    score = [
        cross_val_score(LogisticRegression(), *data, cv=2).mean()
        for data in (fetch_all(*ours), theirs)
    ]
    assert min(score) > 0.8  # on a diagonal split of the square a line would score 0.5


def test_flip_y_replaces_that_fraction_of_labels_at_random() -> None:
    clean_x, clean = fetch_all(
        *make_classification(4000, 5, flip_y=0.0, random_state=7, chunk_size=900)
    )
    noisy_x, noisy = fetch_all(
        *make_classification(4000, 5, flip_y=0.5, random_state=7, chunk_size=900)
    )
    np.testing.assert_array_equal(clean_x, noisy_x)  # the same draws, but for the labels
    changed = np.mean(clean != noisy)
    assert 0.2 < changed < 0.3  # half are redrawn, and half of those land on another class


def test_shift_and_scale_apply_to_every_feature() -> None:
    shift = np.array([1.0, -2.0, 3.0, 4.0])
    plain, labels = fetch_all(*make_classification(300, 4, random_state=1, chunk_size=70))
    moved, same_labels = fetch_all(
        *make_classification(300, 4, shift=shift, scale=10.0, random_state=1, chunk_size=70)
    )
    np.testing.assert_array_equal(labels, same_labels)
    # each feature is shifted by its own amount, then scaled (the features are permuted
    # afterwards, the same way in both)
    offsets = moved / 10.0 - plain
    np.testing.assert_allclose(offsets, offsets[:1].repeat(300, axis=0), atol=1e-9)
    np.testing.assert_allclose(np.sort(offsets[0]), np.sort(shift), atol=1e-9)
    drawn = make_classification(50, 4, hypercube=False, shift=None, scale=None, random_state=1)
    assert fetch_all(drawn[0])[0].shape == (50, 4)


def test_bad_arguments_raise_value_errors_naming_them() -> None:
    with pytest.raises(ValueError, match="'n_samples' parameter of make_classification"):
        make_classification(0)
    with pytest.raises(ValueError, match="'flip_y' parameter"):
        make_classification(flip_y=2)
    with pytest.raises(ValueError, match="'class_sep' parameter"):
        make_classification(class_sep=0)
    with pytest.raises(ValueError, match="must sum to less than the number of total features"):
        make_classification(n_features=3)
    with pytest.raises(ValueError, match=r"n_classes\(3\) \* n_clusters_per_class\(2\)"):
        make_classification(n_informative=1, n_redundant=0, n_classes=3)
    with pytest.raises(ValueError, match="Weights specified but incompatible"):
        make_classification(weights=[0.1, 0.2, 0.3])
