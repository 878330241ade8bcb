"""``StandardScaler``: each feature centred and scaled to unit variance, as scikit-learn's.

``fit`` computes, per feature, the number of values that are not NaN, their mean and
their variance in one pass of chunk-wise reductions (each chunk's mean and sum of
squared deviations merged by Chan et al.'s update, so a large offset keeps its
precision), and fetches those three vectors. With ``sample_weight`` the weighted mean
comes first and the weighted squared deviations from it in a second pass, scikit-learn's
corrected two-pass algorithm. ``partial_fit`` merges a batch's moments with those seen
before, by the same update, in the driver. Near-constant features (a variance within
the rounding error of its computation) get a scale of 1, as in scikit-learn.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.preprocessing.inputs import scaler_input
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.params import check_bool
from jupyter_mars.learn.utils.validation import (
    check_consistent_length,
    check_sample_weight,
    fetch_all,
)
from jupyter_mars.tensor.core import Tensor

__all__ = ["StandardScaler", "merge_moments"]

Moments = tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any] | None]
"""Per feature: the count (or the sum of the weights) of values seen, their mean and
their variance (None where it is not tracked)."""


def merge_moments(old: Moments, new: Moments) -> Moments:
    """The moments of two batches together (Chan, Golub and LeVeque's update); a batch
    with no values for a feature leaves the other's as they are."""
    old_n, old_mean, old_var = old
    new_n, new_mean, new_var = new
    with np.errstate(divide="ignore", invalid="ignore"):
        total = old_n + new_n
        mean = np.where(
            old_n == 0,
            new_mean,
            np.where(new_n == 0, old_mean, old_mean + (new_mean - old_mean) * (new_n / total)),
        )
        var = None
        if old_var is not None and new_var is not None:
            spread = (
                old_var * old_n
                + new_var * new_n
                + (new_mean - old_mean) ** 2 * (old_n * new_n / total)
            )
            var = np.where(old_n == 0, new_var, np.where(new_n == 0, old_var, spread / total))
    return (
        np.asarray(total),
        np.asarray(mean, dtype=np.float64),
        None if var is None else np.asarray(var, dtype=np.float64),
    )


def _batch_moments(
    data: Tensor,
    weights: Tensor | None,
    with_var: bool,
    session: Session | None,
    run_kwargs: dict[str, Any] | None,
) -> Moments:
    """The moments of one batch, by chunk-wise reductions."""
    present = ~mt.isnan(data)
    if weights is None:
        count, mean, var = fetch_all(
            present.sum(axis=0),
            mt.nanmean(data, axis=0, dtype=np.float64),
            mt.nanvar(data, axis=0, dtype=np.float64),
            session=session,
            run_kwargs=run_kwargs,
        )
        return count, mean, var if with_var else None
    column = weights.astype(np.float64)[:, None]
    values = mt.where(present, data, 0).astype(np.float64)
    total, weighted = fetch_all(
        (column * present).sum(axis=0),
        (column * values).sum(axis=0),
        session=session,
        run_kwargs=run_kwargs,
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = weighted / total
    if not with_var:
        return total, mean, None
    deviations = mt.where(present, values - mean, 0)
    correction, squares = fetch_all(
        (column * deviations).sum(axis=0),
        (column * deviations**2).sum(axis=0),
        session=session,
        run_kwargs=run_kwargs,
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        # rounding may leave the variance of a constant feature a hair below zero
        var = np.maximum((squares - correction**2 / total) / total, 0.0)
    return total, mean, var


def _constant(var: np.ndarray[Any, Any], mean: np.ndarray[Any, Any], n: Any) -> Any:
    """The features whose variance is within the rounding error of computing it (a
    bound on the error of the two-pass algorithm): constants, to be scaled by 1."""
    eps = np.finfo(np.float64).eps
    return var <= n * eps * var + (n * mean * eps) ** 2


class StandardScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):  # type: ignore[misc]
    """Centre each feature on its mean (``with_mean``) and divide it by its standard
    deviation (``with_std``), as scikit-learn's ``StandardScaler``; NaN is ignored by
    ``fit`` and kept by ``transform``."""

    mean_: np.ndarray[Any, Any] | None
    var_: np.ndarray[Any, Any] | None
    scale_: np.ndarray[Any, Any] | None
    n_samples_seen_: Any

    def __init__(self, *, copy: bool = True, with_mean: bool = True, with_std: bool = True) -> None:
        self.copy = copy
        self.with_mean = with_mean
        self.with_std = with_std

    def _reset(self) -> None:
        for name in ("scale_", "n_samples_seen_", "mean_", "var_"):
            if hasattr(self, name):
                delattr(self, name)

    def fit(
        self,
        X: Any,  # noqa: N803
        y: Any = None,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> StandardScaler:
        """Compute the mean and variance of each feature of ``X``."""
        self._reset()
        return self.partial_fit(X, y, sample_weight, session=session, run_kwargs=run_kwargs)

    def partial_fit(
        self,
        X: Any,  # noqa: N803
        y: Any = None,
        sample_weight: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> StandardScaler:
        """Merge the mean and variance of each feature of ``X`` with those seen so far."""
        owner = type(self).__name__
        for name in ("copy", "with_mean", "with_std"):
            check_bool(getattr(self, name), name, owner)
        first = not hasattr(self, "n_samples_seen_")
        data = scaler_input(X, self)
        if first:
            record_features(self, X, data)
        else:
            check_features(self, X, data)
        if sample_weight is not None and not isinstance(sample_weight, numbers.Number):
            check_consistent_length(data, sample_weight)  # its message for a length apart
        weights = check_sample_weight(sample_weight, data.shape[0], data.dtype)
        n_features = int(data.shape[1])
        seen = (
            np.zeros(n_features) if first else np.broadcast_to(self.n_samples_seen_, (n_features,))
        )
        if not self.with_mean and not self.with_std:
            # scikit-learn counts the values here whatever their weights; weights only
            # make the count a float
            present = ~mt.isnan(data)
            (count,) = fetch_all(present.sum(axis=0), session=session, run_kwargs=run_kwargs)
            seen = seen.astype(np.int64 if weights is None else data.dtype) + count
            self.mean_ = self.var_ = None
        else:
            batch = _batch_moments(data, weights, self.with_std, session, run_kwargs)
            zeros = np.zeros(n_features)
            old_mean: Any = zeros if first else self.mean_
            old_var: Any = None if not self.with_std else zeros if first else self.var_
            seen, self.mean_, self.var_ = merge_moments(
                (seen.astype(np.float64), old_mean, old_var), batch
            )
        self.n_samples_seen_ = seen[0] if seen.max() == seen.min() else seen
        if self.with_std:
            assert self.var_ is not None
            assert self.mean_ is not None
            scale = np.sqrt(self.var_)
            scale[_constant(self.var_, self.mean_, self.n_samples_seen_)] = 1.0
            self.scale_ = scale
        else:
            self.scale_ = None
        return self

    def transform(self, X: Any, copy: bool | None = None) -> Tensor:  # noqa: N803
        """``X`` centred and scaled: a lazy tensor of ``X``'s float dtype."""
        check_is_fitted(self)
        data = scaler_input(X, self)
        check_features(self, X, data)
        out: Any = data
        if self.with_mean:
            out = out - np.asarray(self.mean_).astype(data.dtype)
        if self.with_std:
            out = out / np.asarray(self.scale_).astype(data.dtype)
        return out  # type: ignore[no-any-return]

    def inverse_transform(self, X: Any, copy: bool | None = None) -> Tensor:  # noqa: N803
        """Undo ``transform``: a lazy tensor of ``X``'s float dtype."""
        check_is_fitted(self)
        data = scaler_input(X)
        out: Any = data
        if self.with_std:
            out = out * np.asarray(self.scale_).astype(data.dtype)
        if self.with_mean:
            out = out + np.asarray(self.mean_).astype(data.dtype)
        return out  # type: ignore[no-any-return]
