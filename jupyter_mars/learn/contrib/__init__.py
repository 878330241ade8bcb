"""Distributed training through other libraries' own engines, as Mars's
``mars.learn.contrib``: statsmodels (``contrib.statsmodels``), XGBoost
(``contrib.xgboost``) and LightGBM (``contrib.lightgbm``).

XGBoost and LightGBM train with the library's own distributed mode, one process of it
per worker that holds part of the training data, each on the rows held where it runs:
the row blocks are computed and kept on the workers first (``parts.py``), grouped by
the worker that holds them (``groups.py``), and one task per group trains, all at the
same time, joined through the library's own network (XGBoost's tracker, LightGBM's
``machines``), whose address they learn from this process (``network.py``). No library
is imported before its subpackage is: ``pip install xgboost`` or ``pip install
lightgbm`` for the one you use.
"""
