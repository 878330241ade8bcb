"""``TruncatedSVD``: the leading singular triplets of a chunked matrix, uncentred (so
sparse data stays sparse), scikit-learn's estimator.

- ``'randomized'``: ``mt.linalg.randomized_svd`` (random projection, ``n_iter`` power
  iterations, TSQR), Halko et al.'s method as scikit-learn runs it; its random draws are
  this project's, so results agree with scikit-learn's to the method's accuracy.
- ``'arpack'``: exact, from the ``n_features²`` Gram matrix ``X^T X`` (a tree-summed
  product over the row chunks) and its eigen-decomposition in the driver. ARPACK, which
  scikit-learn calls, solves that same eigenproblem iteratively; here it is solved
  outright, so ``tol`` has nothing to do.

The explained variances (the variance of each column of ``X @ components_.T``) come
from the same graph: for ``'randomized'`` from the products of ``X`` with the lazily
computed directions, for ``'arpack'`` from the Gram matrix of the centred data.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.utils.chunks import with_known_rows
from jupyter_mars.learn.utils.extmath import eigh_descending, flip_signs
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.validation import (
    check_array,
    fetch_all,
    float_input,
)
from jupyter_mars.tensor.core import Tensor


class TruncatedSVD(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):  # type: ignore[misc]
    """Dimensionality reduction by truncated SVD (latent semantic analysis), without
    centring. Scikit-learn's ``TruncatedSVD`` with its arguments and fitted attributes
    (``components_``, ``explained_variance_``, ``explained_variance_ratio_``,
    ``singular_values_``, ``n_features_in_``), fitted on a session's runtime;
    ``transform`` and ``inverse_transform`` return lazy tensors. Dense and sparse input.
    See the module docstring for the two algorithms.
    """

    _parameter_constraints: dict[str, list[Any]] = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "algorithm": [StrOptions({"arpack", "randomized"})],
        "n_iter": [Interval(Integral, 0, None, closed="left")],
        "n_oversamples": [Interval(Integral, 1, None, closed="left")],
        "power_iteration_normalizer": [StrOptions({"auto", "QR", "LU", "none"})],
        "random_state": ["random_state"],
        "tol": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        n_components: int = 2,
        *,
        algorithm: str = "randomized",
        n_iter: int = 5,
        n_oversamples: int = 10,
        power_iteration_normalizer: str = "auto",
        random_state: Any = None,
        tol: float = 0.0,
    ) -> None:
        self.algorithm = algorithm
        self.n_components = n_components
        self.n_iter = n_iter
        self.n_oversamples = n_oversamples
        self.power_iteration_normalizer = power_iteration_normalizer
        self.random_state = random_state
        self.tol = tol

    def fit(
        self,
        X: Any,  # noqa: N803
        y: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> TruncatedSVD:
        """Fit the model on ``X`` (computed on ``session``'s runtime); returns ``self``."""
        self._validate_params()
        x = float_input(X, self, accept_sparse=True)
        if x.shape[1] < 2:
            raise ValueError(
                f"Found array with {x.shape[1]} feature(s) (shape={x.shape}) while a "
                "minimum of 2 is required by TruncatedSVD."
            )
        x = with_known_rows(x, session, run_kwargs)
        n_samples, n_features = (int(n) for n in x.shape)
        k = self.n_components
        if self.algorithm == "randomized":
            if k > n_features:
                raise ValueError(f"n_components({k}) must be <= n_features({n_features}).")
            s, vt, variance, total = self._fit_randomized(x, session, run_kwargs)
        else:
            if not k < min(n_samples, n_features):
                raise ValueError(
                    f"n_components={k} must be strictly less than min(n_samples, "
                    f"n_features)={min(n_samples, n_features)} with algorithm='arpack'"
                )
            s, vt, variance, total = _fit_gram(x, k, session, run_kwargs)
        self.components_ = np.ascontiguousarray(flip_signs(vt))
        self.explained_variance_ = variance
        self.explained_variance_ratio_ = variance / total
        self.singular_values_ = s
        record_features(self, X, x)
        return self

    def _fit_randomized(
        self, x: Tensor, session: Session | None, run_kwargs: dict[str, Any] | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
        _, s, vt = mt.linalg.randomized_svd(
            x,
            self.n_components,
            n_oversamples=self.n_oversamples,
            n_iter=self.n_iter,
            power_iteration_normalizer=self.power_iteration_normalizer,
            flip_sign=False,
            random_state=self.random_state,
        )
        # a component's sign does not change the variance along it
        variance = mt.var(x @ vt.T, axis=0)
        total = _column_variances(x).sum()
        s_, vt_, variance_, total_ = fetch_all(
            s, vt, variance, total, session=session, run_kwargs=run_kwargs
        )
        return s_, vt_, variance_, total_

    def transform(self, X: Any) -> Tensor:  # noqa: N803
        """``X`` projected on the components: a lazy (dense) tensor."""
        check_is_fitted(self)
        x = float_input(X, self, accept_sparse=True)
        check_features(self, X, x)
        projected: Tensor = x @ self.components_.T
        return projected

    def fit_transform(
        self,
        X: Any,  # noqa: N803
        y: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> Tensor:
        """``fit`` then ``transform`` of ``X``: the fit is computed, the result is lazy."""
        return self.fit(X, session=session, run_kwargs=run_kwargs).transform(X)

    def inverse_transform(self, X: Any) -> Tensor:  # noqa: N803
        """Points in the original space whose projections are ``X``: a lazy tensor."""
        check_is_fitted(self)
        x = check_array(X, input_name="X")
        restored: Tensor = x @ self.components_
        return restored

    @property
    def _n_features_out(self) -> int:
        """How many columns ``transform`` gives (``get_feature_names_out``)."""
        return int(self.components_.shape[0])


def _column_variances(x: Tensor) -> Tensor:
    """The variance of each column; for sparse data from the sums of values and squares,
    which keep the data sparse."""
    if not x.issparse():
        variances: Tensor = mt.var(x, axis=0)
        return variances
    n = x.shape[0]
    mean = x.sum(axis=0) / n
    squares = (x * x).sum(axis=0) / n
    sparse_variances: Tensor = squares - mean * mean
    return sparse_variances


def _fit_gram(
    x: Tensor, k: int, session: Session | None, run_kwargs: dict[str, Any] | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
    """The exact leading ``k`` singular triplets from ``X^T X``, and the explained
    variances from the centred data's Gram matrix (``X^T X - n mean mean^T`` for sparse
    data, which is never centred)."""
    n_samples = x.shape[0]
    mean = x.mean(axis=0)
    if x.issparse():
        gram, mean_ = fetch_all(x.T @ x, mean, session=session, run_kwargs=run_kwargs)
        gram = gram.toarray() if sp.issparse(gram) else np.asarray(gram)
        mean_ = np.asarray(mean_).reshape(-1)
        centred_gram = gram - n_samples * np.outer(mean_, mean_)
    else:
        centred = x - mean
        gram, centred_gram = fetch_all(
            x.T @ x, centred.T @ centred, session=session, run_kwargs=run_kwargs
        )
    eigenvalues, vectors = eigh_descending(gram)
    vt = vectors[:k]
    s = np.sqrt(eigenvalues[:k])
    variance = np.einsum("ij,jk,ik->i", vt, centred_gram, vt) / n_samples
    total = np.trace(centred_gram) / n_samples
    dtype = x.dtype
    return s.astype(dtype), vt.astype(dtype), variance.astype(dtype), total
