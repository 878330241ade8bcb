"""Feature names on every estimator, against scikit-learn's own on the same data.

Each estimator is fitted on a pandas frame and on a lazy frame (three uneven chunks) with
string column labels, and on an array; its methods then get renamed and reordered
columns, an array after a frame, and a frame after an array. The exception (type and
message) and the warnings (category and message) are those of scikit-learn's estimator
(XGBoost's and LightGBM's own for their wrappers; for an estimator with no twin there,
the scikit-learn estimator it wraps or copies, its name put for ours in the messages),
and every warning points at the line here that called the estimator.
"""

from __future__ import annotations

import importlib
import inspect
import linecache
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pytest
import sklearn.cluster
import sklearn.decomposition
import sklearn.ensemble
import sklearn.linear_model
import sklearn.neighbors
import sklearn.preprocessing
import sklearn.semi_supervised
from sklearn.pipeline import make_pipeline
from sklearn.utils.validation import _check_feature_names

import jupyter_mars.dataframe as md
from jupyter_mars.executable import ExecutableTuple
from jupyter_mars.learn.cluster import KMeans, MiniBatchKMeans
from jupyter_mars.learn.decomposition import PCA, TruncatedSVD
from jupyter_mars.learn.ensemble import (
    BaggingClassifier,
    BaggingRegressor,
    BlockwiseVotingClassifier,
    BlockwiseVotingRegressor,
    IsolationForest,
)
from jupyter_mars.learn.glm import LogisticRegression
from jupyter_mars.learn.linear_model import LinearRegression
from jupyter_mars.learn.neighbors import NearestNeighbors
from jupyter_mars.learn.preprocessing import MinMaxScaler, StandardScaler
from jupyter_mars.learn.semi_supervised import LabelPropagation
from jupyter_mars.learn.utils.features import (
    check_feature_names,
    check_features,
    feature_names,
    record_features,
)
from jupyter_mars.learn.utils.validation import to_tensor
from jupyter_mars.learn.wrappers import ParallelPostFit
from jupyter_mars.tensor.core import Tensor

RNG = np.random.default_rng(7)
X = RNG.normal(size=(40, 4))
COLUMNS = ["a", "b", "c", "d"]
Y_CLASS = (X[:, 0] + X[:, 1] > 0).astype(np.int64)
Y_VALUE = X @ np.array([1.0, -2.0, 0.5, 0.25])
Y_PARTIAL = np.where(np.arange(40) % 4 == 0, Y_CLASS, -1)
"""Labels for label propagation: a quarter given, the rest unlabeled (-1)."""
CHUNK_ROWS = 15
"""The rows of a lazy frame's chunks: 15, 15 and 10."""

FRAME = pd.DataFrame(X, columns=COLUMNS)
RENAMED = pd.DataFrame(X, columns=["a", "b", "c", "e"])
REORDERED = FRAME[["b", "a", "c", "d"]]


@dataclass(frozen=True)
class Case:
    """One estimator of ours, the estimator whose behaviour it must have, and how to
    call them."""

    ours: Callable[[], Any]
    theirs: Callable[[], Any]
    y: np.ndarray | None
    methods: tuple[str, ...]
    """The methods given new data (``score`` with ``y`` where the case has one)."""


def _contrib(module: str, name: str, **params: Any) -> Callable[[], Any]:
    """A wrapper of ``jupyter_mars.learn.contrib``, or a skip where its library is missing."""

    def make() -> Any:
        pytest.importorskip(module)
        contrib = importlib.import_module(f"jupyter_mars.learn.contrib.{module}")
        return getattr(contrib, name)(**params)

    return make


def _library(module: str, name: str, **params: Any) -> Callable[[], Any]:
    def make() -> Any:
        return getattr(pytest.importorskip(module), name)(**params)

    return make


