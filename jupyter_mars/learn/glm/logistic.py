"""``LogisticRegression``: scikit-learn's estimator (its 1.9 arguments), fitted by SciPy's
L-BFGS in the driver on losses and gradients computed chunk-wise (``logistic_loss``).

A fit runs a few graphs before the iterations: the classes (``unique`` of ``y``), then
the data, each sample's class index (or one-hot row) and weight, computed and kept on
the session, with the sum of the weights (and, for ``class_weight='balanced'``, each
class's weighted count). Every L-BFGS evaluation then reads those kept chunks. Two
classes give one binomial model (``coef_`` of shape ``(1, n_features)``), more a
multinomial one (``(n_classes, n_features)``), as in scikit-learn.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any

import numpy as np
from scipy.optimize import minimize
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.base import ClassifierMixin
from jupyter_mars.learn.glm.class_weight import class_weights_of, weights_per_class
from jupyter_mars.learn.glm.logistic_loss import LogisticObjective
from jupyter_mars.learn.utils.chunks import with_known_rows
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.multiclass import decode_labels, encode_labels, label_tensor
from jupyter_mars.learn.utils.validation import (
    FLOAT_DTYPES,
    all_zero,
    check_sample_weight,
    check_X_y,
    execute_all,
    fetch_all,
    float_input,
    raise_if_all_zero,
)
from jupyter_mars.tensor.core import Tensor

SOLVERS = {"lbfgs", "liblinear", "newton-cg", "newton-cholesky", "sag", "saga"}


class LogisticRegression(ClassifierMixin, BaseEstimator):  # type: ignore[misc]
    """Logistic regression (binomial for two classes, multinomial for more) with an L2
    penalty or none, scikit-learn's ``LogisticRegression`` with its arguments and fitted
    attributes (``coef_``, ``intercept_``, ``classes_``, ``n_iter_``,
    ``n_features_in_``), fitted on a session's runtime (see the module docstring).
    ``decision_function``, ``predict``, ``predict_proba`` and ``predict_log_proba``
    return lazy tensors, ``score`` the (weighted) accuracy as a float.

    The penalty is chosen as in scikit-learn 1.9: ``l1_ratio=0`` (the default) is L2,
    ``C=np.inf`` none; ``penalty`` still works but is deprecated. ``solver='lbfgs'`` is
    the one built here: other solvers raise ``NotImplementedError``, and L1 or elastic-net
    penalties the ``ValueError`` scikit-learn's L-BFGS raises. ``intercept_scaling``,
    ``random_state`` and ``verbose`` have no effect with L-BFGS, as in scikit-learn.
    """

    _parameter_constraints: dict[str, list[Any]] = {
        "penalty": [
            StrOptions({"l1", "l2", "elasticnet"}),
            None,
            StrOptions({"deprecated"}),
        ],
        "C": [Interval(Real, 0, None, closed="right")],
        "l1_ratio": [Interval(Real, 0, 1, closed="both"), None],
        "dual": ["boolean"],
        "tol": [Interval(Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
        "intercept_scaling": [Interval(Real, 0, None, closed="neither")],
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "random_state": ["random_state"],
        "solver": [StrOptions(SOLVERS)],
        "max_iter": [Interval(Integral, 0, None, closed="left")],
        "verbose": ["verbose"],
        "warm_start": ["boolean"],
        "n_jobs": [None, Integral],
    }

    def __init__(
        self,
        penalty: Any = "deprecated",
        *,
        C: float = 1.0,  # noqa: N803
        l1_ratio: float | None = 0.0,
        dual: bool = False,
        tol: float = 1e-4,
        fit_intercept: bool = True,
        intercept_scaling: float = 1,
        class_weight: Any = None,
        random_state: Any = None,
        solver: str = "lbfgs",
        max_iter: int = 100,
        verbose: int = 0,
        warm_start: bool = False,
        n_jobs: int | None = None,
    ) -> None:
        self.penalty = penalty
        self.C = C
        self.l1_ratio = l1_ratio
        self.dual = dual
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.random_state = random_state
        self.solver = solver
        self.max_iter = max_iter
        self.verbose = verbose
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    # ---- arguments -------------------------------------------------------------------

    def _penalty_strength(self) -> float:
        """``C`` as the fit uses it (infinite without penalty), after scikit-learn's
        checks and warnings on ``penalty``, ``l1_ratio``, ``dual`` and ``n_jobs``."""
        if self.penalty == "deprecated":
            if self.l1_ratio is None or self.l1_ratio == 0:
                penalty: str | None = "l2"
                if self.l1_ratio is None:
                    warnings.warn(
                        "'l1_ratio=None' is deprecated (as in scikit-learn 1.8): use a "
                        "value in [0, 1], 0 for an L2 penalty.",
                        FutureWarning,
                        stacklevel=3,
                    )
            else:
                penalty = "l1" if self.l1_ratio == 1 else "elasticnet"
            if self.C == np.inf:
                penalty = None
        else:
            penalty = self.penalty
            warnings.warn(
                "'penalty' is deprecated (as in scikit-learn 1.8): leave it unset and use "
                "l1_ratio=0 for 'l2', l1_ratio=1 for 'l1', a value between for "
                "'elasticnet', and C=np.inf for None.",
                FutureWarning,
                stacklevel=3,
            )
        if self.solver != "lbfgs":
            raise NotImplementedError(
                f"solver={self.solver!r} is not available here: LogisticRegression is "
                "fitted by 'lbfgs'"
            )
        if penalty not in ("l2", None):
            raise ValueError(
                f"Solver lbfgs supports only 'l2' or None penalties, got {penalty} penalty."
            )
        if self.dual:
            raise ValueError("Solver lbfgs supports only dual=False, got dual=True")
        if self.n_jobs is not None:
            warnings.warn(
                f"'n_jobs' has no effect (as in scikit-learn 1.8); you provided "
                f"'n_jobs={self.n_jobs}', please leave it unspecified.",
                FutureWarning,
                stacklevel=3,
            )
        if penalty is None:
            if self.penalty is None and self.C != 1.0:
                warnings.warn(
                    "Setting penalty=None will ignore the C and l1_ratio parameters",
                    UserWarning,
                    stacklevel=3,
                )
            return float(np.inf)
        return float(self.C)

    # ---- fitting ---------------------------------------------------------------------

    def fit(
        self,
        X: Any,  # noqa: N803
        y: Any,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> LogisticRegression:
        """Fit the model on ``X`` and ``y`` (computed on ``session``'s runtime)."""
        self._validate_params()
        strength = self._penalty_strength()
        x, labels = check_X_y(
            X, y if y is None else label_tensor(y), dtype=list(FLOAT_DTYPES), estimator=self
        )
        x, labels = (
            with_known_rows(x, session, run_kwargs),
            with_known_rows(labels, session, run_kwargs),
        )
        (classes,) = fetch_all(mt.unique(labels), session=session, run_kwargs=run_kwargs)
        check_classification_targets(classes)
        if len(classes) < 2:
            raise ValueError(
                "This solver needs samples of at least 2 classes in the data, but the data "
                f"contains only one class: {classes[0]!r}"
            )
        self.classes_ = classes
        codes = encode_labels(labels, classes)
        weights = check_sample_weight(sample_weight, x.shape[0], x.dtype)
        objective = self._objective(x, codes, weights, strength, session, run_kwargs)
        result = minimize(
            objective,
            self._initial(objective),
            method="L-BFGS-B",
            jac=True,
            options={
                "maxiter": self.max_iter,
                "maxls": 50,
                "gtol": self.tol,
                "ftol": 64 * np.finfo(float).eps,
            },
        )
        if result.status != 0:
            warnings.warn(
                f"lbfgs failed to converge after {result.nit} iteration(s) "
                f"(status={result.status}): {result.message}. Increase the number of "
                f"iterations (max_iter={self.max_iter}) or scale the data.",
                ConvergenceWarning,
                stacklevel=2,
            )
        coef, intercept = objective.split(result.x)
        self.coef_ = np.ascontiguousarray(coef, dtype=x.dtype)
        self.intercept_ = intercept.astype(x.dtype)
        self.n_iter_ = np.array([min(result.nit, self.max_iter)], dtype=np.int32)
        record_features(self, X, x)
        return self

    def _objective(
        self,
        x: Tensor,
        codes: Tensor,
        weights: Tensor | None,
        strength: float,
        session: Session | None,
        run_kwargs: dict[str, Any] | None,
    ) -> LogisticObjective:
        """The objective, its inputs computed and kept on the session."""
        n_classes = len(self.classes_)
        if self.class_weight is not None:
            counts = None
            if self.class_weight == "balanced":
                (counts,) = fetch_all(
                    mt.bincount(codes, weights=weights, minlength=n_classes),
                    session=session,
                    run_kwargs=run_kwargs,
                )
            per_class = weights_per_class(self.class_weight, self.classes_, counts)
            by_class = class_weights_of(codes, per_class.astype(x.dtype))
            weights = by_class if weights is None else weights * by_class
        if n_classes == 2:
            targets = mt.equal(codes, 1).astype(x.dtype)
        else:
            targets = (codes[:, None] == mt.arange(n_classes)[None, :]).astype(x.dtype)
        kept = [x, targets] + ([weights] if weights is not None else [])
        execute_all(*kept, session=session, run_kwargs=run_kwargs)
        weight_sum = float(x.shape[0])
        if weights is not None:
            total, none = fetch_all(
                weights.sum(), all_zero(weights), session=session, run_kwargs=run_kwargs
            )
            raise_if_all_zero(none)
            weight_sum = float(total)
        return LogisticObjective(
            x=x,
            targets=targets,
            weights=weights,
            weight_sum=weight_sum,
            n_classes=n_classes,
            fit_intercept=self.fit_intercept,
            l2=0.0 if np.isinf(strength) else 1.0 / (strength * weight_sum),
            session=session,
            run_kwargs=run_kwargs,
        )

    def _initial(self, objective: LogisticObjective) -> np.ndarray:
        """Zeros, or with ``warm_start`` the last fit's parameters where they fit."""
        start = np.zeros(objective.shape)
        if self.warm_start and hasattr(self, "coef_"):
            previous = self.coef_
            if self.fit_intercept:
                previous = np.concatenate([previous, self.intercept_[:, None]], axis=1)
            if previous.shape == start.shape:
                start[:] = previous
        return start.ravel()

    # ---- using the model -------------------------------------------------------------

    def decision_function(self, X: Any) -> Tensor:  # noqa: N803
        """The linear predictors for ``X``: ``(n_samples,)`` for two classes (positive
        favours ``classes_[1]``), else ``(n_samples, n_classes)``. A lazy tensor."""
        check_is_fitted(self)
        x = float_input(X, self)
        check_features(self, X, x)
        scores: Tensor = x @ self.coef_.T + self.intercept_
        return scores[:, 0] if len(self.classes_) == 2 else scores

    def predict_proba(self, X: Any) -> Tensor:  # noqa: N803
        """Each class's probability for each sample of ``X``: a lazy tensor."""
        scores = self.decision_function(X)
        if len(self.classes_) == 2:
            second = mt.special.expit(scores)
            return mt.stack([1.0 - second, second], axis=1)
        exp = mt.exp(scores - scores.max(axis=1, keepdims=True))
        probabilities: Tensor = exp / exp.sum(axis=1, keepdims=True)
        return probabilities

    def predict_log_proba(self, X: Any) -> Tensor:  # noqa: N803
        """The logarithms of ``predict_proba``: a lazy tensor."""
        log_probabilities: Tensor = mt.log(self.predict_proba(X))
        return log_probabilities

    def predict(self, X: Any) -> Tensor:  # noqa: N803
        """The class of highest probability for each sample of ``X``: a lazy tensor."""
        scores = self.decision_function(X)
        codes = (
            mt.greater(scores, 0).astype(np.intp) if scores.ndim == 1 else mt.argmax(scores, axis=1)
        )
        return decode_labels(codes, self.classes_)
