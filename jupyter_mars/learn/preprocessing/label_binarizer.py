"""``LabelBinarizer`` and ``label_binarize``: labels as one-vs-all indicator columns, as
scikit-learn's, dense only.

The kind of target (binary, multiclass, multilabel indicator) is found from its distinct
values (``targets.py``: fetched for a tensor or frame), since it sets the number of
columns; the indicator matrix itself is lazy, an element-wise comparison of the labels
with the classes, chunk by chunk. A binary target gives one column (the last class
positive), a multiclass one a column per class in the order of ``classes``; labels not
among the classes give rows of ``neg_label`` only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.preprocessing.label_encoder import decode
from jupyter_mars.learn.preprocessing.targets import label_array, label_tensor, target_kind
from jupyter_mars.learn.utils.validation import to_tensor
from jupyter_mars.tensor.core import Tensor

__all__ = ["LabelBinarizer", "label_binarize"]


def _check_labels(neg_label: Any, pos_label: Any, sparse_output: Any) -> None:
    if neg_label >= pos_label:
        raise ValueError(f"neg_label={neg_label} must be strictly less than pos_label={pos_label}.")
    if sparse_output:
        raise NotImplementedError(
            "sparse_output=True is not supported: label binarization gives dense tensors "
            "only (use sparse_output=False, then .tosparse() if needed)"
        )


def _check_kind(kind: str) -> None:
    if "multioutput" in kind:
        raise ValueError("Multioutput target data is not supported with label binarization")
    if kind == "unknown":
        raise ValueError("The type of target data is not known")


def _binarize(y: Any, kind: str, classes: Any, neg_label: int, pos_label: int) -> Tensor:
    """The indicator matrix of ``y``, a target of ``kind``, for ``classes``."""
    classes = label_array(classes)  # classes fitted on a frame's strings: NumPy strings
    labels = label_tensor(y, one_d=kind != "multilabel-indicator")
    dtype = labels.dtype if labels.dtype.kind == "i" else np.dtype(np.intp)
    n_classes = len(classes)
    if kind == "binary" and n_classes == 1:
        return mt.full((labels.shape[0], 1), neg_label, dtype=dtype)
    if kind == "binary" and n_classes >= 3:
        kind = "multiclass"
    if kind == "multilabel-indicator":
        if labels.shape[1] != n_classes:
            found = np.arange(labels.shape[1])
            raise ValueError(
                f"classes {classes} mismatch with the labels {found} found in the data"
            )
        order = np.searchsorted(np.sort(classes), classes)
        if np.any(order != np.arange(n_classes)):
            labels = labels[:, order]
        indicator: Tensor = mt.where(mt.not_equal(labels, 0), pos_label, neg_label).astype(dtype)
        return indicator
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"{kind} target data is not supported with label binarization")
    if labels.dtype.kind in "iu" and classes.dtype.kind in "iuf":
        classes = classes.astype(labels.dtype)
    wanted = classes[-1:] if kind == "binary" else classes
    matches = mt.equal(labels[:, None], wanted[None, :])
    one_hot: Tensor = mt.where(matches, pos_label, neg_label).astype(dtype)
    return one_hot


def _classes_at(codes: Tensor, classes: np.ndarray[Any, Any]) -> Tensor:
    """The class at each code, lazily."""
    return mt.elemwise(decode, codes, classes=classes, dtype=classes.dtype, name="decode")


def label_binarize(
    y: Any,
    *,
    classes: Any,
    neg_label: int = 0,
    pos_label: int = 1,
    sparse_output: bool = False,
) -> Tensor:
    """One-vs-all indicator columns of the labels ``y`` for ``classes``, as
    scikit-learn's ``label_binarize``: a lazy tensor of ints."""
    _check_labels(neg_label, pos_label, sparse_output)
    kind, _, n_samples = target_kind(y)
    _check_kind(kind)
    if n_samples == 0:
        raise ValueError(f"y has 0 samples: {y!r}")
    return _binarize(y, kind, classes, neg_label, pos_label)


class LabelBinarizer(TransformerMixin, BaseEstimator, auto_wrap_output_keys=None):  # type: ignore[misc,call-arg]
    """Binarize labels one-vs-all, as scikit-learn's ``LabelBinarizer``: ``classes_``
    and ``y_type_`` come from ``fit``; ``sparse_output=True`` is not supported."""

    def __init__(
        self, *, neg_label: int = 0, pos_label: int = 1, sparse_output: bool = False
    ) -> None:
        self.neg_label = neg_label
        self.pos_label = pos_label
        self.sparse_output = sparse_output

    def fit(
        self, y: Any, session: Session | None = None, run_kwargs: dict[str, Any] | None = None
    ) -> LabelBinarizer:
        """Find the kind of target ``y`` is and its classes."""
        _check_labels(self.neg_label, self.pos_label, self.sparse_output)
        kind, classes, n_samples = target_kind(y, session=session, run_kwargs=run_kwargs)
        if "multioutput" in kind:
            raise ValueError("Multioutput target data is not supported with label binarization")
        if n_samples == 0:
            raise ValueError(f"y has 0 samples: {y!r}")
        if kind not in ("binary", "multiclass", "multilabel-indicator"):
            raise ValueError(f"Unknown label type: {kind}")
        self.y_type_ = kind
        self.sparse_input_ = False
        self.classes_ = classes
        return self

    def fit_transform(
        self, y: Any, session: Session | None = None, run_kwargs: dict[str, Any] | None = None
    ) -> Tensor:
        """``fit``, then ``transform`` of the same labels."""
        return self.fit(y, session=session, run_kwargs=run_kwargs).transform(y)

    def transform(self, y: Any) -> Tensor:
        """The indicator matrix of ``y``: a lazy tensor of ints."""
        check_is_fitted(self)
        kind, _, _ = target_kind(y)
        if kind.startswith("multilabel") and not self.y_type_.startswith("multilabel"):
            raise ValueError("The object was not fitted with multilabel input.")
        _check_kind(kind)
        return _binarize(y, kind, self.classes_, self.neg_label, self.pos_label)

    def inverse_transform(self, Y: Any, threshold: float | None = None) -> Tensor:  # noqa: N803
        """The labels of an indicator (or score) matrix: the class with the largest score
        for a multiclass target, else the classes whose score is above ``threshold``
        (halfway between the two labels by default)."""
        check_is_fitted(self)
        scores = to_tensor(Y)
        classes = np.asarray(self.classes_)
        if self.y_type_ == "multiclass":
            return _classes_at(mt.argmax(scores, axis=1), classes)
        if threshold is None:
            threshold = (self.pos_label + self.neg_label) / 2.0
        if self.y_type_ == "binary" and scores.ndim == 2 and scores.shape[1] > 2:
            raise ValueError(f"output_type='binary', but y.shape = {scores.shape}")
        if self.y_type_ != "binary" and scores.shape[1] != len(classes):
            raise ValueError("The number of class is not equal to the number of dimension of y.")
        above: Tensor = mt.greater(scores, threshold).astype(np.intp)
        if self.y_type_ == "multilabel-indicator":
            return above
        if scores.ndim == 2 and scores.shape[1] == 2:
            return _classes_at(above[:, 1], classes)
        codes = above.ravel()
        return _classes_at(codes * 0 if len(classes) == 1 else codes, classes)