CASES = {
    "MinMaxScaler": Case(
        MinMaxScaler, sklearn.preprocessing.MinMaxScaler, None, ("transform", "partial_fit")
    ),
    "StandardScaler": Case(
        StandardScaler, sklearn.preprocessing.StandardScaler, None, ("transform", "partial_fit")
    ),
    "KMeans": Case(
        lambda: KMeans(2, random_state=0),
        lambda: sklearn.cluster.KMeans(2, random_state=0),
        None,
        ("predict", "transform", "score"),
    ),
    "MiniBatchKMeans": Case(
        lambda: MiniBatchKMeans(2, batch_size=10, random_state=0),
        lambda: sklearn.cluster.MiniBatchKMeans(2, batch_size=10, random_state=0),
        None,
        ("predict", "transform", "score", "partial_fit"),
    ),
    "PCA": Case(
        lambda: PCA(2),
        lambda: sklearn.decomposition.PCA(2),
        None,
        ("transform", "score_samples", "score"),
    ),
    "TruncatedSVD": Case(
        lambda: TruncatedSVD(2, random_state=0),
        lambda: sklearn.decomposition.TruncatedSVD(2, random_state=0),
        None,
        ("transform",),
    ),
    "LogisticRegression": Case(
        LogisticRegression,
        sklearn.linear_model.LogisticRegression,
        Y_CLASS,
        ("predict", "predict_proba", "predict_log_proba", "decision_function", "score"),
    ),
    "LinearRegression": Case(
        LinearRegression, sklearn.linear_model.LinearRegression, Y_VALUE, ("predict", "score")
    ),
    "NearestNeighbors": Case(
        lambda: NearestNeighbors(n_neighbors=3, radius=1.0),
        lambda: sklearn.neighbors.NearestNeighbors(n_neighbors=3, radius=1.0),
        None,
        ("kneighbors", "kneighbors_graph", "radius_neighbors", "radius_neighbors_graph"),
    ),
    "BaggingClassifier": Case(
        lambda: BaggingClassifier(n_estimators=3, random_state=0),
        lambda: sklearn.ensemble.BaggingClassifier(n_estimators=3, random_state=0),
        Y_CLASS,
        ("predict", "predict_proba", "predict_log_proba", "score"),
    ),
    "BaggingRegressor": Case(
        lambda: BaggingRegressor(n_estimators=3, random_state=0),
        lambda: sklearn.ensemble.BaggingRegressor(n_estimators=3, random_state=0),
        Y_VALUE,
        ("predict", "score"),
    ),
    "BlockwiseVotingClassifier": Case(
        lambda: BlockwiseVotingClassifier(sklearn.linear_model.LogisticRegression(), voting="soft"),
        sklearn.linear_model.LogisticRegression,
        Y_CLASS,
        ("predict", "predict_proba", "score"),
    ),
    "BlockwiseVotingRegressor": Case(
        lambda: BlockwiseVotingRegressor(sklearn.linear_model.LinearRegression()),
        sklearn.linear_model.LinearRegression,
        Y_VALUE,
        ("predict", "score"),
    ),
    "IsolationForest": Case(
        lambda: IsolationForest(n_estimators=3, random_state=0),
        lambda: sklearn.ensemble.IsolationForest(n_estimators=3, random_state=0),
        None,
        ("predict", "decision_function", "score_samples"),
    ),
    "LabelPropagation": Case(
        lambda: LabelPropagation(kernel="knn", n_neighbors=5),
        lambda: sklearn.semi_supervised.LabelPropagation(kernel="knn", n_neighbors=5),
        Y_PARTIAL,
        ("predict", "predict_proba"),
    ),
    "ParallelPostFit": Case(
        lambda: ParallelPostFit(sklearn.linear_model.LogisticRegression()),
        sklearn.linear_model.LogisticRegression,
        Y_CLASS,
        ("predict", "predict_proba", "decision_function", "score"),
    ),
    "LGBMRegressor": Case(
        _contrib("lightgbm", "LGBMRegressor", n_estimators=3, verbose=-1),
        _library("lightgbm", "LGBMRegressor", n_estimators=3, verbose=-1),
        Y_VALUE,
        ("predict",),
    ),
    "XGBRegressor": Case(
        _contrib("xgboost", "XGBRegressor", n_estimators=3),
        _library("xgboost", "XGBRegressor", n_estimators=3),
        Y_VALUE,
        ("predict",),
    ),
}
KINDS = ["pandas", "lazy"]


def _as(kind: str, frame: pd.DataFrame) -> Any:
    return frame if kind == "pandas" else md.DataFrame(frame, chunk_size=CHUNK_ROWS)


def _fit(estimator: Any, data: Any, case: Case) -> Any:
    return estimator.fit(data) if case.y is None else estimator.fit(data, case.y)


