"""``PCA``: principal component analysis of a chunked matrix, scikit-learn's estimator.

The solvers, each one graph whose small results are fetched together:

- ``'full'``: the exact SVD of the centred data by TSQR (``mt.linalg.svd``): each row
  chunk is QR-factored where it lies and only the ``n_features²`` R factors meet. This
  is the solver of choice for accuracy: like scikit-learn's LAPACK SVD it never squares
  the condition number of the data, so small singular values keep their digits.
- ``'covariance_eigh'``: the ``n_features²`` covariance matrix of the centred data (the
  column means, then a product tree-summed over the row chunks) and its
  eigen-decomposition in the driver. It is cheaper than TSQR (a product, no QR of each
  chunk) and works with any chunking (TSQR wants row chunks at least as long as the
  matrix is wide), at the price of squaring the condition number: small variances keep
  fewer digits. ``'auto'`` picks it for tall, narrow data (``n_samples >= 10 *
  n_features``, ``n_features <= 1000``), as scikit-learn does.
- ``'arpack'``: the same covariance, keeping ``n_components`` (below ``min(n_samples,
  n_features)``) eigenpairs: the exact truncated decomposition ARPACK approximates.
- ``'randomized'``: ``mt.linalg.randomized_svd`` of the centred data (random projection,
  power iterations, TSQR): Halko et al.'s method that scikit-learn runs too. Its random
  draws are this project's, so results agree with scikit-learn's to the method's
  accuracy, not bit for bit.

Sparse input (a sparse tensor or SciPy matrix) is taken by ``'covariance_eigh'`` and
``'arpack'`` (``'auto'`` picks ``'arpack'``), through the uncentred Gram matrix minus
``n * mean mean^T``, which never densifies the data.

Signs follow scikit-learn's ``svd_flip(u_based_decision=False)``: the entry of largest
absolute value of each component is positive.
"""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils._param_validation import Interval, RealNotInt, StrOptions
from sklearn.utils.validation import check_is_fitted

import jupyter_mars.tensor as mt
from jupyter_mars.executable import Session
from jupyter_mars.learn.decomposition.spectrum import (
    components_for_ratio,
    minka_rank,
    model_covariance,
    model_precision,
)
from jupyter_mars.learn.utils.chunks import tall_and_skinny, with_known_rows
from jupyter_mars.learn.utils.extmath import eigh_descending, flip_signs
from jupyter_mars.learn.utils.features import check_features, record_features
from jupyter_mars.learn.utils.scatter import mean_and_scatter
from jupyter_mars.learn.utils.validation import (
    check_array,
    fetch_all,
    float_input,
)
from jupyter_mars.tensor.core import Tensor


class PCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):  # type: ignore[misc]
    """Principal component analysis: the data, centred, projected on the directions of
    largest variance. Scikit-learn's ``PCA`` with its arguments and fitted attributes
    (``components_``, ``explained_variance_``, ``explained_variance_ratio_``,
    ``singular_values_``, ``mean_``, ``n_components_``, ``noise_variance_``,
    ``n_samples_``, ``n_features_in_``), fitted on a session's runtime; ``transform``,
    ``inverse_transform`` and ``score_samples`` return lazy tensors. See the module
    docstring for the solvers.

    ``n_components``: an int, a float in (0, 1) (the least number of components that
    explain more than that share of the variance), ``'mle'`` (Minka's choice) or None
    (all of them). ``copy`` is accepted for scikit-learn's sake: the input is never
    modified here.
    """

    _parameter_constraints: dict[str, list[Any]] = {
        "n_components": [
            Interval(Integral, 0, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="neither"),
            StrOptions({"mle"}),
            None,
        ],
        "copy": ["boolean"],
        "whiten": ["boolean"],
        "svd_solver": [StrOptions({"auto", "full", "covariance_eigh", "arpack", "randomized"})],
        "tol": [Interval(Real, 0, None, closed="left")],
        "iterated_power": [StrOptions({"auto"}), Interval(Integral, 0, None, closed="left")],
        "n_oversamples": [Interval(Integral, 1, None, closed="left")],
        "power_iteration_normalizer": [StrOptions({"auto", "QR", "LU", "none"})],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        n_components: Any = None,
        *,
        copy: bool = True,
        whiten: bool = False,
        svd_solver: str = "auto",
        tol: float = 0.0,
        iterated_power: Any = "auto",
        n_oversamples: int = 10,
        power_iteration_normalizer: str = "auto",
        random_state: Any = None,
    ) -> None:
        self.n_components = n_components
        self.copy = copy
        self.whiten = whiten
        self.svd_solver = svd_solver
        self.tol = tol
        self.iterated_power = iterated_power
        self.n_oversamples = n_oversamples
        self.power_iteration_normalizer = power_iteration_normalizer
        self.random_state = random_state

    # ---- fitting ---------------------------------------------------------------------

    def fit(
        self,
        X: Any,  # noqa: N803
        y: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> PCA:
        """Fit the model on ``X`` (computed on ``session``'s runtime); returns ``self``."""
        self._validate_params()
        x = float_input(X, self, accept_sparse=True)
        sparse = x.issparse()
        if sparse and self.svd_solver not in ("auto", "arpack", "covariance_eigh"):
            raise TypeError(
                'PCA only support sparse inputs with the "arpack" and "covariance_eigh" '
                f'solvers, while "{self.svd_solver}" was passed. See TruncatedSVD for a '
                "possible alternative."
            )
        x = with_known_rows(x, session, run_kwargs)
        n_samples, n_features = (int(n) for n in x.shape)
        solver, n_components = self._choose_solver(n_samples, n_features, sparse)
        self._check_n_components(solver, n_components, n_samples, n_features)
        if solver == "full":
            result = _fit_full(x, session, run_kwargs)
        elif solver == "randomized":
            result = self._fit_randomized(x, n_components, session, run_kwargs)
        else:
            result = _fit_covariance(x, sparse, session, run_kwargs)
        mean, variance, vt, total_variance = result
        self._fit_svd_solver = solver
        self.mean_ = mean
        self.n_samples_ = n_samples
        record_features(self, X, x)
        self._set_components(solver, n_components, variance, vt, total_variance)
        return self

    def _choose_solver(self, n_samples: int, n_features: int, sparse: bool) -> tuple[str, Any]:
        """The solver ``'auto'`` stands for (scikit-learn's rule), and the number of
        components asked for (None: all, one less for ``'arpack'``)."""
        solver = self.svd_solver
        if solver == "auto" and sparse:
            solver = "arpack"
        n_components = self.n_components
        if n_components is None:
            n_components = min(n_samples, n_features) - (1 if solver == "arpack" else 0)
        if solver == "auto":
            if n_features <= 1_000 and n_samples >= 10 * n_features:
                solver = "covariance_eigh"
            elif max(n_samples, n_features) <= 500 or n_components == "mle":
                solver = "full"
            elif 1 <= n_components < 0.8 * min(n_samples, n_features):
                solver = "randomized"
            else:
                solver = "full"
        return solver, n_components

    def _check_n_components(
        self, solver: str, n_components: Any, n_samples: int, n_features: int
    ) -> None:
        smaller = min(n_samples, n_features)
        if solver in ("full", "covariance_eigh"):
            if n_components == "mle":
                if n_samples < n_features:
                    raise ValueError(
                        "n_components='mle' is only supported if n_samples >= n_features"
                    )
            elif not 0 <= n_components <= smaller:
                raise ValueError(
                    f"n_components={n_components} must be between 0 and "
                    f"min(n_samples, n_features)={smaller} with svd_solver={solver!r}"
                )
            return
        if isinstance(n_components, str):
            raise ValueError(
                f"n_components={n_components!r} cannot be a string with svd_solver='{solver}'"
            )
        if not 1 <= n_components <= smaller:
            raise ValueError(
                f"n_components={n_components!r} must be between 1 and "
                f"min(n_samples, n_features)={smaller} with svd_solver='{solver}'"
            )
        if solver == "arpack" and n_components == smaller:
            raise ValueError(
                f"n_components={n_components!r} must be strictly less than "
                f"min(n_samples, n_features)={smaller} with svd_solver='{solver}'"
            )

    def _fit_randomized(
        self,
        x: Tensor,
        n_components: int,
        session: Session | None,
        run_kwargs: dict[str, Any] | None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
        mean = x.mean(axis=0)
        centred = x - mean
        _, s, vt = mt.linalg.randomized_svd(
            centred,
            n_components,
            n_oversamples=self.n_oversamples,
            n_iter=self.iterated_power,
            power_iteration_normalizer=self.power_iteration_normalizer,
            flip_sign=False,
            random_state=self.random_state,
        )
        total = (centred * centred).sum() / (x.shape[0] - 1)
        mean_, s_, vt_, total_ = fetch_all(
            mean, s, vt, total, session=session, run_kwargs=run_kwargs
        )
        return mean_, s_**2 / (x.shape[0] - 1), vt_, total_

    def _set_components(
        self,
        solver: str,
        n_components: Any,
        variance: np.ndarray,
        vt: np.ndarray,
        total_variance: Any,
    ) -> None:
        """The fitted attributes from the variances and directions (all of them for the
        exact solvers, ``n_components`` for the truncated ones)."""
        n_samples, n_features = self.n_samples_, self.n_features_in_
        exact = solver in ("full", "covariance_eigh")
        if not exact:  # 'arpack' keeps n_components of the covariance's eigenpairs
            variance, vt = variance[:n_components], vt[:n_components]
        vt = flip_signs(vt)
        total = np.sum(variance) if exact else total_variance
        ratio = variance / total
        if n_components == "mle":
            n_components = minka_rank(variance, n_samples)
        elif 0 < n_components < 1.0:
            n_components = components_for_ratio(n_components, ratio)
        n_components = int(n_components)
        if n_components < min(n_features, n_samples):
            if exact:
                self.noise_variance_ = np.mean(variance[n_components:])
            else:
                remaining = min(n_features, n_samples) - n_components
                self.noise_variance_ = (total - np.sum(variance)) / remaining
        else:
            self.noise_variance_ = 0.0
        self.n_components_ = n_components
        self.components_ = np.ascontiguousarray(vt[:n_components])
        self.explained_variance_ = variance[:n_components].copy()
        self.explained_variance_ratio_ = ratio[:n_components].copy()
        self.singular_values_ = np.sqrt(self.explained_variance_ * (n_samples - 1))

    # ---- using the model -------------------------------------------------------------

    def transform(self, X: Any) -> Tensor:  # noqa: N803
        """``X`` projected on the components (whitened with ``whiten``): a lazy tensor."""
        check_is_fitted(self)
        x = float_input(X, self, accept_sparse=True)
        check_features(self, X, x)
        projected = (x - self.mean_) @ self.components_.T
        if self.whiten:
            scale = np.sqrt(self.explained_variance_)
            scale = np.maximum(scale, np.finfo(scale.dtype).eps)
            projected = projected / scale
        result: Tensor = projected
        return result

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
        x = check_array(X, dtype=[np.float64, np.float32], input_name="X")
        components = self.components_
        if self.whiten:
            components = np.sqrt(self.explained_variance_)[:, np.newaxis] * components
        restored: Tensor = x @ components + self.mean_
        return restored

    def get_covariance(self) -> np.ndarray:
        """The data covariance the fitted probabilistic PCA model describes."""
        check_is_fitted(self)
        return model_covariance(self)

    def get_precision(self) -> np.ndarray:
        """The inverse of ``get_covariance()``, by the matrix inversion lemma."""
        check_is_fitted(self)
        return model_precision(self)

    def score_samples(self, X: Any) -> Tensor:  # noqa: N803
        """The log-likelihood of each sample under the fitted model: a lazy tensor."""
        check_is_fitted(self)
        x = float_input(X, self)
        check_features(self, X, x)
        centred = x - self.mean_
        precision = self.get_precision()
        sign, logdet = np.linalg.slogdet(precision)
        logdet = logdet if sign > 0 else -math.inf
        constant = 0.5 * (self.n_features_in_ * math.log(2.0 * math.pi) - logdet)
        quadratic: Tensor = (centred * (centred @ precision)).sum(axis=1)
        log_likelihood: Tensor = quadratic * -0.5 - constant
        return log_likelihood

    def score(
        self,
        X: Any,  # noqa: N803
        y: Any = None,
        session: Session | None = None,
        run_kwargs: dict[str, Any] | None = None,
    ) -> float:
        """The average log-likelihood of the samples of ``X``, computed now."""
        (mean,) = fetch_all(self.score_samples(X).mean(), session=session, run_kwargs=run_kwargs)
        return float(mean)

    @property
    def _n_features_out(self) -> int:
        """How many columns ``transform`` gives (``get_feature_names_out``)."""
        return int(self.components_.shape[0])


def _fit_full(
    x: Tensor, session: Session | None, run_kwargs: dict[str, Any] | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, None]:
    """Mean, variances along and directions of all components, by TSQR's SVD."""
    mean = x.mean(axis=0)
    _, s, vt = mt.linalg.svd(tall_and_skinny(x - mean))
    mean_, s_, vt_ = fetch_all(mean, s, vt, session=session, run_kwargs=run_kwargs)
    return mean_, s_**2 / (x.shape[0] - 1), vt_, None


def _fit_covariance(
    x: Tensor, sparse: bool, session: Session | None, run_kwargs: dict[str, Any] | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
    """Mean, variances along and directions of all components, from the covariance
    matrix (from each row block's own scatter, merged; for sparse data, from the
    uncentred Gram matrix)."""
    n_samples = x.shape[0]
    if sparse:
        mean = x.mean(axis=0)
        mean_, gram = fetch_all(mean, x.T @ x, session=session, run_kwargs=run_kwargs)
        mean_ = np.asarray(mean_).reshape(-1)
        gram = gram.toarray() if hasattr(gram, "toarray") else np.asarray(gram)
        covariance = (gram - n_samples * np.outer(mean_, mean_)) / (n_samples - 1)
    else:
        mean_, scatter = mean_and_scatter(x, session, run_kwargs)
        covariance = scatter / (n_samples - 1)
    variance, vt = eigh_descending(covariance)
    return mean_, variance.astype(mean_.dtype), vt.astype(mean_.dtype), np.trace(covariance)
