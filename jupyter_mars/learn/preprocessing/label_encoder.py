"""``LabelEncoder``: labels as the integers ``0 .. n_classes - 1``, as scikit-learn's.

``fit`` fetches the distinct labels (a chunk-wise ``unique``), sorted: ``classes_``.
``transform`` looks each label up in them chunk by chunk, lazily; a label never seen
raises scikit-learn's ``ValueError`` naming it, at the call for labels held in memory,
else when the chunk holding it is computed. ``inverse_transform`` is the reverse lookup.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.preprocessing.targets import (
    isin_sorted,
    label_array,
    label_tensor,
    unseen_labels,
)
from jupyter_mars.learn.utils.validation import fetch_all, is_lazy
from jupyter_mars.tensor.core import Tensor

__all__ = ["LabelEncoder"]


def unseen_error(unseen: list[Any]) -> ValueError:
    return ValueError(f"y contains previously unseen labels: {unseen}")


def encode(block: np.ndarray[Any, Any], classes: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Chunk kernel: the place of each label in the sorted ``classes``; a ``ValueError``
    naming the labels that are not there."""
    found = isin_sorted(block, classes)
    if not found.all():
        raise unseen_error(unseen_labels(block[~found], classes))
    return np.searchsorted(classes, block).astype(np.int64)


def decode(block: np.ndarray[Any, Any], classes: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Chunk kernel: the class at each code; a ``ValueError`` naming codes out of range."""
    codes = np.asarray(block)
    bad = (codes < 0) | (codes >= len(classes)) | (codes != np.round(codes))
    if bad.any():
        raise unseen_error(sorted({v.item() for v in codes[bad]}))
    return classes[codes.astype(np.int64)]


class LabelEncoder(TransformerMixin, BaseEstimator, auto_wrap_output_keys=None):  # type: ignore[misc,call-arg]
    """Encode labels (numbers or strings) as ``0 .. n_classes - 1`` in their sorted
    order, as scikit-learn's ``LabelEncoder``."""

    def fit(
        self, y: Any, session: Session | None = None, run_kwargs: dict[str, Any] | None = None
    ) -> LabelEncoder:
        """Find the distinct labels of ``y``: ``classes_``."""
        labels = label_tensor(y)
        (classes,) = fetch_all(mt.unique(labels), session=session, run_kwargs=run_kwargs)
        self.classes_ = np.asarray(classes)
        return self

    def fit_transform(
        self, y: Any, session: Session | None = None, run_kwargs: dict[str, Any] | None = None
    ) -> Tensor:
        """``fit``, then ``transform`` of the same labels."""
        return self.fit(y, session=session, run_kwargs=run_kwargs).transform(y)

    def transform(self, y: Any) -> Tensor:
        """The code of each label: a lazy tensor of int64."""
        check_is_fitted(self)
        labels = label_tensor(y)
        if labels.shape[0] == 0:
            return mt.tensor(np.asarray([]))
        if not is_lazy(y):
            values = label_array(y).ravel()
            found = isin_sorted(values, self.classes_)
            if not found.all():
                raise unseen_error(unseen_labels(values[~found], self.classes_))
        return mt.elemwise(encode, labels, classes=self.classes_, dtype=np.int64, name="encode")

    def inverse_transform(self, y: Any) -> Tensor:
        """The label of each code: a lazy tensor of the classes' dtype."""
        check_is_fitted(self)
        codes = label_tensor(y)
        if codes.shape[0] == 0:
            return mt.tensor(np.asarray([]))
        if not is_lazy(y):
            values = label_array(y).ravel()
            bad = (values < 0) | (values >= len(self.classes_))
            if bad.any():
                raise unseen_error(sorted({v.item() for v in values[bad]}))
        return mt.elemwise(
            decode, codes, classes=self.classes_, dtype=self.classes_.dtype, name="decode"
        )
