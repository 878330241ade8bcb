"""Initial centres for k-means: ``k-means||``, ``k-means++``, ``random``, given ones.

- ``k-means++`` (Arthur and Vassilvitskii, greedy as scikit-learn runs it): each new
  centre is the best of ``2 + log(k)`` rows drawn with probability proportional to their
  weighted squared distance to the centres so far. One graph per centre: it updates the
  distances (kept in the session), draws the candidates by a search in their cumulative
  sum, and sums each candidate's potential over the chunks. The random numbers are
  drawn in the order scikit-learn draws them, so a ``random_state`` gives its centres.
- ``k-means||`` (Bahmani et al., "Scalable k-means++"): from one random row, each of
  ``init_iter`` rounds keeps every row independently with probability
  ``oversampling_factor * k * w d² / φ`` (``φ`` the weighted sum of the squared
  distances); each block keeps its rows' distances to the nearest candidate and which
  one it is (``Nearest``), lowered each round by the new candidates in one compiled pass;
  the candidates, weighted by the weight of the rows nearest each, are then reduced
  to ``k`` by weighted k-means++ in memory, and those centres refined by the
  candidates' weighted k-means (scikit-learn's, in memory).
- ``random``: ``k`` distinct rows drawn with probability proportional to their weight.

Every function returns the centres, in the centred coordinates of ``Samples``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.cluster import KMeans as SKLearnKMeans

import jupyter_mars.tensor as mt
from jupyter_mars.learn.cluster.lloyd import nearest_gaps
from jupyter_mars.learn.cluster.samples import Samples, squared_distances
from jupyter_mars.learn.utils.blocks import per_block
from jupyter_mars.learn.utils.chunks import without_history
from jupyter_mars.tensor.core import Tensor

REFINE_ITER = 50
"""Most Lloyd iterations of the candidates' weighted k-means in k-means||'s last step."""

_DRAWS = 20
"""Rounds of drawing distinct rows before repeats are accepted."""


def _trials(n_clusters: int) -> int:
    return 2 + int(np.log(n_clusters))


def _rows(samples: Samples, indices: Any) -> Tensor:
    rows: Tensor = samples.x[indices]
    return rows


def _nearer(samples: Samples, closest: Tensor, points: np.ndarray) -> Tensor:
    """The computed squared distances ``closest`` of each row to the nearest centre so
    far, lowered by the distances to ``points``; built on ``closest``'s stand-in, so
    that each update does not hold on to every earlier one."""
    gaps = mt.min(squared_distances(samples, points), axis=1)
    nearer: Tensor = mt.minimum(without_history(closest), gaps)
    return nearer


def plusplus(samples: Samples, n_clusters: int, rng: np.random.RandomState) -> np.ndarray:
    """Greedy k-means++ over the chunks of ``samples``."""
    trials = _trials(n_clusters)
    first = _rows(samples, samples.draw(np.array([rng.random_sample()])))
    closest = squared_distances(samples, first)[:, 0]
    (center, potential) = samples.compute(
        keep=[closest], wanted=[first, samples.total_weight(closest)]
    )
    centers = [center[0]]
    for _ in range(1, n_clusters):
        previous = closest
        if len(centers) > 1:
            closest = _nearer(samples, previous, centers[-1][None, :])
        levels = rng.uniform(size=trials) * potential
        chosen = mt.minimum(
            mt.searchsorted(mt.cumsum(samples.weighted(closest)), levels), samples.n_samples - 1
        )
        candidates = _rows(samples, chosen)
        gains = samples.total_weight(
            mt.minimum(closest[:, None], squared_distances(samples, candidates))
        )
        found, potentials = samples.compute(keep=[closest, previous], wanted=[candidates, gains])
        best = int(np.argmin(potentials))
        potential = potentials[best]
        centers.append(found[best])
    return np.asarray(centers)


def plusplus_in_memory(
    points: np.ndarray, weights: np.ndarray, n_clusters: int, rng: np.random.RandomState
) -> np.ndarray:
    """Greedy weighted k-means++ on a few ``points`` held in memory."""
    trials = _trials(n_clusters)
    first = rng.choice(len(points), p=weights / weights.sum())
    centers = [points[first]]
    closest = ((points - points[first]) ** 2).sum(axis=1)
    potential = closest @ weights
    for _ in range(1, n_clusters):
        levels = rng.uniform(size=trials) * potential
        chosen = np.minimum(np.searchsorted(np.cumsum(weights * closest), levels), len(points) - 1)
        gaps = ((points[chosen][:, None, :] - points[None, :, :]) ** 2).sum(axis=2)
        gaps = np.minimum(closest, gaps)
        potentials = gaps @ weights
        best = int(np.argmin(potentials))
        potential, closest = potentials[best], gaps[best]
        centers.append(points[chosen[best]])
    return np.asarray(centers)


@dataclass(frozen=True)
class Nearest:
    """A row block's squared distances to the nearest candidate so far, that candidate's
    index among all the candidates, and the block's potential (its weighted sum of
    distances)."""

    gaps: np.ndarray
    index: np.ndarray
    potential: float


def lower_block(
    x: np.ndarray,
    norms: np.ndarray,
    *rest: Any,
    points: np.ndarray,
    first: int,
    weighted: bool,
    earlier: bool,
) -> Nearest:
    """A block's ``Nearest`` with ``points`` (numbered from ``first``) added to the
    candidates: after ``x`` and its squared norms, its weights (if ``weighted``) and its
    ``Nearest`` so far (if ``earlier``; a tie keeps the earlier candidate)."""
    index, gaps = nearest_gaps(x, norms, points)
    index += first
    if earlier:
        previous: Nearest = rest[-1]
        stays = previous.gaps <= gaps
        gaps = np.where(stays, previous.gaps, gaps)
        index = np.where(stays, previous.index, index)
    potential = float(gaps @ rest[0]) if weighted else float(gaps.sum())
    return Nearest(gaps, index, potential)


def block_potential(x: np.ndarray, nearest: Nearest) -> float:
    return nearest.potential


def pick_rows(
    x: np.ndarray, uniforms: np.ndarray, *rest: Any, potential: float, scale: float, weighted: bool
) -> np.ndarray:
    """The rows of a block k-means|| keeps: each with probability ``scale`` times its
    weighted distance over ``potential`` (compared without dividing, so that a potential
    of 0, every row on a candidate, keeps none)."""
    nearest: Nearest = rest[-1]
    chance = nearest.gaps * scale
    if weighted:
        chance = chance * rest[0]
    picked: np.ndarray = x[uniforms * potential < chance]
    return picked


def block_mass(x: np.ndarray, *rest: Any, n_points: int, weighted: bool) -> np.ndarray:
    """The weight (or count) of a block's rows nearest each candidate."""
    nearest: Nearest = rest[-1]
    return np.bincount(nearest.index, weights=rest[0] if weighted else None, minlength=n_points)


