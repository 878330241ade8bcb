"""The ``score`` of classifiers and regressors, as scikit-learn's mixins define it, computed
on a session: Mars's ``mars.learn.base``.

``ClassifierMixin`` and ``RegressorMixin`` are scikit-learn's (their tags and
``_estimator_type`` come with them), with ``score`` taking the ``session`` and
``run_kwargs`` every ``fit`` here takes: the accuracy, or the R², of ``predict(X)``
against ``y``, computed chunk-wise by ``jupyter_mars.learn.metrics`` and returned as a
float.
"""

from __future__ import annotations

from typing import Any

from sklearn import base

from jupyter_mars.executable import Session
from jupyter_mars.learn.metrics.scorer import score_predictions

__all__ = ["ClassifierMixin", "RegressorMixin"]


class ClassifierMixin(base.ClassifierMixin):  # type: ignore[misc]
    """scikit-learn's ``ClassifierMixin``, scoring on a session."""

    def score(
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> float:
        """The (weighted) accuracy of ``predict(X)`` against ``y``, computed chunk-wise."""
        predictions = self.predict(X)
        return score_predictions("accuracy", y, predictions, sample_weight, session, run_kwargs)


class RegressorMixin(base.RegressorMixin):  # type: ignore[misc]
    """scikit-learn's ``RegressorMixin``, scoring on a session."""

    def score(
        self,
        X: Any,  # noqa: N803 - scikit-learn's name
        y: Any,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> float:
        """The coefficient of determination R² of ``predict(X)`` against ``y`` (averaged
        uniformly over the outputs), computed chunk-wise."""
        predictions = self.predict(X)
        return score_predictions("r2", y, predictions, sample_weight, session, run_kwargs)
