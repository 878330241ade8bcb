"""Input helpers the estimators of ``glm``, ``linear_model`` and ``decomposition`` share:
float data (SciPy sparse matrices too), the row count a fit needs, the chunking TSQR
wants, the width a fitted model expects, and sample weights with scikit-learn's checks.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sp

import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.executable import Session, execute
from jupyter_mars.learn.utils import check_array, to_tensor
from jupyter_mars.tensor.core import Tensor


def float_input(X: Any, estimator: Any, accept_sparse: bool = False) -> Tensor:  # noqa: N803
    """``X`` as a checked 2-d float tensor (float32 kept, anything else float64); a
    SciPy sparse matrix becomes a sparse tensor, accepted where ``accept_sparse``."""
    if sp.issparse(X):
        X = mt.tensor(X)  # noqa: N806
    return check_array(
        X,
        accept_sparse=accept_sparse,
        dtype=[np.float64, np.float32],
        estimator=estimator,
        input_name="X",
    )


def with_known_rows(
    x: Tensor, session: Session | None, run_kwargs: dict[str, Any] | None
) -> Tensor:
    """``x`` with its number of rows known: a tensor whose length depends on its data
    (rows a frame filtered, say) is executed first, and kept, on ``session``."""
    if math.isnan(x.shape[0]):
        run = dict(run_kwargs or {})
        run.setdefault("show_progress", False)
        execute(x, session=session, **run)
    return x


def tall_and_skinny(x: Tensor) -> Tensor:
    """``x`` with row chunks of at least ``n_features`` rows where it has more rows than
    that: TSQR (``mt.linalg.svd``) factors each row chunk on its own, and gathers the
    whole matrix into one chunk when the chunks are shorter than they are wide."""
    rows, cols = x.shape
    layout = x._layout()  # the chunking tiling would give, found without running anything
    if layout is None or rows <= cols:
        return x
    if any(math.isnan(n) for n in layout[0]):
        return x
    lengths = [int(n) for n in layout[0]]
    if len(lengths) > 1 and min(lengths) < cols:
        rechunked: Tensor = x.rechunk({0: max(cols, max(lengths))})
        return rechunked
    return x


def check_features(estimator: Any, x: Tensor) -> None:
    """A ``ValueError`` unless ``x`` has as many columns as the fitted estimator saw."""
    expected = estimator.n_features_in_
    if x.shape[1] != expected:
        raise ValueError(
            f"X has {x.shape[1]} features, but {type(estimator).__name__} is expecting "
            f"{expected} features as input."
        )


def _non_negative_block(block: np.ndarray) -> np.ndarray:
    """The block itself, or scikit-learn's ``ValueError`` for a negative weight in it."""
    if block.size and np.min(block) < 0:
        raise ValueError("Negative values in data passed to `sample_weight`")
    return block


def check_sample_weight(
    sample_weight: Any, x: Tensor, *, non_negative: bool = False
) -> Tensor | None:
    """``sample_weight`` as a 1-d float tensor as long as ``x`` (None stays None, a number
    is every sample's weight), with scikit-learn's checks: finite, not all zero, and with
    ``non_negative`` none below zero. In-memory weights are checked at once; a tensor's
    or frame's values when they are computed."""
    if sample_weight is None:
        return None
    n_samples = x.shape[0]
    if isinstance(sample_weight, int | float | np.number) and not isinstance(sample_weight, bool):
        return mt.full(n_samples, sample_weight, dtype=x.dtype)
    lazy = isinstance(sample_weight, Tensor | FrameBase)
    # data in memory is checked now (check_array does so for an array, not a tensor)
    source = sample_weight if lazy else np.asarray(sample_weight)
    weights = to_tensor(source)
    if weights.ndim != 1:
        raise ValueError(
            f"Sample weights must be 1D array or scalar, got {weights.ndim}D array. Expected "
            f"either a scalar value or a 1D array of length {n_samples}."
        )
    known = not (math.isnan(weights.shape[0]) or math.isnan(n_samples))
    if known and weights.shape[0] != n_samples:
        raise ValueError(f"sample_weight.shape == {weights.shape}, expected {(n_samples,)}!")
    weights = check_array(source, ensure_2d=False, dtype=x.dtype, input_name="sample_weight")
    if not lazy:
        values = np.asarray(source, dtype=x.dtype)
        if not np.any(values != 0):
            raise ValueError("Sample weights must contain at least one non-zero number.")
        if non_negative:
            _non_negative_block(values)
    elif non_negative:
        weights = mt.elemwise(_non_negative_block, weights, dtype=weights.dtype, name="check")
    return weights


def check_weight_sum(total: Any) -> None:
    """The ``ValueError`` scikit-learn raises when every weight is zero, for weights whose
    sum was only known once computed."""
    if float(total) == 0.0:
        raise ValueError("Sample weights must contain at least one non-zero number.")
