"""XGBoost on this project's data, as Mars's ``mars.learn.contrib.xgboost``.

``MarsDMatrix`` holds the training data lazily; ``train`` trains a booster on the workers
that hold it, one XGBoost worker per cluster worker joined through XGBoost's collective
(one on the embedded session); ``predict`` gives a booster's predictions one row block
at a time; ``XGBClassifier`` and ``XGBRegressor`` are XGBoost's scikit-learn estimators
doing the same. XGBoost itself is needed: ``pip install xgboost``.
"""

try:
    import xgboost as _xgboost  # noqa: F401 - only to say what is missing
except ImportError as exc:  # pragma: no cover - checked in a fresh interpreter
    raise ImportError(
        "jupyter_mars.learn.contrib.xgboost needs XGBoost: pip install xgboost"
    ) from exc

from jupyter_mars.learn.contrib.xgboost.dmatrix import MarsDMatrix
from jupyter_mars.learn.contrib.xgboost.prediction import predict
from jupyter_mars.learn.contrib.xgboost.sklearn import XGBClassifier, XGBRegressor
from jupyter_mars.learn.contrib.xgboost.training import train

__all__ = ["MarsDMatrix", "XGBClassifier", "XGBRegressor", "predict", "train"]
