"""Scores of predictions, as ``sklearn.metrics``: classification, regression and ranking.

Each metric takes arrays, lists, pandas objects, tensors or frames (labels may be numbers
or strings) and returns a tensor computed when the metric is called, on the ``session``
given (the default one if None), as Mars's ``mars.learn.metrics`` return them
(``computed.py``): 0-d for a score, 1-d per label or for a curve; ``score.fetch()`` is
scikit-learn's number. Inputs are checked with scikit-learn's errors; what the checks
need of the data (labels, target types) is computed first, in one round trip of small
results.

Modules: ``computed`` (the decorator that computes a metric's result), ``targets`` (the
checks of classification targets), ``classification`` (``accuracy_score``,
``log_loss``), ``confusion`` (``multilabel_confusion_matrix``),
``precision_recall``, ``regression`` (``r2_score``), ``ranking`` (``roc_curve``, ``auc``)
and ``roc_auc`` (``roc_auc_score``); ``pairwise`` holds the distances and kernels
between rows, the distances also named here as scikit-learn names them; ``scorer``
computes scores by scikit-learn's scorer names, as the estimators' ``score`` methods
(``jupyter_mars.learn.base``) and ``ParallelPostFit`` want them.
"""

from jupyter_mars.learn.metrics import pairwise
from jupyter_mars.learn.metrics.classification import accuracy_score, log_loss
from jupyter_mars.learn.metrics.confusion import multilabel_confusion_matrix
from jupyter_mars.learn.metrics.pairwise import (
    euclidean_distances,
    nan_euclidean_distances,
    pairwise_distances,
    pairwise_distances_argmin,
    pairwise_distances_argmin_min,
)
from jupyter_mars.learn.metrics.precision_recall import (
    f1_score,
    fbeta_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from jupyter_mars.learn.metrics.ranking import auc, roc_curve
from jupyter_mars.learn.metrics.regression import r2_score
from jupyter_mars.learn.metrics.roc_auc import roc_auc_score

__all__ = [
    "accuracy_score",
    "auc",
    "euclidean_distances",
    "f1_score",
    "fbeta_score",
    "log_loss",
    "multilabel_confusion_matrix",
    "nan_euclidean_distances",
    "pairwise",
    "pairwise_distances",
    "pairwise_distances_argmin",
    "pairwise_distances_argmin_min",
    "precision_recall_fscore_support",
    "precision_score",
    "r2_score",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
]
