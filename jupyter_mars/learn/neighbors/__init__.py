"""Nearest neighbours, as scikit-learn's ``sklearn.neighbors``: brute-force searches over
pairs of chunks."""

from jupyter_mars.learn.neighbors.nearest import NearestNeighbors

__all__ = ["NearestNeighbors"]
