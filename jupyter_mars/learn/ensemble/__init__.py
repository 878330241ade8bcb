"""Ensembles of scikit-learn estimators fitted where the data lie, as ``sklearn.ensemble``
(bagging, isolation forests) and dask-ml (block-wise voting)."""

from jupyter_mars.learn.ensemble.bagging import BaggingClassifier, BaggingRegressor
from jupyter_mars.learn.ensemble.blockwise_voting import (
    BlockwiseVotingClassifier,
    BlockwiseVotingRegressor,
)
from jupyter_mars.learn.ensemble.isolation_forest import IsolationForest

__all__ = [
    "BaggingClassifier",
    "BaggingRegressor",
    "BlockwiseVotingClassifier",
    "BlockwiseVotingRegressor",
    "IsolationForest",
]
