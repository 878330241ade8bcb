"""Generalised linear models, as Mars's ``mars.learn.glm``: ``LogisticRegression`` (also
``jupyter_mars.learn.linear_model.LogisticRegression``, the same class)."""

from jupyter_mars.learn.glm.logistic import LogisticRegression

__all__ = ["LogisticRegression"]
