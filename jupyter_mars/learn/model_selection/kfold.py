"""``KFold``: k consecutive folds of the rows, as scikit-learn's.

The folds are index arrays (NumPy ints, the size of the data's first dimension), the
same as scikit-learn's for the same arguments, ``shuffle`` and ``random_state``
included: the first ``n_samples % n_splits`` folds are one row longer, and a shuffle
permutes the row numbers with the NumPy ``RandomState`` that ``random_state`` names
first. Index a tensor with them (``X[train]``) or a frame (``df.iloc[train]``); the rows
of a fold are in increasing order, so each output chunk reads only the chunks it needs.
Only the number of rows is read from the data: computed first where it is unknown.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from typing import Any

import numpy as np
from sklearn.model_selection import BaseCrossValidator

from jupyter_mars.learn.utils.chunks import with_known_rows
from jupyter_mars.learn.utils.validation import check_random_state, is_lazy

__all__ = ["KFold"]


def _n_samples(data: Any) -> int:
    """The number of rows of ``data``; a tensor's or frame's computed where unknown."""
    if is_lazy(data):
        return int(with_known_rows(data).shape[0])
    return int(np.shape(data)[0]) if hasattr(data, "shape") else len(data)


class KFold(BaseCrossValidator):  # type: ignore[misc]
    """K-fold cross-validation: each fold is the test set once, the others the training
    set (scikit-learn's ``KFold``, whose arguments it checks with the same messages)."""

    n_splits: int
    shuffle: bool
    random_state: Any

    def __init__(
        self, n_splits: int = 5, *, shuffle: bool = False, random_state: Any = None
    ) -> None:
        if not isinstance(n_splits, numbers.Integral):
            raise ValueError(
                "The number of folds must be of Integral type. "
                f"{n_splits} of type {type(n_splits)} was passed."
            )
        if n_splits <= 1:
            raise ValueError(
                "k-fold cross-validation requires at least one train/test split by setting "
                f"n_splits=2 or more, got n_splits={int(n_splits)}."
            )
        if not isinstance(shuffle, bool):
            raise TypeError(f"shuffle must be True or False; got {shuffle}")
        if not shuffle and random_state is not None:
            raise ValueError(
                "Setting a random_state has no effect since shuffle is False. You should "
                "leave random_state to its default (None), or set shuffle=True."
            )
        self.n_splits = int(n_splits)
        self.shuffle = shuffle
        self.random_state = random_state

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:  # noqa: N803
        """The number of folds."""
        return self.n_splits

    def _iter_test_indices(
        self,
        X: Any = None,
        y: Any = None,
        groups: Any = None,  # noqa: N803
    ) -> Iterator[np.ndarray[Any, Any]]:
        n_samples = _n_samples(X)
        indices = np.arange(n_samples)
        if self.shuffle:
            check_random_state(self.random_state).shuffle(indices)
        sizes = np.full(self.n_splits, n_samples // self.n_splits, dtype=np.int64)
        sizes[: n_samples % self.n_splits] += 1
        stops = np.cumsum(sizes)
        for start, stop in zip(stops - sizes, stops):
            yield indices[start:stop]

    def split(
        self,
        X: Any,
        y: Any = None,
        groups: Any = None,  # noqa: N803
    ) -> Iterator[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
        """``(train, test)`` row numbers of each fold in turn; a ``ValueError`` where
        there are fewer rows than folds."""
        n_samples = _n_samples(X)
        if self.n_splits > n_samples:
            raise ValueError(
                f"Cannot have number of splits n_splits={self.n_splits} greater than the "
                f"number of samples: n_samples={n_samples}."
            )
        rows = np.arange(n_samples)
        for test in self._iter_test_indices(X, y, groups):
            in_test = np.zeros(n_samples, dtype=bool)
            in_test[test] = True
            yield rows[~in_test], rows[in_test]
