"""Meta-estimators that apply scikit-learn estimators block-wise, as dask-ml's
``wrappers``: ``ParallelPostFit``."""

from jupyter_mars.learn.wrappers.parallel_post_fit import ParallelPostFit

__all__ = ["ParallelPostFit"]
