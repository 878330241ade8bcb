"""``LGBMClassifier``, ``LGBMRegressor`` and ``LGBMRanker``: LightGBM's scikit-learn
estimators, fitted on the workers that hold the data (``training.py``), predicting one
row block at a time.

They are LightGBM's own classes (same constructor and parameters; once fitted, the same
booster and attributes), whose ``fit`` takes lazy data and ``session``/``run_kwargs``,
and whose ``predict`` and ``predict_proba`` return lazy tensors.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import lightgbm
import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.executable import Session
from jupyter_mars.learn.base import ClassifierMixin, RegressorMixin
from jupyter_mars.learn.contrib.lightgbm.inputs import (
    balanced_weights,
    eval_pairs,
    features,
    training_sets,
)
from jupyter_mars.learn.contrib.lightgbm.local import KnownClassesClassifier
from jupyter_mars.learn.contrib.lightgbm.training import fit_on_workers
from jupyter_mars.learn.utils.blocks import map_rows
from jupyter_mars.learn.utils.features import check_feature_names
from jupyter_mars.learn.utils.validation import fetch_all
from jupyter_mars.tensor.core import Tensor

__all__ = ["LGBMClassifier", "LGBMRanker", "LGBMRegressor"]


def predict_block(
    model: Any,
    method: Callable[..., Any],
    kwargs: dict[str, Any],
    trailing: tuple[int, ...],
    dtype: np.dtype[Any],
    block: np.ndarray[Any, Any],
) -> np.ndarray[Any, Any]:
    """``method`` (LightGBM's ``predict`` or ``predict_proba``) of ``model`` on a block."""
    if len(block) == 0:
        return np.empty((0, *trailing), dtype=dtype)
    names = getattr(model, "feature_names_in_", None)
    data = pd.DataFrame(block, columns=names) if names is not None else block
    return np.asarray(method(model, data, **kwargs), dtype=dtype)


def _fit(
    estimator: Any,
    local: Any,
    X: Any,  # noqa: N803
    y: Any,
    *,
    labels: bool,
    fit_kwargs: dict[str, Any],
    session: Session | None,
    run_kwargs: dict[str, Any] | None,
    **inputs: Any,
) -> None:
    """Fit ``local`` (an unfitted LightGBM estimator with ``estimator``'s parameters) on
    the workers, and give ``estimator`` what it learnt."""
    feature_name = fit_kwargs["feature_name"]
    train, evals, t = training_sets(
        estimator, X, y, labels=labels, feature_name=feature_name, session=session, **inputs
    )
    classes = None
    if labels:
        (classes,) = fetch_all(mt.unique(t), session=session, run_kwargs=run_kwargs)
        if estimator.class_weight == "balanced":
            local.set_params(class_weight=balanced_weights(t, session, run_kwargs))
    fitted = fit_on_workers(local, train, evals, fit_kwargs, classes, session, run_kwargs)
    own = set(estimator.get_params())
    for name, value in vars(fitted).items():
        if name not in own and name != "_other_params":
            setattr(estimator, name, value)


def _as_lightgbm(estimator: Any, kind: type[lightgbm.LGBMModel]) -> Any:
    """The fitted ``estimator`` as LightGBM's class ``kind``: LightGBM's methods call each
    other (``predict`` calls ``predict_proba``), which here give lazy tensors."""
    plain = kind.__new__(kind)
    plain.__dict__.update(vars(estimator))
    return plain


def _predict(
    estimator: Any,
    kind: type[lightgbm.LGBMModel],
    X: Any,  # noqa: N803
    method: Callable[..., Any],
    kwargs: dict[str, Any],
) -> Tensor:
    """``method`` of the fitted ``estimator`` (as LightGBM's ``kind``) on each row block
    of ``X``, lazily."""
    check_is_fitted(estimator)
    x = features(X, estimator)
    if not isinstance(X, pd.DataFrame | FrameBase):
        # LightGBM's own estimators check the names of anything but a frame
        check_feature_names(estimator, X)
    n_features = estimator.n_features_
    if x.shape[1] != n_features:
        raise ValueError(
            "Number of features of the model must match the input. Model n_features_ "
            f"is {n_features} and input n_features is {x.shape[1]}"
        )
    model = _as_lightgbm(estimator, kind)
    names = getattr(model, "feature_names_in_", None)
    probe: Any = np.zeros((1, n_features))
    if names is not None:
        probe = pd.DataFrame(probe, columns=names)
    sample = np.asarray(method(model, probe, **kwargs))
    trailing, dtype = sample.shape[1:], sample.dtype
    kernel = functools.partial(predict_block, model, method, kwargs, trailing, dtype)
    return map_rows(kernel, x, trailing=trailing, dtype=dtype, name="lgbm_predict")


def _fit_kwargs(
    eval_names: Any,
    eval_metric: Any,
    feature_name: Any,
    categorical_feature: Any,
    callbacks: Any,
    init_model: Any,
    **more: Any,
) -> dict[str, Any]:
    """The keywords of LightGBM's ``fit`` given to every trainer as they are."""
    return {
        "eval_names": eval_names,
        "eval_metric": eval_metric,
        "feature_name": feature_name,
        "categorical_feature": categorical_feature,
        "callbacks": callbacks,
        "init_model": init_model,
        **more,
    }


class LGBMRegressor(RegressorMixin, lightgbm.LGBMRegressor):
    """LightGBM's ``LGBMRegressor``, fitted on the workers that hold the data."""

    def fit(  # type: ignore[override]
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any,
        sample_weight: Any = None,
        init_score: Any = None,
        eval_set: Any = None,
        eval_names: Any = None,
        eval_sample_weight: Any = None,
        eval_init_score: Any = None,
        eval_metric: Any = None,
        feature_name: Any = "auto",
        categorical_feature: Any = "auto",
        callbacks: Any = None,
        init_model: Any = None,
        *,
        eval_X: Any = None,  # noqa: N803 - LightGBM's name
        eval_y: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> LGBMRegressor:
        """Fit on the workers; LightGBM's arguments, plus where it runs."""
        _fit(
            self,
            lightgbm.LGBMRegressor(**self.get_params()),
            X,
            y,
            labels=False,
            sample_weight=sample_weight,
            init_score=init_score,
            group=None,
            eval_set=eval_pairs(eval_set, eval_X, eval_y),
            eval_sample_weight=eval_sample_weight,
            eval_init_score=eval_init_score,
            eval_group=None,
            fit_kwargs=_fit_kwargs(
                eval_names, eval_metric, feature_name, categorical_feature, callbacks, init_model
            ),
            session=session,
            run_kwargs=run_kwargs,
        )
        return self

    def predict(self, X: Any, **kwargs: Any) -> Tensor:  # type: ignore[override]  # noqa: N803
        """The predictions for ``X`` (a lazy tensor); LightGBM's keywords."""
        return _predict(self, lightgbm.LGBMRegressor, X, lightgbm.LGBMRegressor.predict, kwargs)


class LGBMClassifier(ClassifierMixin, lightgbm.LGBMClassifier):
    """LightGBM's ``LGBMClassifier``, fitted on the workers that hold the data."""

    def fit(  # type: ignore[override]
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any,
        sample_weight: Any = None,
        init_score: Any = None,
        eval_set: Any = None,
        eval_names: Any = None,
        eval_sample_weight: Any = None,
        eval_class_weight: Any = None,
        eval_init_score: Any = None,
        eval_metric: Any = None,
        feature_name: Any = "auto",
        categorical_feature: Any = "auto",
        callbacks: Any = None,
        init_model: Any = None,
        *,
        eval_X: Any = None,  # noqa: N803 - LightGBM's name
        eval_y: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> LGBMClassifier:
        """Fit on the workers; LightGBM's arguments, plus where it runs."""
        _fit(
            self,
            KnownClassesClassifier(**self.get_params()),
            X,
            y,
            labels=True,
            sample_weight=sample_weight,
            init_score=init_score,
            group=None,
            eval_set=eval_pairs(eval_set, eval_X, eval_y),
            eval_sample_weight=eval_sample_weight,
            eval_init_score=eval_init_score,
            eval_group=None,
            fit_kwargs=_fit_kwargs(
                eval_names,
                eval_metric,
                feature_name,
                categorical_feature,
                callbacks,
                init_model,
                eval_class_weight=eval_class_weight,
            ),
            session=session,
            run_kwargs=run_kwargs,
        )
        return self

    def predict(self, X: Any, **kwargs: Any) -> Tensor:  # type: ignore[override]  # noqa: N803
        """The class of each row (a lazy tensor); LightGBM's keywords (``raw_score``,
        ``pred_leaf``, ``pred_contrib``, ``num_iteration``, ...)."""
        return _predict(self, lightgbm.LGBMClassifier, X, lightgbm.LGBMClassifier.predict, kwargs)

    def predict_proba(self, X: Any, **kwargs: Any) -> Tensor:  # type: ignore[override]  # noqa: N803
        """The probability of each class for each row (a lazy tensor)."""
        return _predict(
            self, lightgbm.LGBMClassifier, X, lightgbm.LGBMClassifier.predict_proba, kwargs
        )


class LGBMRanker(lightgbm.LGBMRanker):
    """LightGBM's ``LGBMRanker``, fitted on the workers that hold the data. ``group``:
    the sizes of the queries, whose rows are contiguous; a query's rows go to one
    trainer (the row blocks are cut between queries)."""

    def fit(  # type: ignore[override]
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any,
        sample_weight: Any = None,
        init_score: Any = None,
        group: Any = None,
        eval_set: Any = None,
        eval_names: Any = None,
        eval_sample_weight: Any = None,
        eval_init_score: Any = None,
        eval_group: Any = None,
        eval_metric: Any = None,
        eval_at: Any = (1, 2, 3, 4, 5),
        feature_name: Any = "auto",
        categorical_feature: Any = "auto",
        callbacks: Any = None,
        init_model: Any = None,
        *,
        eval_X: Any = None,  # noqa: N803 - LightGBM's name
        eval_y: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> LGBMRanker:
        """Fit on the workers; LightGBM's arguments, plus where it runs."""
        if group is None:
            raise ValueError("Should set group for ranking task")
        if eval_pairs(eval_set, eval_X, eval_y) and eval_group is None:
            raise ValueError(
                "eval_group cannot be None if any of eval_set, eval_X, or eval_y are provided"
            )
        _fit(
            self,
            lightgbm.LGBMRanker(**self.get_params()),
            X,
            y,
            labels=False,
            sample_weight=sample_weight,
            init_score=init_score,
            group=group,
            eval_set=eval_pairs(eval_set, eval_X, eval_y),
            eval_sample_weight=eval_sample_weight,
            eval_init_score=eval_init_score,
            eval_group=eval_group,
            fit_kwargs=_fit_kwargs(
                eval_names,
                eval_metric,
                feature_name,
                categorical_feature,
                callbacks,
                init_model,
                eval_at=eval_at,
            ),
            session=session,
            run_kwargs=run_kwargs,
        )
        return self

    def predict(self, X: Any, **kwargs: Any) -> Tensor:  # type: ignore[override]  # noqa: N803
        """The score of each row (a lazy tensor); LightGBM's keywords."""
        return _predict(self, lightgbm.LGBMRanker, X, lightgbm.LGBMRanker.predict, kwargs)
