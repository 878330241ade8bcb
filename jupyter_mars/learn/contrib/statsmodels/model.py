"""``MarsDistributedModel``: statsmodels' ``DistributedModel`` with each partition of the
rows fitted in its own task.

``fit`` splits the rows of ``exog`` and ``endog`` into ``num_partitions`` partitions of
near-equal length (or ``factor`` times the session's cores), each with all the columns;
each partition's task builds ``model_class(endog, exog, **init_kwds)`` on its rows and
estimates it (``estimation.py``). Only the partitions' small results (parameters,
gradients, covariances) come back to the driver, where they are joined into one set of
parameters and statsmodels' results object for them, wrapped in ``MarsResults``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from numbers import Integral, Real
from typing import Any

import numpy as np
from sklearn.utils import check_scalar
from statsmodels.base.distributed_estimation import _join_debiased
from statsmodels.base.elastic_net import RegularizedResults
from statsmodels.regression.linear_model import OLS

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session, default_session
from jupyter_mars.learn.contrib.statsmodels.estimation import (
    DEFAULT_ESTIMATION,
    ESTIMATIONS,
    AveragedResults,
    Estimation,
)
from jupyter_mars.learn.contrib.statsmodels.results import MarsResults, design_matrix
from jupyter_mars.learn.utils.blocks import per_block
from jupyter_mars.learn.utils.chunks import with_known_rows
from jupyter_mars.learn.utils.joblib_backend import session_cores
from jupyter_mars.learn.utils.validation import check_array, check_consistent_length, fetch_all
from jupyter_mars.tensor.core import Tensor

__all__ = ["MarsDistributedModel"]

DEFAULT_PARTITIONS = 10
"""Partitions when neither ``num_partitions`` nor ``factor`` is given, as in Mars."""


def fit_partition(
    model_class: Any,
    init_kwds: dict[str, Any],
    estimate: Callable[..., Any],
    estimation_kwds: dict[str, Any],
    fit_kwds: dict[str, Any],
    starts: tuple[int, ...],
    exog: np.ndarray[Any, Any],
    endog: np.ndarray[Any, Any],
    rows: np.ndarray[Any, Any],
) -> Any:
    """One partition's estimate; ``rows`` are its row numbers, whose first tells which
    partition it is (the debiased estimate computes the partition's share of the
    node-wise regressions)."""
    partition = int(np.searchsorted(starts, rows[0], side="right")) - 1
    model = model_class(endog, exog, **init_kwds)
    return estimate(model, partition, len(starts), fit_kwds=fit_kwds, **estimation_kwds)


def _keywords(value: Any, name: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a dict or None, got {type(value).__name__}")
    return dict(value)


def _lengths(n_rows: int, partitions: int) -> tuple[int, ...]:
    """``n_rows`` split into ``partitions`` lengths differing by one at most."""
    base, extra = divmod(n_rows, partitions)
    return tuple(base + (1 if i < extra else 0) for i in range(partitions))


class MarsDistributedModel:
    """A statsmodels model fitted by partitions of the rows, one task each, as Mars's
    ``mars.learn.contrib.statsmodels.MarsDistributedModel`` and statsmodels'
    ``DistributedModel``.

    ``num_partitions``: how many partitions (10 when neither it nor ``factor`` is
    given); ``factor``: as many as ``factor`` times the cores of the session fitting
    (it wins over ``num_partitions``, as in Mars). ``model_class``: a statsmodels model
    (``OLS`` when None; ``GLM``, ``Logit``, ``Poisson``, ...), built on each partition
    with ``init_kwds`` (given to every partition as they are: no per-row arrays).
    ``estimation_method``: ``"regularized_debiased"`` (None: statsmodels' default),
    ``"regularized_naive"``, ``"unregularized_naive"`` (see ``estimation.py``), or a
    callable with statsmodels' signature, with ``estimation_kwds``; ``join_method``
    (with ``join_kwds``) joins the partitions' results, by default the named method's
    own join (for a callable, statsmodels' debiased join); ``results_class`` (with
    ``results_kwds``) makes the results from a dummy model and the joined parameters, by
    default statsmodels' ``RegularizedResults``, or for ``"unregularized_naive"`` results
    with the averaged covariance.
    """

    def __init__(
        self,
        factor: float | None = None,
        num_partitions: int | None = None,
        model_class: Any = None,
        init_kwds: dict[str, Any] | None = None,
        estimation_method: str | Callable[..., Any] | None = None,
        estimation_kwds: dict[str, Any] | None = None,
        join_method: Callable[..., Any] | None = None,
        join_kwds: dict[str, Any] | None = None,
        results_class: Any = None,
        results_kwds: dict[str, Any] | None = None,
    ) -> None:
        self.factor = factor
        self.num_partitions = num_partitions
        self.model_class = model_class
        self.init_kwds = init_kwds
        self.estimation_method = estimation_method
        self.estimation_kwds = estimation_kwds
        self.join_method = join_method
        self.join_kwds = join_kwds
        self.results_class = results_class
        self.results_kwds = results_kwds

    def __repr__(self) -> str:
        model = "OLS" if self.model_class is None else getattr(self.model_class, "__name__", "?")
        return f"MarsDistributedModel(model_class={model}, num_partitions={self.num_partitions})"

    def fit(
        self,
        endog: Any,
        exog: Any,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> MarsResults:
        """Fit the model by partitions of the rows on ``session`` (the default session
        when None); ``kwargs`` go to each partition's fit (``alpha``, ``L1_wt``, ...)."""
        estimation = self._estimation(kwargs)
        model_class = OLS if self.model_class is None else self.model_class
        if not callable(model_class):
            raise TypeError(f"model_class must be a statsmodels model class, got {model_class!r}")
        init_kwds = _keywords(self.init_kwds, "init_kwds")
        estimation_kwds = _keywords(self.estimation_kwds, "estimation_kwds")
        join_kwds = _keywords(self.join_kwds, "join_kwds")
        results_kwds = _keywords(self.results_kwds, "results_kwds")
        # a model that handles missing values itself may be given NaN
        finite = True if init_kwds.get("missing", "none") == "none" else "allow-nan"
        x = design_matrix(exog, "exog", ensure_all_finite=finite)
        y = check_array(
            endog, ensure_2d=False, allow_nd=True, ensure_all_finite=finite, input_name="endog"
        )
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.ravel()
        if y.ndim not in (1, 2):
            raise ValueError(f"endog must be 1-d or 2-d, got an array of {y.ndim} dimensions")
        check_consistent_length(y, x)
        x = with_known_rows(x, session, run_kwargs)
        y = with_known_rows(y, session, run_kwargs)
        check_consistent_length(y, x)  # again: lengths a frame's filter left unknown
        n_rows, n_features = int(x.shape[0]), int(x.shape[1])
        lengths = _lengths(n_rows, self._partitions(n_rows, session))
        starts = tuple(int(s) for s in np.cumsum((0, *lengths[:-1])))
        kernel = functools.partial(
            fit_partition,
            model_class,
            init_kwds,
            estimation.estimate,
            estimation_kwds,
            dict(kwargs),
            starts,
        )
        fitted = per_block(
            kernel,
            x.rechunk((lengths, (n_features,))),
            _by_rows(y, lengths),
            mt.arange(n_rows, chunk_size=(lengths,)),
            name="statsmodels_fit",
        )
        (partition_results,) = fetch_all(fitted, session=session, run_kwargs=run_kwargs)
        partition_results = list(partition_results)
        params = estimation.join(partition_results, **join_kwds)
        # statsmodels' results want a model: one on a dummy row, as its DistributedModel
        dummy = model_class([0], [0], **init_kwds)
        if self.results_class is not None:
            results = self.results_class(dummy, params, **results_kwds)
        elif estimation.covariance is not None:
            covariance = estimation.covariance(partition_results)
            results = AveragedResults(dummy, params, covariance, **results_kwds)
        else:
            results = RegularizedResults(dummy, params, **results_kwds)
        return MarsResults(results, n_features)

    def _estimation(self, fit_kwds: dict[str, Any]) -> Estimation:
        """The estimation asked for, checked against the fit's keywords."""
        method = DEFAULT_ESTIMATION if self.estimation_method is None else self.estimation_method
        if callable(method):
            join = _join_debiased if self.join_method is None else self.join_method
            return Estimation(method, join, needs_alpha=False)
        if not isinstance(method, str) or method not in ESTIMATIONS:
            raise ValueError(
                f"estimation_method must be one of {sorted(ESTIMATIONS)} or a callable, "
                f"got {method!r}"
            )
        named = ESTIMATIONS[method]
        if named.needs_alpha and "alpha" not in fit_kwds:
            raise ValueError(
                f"estimation_method={method!r} fits each partition with fit_regularized, "
                "which needs the penalty: pass fit(..., alpha=...), or use "
                "estimation_method='unregularized_naive'"
            )
        if self.join_method is None:
            return named
        return Estimation(named.estimate, self.join_method, named.needs_alpha)

    def _partitions(self, n_rows: int, session: Session | None) -> int:
        """How many partitions: ``factor`` times the session's cores, or
        ``num_partitions``; no more than there are rows."""
        if self.factor is not None:
            check_scalar(self.factor, "factor", Real, min_val=0, include_boundaries="neither")
            cores = session_cores(default_session(session))
            partitions, name = max(1, int(cores * self.factor)), "factor"
        elif self.num_partitions is not None:
            check_scalar(self.num_partitions, "num_partitions", Integral, min_val=1)
            partitions, name = int(self.num_partitions), "num_partitions"
        else:
            partitions, name = min(DEFAULT_PARTITIONS, n_rows), "num_partitions"
        if partitions > n_rows:
            raise ValueError(
                f"{name} gives {partitions} partitions, more than the {n_rows} rows of the data"
            )
        return partitions


def _by_rows(y: Tensor, lengths: tuple[int, ...]) -> Tensor:
    """``y`` chunked by the partitions' rows, its columns (if any) whole."""
    chunks = (lengths,) if y.ndim == 1 else (lengths, (int(y.shape[1]),))
    rechunked: Tensor = y.rechunk(chunks)
    return rechunked
