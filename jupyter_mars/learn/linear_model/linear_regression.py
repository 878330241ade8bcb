"""``LinearRegression``: ordinary least squares on chunked data, scikit-learn's estimator.

The fit is one graph over the data, as scikit-learn's fit is one ``scipy.linalg.lstsq``:

1. centre ``X`` and ``y`` on their (weighted) means when ``fit_intercept``, and scale
   each row by the square root of its sample weight;
2. the thin SVD ``X_c = U S V^T`` by TSQR (``mt.linalg.svd``): each row chunk is
   QR-factored where it lies and only ``n_features²`` factors meet; a least-squares
   solve this way never forms ``X^T X``, so it keeps the accuracy of LAPACK's (the
   normal equations would square the condition number);
3. ``U^T y_c``, a product reduced over the row chunks.

The driver fetches ``S``, ``V^T`` and ``U^T y_c`` (all small) and takes the minimum-norm
solution ``V diag(1/s) U^T y_c``, singular values at most ``tol * max(s)`` counting as
zero, as ``scipy.linalg.lstsq(cond=tol)`` does: ``rank_`` and ``singular_`` follow. With
``positive=True`` it solves ``min |S V^T b - U^T y_c|, b >= 0`` by ``scipy.optimize.nnls``:
the same minimiser as on the whole data, whose residual differs by a constant.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np
from scipy.optimize import nnls
from sklearn.base import BaseEstimator, MultiOutputMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.base import RegressorMixin
from jupyter_mars.learn.utils.chunks import tall_and_skinny, with_known_rows
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.validation import (
    all_zero,
    check_sample_weight,
    check_X_y,
    fetch_all,
    float_input,
    raise_if_all_zero,
)
from jupyter_mars.tensor.core import Tensor


def _per_row(weights: Tensor, target: Tensor) -> Tensor:
    """``weights`` shaped to scale the rows of ``target`` (1-d or 2-d)."""
    return weights if target.ndim == 1 else weights[:, None]


class LinearRegression(MultiOutputMixin, RegressorMixin, BaseEstimator):  # type: ignore[misc]
    """Ordinary least squares, scikit-learn's ``LinearRegression``: ``coef_`` (shape
    ``(n_features,)``, or ``(n_targets, n_features)`` for 2-d ``y``), ``intercept_``,
    ``rank_``, ``singular_`` and ``n_features_in_``, fitted on a session's runtime (see
    the module docstring); ``predict`` returns a lazy tensor, ``score`` the R² as a float.

    ``copy_X`` and ``n_jobs`` are accepted for scikit-learn's sake (the input is never
    modified; the runtime decides the parallelism); ``tol`` is the relative cutoff below
    which singular values count as zero.
    """

    _parameter_constraints: dict[str, list[Any]] = {
        "fit_intercept": ["boolean"],
        "copy_X": ["boolean"],
        "n_jobs": [None, Integral],
        "positive": ["boolean"],
        "tol": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        *,
        fit_intercept: bool = True,
        copy_X: bool = True,  # noqa: N803
        tol: float = 1e-6,
        n_jobs: int | None = None,
        positive: bool = False,
    ) -> None:
        self.fit_intercept = fit_intercept
        self.copy_X = copy_X
        self.tol = tol
        self.n_jobs = n_jobs
        self.positive = positive

    def fit(
        self,
        X: Any,  # noqa: N803
        y: Any,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> LinearRegression:
        """Fit the model on ``X`` and ``y`` (computed on ``session``'s runtime)."""
        self._validate_params()
        x, target = check_X_y(X, y, multi_output=True, y_numeric=True, estimator=self)
        if x.dtype not in (np.float64, np.float32):
            x = x.astype(np.float64)
        target = target.astype(x.dtype)
        x = with_known_rows(x, session, run_kwargs)
        target = with_known_rows(target, session, run_kwargs)
        weights = check_sample_weight(sample_weight, x.shape[0], x.dtype, non_negative=True)

        small: dict[str, Any] = {}
        if self.fit_intercept:
            if weights is None:
                x_offset, y_offset = x.mean(axis=0), target.mean(axis=0)
            else:
                total = weights.sum()
                total = mt.where(total != 0, total, 1.0)  # all zero: refused below
                x_offset = (x * weights[:, None]).sum(axis=0) / total
                y_offset = (target * _per_row(weights, target)).sum(axis=0) / total
            x, target = x - x_offset, target - y_offset
            small.update(x_offset=x_offset, y_offset=y_offset)
        if weights is not None:
            small["all_zero"] = all_zero(weights)
            root = mt.sqrt(weights)
            x, target = x * root[:, None], target * _per_row(root, target)
        u, s, vt = mt.linalg.svd(tall_and_skinny(x))
        small.update(s=s, vt=vt, projected=u.T @ target)
        got = dict(zip(small, fetch_all(*small.values(), session=session, run_kwargs=run_kwargs)))
        if "all_zero" in got:
            raise_if_all_zero(got["all_zero"])

        s_, vt_, projected = got["s"], got["vt"], got["projected"]
        if self.positive:
            coef = self._nonnegative(s_, vt_, projected)
        else:
            coef = self._least_squares(s_, vt_, projected)
        dtype = x.dtype
        self.coef_ = coef.astype(dtype, copy=False)
        if self.fit_intercept:
            x_offset_, y_offset_ = got["x_offset"], got["y_offset"]
            self.intercept_ = y_offset_ - x_offset_ @ self.coef_.T
        else:
            self.intercept_ = 0.0
        record_features(self, X, x)
        return self

    def _least_squares(self, s: np.ndarray, vt: np.ndarray, projected: np.ndarray) -> np.ndarray:
        """The minimum-norm solution, as ``coef_`` is shaped; sets ``rank_``, ``singular_``."""
        cutoff = self.tol * s[0] if s.size else 0.0
        keep = s > cutoff
        self.rank_ = int(np.count_nonzero(keep))
        self.singular_ = s
        scaled = projected[keep] / (s[keep] if projected.ndim == 1 else s[keep][:, None])
        coef: np.ndarray = vt[keep].T @ scaled
        return coef.T

    @staticmethod
    def _nonnegative(s: np.ndarray, vt: np.ndarray, projected: np.ndarray) -> np.ndarray:
        """The least-squares solution with no negative coefficient, per target."""
        design = s[:, None] * vt
        if projected.ndim == 1:
            coef: np.ndarray = nnls(design, projected)[0]
            return coef
        return np.vstack([nnls(design, projected[:, j])[0] for j in range(projected.shape[1])])

    def predict(self, X: Any) -> Tensor:  # noqa: N803
        """The linear model's predictions for ``X``: a lazy tensor."""
        check_is_fitted(self)
        x = float_input(X, self)
        check_features(self, X, x)
        predicted: Tensor = x @ self.coef_.T + self.intercept_
        return predicted
