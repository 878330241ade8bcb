"""Driver-side arithmetic on a fitted PCA's small results: how many components a float or
``'mle'`` asks for, and the probabilistic PCA model's covariance and precision.

Everything here works on NumPy arrays of ``n_features`` (or ``n_features²``) values.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.special import gammaln


def components_for_ratio(ratio: float, explained_variance_ratio: np.ndarray) -> int:
    """The fewest leading components whose explained variance is more than ``ratio``
    of the total (scikit-learn's rule: strictly more, so ties keep one component more)."""
    cumulative = np.cumsum(explained_variance_ratio)
    return int(np.searchsorted(cumulative, ratio, side="right")) + 1


def _log_evidence(spectrum: np.ndarray, rank: int, n_samples: int) -> float:
    """Minka's Laplace approximation of the log-evidence of a rank-``rank`` probabilistic
    PCA model for data with eigenvalue ``spectrum`` (T. P. Minka, "Automatic choice of
    dimensionality for PCA", NIPS 2000), in the form scikit-learn evaluates it."""
    d = spectrum.shape[0]
    eps = 1e-15
    if spectrum[rank - 1] < eps:
        # a component this small is never the best choice, and its terms are unstable
        return -math.inf
    dims = d - np.arange(1, rank + 1) + 1.0
    # the volume of the Stiefel manifold of the kept directions
    log_stiefel = -rank * math.log(2.0) + float(
        np.sum(gammaln(dims / 2.0) - math.log(math.pi) * dims / 2.0)
    )
    log_kept = -n_samples / 2.0 * float(np.sum(np.log(spectrum[:rank])))
    noise = max(eps, float(np.sum(spectrum[rank:])) / (d - rank))
    log_noise = -n_samples * (d - rank) / 2.0 * math.log(noise)
    n_params = d * rank - rank * (rank + 1.0) / 2.0
    log_prior = math.log(2.0 * math.pi) * (n_params + rank) / 2.0
    # the determinant of the Hessian: one term per kept i and every later j
    modelled = spectrum.copy()
    modelled[rank:] = noise
    i, j = np.triu_indices(d, k=1)
    kept = i < rank
    i, j = i[kept], j[kept]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.log((spectrum[i] - spectrum[j]) * (1.0 / modelled[j] - 1.0 / modelled[i]))
    log_hessian = float(np.sum(terms)) + i.size * math.log(n_samples)
    return float(
        log_stiefel
        + log_kept
        + log_noise
        + log_prior
        - log_hessian / 2.0
        - rank * math.log(n_samples) / 2.0
    )


def minka_rank(spectrum: np.ndarray, n_samples: int) -> int:
    """The number of components (at least 1, below ``len(spectrum)``) of largest
    evidence: ``n_components='mle'``."""
    scores = [-math.inf] + [
        _log_evidence(spectrum, rank, n_samples) for rank in range(1, spectrum.shape[0])
    ]
    return int(np.argmax(scores))


def _model_terms(estimator: Any) -> tuple[np.ndarray, np.ndarray]:
    """The components (scaled back where whitened) and the variance each explains beyond
    the noise (never below zero)."""
    components = estimator.components_
    variance = estimator.explained_variance_
    if estimator.whiten:
        components = components * np.sqrt(variance)[:, np.newaxis]
    beyond_noise = np.maximum(variance - estimator.noise_variance_, 0.0)
    return components, beyond_noise


def model_covariance(estimator: Any) -> np.ndarray:
    """``components.T @ diag(variance - noise) @ components + noise * I``."""
    components, beyond_noise = _model_terms(estimator)
    cov: np.ndarray = (components.T * beyond_noise) @ components
    cov[np.diag_indices_from(cov)] += estimator.noise_variance_
    return cov


def model_precision(estimator: Any) -> np.ndarray:
    """The inverse of ``model_covariance``, by the matrix inversion lemma: only an
    ``n_components²`` matrix is inverted (the whole covariance when there is no noise)."""
    n_features = estimator.components_.shape[1]
    noise = estimator.noise_variance_
    if estimator.n_components_ == 0:
        isotropic: np.ndarray = np.eye(n_features) / noise
        return isotropic
    if noise == 0.0:
        inverse: np.ndarray = np.linalg.inv(model_covariance(estimator))
        return inverse
    components, beyond_noise = _model_terms(estimator)
    with np.errstate(divide="ignore"):
        inner = components @ components.T / noise + np.diag(1.0 / beyond_noise)
    precision: np.ndarray = -(components.T @ np.linalg.inv(inner) @ components) / noise**2
    precision[np.diag_indices_from(precision)] += 1.0 / noise
    return precision
