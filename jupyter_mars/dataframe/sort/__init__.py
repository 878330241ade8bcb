"""Ordering and distribution of rows: sorting, top-n, ranks, duplicates and distinct
values, quantiles and ``describe``.

Importing the package attaches the methods to DataFrame and Series:

- ``values``: ``sort_values`` and ``sort_index`` (sampled range partitioning);
- ``topn``: ``nlargest`` and ``nsmallest`` (tree of per-chunk top rows);
- ``duplicated``: ``duplicated`` and ``drop_duplicates`` (hash shuffle of the keys);
- ``unique``: ``unique``, ``nunique`` and ``value_counts`` (tree of distinct values);
- ``binned_counts``: ``value_counts(bins=)``;
- ``tree_or_shuffle``: Mars's ``method=`` on those (a tree of distinct rows or a shuffle);
- ``rank``, ``quantile`` (and ``median``), ``describe``: exact, on the gathered columns.
"""

from __future__ import annotations

# binned_counts and tree_or_shuffle import the modules whose methods they extend, so
# theirs are attached last
from jupyter_mars.dataframe.sort import (  # noqa: F401 - attach the methods
    binned_counts,
    describe,
    duplicated,
    quantile,
    rank,
    topn,
    tree_or_shuffle,
    unique,
    values,
)
