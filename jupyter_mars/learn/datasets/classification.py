"""``make_classification``: a random n-class problem, as scikit-learn's, drawn chunk by
chunk.

Scikit-learn's construction: each class is ``n_clusters_per_class`` Gaussian clusters
placed on distinct vertices of a hypercube of side ``2 * class_sep`` in the
``n_informative`` informative features, each cluster with its own random covariance; the
redundant features are random linear combinations of the informative ones, the repeated
ones copies of either, the rest noise; a fraction ``flip_y`` of the labels is replaced at
random; every feature is shifted and scaled; and with ``shuffle`` the samples and the
features are permuted. Everything that is not one number per sample (vertices,
covariances, combinations, shifts, scales, the order of the features) is drawn in the
driver; ``drawn.py`` spreads each cluster's samples over the row chunks, and each chunk
draws its own samples and labels.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
from sklearn.utils import Bunch
from sklearn.utils.random import sample_without_replacement

from jupyter_mars.learn.datasets.drawn import (
    drawn_tensors,
    group_labels,
    new_seed,
    spread_groups,
)
from jupyter_mars.learn.utils.params import check_bool, check_int, check_real
from jupyter_mars.learn.utils.validation import check_random_state
from jupyter_mars.tensor.creation.common import nsplits_for

__all__ = ["make_classification"]

_OWNER = "make_classification"


def hypercube_vertices(
    n_vertices: int, dimensions: int, rng: np.random.RandomState
) -> np.ndarray[Any, Any]:
    """``n_vertices`` distinct vertices of the unit hypercube in ``dimensions`` (0/1
    coordinates), chosen as scikit-learn chooses them from the same ``rng``: the vertices'
    numbers sampled without replacement (for a few clusters in few dimensions that keeps
    their order, so the first classes' clusters share a face and the problem stays
    linearly separable as scikit-learn's is), their bits read highest first; beyond 30
    dimensions the first coordinates are random."""
    if dimensions > 30:
        extra = rng.randint(2, size=(n_vertices, dimensions - 30))
        return np.hstack([extra, hypercube_vertices(n_vertices, 30, rng)])
    numbers_ = np.asarray(
        sample_without_replacement(2**dimensions, n_vertices, random_state=rng), dtype=np.int64
    )
    shifts = np.arange(dimensions - 1, -1, -1)
    bits: np.ndarray[Any, Any] = (numbers_[:, None] >> shifts[None, :]) & 1
    return bits.astype(np.float64)


def draw_classification(
    generator: np.random.Generator,
    n_rows: int,
    counts: np.ndarray[Any, Any],
    p: dict[str, Any],
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Chunk kernel: ``counts[k]`` samples of cluster ``k``, their features and labels."""
    clusters = group_labels(counts, p["shuffle"], generator)
    informative = generator.standard_normal((n_rows, p["n_informative"]))
    for k in np.flatnonzero(counts):
        rows = clusters == k
        informative[rows] = informative[rows] @ p["covariances"][k] + p["centroids"][k]
    parts = [informative, informative @ p["combinations"]]
    parts.append(np.hstack(parts)[:, p["repeated"]])
    parts.append(generator.standard_normal((n_rows, p["n_useless"])))
    X = np.hstack(parts)  # noqa: N806
    y = (clusters % p["n_classes"]).astype(np.int64)
    flipped = generator.random(n_rows) < p["flip_y"]
    y[flipped] = generator.integers(p["n_classes"], size=int(flipped.sum()))
    X += p["shift"]  # noqa: N806
    X *= p["scale"]  # noqa: N806
    return X[:, p["feature_order"]], y


def _class_weights(weights: Any, n_classes: int) -> list[float]:
    if weights is None:
        return [1.0 / n_classes] * n_classes
    if len(weights) not in (n_classes, n_classes - 1):
        raise ValueError("Weights specified but incompatible with number of classes.")
    given = [float(w) for w in weights]
    return given if len(given) == n_classes else given + [1.0 - sum(given)]


def _feature_vector(value: Any, name: str, n_features: int, draw: Any) -> np.ndarray[Any, Any]:
    """A shift or scale per feature: drawn where None, else the number or array given."""
    if value is None:
        return np.asarray(draw(), dtype=np.float64)
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        array = np.asarray(value, dtype=np.float64)
        if array.shape not in ((n_features,), (1,), ()):
            raise ValueError(f"{name} must be a float, None or one value per feature")
        return np.broadcast_to(array, (n_features,)).copy()
    return np.full(n_features, float(value))


def make_classification(
    n_samples: int = 100,
    n_features: int = 20,
    *,
    n_informative: int = 2,
    n_redundant: int = 2,
    n_repeated: int = 0,
    n_classes: int = 2,
    n_clusters_per_class: int = 2,
    weights: Any = None,
    flip_y: float = 0.01,
    class_sep: float = 1.0,
    hypercube: bool = True,
    shift: Any = 0.0,
    scale: Any = 1.0,
    shuffle: bool = True,
    random_state: Any = None,
    return_X_y: bool = True,  # noqa: N803
    chunk_size: Any = None,
) -> Any:
    """A random classification problem, as scikit-learn's ``make_classification``:
    ``X`` (float64) and ``y`` (int64) as tensors chunked by ``chunk_size``, or a
    ``Bunch`` with them, ``feature_info`` and ``parameters`` if not ``return_X_y``."""
    check_int(n_samples, "n_samples", _OWNER, 1)
    check_int(n_features, "n_features", _OWNER, 1)
    check_int(n_informative, "n_informative", _OWNER, 1)
    check_int(n_redundant, "n_redundant", _OWNER, 0)
    check_int(n_repeated, "n_repeated", _OWNER, 0)
    check_int(n_classes, "n_classes", _OWNER, 1)
    check_int(n_clusters_per_class, "n_clusters_per_class", _OWNER, 1)
    check_real(flip_y, "flip_y", _OWNER, 0.0, 1.0)
    check_real(class_sep, "class_sep", _OWNER, 0.0, open_low=True)
    for flag, name in ((hypercube, "hypercube"), (shuffle, "shuffle"), (return_X_y, "return_X_y")):
        check_bool(flag, name, _OWNER)
    if n_informative + n_redundant + n_repeated > n_features:
        raise ValueError(
            "Number of informative, redundant and repeated features must sum to less than "
            "the number of total features"
        )
    if n_informative < np.log2(n_classes * n_clusters_per_class):
        raise ValueError(
            f"n_classes({n_classes}) * n_clusters_per_class({n_clusters_per_class}) must be "
            f"smaller or equal 2**n_informative({n_informative})={2**n_informative}"
        )
    class_weights = _class_weights(weights, n_classes)
    rng = check_random_state(random_state)
    n_clusters = n_classes * n_clusters_per_class
    sizes = [
        int(n_samples * class_weights[k % n_classes] / n_clusters_per_class)
        for k in range(n_clusters)
    ]
    for i in range(n_samples - sum(sizes)):
        sizes[i % n_clusters] += 1
    centroids = hypercube_vertices(n_clusters, n_informative, rng) * 2 * class_sep - class_sep
    if not hypercube:
        centroids *= rng.uniform(size=(n_clusters, 1))
        centroids *= rng.uniform(size=(1, n_informative))
    informative_and_redundant = n_informative + n_redundant
    params = {
        "shuffle": shuffle,
        "n_informative": n_informative,
        "n_classes": n_classes,
        "n_useless": n_features - informative_and_redundant - n_repeated,
        "flip_y": float(flip_y),
        "centroids": centroids,
        "covariances": 2 * rng.uniform(size=(n_clusters, n_informative, n_informative)) - 1,
        "combinations": 2 * rng.uniform(size=(n_informative, n_redundant)) - 1,
        "repeated": ((informative_and_redundant - 1) * rng.uniform(size=n_repeated) + 0.5).astype(
            np.intp
        ),
        "shift": _feature_vector(
            shift, "shift", n_features, lambda: (2 * rng.uniform(size=n_features) - 1) * class_sep
        ),
        "scale": _feature_vector(
            scale, "scale", n_features, lambda: 1 + 100 * rng.uniform(size=n_features)
        ),
    }
    order = np.arange(n_features)
    if shuffle:
        rng.shuffle(order)
    params["feature_order"] = order
    nsplits = nsplits_for((n_samples, n_features), chunk_size, np.dtype(np.float64))
    table = spread_groups(sizes, nsplits[0], shuffle, rng)
    X, y = drawn_tensors(  # noqa: N806
        "classification",
        draw_classification,
        new_seed(rng),
        nsplits,
        list(table),
        (params,),
        (np.float64, np.int64),
    )
    if return_X_y:
        return X, y
    kinds = ["random"] * n_features
    for i, source in enumerate(order):
        if source < n_informative:
            kinds[i] = "informative"
        elif source < informative_and_redundant:
            kinds[i] = "redundant"
        elif source < informative_and_redundant + n_repeated:
            kinds[i] = "repeated"
    arguments = {
        "n_samples": n_samples,
        "n_features": n_features,
        "n_informative": n_informative,
        "n_redundant": n_redundant,
        "n_repeated": n_repeated,
        "n_classes": n_classes,
        "n_clusters_per_class": n_clusters_per_class,
        "weights": weights,
        "flip_y": flip_y,
        "class_sep": class_sep,
        "hypercube": hypercube,
        "shift": params["shift"] if shift is None else shift,
        "scale": params["scale"] if scale is None else scale,
        "shuffle": shuffle,
        "random_state": random_state,
        "return_X_y": return_X_y,
    }
    return Bunch(
        DESCR=make_classification.__doc__,
        parameters=arguments,
        feature_info=kinds,
        X=X,
        y=y,
    )
