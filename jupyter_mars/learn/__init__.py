"""Scikit-learn at scale: Mars's ``mars.learn``, on this project's tensors and frames.

The modules mirror scikit-learn's layout (``preprocessing``, ``metrics``, ``cluster``,
...). Estimators are scikit-learn estimators (``get_params``, ``clone`` and pipelines
work): ``fit`` runs on the default session's runtime (or the ``session=`` given) and
returns the estimator, whose fitted attributes are NumPy arrays; ``predict`` and
``transform`` return lazy tensors. Inputs may be NumPy arrays, pandas objects, tensors or
frames. Scikit-learn itself is needed: ``pip install 'jupyter_mars[learn]'``.
"""
