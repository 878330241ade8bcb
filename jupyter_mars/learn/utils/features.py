"""What an estimator knows of its features, as scikit-learn records and checks it.

``fit`` calls ``record_features``: the number of columns (``n_features_in_``) and, for a
frame (pandas' or ours) whose column labels are all strings, their names
(``feature_names_in_``, an object array); a fit on anything else removes the names of an
earlier fit. Every method that reads new data of a fitted estimator calls
``check_features``, which gives scikit-learn's errors and warnings: a ``ValueError``
where the names differ from the fitted ones (other names, or the same in another order),
a ``UserWarning`` where a frame comes after a fit without names or the reverse, and a
``ValueError`` where the number of columns differs. ``check_feature_names`` checks the
names alone, for an estimator that counts the columns its own way (LightGBM's).

The warnings point at the user's line: the first frame of the call stack outside this
package and scikit-learn (whose mixins and pipelines call the estimators' methods), as
deep as the estimator's methods call one another.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import sklearn

from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.learn.utils.validation import check_n_features
from jupyter_mars.tensor.core import Tensor

__all__ = ["check_feature_names", "check_features", "feature_names", "record_features"]

MAX_NAMES_SHOWN = 5
"""How many unseen (or missing) names a mismatch's message lists, as scikit-learn's."""

_LIBRARY_DIRS = tuple(
    os.path.join(folder, "")
    for folder in (str(Path(__file__).parents[2]), os.path.dirname(sklearn.__file__ or ""))
)
"""Where the frames a warning skips come from: this package (``jupyter_mars``) and
scikit-learn."""


def feature_names(X: Any) -> np.ndarray[Any, Any] | None:  # noqa: N803 - scikit-learn's name
    """The column labels of a frame (pandas' or ours) when all are strings, as an object
    array; None for anything else. Labels of strings mixed with other types are refused
    with scikit-learn's ``TypeError``."""
    columns: Any = None
    if isinstance(X, pd.DataFrame):
        columns = X.columns
    elif isinstance(X, FrameBase) and isinstance(X.meta, pd.DataFrame):
        columns = X.meta.columns
    if columns is None or len(columns) == 0:
        return None
    names = np.asarray(columns, dtype=object)
    # by exact type, as scikit-learn: a NumPy string (a subclass of str) is not a name
    types = sorted({type(name).__qualname__ for name in names})
    if len(types) > 1 and "str" in types:
        raise TypeError(
            "Feature names are only supported if all input features have string names, "
            f"but your input has {types} as feature name / column name types. If you want "
            "feature names to be stored and validated, you must convert them all to "
            "strings, by using X.columns = X.columns.astype(str) for example. Otherwise "
            "you can remove feature / column names from your input data, or convert them "
            "all to a non-string data type."
        )
    return names if types == ["str"] else None


def record_features(estimator: Any, X: Any, data: Tensor) -> None:  # noqa: N803
    """Remember, on a fitting ``estimator``, the number of columns of ``data`` (the tensor
    made of ``X``) and the feature names of ``X``, forgetting those of an earlier fit."""
    names = feature_names(X)
    estimator.n_features_in_ = int(data.shape[1])
    if names is not None:
        estimator.feature_names_in_ = names
    elif hasattr(estimator, "feature_names_in_"):
        del estimator.feature_names_in_


def check_features(estimator: Any, X: Any, data: Tensor) -> None:  # noqa: N803
    """Scikit-learn's errors and warnings where ``X`` (``data`` the tensor made of it)
    does not have the features the fitted ``estimator`` recorded: their names
    (``check_feature_names``), then their number."""
    check_feature_names(estimator, X)
    check_n_features(estimator, data)


def check_feature_names(estimator: Any, X: Any) -> None:  # noqa: N803
    """Scikit-learn's ``ValueError`` where the feature names of ``X`` differ from those
    the fitted ``estimator`` recorded, and its ``UserWarning`` where only one of them
    has names."""
    name = type(estimator).__name__
    fitted = getattr(estimator, "feature_names_in_", None)
    given = feature_names(X)
    if fitted is not None and given is not None:
        if len(fitted) != len(given) or np.any(fitted != given):
            raise ValueError(_mismatch(fitted, given))
    elif fitted is not None:
        _warn(f"X does not have valid feature names, but {name} was fitted with feature names")
    elif given is not None:
        _warn(f"X has feature names, but {name} was fitted without feature names")


def _mismatch(fitted: np.ndarray[Any, Any], given: np.ndarray[Any, Any]) -> str:
    """Scikit-learn's message for names that differ from the fitted ones: the names
    unseen and those missing (sorted, five at most each), or else the order."""
    unseen = sorted(set(given) - set(fitted))
    missing = sorted(set(fitted) - set(given))
    message = "The feature names should match those that were passed during fit.\n"
    if unseen:
        message += "Feature names unseen at fit time:\n" + _listed(unseen)
    if missing:
        message += "Feature names seen at fit time, yet now missing:\n" + _listed(missing)
    if not unseen and not missing:
        message += "Feature names must be in the same order as they were in fit.\n"
    return message


def _listed(names: list[str]) -> str:
    shown = "".join(f"- {name}\n" for name in names[:MAX_NAMES_SHOWN])
    return shown + ("- ...\n" if len(names) > MAX_NAMES_SHOWN else "")


def _warn(message: str) -> None:
    """A ``UserWarning`` attributed to the first caller outside the library."""
    frame = sys._getframe(1)
    level = 2  # warn's stacklevel for our caller's frame
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_LIBRARY_DIRS):
        frame = frame.f_back
        level += 1
    warnings.warn(message, UserWarning, stacklevel=level)
