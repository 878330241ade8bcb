"""Input checks and helpers shared by the estimators, as ``sklearn.utils``."""

from jupyter_mars.learn.utils.joblib_backend import MarsBackend
from jupyter_mars.learn.utils.shuffle import shuffle
from jupyter_mars.learn.utils.validation import (
    check_array,
    check_consistent_length,
    check_is_fitted,
    check_random_state,
    check_X_y,
    column_or_1d,
    fetch_all,
    to_tensor,
)

__all__ = [
    "MarsBackend",
    "check_X_y",
    "check_array",
    "check_consistent_length",
    "check_is_fitted",
    "check_random_state",
    "column_or_1d",
    "fetch_all",
    "shuffle",
    "to_tensor",
]