def _call(estimator: Any, method: str, data: Any, case: Case) -> Any:
    if method == "score" and case.y is not None:
        return estimator.score(data, case.y)
    return getattr(estimator, method)(data)


CALL_LINES = {
    (__file__, _call.__code__.co_firstlineno + offset)
    for offset, line in enumerate(inspect.getsourcelines(_call)[0])
    if line.lstrip().startswith("return ")
}
"""Where the estimator is called: where its warnings must point."""


def _outcome(
    estimator: Any, method: str, data: Any, case: Case, rename: dict[str, str]
) -> tuple[Any, list[tuple[type[Warning], str]]]:
    """What calling ``method`` gives: its exception (type and message) or None, and its
    warnings, their messages with the names of ``rename`` put for others. A lazy result
    is computed, for what a chunk task raises or warns. Every warning of ours must point
    at the call in ``_call``: the user's line."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = _call(estimator, method, data, case)
            if isinstance(result, Tensor | ExecutableTuple):
                result.execute()
            error = None
        except Exception as exc:  # noqa: BLE001 - compared with the other estimator's
            error = (type(exc), _renamed(str(exc), rename))
    # the warnings of the checks: numbers' own (a log of 0) are not compared
    found = [(w.category, _renamed(str(w.message), rename)) for w in caught]
    found = [(category, message) for category, message in found if category is UserWarning]
    if type(estimator).__module__.startswith("jupyter_mars"):
        for w in caught:
            assert (w.filename, w.lineno) in CALL_LINES, (w.filename, w.lineno, w.message)
    return error, found


def _renamed(message: str, rename: dict[str, str]) -> str:
    for old, new in rename.items():
        message = message.replace(old, new)
    return message


def _same(ours: Any, theirs: Any, data: Any, given: Any, case: Case) -> None:
    """Every method of the case gives, on ``data`` (``given`` to scikit-learn's), what
    scikit-learn's estimator gives."""
    rename = {type(theirs).__name__: type(ours).__name__}
    for method in case.methods:
        got = _outcome(ours, method, data, case, {})
        expected = _outcome(theirs, method, given, case, rename)
        assert got == expected, method


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", list(CASES))
def test_frames_give_names_checked_as_scikit_learn_checks_them(name: str, kind: str) -> None:
    case = CASES[name]
    ours = _fit(case.ours(), _as(kind, FRAME), case)
    theirs = _fit(case.theirs(), FRAME, case)
    assert ours.feature_names_in_.dtype == theirs.feature_names_in_.dtype
    np.testing.assert_array_equal(ours.feature_names_in_, theirs.feature_names_in_)
    assert ours.n_features_in_ == theirs.n_features_in_ == 4
    _same(ours, theirs, _as(kind, RENAMED), RENAMED, case)
    _same(ours, theirs, _as(kind, REORDERED), REORDERED, case)
    _same(ours, theirs, X, X, case)  # no names now: a warning


@pytest.mark.parametrize("name", list(CASES))
def test_a_fit_on_an_array_forgets_the_names(name: str) -> None:
    case = CASES[name]
    ours = _fit(_fit(case.ours(), FRAME, case), X, case)
    theirs = _fit(_fit(case.theirs(), FRAME, case), X, case)
    assert not hasattr(ours, "feature_names_in_")
    assert not hasattr(theirs, "feature_names_in_")
    assert ours.n_features_in_ == theirs.n_features_in_ == 4
    _same(ours, theirs, _as("lazy", FRAME), FRAME, case)  # names now: a warning
    _same(ours, theirs, FRAME, FRAME, case)


@pytest.mark.parametrize("name", ["MinMaxScaler", "StandardScaler", "MiniBatchKMeans"])
def test_a_first_partial_fit_records_the_names_and_the_next_checks_them(name: str) -> None:
    case = CASES[name]
    ours = case.ours().partial_fit(_as("lazy", FRAME))
    theirs = case.theirs().partial_fit(FRAME)
    np.testing.assert_array_equal(ours.feature_names_in_, theirs.feature_names_in_)
    _same(ours, theirs, _as("lazy", REORDERED), REORDERED, case)
    _same(ours, theirs, X, X, case)


def test_the_warnings_point_at_the_users_line_through_a_pipeline() -> None:
    ours = make_pipeline(StandardScaler(), LogisticRegression()).fit(FRAME, Y_CLASS)
    with pytest.warns(UserWarning, match="StandardScaler was fitted with feature names") as got:
        ours.predict(X)  # the model gets a tensor from the scaler: no warning of its own
    assert len(got) == 1
    assert got[0].filename == __file__
    assert linecache.getline(__file__, got[0].lineno).strip().startswith("ours.predict(X)")


class Fitted:
    """A bare estimator for the helpers: what they set, and nothing else."""

    n_features_in_: int
    feature_names_in_: np.ndarray


@pytest.mark.parametrize(
    "columns",
    [
        COLUMNS,
        [0, 1, 2, 3],
        [np.str_("a"), np.str_("b"), np.str_("c"), np.str_("d")],  # not str: no names
        [("a", 1), ("a", 2), ("b", 1), ("b", 2)],
    ],
)
def test_feature_names_are_scikit_learns(columns: list[Any]) -> None:
    frame = pd.DataFrame(X, columns=pd.Index(columns, dtype=object, tupleize_cols=False))
    ours, theirs = Fitted(), Fitted()
    _check_feature_names(theirs, frame, reset=True)
    record_features(ours, md.DataFrame(frame, chunk_size=7), to_tensor(frame))
    assert ours.n_features_in_ == 4
    assert hasattr(ours, "feature_names_in_") == hasattr(theirs, "feature_names_in_")
    if hasattr(theirs, "feature_names_in_"):
        np.testing.assert_array_equal(ours.feature_names_in_, theirs.feature_names_in_)
    assert (feature_names(frame) is None) == (not hasattr(theirs, "feature_names_in_"))
    assert feature_names(X) is None
    assert feature_names(pd.Series(X[:, 0], name="a")) is None
    assert feature_names(pd.DataFrame(index=range(3))) is None  # no columns


def test_names_of_strings_mixed_with_others_are_refused_as_scikit_learn_refuses_them() -> None:
    frame = pd.DataFrame(X, columns=pd.Index(["a", "b", 2, 3], dtype=object))
    with pytest.raises(TypeError, match="Feature names are only supported") as expected:
        _check_feature_names(Fitted(), frame, reset=True)
    with pytest.raises(TypeError, match="Feature names are only supported") as got:
        record_features(Fitted(), md.DataFrame(frame, chunk_size=7), to_tensor(frame))
    assert str(got.value) == str(expected.value)
    with pytest.raises(TypeError, match="Feature names are only supported"):
        StandardScaler().fit(frame)


def test_long_mismatches_list_five_names_sorted_as_scikit_learns() -> None:
    fitted_names = [f"f{i:02d}" for i in range(12)]
    given_names = [f"g{i:02d}" for i in range(11, -1, -1)]
    ours, theirs = Fitted(), Fitted()
    fitted = pd.DataFrame(np.zeros((2, 12)), columns=fitted_names)
    record_features(ours, fitted, to_tensor(fitted))
    _check_feature_names(theirs, fitted, reset=True)
    given = pd.DataFrame(np.zeros((2, 12)), columns=given_names)
    with pytest.raises(ValueError, match="feature names should match") as expected:
        _check_feature_names(theirs, given, reset=False)
    with pytest.raises(ValueError, match="feature names should match") as got:
        check_features(ours, md.DataFrame(given), to_tensor(given))
    assert str(got.value) == str(expected.value)
    assert "- g00\n- g01\n- g02\n- g03\n- g04\n- ...\n" in str(got.value)


def test_names_are_checked_before_the_number_of_features() -> None:
    ours = Fitted()
    record_features(ours, FRAME, to_tensor(FRAME))
    narrow = RENAMED[["a", "b", "e"]]
    with pytest.raises(ValueError, match="feature names should match"):
        check_features(ours, narrow, to_tensor(narrow))
    with pytest.warns(UserWarning, match="X does not have valid feature names, but Fitted"):
        with pytest.raises(ValueError, match="X has 3 features, but Fitted is expecting 4"):
            check_features(ours, narrow.to_numpy(), to_tensor(narrow))
    check_feature_names(ours, md.DataFrame(FRAME, chunk_size=7))  # the same: no error
    with pytest.raises(ValueError, match="must be in the same order"):
        check_feature_names(ours, md.DataFrame(REORDERED, chunk_size=7))
