"""``LGBMClassifier``, ``LGBMRegressor`` and ``LGBMRanker``: LightGBM's scikit-learn
estimators, fitted on the workers that hold the data (``training.py``), predicting one
row block at a time.

They are LightGBM's own classes (same constructor and parameters; once fitted, the same
booster and attributes), whose ``fit`` takes lazy data and ``session``/``run_kwargs``,
and whose ``predict`` and ``predict_proba`` return lazy tensors.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import lightgbm
import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import DataFrame as LazyFrame
from jupyter_mars.executable import Session, default_session
from jupyter_mars.learn.contrib.lightgbm.local import KnownClassesClassifier
from jupyter_mars.learn.contrib.lightgbm.training import EvalSet, TrainingSet, fit_on_workers
from jupyter_mars.learn.contrib.parts import build_parts
from jupyter_mars.learn.utils.joblib_backend import session_cores
from jupyter_mars.learn.utils.validation import (
    check_array,
    check_consistent_length,
    column_or_1d,
    fetch_all,
    to_tensor,
)
from jupyter_mars.learn.wrappers.blocks import map_rows, to_labels
from jupyter_mars.learn.wrappers.scoring import score_predictions
from jupyter_mars.tensor.core import Tensor

__all__ = ["LGBMClassifier", "LGBMRanker", "LGBMRegressor"]


def _features(data: Any, estimator: Any) -> Tensor:
    return check_array(data, ensure_all_finite=False, estimator=estimator, input_name="X")


def _column_names(data: Any) -> list[str] | None:
    if isinstance(data, LazyFrame | pd.DataFrame):
        return [str(column) for column in data.columns]
    return None


def _target(y: Any, labels: bool) -> Tensor:
    t = column_or_1d(to_labels(y) if labels else to_tensor(y))
    if t.dtype.kind in "fc":
        t = check_array(t, ensure_2d=False, dtype=None, input_name="y")
    return t


def _optional(values: Any) -> Tensor | None:
    return None if values is None else to_tensor(values)


def _eval_pairs(eval_set: Any, eval_X: Any, eval_y: Any) -> list[tuple[Any, Any]]:  # noqa: N803
    """The evaluation sets as ``(X, y)`` pairs, from ``eval_set`` (Mars's keyword) or
    from ``eval_X`` and ``eval_y`` (LightGBM's), with LightGBM's errors."""
    if eval_set is not None:
        if eval_X is not None or eval_y is not None:
            raise ValueError("Specify either 'eval_set' or 'eval_X' and 'eval_y', but not both.")
        return [eval_set] if isinstance(eval_set, tuple) else list(eval_set)
    if (eval_X is None) != (eval_y is None):
        raise ValueError("You must specify eval_X and eval_y, not just one of them.")
    if eval_X is None:
        return []
    if isinstance(eval_X, tuple) != isinstance(eval_y, tuple) or (
        isinstance(eval_X, tuple) and len(eval_X) != len(eval_y)
    ):
        raise ValueError(
            "If eval_X is a tuple, y_val must be a tuple of same length, and vice versa."
        )
    return (
        list(zip(eval_X, eval_y, strict=True)) if isinstance(eval_X, tuple) else [(eval_X, eval_y)]
    )


def _query_ids(group: Any, n_rows: float, session: Session | None) -> np.ndarray[Any, Any]:
    """Each row's query, from the sizes of the queries (in memory, or a tensor)."""
    if isinstance(group, Tensor | LazyFrame):
        (group,) = fetch_all(group, session=session)
    sizes = np.asarray(group, dtype=np.int64).ravel()
    if not np.isnan(n_rows) and sizes.sum() != int(n_rows):
        raise ValueError(
            f"Sum of query counts ({int(sizes.sum())}) differs from the length of #data "
            f"({int(n_rows)})"
        )
    return np.repeat(np.arange(len(sizes)), sizes)


def _query_aligned(x: Tensor, qid: np.ndarray[Any, Any], n_blocks: int) -> tuple[int, ...]:
    """Row block lengths near ``x``'s whose ends fall between queries, so that no query
    is split between two trainers (``n_blocks`` about even ones where ``x``'s are not
    known before it is computed)."""
    layout = x._layout()
    if layout is not None and not any(math.isnan(n) for n in layout[0]):
        rows = [int(n) for n in layout[0]]
    else:
        rows = [len(b) for b in np.array_split(qid, max(1, min(n_blocks, len(qid))))]
    ends = np.flatnonzero(np.r_[qid[1:] != qid[:-1], True]) + 1
    cut = sorted({int(ends[np.searchsorted(ends, e)]) for e in np.cumsum(rows)[:-1]})
    bounds = [0, *[c for c in cut if 0 < c < len(qid)], len(qid)]
    return tuple(int(b - a) for a, b in zip(bounds[:-1], bounds[1:], strict=True))


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


class _Distributed:
    """What the three estimators share: fit on the workers, predict per row block."""

    _local: type[lightgbm.LGBMModel]
    """The LightGBM estimator each trainer fits."""
    _lightgbm: type[lightgbm.LGBMModel]
    """LightGBM's class of it: what predicts in the tasks."""

    def _as_lightgbm(self) -> Any:
        """This fitted estimator as LightGBM's class: its own methods call each other
        (``predict`` calls ``predict_proba``), which here give lazy tensors."""
        plain = self._lightgbm.__new__(self._lightgbm)
        plain.__dict__.update(vars(self))
        return plain

    def _fit(
        self,
        X: Any,  # noqa: N803
        y: Any,
        *,
        labels: bool,
        sample_weight: Any,
        init_score: Any,
        group: Any,
        eval_set: list[tuple[Any, Any]],
        eval_sample_weight: Sequence[Any] | None,
        eval_init_score: Sequence[Any] | None,
        eval_group: Sequence[Any] | None,
        fit_kwargs: dict[str, Any],
        session: Session | None,
        run_kwargs: dict[str, Any] | None,
    ) -> None:
        x = _features(X, self)
        t = _target(y, labels)
        w, margin = _optional(sample_weight), _optional(init_score)
        check_consistent_length(x, t, w, margin)
        qid = None
        if group is not None:
            ids = _query_ids(group, x.shape[0], session)
            rows = _query_aligned(x, ids, session_cores(default_session(session)))
            x = x.rechunk((rows, (x.shape[1],)))
            qid = mt.tensor(ids)
        names = _column_names(X) if fit_kwargs.get("feature_name", "auto") == "auto" else None
        train = TrainingSet(build_parts(x, label=t, weight=w, margin=margin, qid=qid), names)
        evals = []
        for i, pair in enumerate(eval_set):
            valid_x, valid_y = pair
            if valid_x is X and valid_y is y:
                evals.append(EvalSet(train, True))
                continue
            vx, vt = _features(valid_x, self), _target(valid_y, labels)
            vw = _optional(eval_sample_weight[i] if eval_sample_weight else None)
            vm = _optional(eval_init_score[i] if eval_init_score else None)
            check_consistent_length(vx, vt, vw, vm)
            vq = None
            if eval_group is not None:
                vq = mt.tensor(_query_ids(eval_group[i], vx.shape[0], session))
            parts = build_parts(vx, label=vt, weight=vw, margin=vm, qid=vq)
            evals.append(EvalSet(TrainingSet(parts, _column_names(valid_x)), False))
        classes = self._classes_of(t, session, run_kwargs)
        local = self._local(**self.get_params())  # type: ignore[attr-defined]
        if classes is not None and self.class_weight == "balanced":  # type: ignore[attr-defined]
            local.set_params(class_weight=self._balanced(t, session, run_kwargs))
        fitted = fit_on_workers(local, train, evals, fit_kwargs, classes, session, run_kwargs)
        own = set(self.get_params())  # type: ignore[attr-defined]
        for name, value in vars(fitted).items():
            if name not in own and name != "_other_params":
                setattr(self, name, value)

    def _classes_of(
        self, t: Tensor, session: Session | None, run_kwargs: dict[str, Any] | None
    ) -> np.ndarray[Any, Any] | None:
        return None

    def _balanced(
        self, t: Tensor, session: Session | None, run_kwargs: dict[str, Any] | None
    ) -> dict[Any, float]:
        """``class_weight='balanced'`` as a dict over the whole training set: a trainer
        would weigh by its own rows' classes."""
        classes, counts = fetch_all(
            *mt.unique(t, return_counts=True), session=session, run_kwargs=run_kwargs
        )
        total = float(np.sum(counts))
        return {c: total / (len(classes) * float(n)) for c, n in zip(classes, counts, strict=True)}

    def _lazy(self, X: Any, method: Callable[..., Any], kwargs: dict[str, Any]) -> Tensor:  # noqa: N803
        """``method`` of the fitted estimator on each row block of ``X``."""
        check_is_fitted(self)
        x = _features(X, self)
        n_features = self.n_features_  # type: ignore[attr-defined]
        if x.shape[1] != n_features:
            raise ValueError(
                "Number of features of the model must match the input. Model n_features_ "
                f"is {n_features} and input n_features is {x.shape[1]}"
            )
        model = self._as_lightgbm()
        names = getattr(model, "feature_names_in_", None)
        probe: Any = np.zeros((1, n_features))
        if names is not None:
            probe = pd.DataFrame(probe, columns=names)
        sample = np.asarray(method(model, probe, **kwargs))
        trailing, dtype = sample.shape[1:], sample.dtype
        kernel = functools.partial(predict_block, model, method, kwargs, trailing, dtype)
        return map_rows(kernel, x, trailing=trailing, dtype=dtype, name="lgbm_predict")


class LGBMRegressor(_Distributed, lightgbm.LGBMRegressor):
    """LightGBM's ``LGBMRegressor``, fitted on the workers that hold the data."""

    _local = lightgbm.LGBMRegressor
    _lightgbm = lightgbm.LGBMRegressor

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
        self._fit(
            X,
            y,
            labels=False,
            sample_weight=sample_weight,
            init_score=init_score,
            group=None,
            eval_set=_eval_pairs(eval_set, eval_X, eval_y),
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
        return self._lazy(X, lightgbm.LGBMRegressor.predict, kwargs)

    def score(
        self,
        X: Any,  # noqa: N803
        y: Any,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> float:
        """R² of ``predict`` on ``X`` against ``y``, computed chunk-wise."""
        predictions = self.predict(X)
        return score_predictions("r2", y, predictions, sample_weight, session, run_kwargs)


def _fit_kwargs(
    eval_names: Any,
    eval_metric: Any,
    feature_name: Any,
    categorical_feature: Any,
    callbacks: Any,
    init_model: Any,
    **more: Any,
) -> dict[str, Any]:
    return {
        "eval_names": eval_names,
        "eval_metric": eval_metric,
        "feature_name": feature_name,
        "categorical_feature": categorical_feature,
        "callbacks": callbacks,
        "init_model": init_model,
        **more,
    }


class LGBMClassifier(_Distributed, lightgbm.LGBMClassifier):
    """LightGBM's ``LGBMClassifier``, fitted on the workers that hold the data."""

    _local = KnownClassesClassifier
    _lightgbm = lightgbm.LGBMClassifier

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
        self._fit(
            X,
            y,
            labels=True,
            sample_weight=sample_weight,
            init_score=init_score,
            group=None,
            eval_set=_eval_pairs(eval_set, eval_X, eval_y),
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

    def _classes_of(
        self, t: Tensor, session: Session | None, run_kwargs: dict[str, Any] | None
    ) -> np.ndarray[Any, Any]:
        (classes,) = fetch_all(mt.unique(t), session=session, run_kwargs=run_kwargs)
        return np.asarray(classes)

    def predict(self, X: Any, **kwargs: Any) -> Tensor:  # type: ignore[override]  # noqa: N803
        """The class of each row (a lazy tensor); LightGBM's keywords (``raw_score``,
        ``pred_leaf``, ``pred_contrib``, ``num_iteration``, ...)."""
        return self._lazy(X, lightgbm.LGBMClassifier.predict, kwargs)

    def predict_proba(self, X: Any, **kwargs: Any) -> Tensor:  # type: ignore[override]  # noqa: N803
        """The probability of each class for each row (a lazy tensor)."""
        return self._lazy(X, lightgbm.LGBMClassifier.predict_proba, kwargs)

    def score(
        self,
        X: Any,  # noqa: N803
        y: Any,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> float:
        """The accuracy of ``predict`` on ``X`` against ``y``, computed chunk-wise."""
        predictions = self.predict(X)
        return score_predictions("accuracy", y, predictions, sample_weight, session, run_kwargs)


class LGBMRanker(_Distributed, lightgbm.LGBMRanker):
    """LightGBM's ``LGBMRanker``, fitted on the workers that hold the data. ``group``:
    the sizes of the queries, whose rows are contiguous; a query's rows go to one
    trainer (the row blocks are cut between queries)."""

    _local = lightgbm.LGBMRanker
    _lightgbm = lightgbm.LGBMRanker

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
        if _eval_pairs(eval_set, eval_X, eval_y) and eval_group is None:
            raise ValueError(
                "eval_group cannot be None if any of eval_set, eval_X, or eval_y are provided"
            )
        self._fit(
            X,
            y,
            labels=False,
            sample_weight=sample_weight,
            init_score=init_score,
            group=group,
            eval_set=_eval_pairs(eval_set, eval_X, eval_y),
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
        return self._lazy(X, lightgbm.LGBMRanker.predict, kwargs)
