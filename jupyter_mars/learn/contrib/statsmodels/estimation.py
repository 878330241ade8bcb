"""How each partition is estimated and how the partitions' results are joined.

These are statsmodels' ``distributed_estimation`` methods, picked by name:

- ``"regularized_debiased"`` (statsmodels' default): each partition fits a regularized
  model (``fit_regularized``, so ``alpha`` is needed), then computes its gradient and
  its share of the node-wise regressions; the join averages the fits and debiases the
  average with the approximate inverse covariance (Lee, Liu, Sun and Taylor, 2015).
- ``"regularized_naive"``: the average of the partitions' regularized fits.
- ``"unregularized_naive"``: the average of the partitions' plain fits (``fit``). Each
  partition also gives its covariance of the parameters, so the joined results have one
  too: the mean of independent estimates has the covariance ``sum(cov_k) / K**2``,
  which gives ``bse``, ``tvalues``, ``pvalues`` and ``conf_int``.

A callable in their place takes what statsmodels' take: ``(model, partition_number,
partitions, fit_kwds=..., **estimation_kwds)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from statsmodels.base.distributed_estimation import (
    _est_regularized_debiased,
    _est_regularized_naive,
    _join_debiased,
    _join_naive,
)
from statsmodels.base.model import LikelihoodModelResults

__all__ = ["ESTIMATIONS", "AveragedResults", "Estimation", "fit_unregularized"]


def fit_unregularized(
    model: Any, partition: int, partitions: int, fit_kwds: dict[str, Any] | None = None
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """One partition's plain fit: its parameters and their covariance."""
    fitted = model.fit(**(fit_kwds or {}))
    return np.asarray(fitted.params, dtype=np.float64), np.asarray(
        fitted.cov_params(), dtype=np.float64
    )


def join_averages(
    results: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]], threshold: float = 0
) -> np.ndarray[Any, Any]:
    """The mean of the partitions' parameters, those below ``threshold`` in absolute value
    set to zero (as statsmodels' naive join does)."""
    params = np.mean([p for p, _ in results], axis=0)
    params[np.abs(params) < threshold] = 0
    return np.asarray(params)


def averaged_covariance(
    results: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]],
) -> np.ndarray[Any, Any]:
    """The covariance of the mean of the partitions' independent estimates."""
    return np.asarray(np.sum([c for _, c in results], axis=0) / len(results) ** 2)


class AveragedResults(LikelihoodModelResults):  # type: ignore[misc]
    """statsmodels' likelihood-model results for the averaged parameters, with their
    averaged covariance; ``predict`` needs ``exog`` (the model holds no data)."""

    def predict(self, exog: Any, *args: Any, **kwargs: Any) -> Any:
        return self.model.predict(self.params, exog, *args, **kwargs)


@dataclass(frozen=True)
class Estimation:
    """A named way to estimate the partitions and join them."""

    estimate: Callable[..., Any]
    """Run in each partition's task, on its model: statsmodels' signature."""
    join: Callable[..., Any]
    """The partitions' results (in partition order) to the joined parameters."""
    needs_alpha: bool
    """Whether the partitions' fit is regularized, and so needs ``alpha``."""
    covariance: Callable[[list[Any]], np.ndarray[Any, Any]] | None = None
    """The partitions' results to the covariance of the joined parameters, where known."""


ESTIMATIONS = {
    "regularized_debiased": Estimation(_est_regularized_debiased, _join_debiased, True),
    "regularized_naive": Estimation(_est_regularized_naive, _join_naive, True),
    "unregularized_naive": Estimation(
        fit_unregularized, join_averages, False, covariance=averaged_covariance
    ),
}
DEFAULT_ESTIMATION = "regularized_debiased"
"""statsmodels' own default."""
