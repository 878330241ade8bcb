"""The classifier each trainer fits: LightGBM's, told every class of the whole training set.

``lightgbm.LGBMClassifier.fit`` finds the classes in the rows it is given and numbers
them. A trainer holds only some rows, which may lack a class: its numbering, its number
of classes (binary or multiclass) and so its trees would differ from the others'.
``fit_with_classes`` numbers the classes it is given instead, then fits as LightGBM's
classifier does.
"""

from __future__ import annotations

from typing import Any

import lightgbm
import numpy as np
from sklearn.preprocessing import LabelEncoder

__all__ = ["KnownClassesClassifier"]

BINARY_METRICS = {"logloss": "binary_logloss", "multi_logloss": "binary_logloss"}
BINARY_METRICS.update({"error": "binary_error", "multi_error": "binary_error"})
MULTICLASS_METRICS = {"logloss": "multi_logloss", "binary_logloss": "multi_logloss"}
MULTICLASS_METRICS.update({"error": "multi_error", "binary_error": "multi_error"})


def metrics_for(eval_metric: Any, n_classes: int) -> Any:
    """``eval_metric`` with its log-loss and error named for binary or multiclass
    classification, as LightGBM's classifier names them.

    >>> metrics_for("logloss", 3), metrics_for(["error", "auc"], 2)
    (['multi_logloss'], ['binary_error', 'auc'])
    """
    if callable(eval_metric):
        return eval_metric
    if isinstance(eval_metric, str):
        metrics = [eval_metric]
    elif isinstance(eval_metric, list):
        metrics = list(eval_metric)
    else:
        metrics = []
    names = MULTICLASS_METRICS if n_classes > 2 else BINARY_METRICS
    return [names.get(m, m) if isinstance(m, str) else m for m in metrics]


class KnownClassesClassifier(lightgbm.LGBMClassifier):
    """``lightgbm.LGBMClassifier`` that numbers the classes it is told of."""

    def fit_with_classes(
        self,
        classes: np.ndarray[Any, Any],
        X: Any,  # noqa: N803 - LightGBM's name
        y: Any,
        eval_X: tuple[Any, ...] | None = None,  # noqa: N803
        eval_y: tuple[Any, ...] | None = None,
        eval_metric: Any = None,
        **kwargs: Any,
    ) -> KnownClassesClassifier:
        """Fit on ``X``, ``y`` as LightGBM's classifier would on rows holding every one of
        ``classes`` (sorted, distinct)."""
        self._le = LabelEncoder().fit(classes)
        self._class_map = dict(zip(self._le.classes_, range(len(classes)), strict=True))
        if isinstance(self.class_weight, dict):
            self._class_weight = {self._class_map[k]: v for k, v in self.class_weight.items()}
        self._classes = self._le.classes_
        self._n_classes = len(self._classes)
        if self.objective is None:
            self._objective = None
        encoded = self._le.transform(y)
        valid_y = None
        if eval_X is not None and eval_y is not None:
            # the training rows themselves stay the same objects: LightGBM names them
            # "training" by that
            valid_y = tuple(
                encoded if vx is X and vy is y else self._le.transform(vy)
                for vx, vy in zip(eval_X, eval_y, strict=True)
            )
        lightgbm.LGBMModel.fit(
            self,
            X,
            encoded,
            eval_X=eval_X,
            eval_y=valid_y,
            eval_metric=metrics_for(eval_metric, self._n_classes),
            **kwargs,
        )
        return self
