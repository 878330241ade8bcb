"""``ParallelPostFit``: a scikit-learn estimator fitted as usual on a small training set,
then applied block by block to large data, as dask-ml's and Mars's.

``fit`` fetches its data (a training set that fits in memory; a frame becomes a pandas
frame, with its column labels) and fits a clone of the wrapped estimator on it; the
fitted attributes are copied onto the wrapper too, those of an earlier fit forgotten.
Where the fitted estimator knows its features (``n_features_in_``, and
``feature_names_in_`` after a frame of string labels), the methods check their input
against them, with scikit-learn's errors and warnings (``utils/features.py``). The
methods that apply the fitted estimator (``predict``, ``predict_proba``,
``predict_log_proba``, ``decision_function``, ``transform``) run one task per row block
of their input and return lazy tensors. The shape and dtype of a method's result come
from calling it on one row of zeros at the call (or, where that fails, from the fitted
attributes: ``classes_``, ``n_features_out``).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, RegressorMixin, clone
from sklearn.metrics import get_scorer, get_scorer_names
from sklearn.utils import get_tags
from sklearn.utils.metaestimators import available_if

from jupyter_mars.executable import Session
from jupyter_mars.learn.metrics.scorer import SCORERS, score_predictions
from jupyter_mars.learn.utils.blocks import map_rows
from jupyter_mars.learn.utils.features import check_features
from jupyter_mars.learn.utils.validation import (
    check_array,
    check_is_fitted,
    fetch_all,
    is_lazy,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["ParallelPostFit"]


def in_memory(
    data: Any, session: Session | None = None, run_kwargs: dict[str, Any] | None = None
) -> Any:
    """``data`` as scikit-learn takes it: a tensor's or frame's data fetched (a pandas
    object for a frame), anything else as it is."""
    if is_lazy(data):
        return fetch_all(data, session=session, run_kwargs=run_kwargs)[0]
    return data


def apply_method(
    estimator: Any, method: str, columns: list[str] | None, block: np.ndarray[Any, Any]
) -> Any:
    """``estimator.method(block)``, the block a frame with the fitted feature names where
    the estimator was fitted on one."""
    rows: Any = block if columns is None else pd.DataFrame(block, columns=columns)
    return np.asarray(getattr(estimator, method)(rows))


def _is_fitted_attribute(name: str) -> bool:
    """Whether ``name`` is a fitted attribute as scikit-learn names them (``coef_``)."""
    return name.endswith("_") and not name.startswith("_")


def _fitted_has(name: str) -> Callable[[Any], bool]:
    """For ``available_if``: the fitted estimator (or, before fit, the wrapped one) has
    the method ``name``."""

    def check(self: ParallelPostFit) -> bool:
        target = getattr(self, "estimator_", self.estimator)
        return hasattr(target, name)

    return check


class ParallelPostFit(MetaEstimatorMixin, BaseEstimator):  # type: ignore[misc]
    """Fit ``estimator`` on in-memory data; predict and transform block-wise on tensors.

    ``scoring`` names the scorer of ``score``: None (the estimator's own: accuracy for a
    classifier, R² for a regressor), a name of ``jupyter_mars.learn.metrics.scorer``'s
    ``SCORERS`` (computed chunk-wise), or any other scikit-learn scorer name or callable
    ``scorer(estimator, X, y)``, which is applied to the fetched data and the fitted
    estimator.
    """

    def __init__(self, estimator: Any = None, scoring: Any = None) -> None:
        self.estimator = estimator
        self.scoring = scoring

    def _check_params(self) -> None:
        if self.estimator is None or not hasattr(self.estimator, "fit"):
            raise ValueError(
                f"estimator must be a scikit-learn estimator (with fit), got {self.estimator!r}"
            )
        scoring = self.scoring
        if scoring is None or callable(scoring) or scoring in SCORERS:
            return
        if not isinstance(scoring, str) or scoring not in get_scorer_names():
            raise ValueError(
                f"scoring must be None, a callable or a scorer name such as 'accuracy' "
                f"or 'r2', got {scoring!r}"
            )

    def fit(
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
        **fit_params: Any,
    ) -> ParallelPostFit:
        """Fit a clone of ``estimator`` on ``X`` and ``y``, fetched into memory."""
        self._check_params()
        data = in_memory(X, session, run_kwargs)
        target = in_memory(y, session, run_kwargs)
        fitted = clone(self.estimator).fit(data, target, **fit_params)
        for name in [name for name in vars(self) if _is_fitted_attribute(name)]:
            delattr(self, name)  # an earlier fit's, which this one may not have
        for name, value in vars(fitted).items():
            if _is_fitted_attribute(name):
                setattr(self, name, value)
        for name in ("n_features_in_", "feature_names_in_"):
            # properties of some estimators (a pipeline's are its first step's)
            value = getattr(fitted, name, None)
            if value is not None:
                setattr(self, name, value)
        self.estimator_ = fitted
        return self

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        if self.estimator is not None:
            inner = get_tags(self.estimator)
            tags.estimator_type = inner.estimator_type
            tags.classifier_tags = inner.classifier_tags
            tags.regressor_tags = inner.regressor_tags
            tags.transformer_tags = inner.transformer_tags
            tags.target_tags.required = inner.target_tags.required
        return tags

    # ---- block-wise methods --------------------------------------------------------------

    def _apply(self, method: str, X: Any) -> Tensor:  # noqa: N803
        check_is_fitted(self, "estimator_")
        estimator = self.estimator_
        x = check_array(X, dtype=None, ensure_all_finite=False)
        if hasattr(self, "n_features_in_"):  # copied by fit, where the estimator has them
            check_features(self, X, x)
        names = getattr(self, "feature_names_in_", None)
        columns = None if names is None else list(names)
        kernel = functools.partial(apply_method, estimator, method, columns)
        trailing, dtype = self._result_meta(method, kernel, int(x.shape[1]), x.dtype)
        return map_rows(kernel, x, trailing=trailing, dtype=dtype, name=method)

    def _result_meta(
        self, method: str, kernel: Callable[..., Any], n_features: int, dtype: np.dtype[Any]
    ) -> tuple[tuple[int, ...], np.dtype[Any]]:
        """The trailing shape and dtype of ``method``'s result: from one row of zeros, or
        else from the fitted attributes."""
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                probe = kernel(np.zeros((1, n_features), dtype=dtype))
            return tuple(probe.shape[1:]), probe.dtype
        except Exception:  # noqa: BLE001 - a row of zeros is not valid input for some
            pass
        estimator = self.estimator_
        classes = getattr(estimator, "classes_", None)
        if method == "predict" and classes is not None:
            return (), np.asarray(classes).dtype
        if method in ("predict_proba", "predict_log_proba") and classes is not None:
            return (len(classes),), np.dtype(np.float64)
        if method == "transform" and hasattr(estimator, "get_feature_names_out"):
            return (len(estimator.get_feature_names_out()),), np.dtype(np.float64)
        raise ValueError(
            f"the shape of {type(estimator).__name__}.{method}'s result could not be found "
            "from one row of zeros"
        )

    @available_if(_fitted_has("predict"))  # type: ignore[untyped-decorator]
    def predict(self, X: Any) -> Tensor:  # noqa: N803
        """The fitted estimator's ``predict``, block by block (a lazy tensor)."""
        return self._apply("predict", X)

    @available_if(_fitted_has("predict_proba"))  # type: ignore[untyped-decorator]
    def predict_proba(self, X: Any) -> Tensor:  # noqa: N803
        """The fitted estimator's ``predict_proba``, block by block (a lazy tensor)."""
        return self._apply("predict_proba", X)

    @available_if(_fitted_has("predict_log_proba"))  # type: ignore[untyped-decorator]
    def predict_log_proba(self, X: Any) -> Tensor:  # noqa: N803
        """The fitted estimator's ``predict_log_proba``, block by block (a lazy tensor)."""
        return self._apply("predict_log_proba", X)

    @available_if(_fitted_has("decision_function"))  # type: ignore[untyped-decorator]
    def decision_function(self, X: Any) -> Tensor:  # noqa: N803
        """The fitted estimator's ``decision_function``, block by block (a lazy tensor)."""
        return self._apply("decision_function", X)

    @available_if(_fitted_has("transform"))  # type: ignore[untyped-decorator]
    def transform(self, X: Any) -> Tensor:  # noqa: N803
        """The fitted estimator's ``transform``, block by block (a lazy tensor)."""
        return self._apply("transform", X)

    def score(
        self,
        X: Any,  # noqa: N803
        y: Any,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> float:
        """The score of the fitted estimator on ``X`` and ``y`` by ``scoring`` (see the
        class): chunk-wise for accuracy, R² and the error scorers."""
        check_is_fitted(self, "estimator_")
        name = self.scoring
        if name is None:
            own = type(self.estimator_).score
            name = (
                "accuracy"
                if own is ClassifierMixin.score
                else "r2"
                if own is RegressorMixin.score
                else None
            )
        if isinstance(name, str) and name in SCORERS:
            predictions = self._apply("predict", X)
            return score_predictions(name, y, predictions, sample_weight, session, run_kwargs)
        data, target = in_memory(X, session, run_kwargs), in_memory(y, session, run_kwargs)
        weights = {} if sample_weight is None else {"sample_weight": sample_weight}
        if name is None:
            return float(self.estimator_.score(data, target, **weights))
        scorer = get_scorer(name) if isinstance(name, str) else name
        return float(scorer(self.estimator_, data, target, **weights))
