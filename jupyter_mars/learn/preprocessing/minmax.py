"""``MinMaxScaler`` and ``minmax_scale``: each feature scaled to a range, as scikit-learn's.

``fit`` computes the minimum and maximum of every column by chunk-wise reductions
(NaN ignored) and fetches those two vectors; ``partial_fit`` merges them with the ones
seen before (NaN ignored there too). ``transform`` is ``X * scale_ + min_`` on the tensor, lazy.
``minmax_scale`` is lazy from end to end: its minimum and maximum stay tensors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.preprocessing.inputs import SCALER_DTYPES, scaler_input
from jupyter_mars.learn.utils.chunks import row_count
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.params import check_bool
from jupyter_mars.learn.utils.validation import check_array, fetch_all
from jupyter_mars.tensor.core import Tensor

__all__ = ["MinMaxScaler", "minmax_scale"]

_FITTED = ("scale_", "min_", "n_samples_seen_", "data_min_", "data_max_", "data_range_")


def _check_range(feature_range: Any, owner: str) -> tuple[float, float]:
    if not isinstance(feature_range, tuple):
        raise ValueError(
            f"The 'feature_range' parameter of {owner} must be an instance of 'tuple'. "
            f"Got {feature_range!r} instead."
        )
    if len(feature_range) != 2:
        raise ValueError(f"feature_range must be a (min, max) pair, got {feature_range!r}")
    if feature_range[0] >= feature_range[1]:
        raise ValueError(
            "Minimum of desired feature range must be smaller than maximum. "
            f"Got feature_range={feature_range}."
        )
    return feature_range[0], feature_range[1]


def zeros_to_ones(scale: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``scale`` with the lengths too small to divide by (under ten epsilons of its
    dtype: constant features) set to 1, as scikit-learn does."""
    out = np.array(scale, copy=True)
    out[out < 10 * np.finfo(out.dtype).eps] = 1.0
    return out


class MinMaxScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):  # type: ignore[misc]
    """Scale each feature to ``feature_range`` from the minimum and maximum seen in
    ``fit`` (scikit-learn's ``MinMaxScaler``); ``clip`` clips transformed values to it."""

    data_min_: np.ndarray[Any, Any]
    data_max_: np.ndarray[Any, Any]
    data_range_: np.ndarray[Any, Any]
    scale_: np.ndarray[Any, Any]
    min_: np.ndarray[Any, Any]
    n_samples_seen_: int

    def __init__(
        self, feature_range: tuple[float, float] = (0, 1), *, copy: bool = True, clip: bool = False
    ) -> None:
        self.feature_range = feature_range
        self.copy = copy
        self.clip = clip

    def _reset(self) -> None:
        for name in _FITTED:
            if hasattr(self, name):
                delattr(self, name)

    def fit(
        self,
        X: Any,  # noqa: N803
        y: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> MinMaxScaler:
        """Compute the minimum and maximum of each feature of ``X``."""
        self._reset()
        return self.partial_fit(X, y, session=session, run_kwargs=run_kwargs)

    def partial_fit(
        self,
        X: Any,  # noqa: N803
        y: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> MinMaxScaler:
        """Merge the minimum and maximum of each feature of ``X`` with those seen so far."""
        low, high = _check_range(self.feature_range, type(self).__name__)
        check_bool(self.copy, "copy", type(self).__name__)
        check_bool(self.clip, "clip", type(self).__name__)
        first = not hasattr(self, "n_samples_seen_")
        data = scaler_input(X, self)
        if first:
            record_features(self, X, data)
        else:
            check_features(self, X, data)
        data_min, data_max, n_rows = fetch_all(
            mt.nanmin(data, axis=0),
            mt.nanmax(data, axis=0),
            row_count(data),
            session=session,
            run_kwargs=run_kwargs,
        )
        if first:
            self.n_samples_seen_ = int(n_rows)
        else:
            # a batch whose values of a feature are all NaN leaves it as it was (NaN is
            # ignored; scikit-learn's partial_fit turns the feature's range to NaN)
            data_min = np.fmin(self.data_min_, data_min)
            data_max = np.fmax(self.data_max_, data_max)
            self.n_samples_seen_ += int(n_rows)
        data_range = data_max - data_min
        self.scale_ = (high - low) / zeros_to_ones(data_range)
        self.min_ = low - data_min * self.scale_
        self.data_min_ = data_min
        self.data_max_ = data_max
        self.data_range_ = data_range
        return self

    def transform(self, X: Any) -> Tensor:  # noqa: N803
        """``X`` scaled: a lazy tensor, of ``X``'s float dtype."""
        check_is_fitted(self)
        data = scaler_input(X, self)
        check_features(self, X, data)
        out: Tensor = data * self.scale_ + self.min_
        if out.dtype != data.dtype:
            out = out.astype(data.dtype)
        if self.clip:
            out = mt.clip(out, self.feature_range[0], self.feature_range[1])
        return out

    def inverse_transform(self, X: Any) -> Tensor:  # noqa: N803
        """Undo ``transform``: a lazy tensor of ``X``'s float dtype."""
        check_is_fitted(self)
        data = scaler_input(X)
        out: Tensor = (data - self.min_) / self.scale_
        return out if out.dtype == data.dtype else out.astype(data.dtype)


def minmax_scale(
    X: Any,  # noqa: N803
    feature_range: tuple[float, float] = (0, 1),
    *,
    axis: int = 0,
    copy: bool = True,
) -> Tensor:
    """Each feature (``axis=0``) or sample (``axis=1``) of ``X`` scaled to
    ``feature_range``, as scikit-learn's ``minmax_scale``: a lazy tensor whose minima
    and maxima are computed with it. A 1-d ``X`` is one feature."""
    low, high = _check_range(feature_range, "minmax_scale")
    if isinstance(axis, bool) or axis not in (0, 1):
        raise ValueError(
            f"The 'axis' parameter of minmax_scale must be an int among {{0, 1}}. "
            f"Got {axis!r} instead."
        )
    data = check_array(X, ensure_2d=False, dtype=SCALER_DTYPES, ensure_all_finite="allow-nan")
    if data.ndim > 2:
        raise ValueError(f"Found array with dim {data.ndim}. Expected <= 2.")
    one_d = data.ndim == 1
    table = data.reshape(-1, 1) if one_d else data
    if axis == 1:
        table = table.T
    data_min = mt.nanmin(table, axis=0)
    data_range = mt.nanmax(table, axis=0) - data_min
    eps = np.finfo(data.dtype).eps
    scale = (high - low) / mt.where(data_range < 10 * eps, 1.0, data_range)
    out: Tensor = table * scale + (low - data_min * scale)
    out = out if out.dtype == data.dtype else out.astype(data.dtype)
    if axis == 1:
        out = out.T
    return out.ravel() if one_d else out
