"""What the scalers check of their input and their arguments, as scikit-learn checks it.

``fit`` records the number of features (``n_features_in_``) and, for frames whose column
labels are all strings, their names (``feature_names_in_``); ``transform`` compares the
data it gets with them, with scikit-learn's messages and warnings. Inputs become float
tensors (float64, unless float32 or float16 already) where NaN is allowed: the scalers
ignore it when they fit and keep it when they transform. Their flags are checked by
``jupyter_mars.learn.utils.params``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.learn.utils.validation import FLOAT_DTYPES, check_n_features, float_input
from jupyter_mars.tensor.core import Tensor

__all__ = [
    "SCALER_DTYPES",
    "check_features",
    "record_features",
    "scaler_input",
]

SCALER_DTYPES = (*FLOAT_DTYPES, np.float16)
"""The float dtypes a scaler keeps (float16 too); any other input is cast to the first."""


def scaler_input(X: Any, estimator: Any = None) -> Tensor:  # noqa: N803
    """``X`` as a 2-d float tensor of ``SCALER_DTYPES``, NaN allowed, infinity not."""
    return float_input(X, estimator, dtype=SCALER_DTYPES, ensure_all_finite="allow-nan")


def feature_names(X: Any) -> np.ndarray[Any, Any] | None:
    """The column labels of a frame (pandas' or ours) when all are strings, else None."""
    columns: Any = None
    if isinstance(X, pd.DataFrame):
        columns = X.columns
    elif isinstance(X, FrameBase) and isinstance(X.meta, pd.DataFrame):
        columns = X.meta.columns
    if columns is None or len(columns) == 0:
        return None
    if not all(isinstance(c, str) for c in columns):
        return None
    return np.asarray(columns, dtype=object)


def record_features(estimator: Any, X: Any, data: Tensor) -> None:  # noqa: N803
    """Remember the number of features of ``data`` and the feature names of ``X``."""
    estimator.n_features_in_ = int(data.shape[1])
    names = feature_names(X)
    if names is None:
        if hasattr(estimator, "feature_names_in_"):
            del estimator.feature_names_in_
    else:
        estimator.feature_names_in_ = names


def check_features(estimator: Any, X: Any, data: Tensor) -> None:  # noqa: N803
    """Scikit-learn's errors and warnings where ``X`` does not have the features the
    estimator was fitted with."""
    name = type(estimator).__name__
    fitted = getattr(estimator, "feature_names_in_", None)
    given = feature_names(X)
    if fitted is not None and given is not None:
        if len(fitted) != len(given) or np.any(fitted != given):
            unseen = [c for c in given if c not in set(fitted)]
            missing = [c for c in fitted if c not in set(given)]
            message = "The feature names should match those that were passed during fit.\n"
            if unseen:
                message += "Feature names unseen at fit time:\n" + "".join(
                    f"- {c}\n" for c in unseen
                )
            if missing:
                message += "Feature names seen at fit time, yet now missing:\n" + "".join(
                    f"- {c}\n" for c in missing
                )
            if not unseen and not missing:
                message += "Feature names must be in the same order as they were in fit.\n"
            raise ValueError(message)
    elif fitted is not None:
        warnings.warn(
            f"X does not have valid feature names, but {name} was fitted with feature names",
            UserWarning,
            stacklevel=3,
        )
    elif given is not None:
        warnings.warn(
            f"X has feature names, but {name} was fitted without feature names",
            UserWarning,
            stacklevel=3,
        )
    check_n_features(estimator, data)
