"""Splitting data for model selection, as ``sklearn.model_selection``: ``train_test_split``
(``split.py``) and ``KFold`` (``kfold.py``)."""

from jupyter_mars.learn.model_selection.kfold import KFold
from jupyter_mars.learn.model_selection.split import train_test_split

__all__ = ["KFold", "train_test_split"]
