"""LightGBM on this project's data, as Mars's ``mars.learn.contrib.lightgbm``.

``LGBMClassifier``, ``LGBMRegressor`` and ``LGBMRanker`` are LightGBM's scikit-learn
estimators, fitted on the workers that hold the data, one LightGBM process per cluster
worker joined through LightGBM's own network (one on the embedded session), and
predicting one row block at a time. LightGBM itself is needed: ``pip install lightgbm``.
"""

try:
    import lightgbm as _lightgbm  # noqa: F401 - only to say what is missing
except ImportError as exc:  # pragma: no cover - checked in a fresh interpreter
    raise ImportError(
        "jupyter_mars.learn.contrib.lightgbm needs LightGBM: pip install lightgbm"
    ) from exc

from jupyter_mars.learn.contrib.lightgbm.sklearn import (
    LGBMClassifier,
    LGBMRanker,
    LGBMRegressor,
)

__all__ = ["LGBMClassifier", "LGBMRanker", "LGBMRegressor"]
