"""``XGBClassifier`` and ``XGBRegressor``: XGBoost's scikit-learn estimators, trained on
the workers (``train``) and predicting one row block at a time (``predict``).

They are XGBoost's own classes (same constructor, parameters and fitted booster), whose
``fit`` takes lazy data and ``session``/``run_kwargs``, and whose ``predict`` and
``predict_proba`` return lazy tensors. As XGBoost's, the classifier wants the classes
``0 .. n_classes - 1`` in ``y``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import xgboost
from xgboost.sklearn import _objective_decorator

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.base import ClassifierMixin, RegressorMixin
from jupyter_mars.learn.contrib.xgboost.dmatrix import MarsDMatrix
from jupyter_mars.learn.contrib.xgboost.prediction import predict as predict_booster
from jupyter_mars.learn.contrib.xgboost.training import train
from jupyter_mars.learn.utils.validation import fetch_all
from jupyter_mars.tensor.core import Tensor

__all__ = ["XGBClassifier", "XGBRegressor"]


def _eval_matrices(
    estimator: xgboost.XGBModel,
    dtrain: MarsDMatrix,
    X: Any,  # noqa: N803
    y: Any,
    eval_set: Sequence[tuple[Any, Any]] | None,
    sample_weight_eval_set: Sequence[Any] | None,
    base_margin_eval_set: Sequence[Any] | None,
) -> list[tuple[MarsDMatrix, str]]:
    """``eval_set`` as ``train`` takes it, named as XGBoost names them; the training
    data itself where a pair is ``(X, y)``."""
    evals = []
    for i, pair in enumerate(eval_set or ()):
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            raise TypeError("eval_set must be a list of (X, y) pairs")
        valid_x, valid_y = pair
        weight = None if sample_weight_eval_set is None else sample_weight_eval_set[i]
        margin = None if base_margin_eval_set is None else base_margin_eval_set[i]
        if valid_x is X and valid_y is y and weight is None and margin is None:
            evals.append((dtrain, f"validation_{i}"))
            continue
        matrix = MarsDMatrix(
            valid_x,
            label=valid_y,
            weight=weight,
            base_margin=margin,
            missing=estimator.missing,
            feature_types=estimator.feature_types,
        )
        evals.append((matrix, f"validation_{i}"))
    return evals


def _fit(
    estimator: xgboost.XGBModel,
    dtrain: MarsDMatrix,
    params: dict[str, Any],
    obj: Any,
    evals: list[tuple[MarsDMatrix, str]],
    verbose: bool | int | None,
    xgb_model: Any,
    session: Session | None,
    run_kwargs: dict[str, Any] | None,
) -> None:
    """Train ``estimator``'s booster on the workers, as XGBoost's ``fit`` trains it."""
    model, metric, params, _ = estimator._configure_fit(xgb_model, params, None)
    evals_result: dict[str, Any] = {}
    estimator._Booster = train(
        params,
        dtrain,
        estimator.get_num_boosting_rounds(),
        evals=evals,
        early_stopping_rounds=estimator.early_stopping_rounds,
        evals_result=evals_result,
        obj=obj,
        custom_metric=metric,
        verbose_eval=verbose,
        xgb_model=model,
        callbacks=estimator.callbacks,
        session=session,
        run_kwargs=run_kwargs,
    )
    estimator._set_evaluation_result(evals_result)


class XGBRegressor(RegressorMixin, xgboost.XGBRegressor):
    """XGBoost's ``XGBRegressor``, trained on the workers that hold the data."""

    def fit(
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any,
        *,
        sample_weight: Any = None,
        base_margin: Any = None,
        eval_set: Sequence[tuple[Any, Any]] | None = None,
        verbose: bool | int | None = True,
        xgb_model: Any = None,
        sample_weight_eval_set: Sequence[Any] | None = None,
        base_margin_eval_set: Sequence[Any] | None = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> XGBRegressor:
        """Fit the booster on the workers; XGBoost's arguments, plus where it runs."""
        with xgboost.config_context(verbosity=self.verbosity):
            dtrain = MarsDMatrix(
                X,
                label=y,
                weight=sample_weight,
                base_margin=base_margin,
                missing=self.missing,
                feature_types=self.feature_types,
            )
            params = self.get_xgb_params()
            obj = None
            if callable(self.objective):
                obj = _objective_decorator(self.objective)
                params["objective"] = "reg:squarederror"
            evals = _eval_matrices(
                self, dtrain, X, y, eval_set, sample_weight_eval_set, base_margin_eval_set
            )
            _fit(self, dtrain, params, obj, evals, verbose, xgb_model, session, run_kwargs)
        return self

    def predict(
        self,
        X: Any,  # noqa: N803
        *,
        output_margin: bool = False,
        validate_features: bool = True,
        base_margin: Any = None,
        iteration_range: tuple[int, int] | None = None,
    ) -> Tensor:
        """The predictions for ``X`` (a lazy tensor), with the best iteration's trees
        where training stopped early."""
        return _predict(self, X, output_margin, validate_features, base_margin, iteration_range)


def _predict(
    estimator: xgboost.XGBModel,
    X: Any,  # noqa: N803
    output_margin: bool,
    validate_features: bool,
    base_margin: Any,
    iteration_range: tuple[int, int] | None,
) -> Tensor:
    booster = estimator.get_booster()  # NotFittedError before fit
    matrix = MarsDMatrix(X, base_margin=base_margin, missing=estimator.missing)
    names = booster.feature_names
    if matrix.feature_names is None and names is not None and len(names) == matrix.num_col():
        # XGBoost's own estimators read data without names by position, whatever the
        # names they were fitted with
        matrix.feature_names = list(names)
    result: Tensor = predict_booster(
        booster,
        matrix,
        output_margin=output_margin,
        validate_features=validate_features,
        iteration_range=estimator._get_iteration_range(iteration_range),
    )
    return result


class XGBClassifier(ClassifierMixin, xgboost.XGBClassifier):
    """XGBoost's ``XGBClassifier``, trained on the workers that hold the data."""

    def fit(
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any,
        *,
        sample_weight: Any = None,
        base_margin: Any = None,
        eval_set: Sequence[tuple[Any, Any]] | None = None,
        verbose: bool | int | None = True,
        xgb_model: Any = None,
        sample_weight_eval_set: Sequence[Any] | None = None,
        base_margin_eval_set: Sequence[Any] | None = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> XGBClassifier:
        """Fit the booster on the workers; XGBoost's arguments, plus where it runs.
        ``y`` holds the classes ``0 .. n_classes - 1``, as XGBoost wants them."""
        with xgboost.config_context(verbosity=self.verbosity):
            dtrain = MarsDMatrix(
                X,
                label=y,
                weight=sample_weight,
                base_margin=base_margin,
                missing=self.missing,
                feature_types=self.feature_types,
            )
            assert dtrain.label is not None
            (classes,) = fetch_all(mt.unique(dtrain.label), session=session, run_kwargs=run_kwargs)
            self.n_classes_ = len(classes)
            expected = np.arange(self.n_classes_)
            if classes.shape != expected.shape or not (classes == expected).all():
                raise ValueError(
                    f"Invalid classes inferred from unique values of `y`.  "
                    f"Expected: {expected}, got {classes}"
                )
            params = self.get_xgb_params()
            obj = None
            if callable(self.objective):
                obj = _objective_decorator(self.objective)
                params["objective"] = "binary:logistic"
            if self.n_classes_ > 2:
                if params.get("objective") != "multi:softmax":
                    params["objective"] = "multi:softprob"
                params["num_class"] = self.n_classes_
            evals = _eval_matrices(
                self, dtrain, X, y, eval_set, sample_weight_eval_set, base_margin_eval_set
            )
            _fit(self, dtrain, params, obj, evals, verbose, xgb_model, session, run_kwargs)
            if not callable(self.objective):
                self.objective = params["objective"]
        return self

    def predict(
        self,
        X: Any,  # noqa: N803
        *,
        output_margin: bool = False,
        validate_features: bool = True,
        base_margin: Any = None,
        iteration_range: tuple[int, int] | None = None,
    ) -> Tensor:
        """The class of each row (a lazy tensor); the raw scores with ``output_margin``."""
        scores = _predict(self, X, output_margin, validate_features, base_margin, iteration_range)
        if output_margin:
            return scores
        classes: Tensor
        if scores.ndim > 1 and self.n_classes_ != 2:
            classes = mt.argmax(scores, axis=1)
        elif self.objective == "multi:softmax" and scores.ndim == 1:
            classes = scores.astype(np.int32)
        else:  # a probability per row, or per label of each row
            classes = mt.greater(scores, 0.5).astype(np.int64)
        return classes

    def predict_proba(  # type: ignore[override]
        self,
        X: Any,  # noqa: N803
        validate_features: bool = True,
        base_margin: Any = None,
        iteration_range: tuple[int, int] | None = None,
    ) -> Tensor:
        """The probability of each class for each row (a lazy tensor)."""
        if self.objective == "multi:softmax":
            raw = _predict(self, X, True, validate_features, base_margin, iteration_range)
            shifted: Tensor = mt.exp(raw - raw.max(axis=1, keepdims=True))
            softmax: Tensor = shifted / shifted.sum(axis=1, keepdims=True)
            return softmax
        proba = _predict(self, X, False, validate_features, base_margin, iteration_range)
        if self.n_classes_ == 2 and proba.ndim == 1:
            both: Tensor = mt.stack([mt.subtract(1, proba), proba], axis=1)
            return both
        return proba
