"""Matrix decompositions, as ``sklearn.decomposition``: ``PCA`` and ``TruncatedSVD``."""

from jupyter_mars.learn.decomposition._pca import PCA
from jupyter_mars.learn.decomposition._truncated_svd import TruncatedSVD

__all__ = ["PCA", "TruncatedSVD"]
