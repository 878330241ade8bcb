"""Linear algebra on small results in the driver, as scikit-learn's
``sklearn.utils.extmath``: the eigen-decomposition of a fetched Gram matrix (what PCA's
``covariance_eigh`` and TruncatedSVD's ``arpack`` solve), and scikit-learn's sign
convention for singular vectors.

The sign convention is ``svd_flip(u, vt, u_based_decision=False)``: each row of ``Vt``
(a component) is turned so that its entry of largest absolute value is positive. It
needs ``Vt`` alone, which is small, so it is applied in the driver after the fetch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp


def flip_signs(vt: np.ndarray) -> np.ndarray:
    """``vt`` with each row's entry of largest absolute value made positive."""
    if vt.size == 0:
        return vt
    lead = vt[np.arange(vt.shape[0]), np.argmax(np.abs(vt), axis=1)]
    signs = np.where(lead < 0, -1, 1).astype(vt.dtype)
    flipped: np.ndarray = vt * signs[:, None]
    return flipped


def eigh_descending(gram: Any) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues (largest first, those rounding left below zero set to zero) and
    eigenvectors as rows, of a fetched symmetric matrix (dense or sparse)."""
    dense = gram.toarray() if sp.issparse(gram) else np.asarray(gram)
    values, vectors = np.linalg.eigh(dense)
    values = np.clip(values[::-1], 0.0, None)
    return values, np.ascontiguousarray(vectors[:, ::-1].T)
