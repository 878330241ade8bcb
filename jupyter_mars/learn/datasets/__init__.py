"""Synthetic data sets, as ``sklearn.datasets``' generators, drawn chunk by chunk.

``make_blobs`` (``blobs.py``), ``make_classification`` (``classification.py``),
``make_regression`` and ``make_low_rank_matrix`` (``regression.py``) take
scikit-learn's arguments and ``chunk_size`` (Mars's), and return tensors. Every chunk is
drawn in its own task from a stream given by a seed drawn from ``random_state`` and the
chunk's index (``drawn.py``): the same ``random_state`` gives the same data on any
session for a given chunking (another chunking gives other, equally distributed, data).
"""

from jupyter_mars.learn.datasets.blobs import make_blobs
from jupyter_mars.learn.datasets.classification import make_classification
from jupyter_mars.learn.datasets.regression import make_low_rank_matrix, make_regression

__all__ = ["make_blobs", "make_classification", "make_low_rank_matrix", "make_regression"]
