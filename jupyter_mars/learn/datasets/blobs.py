"""``make_blobs``: isotropic Gaussian blobs, as scikit-learn's, drawn chunk by chunk.

The centres are drawn first, from the ``RandomState`` that ``random_state`` names, as
scikit-learn draws them, so the same ``random_state`` gives scikit-learn's centres. Each
blob holds scikit-learn's number of samples (an equal share, the first ones one more for
the remainder, or the counts given); ``drawn.py`` spreads them over the row chunks, and
each chunk draws its samples around their centres.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from jupyter_mars.learn.datasets.drawn import (
    drawn_tensors,
    group_labels,
    new_seed,
    spread_groups,
)
from jupyter_mars.learn.utils.params import check_bool, check_int
from jupyter_mars.learn.utils.validation import check_random_state
from jupyter_mars.tensor import tensor
from jupyter_mars.tensor.creation.common import nsplits_for

__all__ = ["make_blobs"]


def draw_blobs(
    generator: np.random.Generator,
    n_rows: int,
    counts: np.ndarray[Any, Any],
    centers: np.ndarray[Any, Any],
    stds: np.ndarray[Any, Any],
    shuffle: bool,
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Chunk kernel: ``counts[k]`` samples of blob ``k``, and their labels."""
    labels = group_labels(counts, shuffle, generator)
    noise = generator.standard_normal((n_rows, centers.shape[1]))
    return noise * stds[labels, None] + centers[labels], labels.astype(np.int64)


def _check_arguments(n_samples: Any, n_features: Any, centers: Any, cluster_std: Any) -> None:
    owner = "make_blobs"
    if isinstance(n_samples, numbers.Integral):
        check_int(n_samples, "n_samples", owner, 1, " or an array-like")
    elif not isinstance(n_samples, Iterable):
        check_int(n_samples, "n_samples", owner, 1, " or an array-like")
    check_int(n_features, "n_features", owner, 1)
    if isinstance(centers, numbers.Integral):
        check_int(centers, "centers", owner, 1, ", an array-like or None")
    bad_std = isinstance(cluster_std, bool) or (
        isinstance(cluster_std, numbers.Real) and cluster_std < 0
    )
    if bad_std or not isinstance(cluster_std, numbers.Real | Iterable):
        raise ValueError(
            "The 'cluster_std' parameter of make_blobs must be a float in the range "
            f"[0.0, inf) or an array-like. Got {cluster_std!r} instead."
        )


def make_blobs(
    n_samples: Any = 100,
    n_features: int = 2,
    *,
    centers: Any = None,
    cluster_std: Any = 1.0,
    center_box: tuple[float, float] = (-10.0, 10.0),
    shuffle: bool = True,
    random_state: Any = None,
    return_centers: bool = False,
    chunk_size: Any = None,
) -> tuple[Any, ...]:
    """Samples of Gaussian blobs, as scikit-learn's ``make_blobs``: ``X`` (float64,
    ``n_samples x n_features``) and ``y`` (int64 labels) as tensors chunked by
    ``chunk_size``, and the centres (a tensor) with ``return_centers``."""
    _check_arguments(n_samples, n_features, centers, cluster_std)
    if not isinstance(center_box, tuple):
        raise ValueError(
            "The 'center_box' parameter of make_blobs must be an instance of 'tuple'. "
            f"Got {center_box!r} instead."
        )
    check_bool(shuffle, "shuffle", "make_blobs")
    rng = check_random_state(random_state)
    if isinstance(n_samples, numbers.Integral):
        n_centers = int(centers) if isinstance(centers, numbers.Integral) else 3
        if centers is None or isinstance(centers, numbers.Integral):
            centers = rng.uniform(center_box[0], center_box[1], size=(n_centers, n_features))
        sizes = [int(n_samples) // len(centers)] * len(centers)
        for i in range(int(n_samples) % len(centers)):
            sizes[i] += 1
    else:
        sizes = [int(n) for n in n_samples]
        if centers is None:
            centers = rng.uniform(center_box[0], center_box[1], size=(len(sizes), n_features))
        if not isinstance(centers, Iterable):
            raise ValueError(f"Parameter `centers` must be array-like. Got {centers!r} instead")
        if len(list(centers)) != len(sizes):
            raise ValueError(
                "Length of `n_samples` not consistent with number of centers. Got "
                f"n_samples = {n_samples} and centers = {centers}"
            )
    centers = np.asarray(centers, dtype=np.float64)
    if centers.ndim != 2:
        raise ValueError(f"centers must be a 2-d array-like, got shape {centers.shape}")
    if hasattr(cluster_std, "__len__") and len(cluster_std) != len(centers):
        raise ValueError(
            "Length of `clusters_std` not consistent with number of centers. Got centers "
            f"= {centers} and cluster_std = {cluster_std}"
        )
    stds = np.broadcast_to(np.asarray(cluster_std, dtype=np.float64), (len(centers),)).copy()
    nsplits = nsplits_for((sum(sizes), centers.shape[1]), chunk_size, np.dtype(np.float64))
    table = spread_groups(sizes, nsplits[0], shuffle, rng)
    X, y = drawn_tensors(  # noqa: N806
        "blobs",
        draw_blobs,
        new_seed(rng),
        nsplits,
        list(table),
        (centers, stds, shuffle),
        (np.float64, np.int64),
    )
    return (X, y, tensor(centers)) if return_centers else (X, y)