def scalable(
    samples: Samples,
    n_clusters: int,
    rng: np.random.RandomState,
    oversampling_factor: float,
    init_iter: int,
) -> np.ndarray:
    """k-means||: oversampling rounds over the chunks, then weighted k-means++ on the
    candidates in memory.

    Each round is two graphs of one task per row block: the first lowers the block's
    distances by the candidates the last round found (and sums its potential), the
    second keeps rows by those distances. A last pass adds the last round's candidates,
    and each candidate's weight is the weight of the rows nearest it."""
    first = _rows(samples, samples.draw(np.array([rng.random_sample()])))
    (found,) = samples.compute(wanted=[first])
    candidates = [found]
    count = 0
    weighted = samples.weights is not None
    rows = (samples.x, samples.squared_norms, *([samples.weights] if weighted else []))
    nearest: Tensor | None = None

    def lower(points: np.ndarray) -> float:
        nonlocal nearest, count
        previous = nearest
        kernel = functools.partial(
            lower_block, points=points, first=count, weighted=weighted, earlier=previous is not None
        )
        before = () if previous is None else (without_history(previous),)
        paired = (len(rows),) if previous is not None else ()
        nearest = per_block(kernel, *rows, *before, name="kmeans_gaps", paired=paired)
        count += len(points)
        potentials = per_block(block_potential, samples.x, nearest, paired=(1,))
        held = [nearest] if previous is None else [nearest, previous]
        (parts,) = samples.compute(keep=held, wanted=[potentials])
        return float(sum(parts))

    potential = 0.0
    for _ in range(init_iter):
        if len(found):  # a round that found nothing leaves every distance as it was
            potential = lower(found)
        if potential == 0:
            found = found[:0]
            break  # every row is a candidate already
        uniforms = mt.random.RandomState(rng.randint(np.iinfo(np.int32).max)).rand(
            samples.n_samples
        )
        pick = functools.partial(
            pick_rows,
            potential=potential,
            scale=oversampling_factor * n_clusters,
            weighted=weighted,
        )
        given = (samples.x, uniforms, *([samples.weights] if weighted else []))
        assert nearest is not None
        picked = per_block(pick, *given, nearest, name="kmeans_pick", paired=(len(given),))
        (parts,) = samples.compute(wanted=[picked])
        found = np.concatenate(list(parts))
        if len(found):
            candidates.append(found)
    if len(found):
        lower(found)
    points = np.concatenate(candidates)
    assert nearest is not None
    assert count == len(points)
    weigh = functools.partial(block_mass, n_points=len(points), weighted=weighted)
    given = (samples.x, *([samples.weights] if weighted else []))
    masses_of = per_block(weigh, *given, nearest, name="kmeans_mass", paired=(len(given),))
    (parts,) = samples.compute(wanted=[masses_of])
    mass = functools.reduce(np.add, list(parts))
    if len(points) <= n_clusters:
        extra = distinct_rows(samples, rng, n_clusters - len(points))
        return np.concatenate([points, extra]) if len(extra) else points
    masses = np.asarray(mass, dtype=np.float64)
    seeds = plusplus_in_memory(points, masses, n_clusters, rng)
    return recluster(points, masses, seeds)


