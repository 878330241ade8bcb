"""Linear models, as ``sklearn.linear_model``: ``LinearRegression``."""

from jupyter_mars.learn.linear_model._linear_regression import LinearRegression

__all__ = ["LinearRegression"]
