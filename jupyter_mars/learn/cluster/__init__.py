"""Clustering, as scikit-learn's ``sklearn.cluster``: k-means over the chunks of rows."""

from jupyter_mars.learn.cluster.kmeans import KMeans, k_means
from jupyter_mars.learn.cluster.minibatch import MiniBatchKMeans

__all__ = ["KMeans", "MiniBatchKMeans", "k_means"]
