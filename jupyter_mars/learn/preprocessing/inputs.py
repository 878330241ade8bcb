"""What the scalers check of their input and their arguments, as scikit-learn checks it.

``fit`` records the number of features (``n_features_in_``) and, for frames whose column
labels are all strings, their names (``feature_names_in_``); ``transform`` compares the
data it gets with them, with scikit-learn's messages and warnings. Inputs become float
tensors (float64, unless float32 or float16 already) where NaN is allowed: the scalers
ignore it when they fit and keep it when they transform.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np
import pandas as pd

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.learn.utils.validation import check_array
from jupyter_mars.tensor.core import Tensor

__all__ = [
    "FLOAT_DTYPES",
    "check_bool",
    "check_features",
    "float_input",
    "record_features",
    "row_count",
]

FLOAT_DTYPES = [np.float64, np.float32, np.float16]
"""The float dtypes a scaler keeps; any other input is cast to the first."""


def float_input(X: Any, estimator: Any = None, **kwargs: Any) -> Tensor:  # noqa: N803
    """``X`` as a 2-d float tensor, NaN allowed, infinity not (``check_array``)."""
    kwargs.setdefault("ensure_all_finite", "allow-nan")
    kwargs.setdefault("input_name", "X")
    return check_array(X, dtype=FLOAT_DTYPES, estimator=estimator, **kwargs)


def check_bool(value: Any, name: str, owner: str) -> None:
    """The ``ValueError`` scikit-learn raises for a flag that is not a bool."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(
            f"The '{name}' parameter of {owner} must be an instance of 'bool' or an "
            f"instance of 'numpy.bool'. Got {value!r} instead."
        )


def check_number(value: Any, name: str, owner: str) -> None:
    """The ``ValueError`` for an argument that should be a real number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(
            f"The '{name}' parameter of {owner} must be a real number. Got {value!r} instead."
        )


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
    n_features = data.shape[1]
    if n_features != estimator.n_features_in_:
        raise ValueError(
            f"X has {n_features} features, but {name} is expecting "
            f"{estimator.n_features_in_} features as input."
        )


def row_count(data: Tensor) -> Any:
    """The number of rows of a 2-d tensor: an int where known, else a lazy count."""
    n = data.shape[0]
    if not np.isnan(n):
        return int(n)
    column = mt.isnan(data[:, 0])
    return mt.count_nonzero(column | ~column)
