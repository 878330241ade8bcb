"""Matrix decompositions, as ``sklearn.decomposition``: ``PCA`` and ``TruncatedSVD``."""

from jupyter_mars.learn.decomposition.pca import PCA
from jupyter_mars.learn.decomposition.truncated_svd import TruncatedSVD

__all__ = ["PCA", "TruncatedSVD"]
