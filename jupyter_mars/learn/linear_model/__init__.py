"""Linear models, as ``sklearn.linear_model``: ``LinearRegression``, and
``LogisticRegression`` (the class of ``jupyter_mars.learn.glm``, where Mars had it)."""

from jupyter_mars.learn.glm import LogisticRegression
from jupyter_mars.learn.linear_model.linear_regression import LinearRegression

__all__ = ["LinearRegression", "LogisticRegression"]
