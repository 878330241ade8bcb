"""``make_regression`` and ``make_low_rank_matrix``, as scikit-learn's, drawn chunk by chunk.

Both are tensor expressions on ``mt.random`` draws (each chunk drawn in its own task,
from a seed taken from ``random_state`` and the chunk's index). A low-rank matrix is
``U diag(s) V^T`` with ``U`` and ``V`` the orthonormal factors of Gaussian matrices (QR by
TSQR, chunk-wise along the rows) and ``s`` scikit-learn's singular profile: a bell of
``effective_rank`` values plus a slowly decaying tail of weight ``tail_strength``.

A regression's ``y`` is ``X @ coef + bias`` (plus Gaussian noise), where ``coef`` has
``n_informative`` non-zero rows drawn in the driver. Scikit-learn shuffles the samples
and then the features; the samples of a draw are independent and identically
distributed, and its features exchangeable, so permuting them changes nothing of the
distribution: here ``shuffle`` permutes the rows of ``coef`` instead, which puts the
informative features at random places as scikit-learn's shuffle does, and moves no data.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.learn.datasets.drawn import new_seed
from jupyter_mars.learn.utils.params import check_bool, check_int, check_real
from jupyter_mars.learn.utils.validation import check_random_state
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.creation.common import nsplits_for
from jupyter_mars.tensor.random import RandomState

__all__ = ["make_low_rank_matrix", "make_regression", "singular_profile"]


def singular_profile(n: int, effective_rank: float, tail_strength: float) -> np.ndarray[Any, Any]:
    """The ``n`` singular values of a low-rank matrix, scikit-learn's: a bell-shaped part
    of width ``effective_rank`` and weight ``1 - tail_strength`` plus an exponential tail
    of weight ``tail_strength``."""
    index = np.arange(n, dtype=np.float64)
    bell = (1 - tail_strength) * np.exp(-1.0 * (index / effective_rank) ** 2)
    tail = tail_strength * np.exp(-0.1 * index / effective_rank)
    values: np.ndarray[Any, Any] = bell + tail
    return values


def _low_rank(
    n_samples: int,
    n_features: int,
    effective_rank: int,
    tail_strength: float,
    source: RandomState,
    nsplits: Any,
) -> Tensor:
    n = min(n_samples, n_features)
    rows, columns = nsplits
    u, _ = mt.linalg.qr(source.standard_normal(size=(n_samples, n), chunk_size=(rows, n)))
    v, _ = mt.linalg.qr(source.standard_normal(size=(n_features, n), chunk_size=(columns, n)))
    s = singular_profile(n, effective_rank, tail_strength)
    low_rank: Tensor = (u * s) @ v.T
    return low_rank.rechunk(nsplits)  # type: ignore[no-any-return]


def make_low_rank_matrix(
    n_samples: int = 100,
    n_features: int = 100,
    *,
    effective_rank: int = 10,
    tail_strength: float = 0.5,
    random_state: Any = None,
    chunk_size: Any = None,
) -> Tensor:
    """A mostly low-rank matrix with bell-shaped singular values, as scikit-learn's
    ``make_low_rank_matrix``: a float64 tensor chunked by ``chunk_size``."""
    owner = "make_low_rank_matrix"
    check_int(n_samples, "n_samples", owner, 1)
    check_int(n_features, "n_features", owner, 1)
    check_int(effective_rank, "effective_rank", owner, 1)
    check_real(tail_strength, "tail_strength", owner, 0.0, 1.0)
    rng = check_random_state(random_state)
    nsplits = nsplits_for((n_samples, n_features), chunk_size, np.dtype(np.float64))
    source = RandomState(new_seed(rng))
    return _low_rank(n_samples, n_features, effective_rank, tail_strength, source, nsplits)


def make_regression(
    n_samples: int = 100,
    n_features: int = 100,
    *,
    n_informative: int = 10,
    n_targets: int = 1,
    bias: float = 0.0,
    effective_rank: int | None = None,
    tail_strength: float = 0.5,
    noise: float = 0.0,
    shuffle: bool = True,
    coef: bool = False,
    random_state: Any = None,
    chunk_size: Any = None,
) -> tuple[Tensor, ...]:
    """A random linear regression problem, as scikit-learn's ``make_regression``: ``X``
    (standard normal, or low-rank with ``effective_rank``) and ``y`` (1-d for one
    target) as float64 tensors chunked by ``chunk_size``, and the coefficients (a
    tensor) with ``coef``."""
    owner = "make_regression"
    check_int(n_samples, "n_samples", owner, 1)
    check_int(n_features, "n_features", owner, 1)
    check_int(n_informative, "n_informative", owner, 0)
    check_int(n_targets, "n_targets", owner, 1)
    check_real(bias, "bias", owner)
    if effective_rank is not None:
        check_int(effective_rank, "effective_rank", owner, 1, " or None")
    check_real(tail_strength, "tail_strength", owner, 0.0, 1.0)
    check_real(noise, "noise", owner, 0.0)
    check_bool(shuffle, "shuffle", owner)
    check_bool(coef, "coef", owner)
    n_informative = min(n_features, n_informative)
    rng = check_random_state(random_state)
    nsplits = nsplits_for((n_samples, n_features), chunk_size, np.dtype(np.float64))
    source = RandomState(new_seed(rng))
    if effective_rank is None:
        X = source.standard_normal(size=(n_samples, n_features), chunk_size=nsplits)  # noqa: N806
    else:
        X = _low_rank(n_samples, n_features, effective_rank, tail_strength, source, nsplits)  # noqa: N806
    ground_truth = np.zeros((n_features, n_targets))
    ground_truth[:n_informative, :] = 100 * rng.uniform(size=(n_informative, n_targets))
    if shuffle:
        ground_truth = ground_truth[rng.permutation(n_features)]
    y = mt.dot(X, ground_truth) + bias
    if noise > 0.0:
        y = y + source.normal(
            scale=noise, size=(n_samples, n_targets), chunk_size=(nsplits[0], n_targets)
        )
    if n_targets == 1:
        y = y[:, 0]
    if coef:
        return X, y, mt.tensor(np.squeeze(ground_truth))
    return X, y