def recluster(points: np.ndarray, weights: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """The candidates' weighted k-means from the k-means++ ``seeds``, in memory (the last
    step of k-means||: the candidates, a few hundred rows, stand for the data by their
    weights): centres a few Lloyd iterations from the data's optimum rather than many."""
    held = weights > 0
    if np.count_nonzero(held) <= len(seeds):
        return seeds  # no more rows than centres: nothing to refine
    fitted = SKLearnKMeans(len(seeds), init=seeds, n_init=1, max_iter=REFINE_ITER)
    fitted.fit(points[held], sample_weight=weights[held])
    return np.asarray(fitted.cluster_centers_, dtype=points.dtype)


def distinct_rows(samples: Samples, rng: np.random.RandomState, count: int) -> np.ndarray:
    """``count`` distinct rows drawn with probability proportional to their weight (a
    few may repeat where fewer rows than ``count`` have any weight)."""
    indices: list[int] = []
    drawn: Any = []
    for _ in range(_DRAWS):
        drawn = samples.draw(rng.random_sample(2 * (count - len(indices))))
        if isinstance(drawn, Tensor):
            (drawn,) = samples.compute(wanted=[drawn])
        for index in np.asarray(drawn).tolist():
            if index not in indices and len(indices) < count:
                indices.append(index)
        if len(indices) == count:
            break
    indices += np.asarray(drawn).tolist()[: count - len(indices)]
    if not indices:
        return np.zeros((0, samples.x.shape[1]), dtype=samples.x.dtype)
    (rows,) = samples.compute(wanted=[_rows(samples, np.asarray(indices))])
    return np.asarray(rows)


def check_given(centers: Any, n_clusters: int, n_features: int, dtype: np.dtype[Any]) -> np.ndarray:
    """Centres given as an array (or returned by a callable ``init``), checked as
    scikit-learn checks them."""
    if isinstance(centers, Tensor):
        centers = centers.execute().fetch()
    given = np.asarray(centers, dtype=dtype)
    if given.ndim != 2 or given.shape[0] != n_clusters:
        raise ValueError(
            f"The shape of the initial centers {given.shape} does not match the number of "
            f"clusters {n_clusters}."
        )
    if given.shape[1] != n_features:
        raise ValueError(
            f"The shape of the initial centers {given.shape} does not match the number of "
            f"features of the data {n_features}."
        )
    return given
