"""One run of k-means from given centres: Lloyd's iterations, or Elkan's (``elkan.py``).

Each iteration is one graph over the chunks of rows: the label of each row (kept in the
session for the next iteration's comparison), each cluster's weighted sum of rows and
total weight (reductions), and how many labels changed; the new centres are computed in
memory from those sums. As scikit-learn's runs, an iteration that changes no label ends
the run (strict convergence), as does one whose centres moved by at most ``tol`` in
total (squared); the labels are then computed once more for the final centres, and the
inertia with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.learn.cluster.samples import (
    Samples,
    cluster_sums,
    inertia,
    nearest_centers,
    new_centers,
)
from jupyter_mars.tensor.core import Tensor


class Assignment(Protocol):
    def assign(self, centers: np.ndarray, shift: np.ndarray) -> tuple[Tensor, list[Tensor]]:
        """Lazy labels for ``centers`` (moved by ``shift`` since the last call), and the
        tensors to compute and hold with them."""
        ...


class LloydAssignment:
    """Each row's nearest centre, computed afresh."""

    def __init__(self, samples: Samples) -> None:
        self.samples = samples

    def assign(self, centers: np.ndarray, shift: np.ndarray) -> tuple[Tensor, list[Tensor]]:
        labels = nearest_centers(self.samples.x, centers)
        return labels, [labels]


@dataclass
class Run:
    """What one run of k-means found."""

    centers: np.ndarray
    labels: Tensor
    """The final labels, computed and held in the session."""
    inertia: float
    n_iter: int


def run(
    samples: Samples,
    centers: np.ndarray,
    assignment: Assignment,
    max_iter: int,
    tol: float,
) -> Run:
    """Iterate from ``centers`` until convergence or ``max_iter`` iterations."""
    n_clusters = len(centers)
    shift = np.zeros(n_clusters, dtype=centers.dtype)
    previous: Tensor | None = None
    strict = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007 - read after the loop
        labels, keep = assignment.assign(centers, shift)
        sums, weights = cluster_sums(samples, labels, n_clusters)
        wanted = [sums, weights]
        if previous is not None:
            wanted.append(mt.count_nonzero(labels != previous))
        found = samples.compute(keep=[*keep, labels], wanted=wanted)
        updated = new_centers(samples, centers, labels, found[0], found[1])
        shift = np.sqrt(((updated - centers) ** 2).sum(axis=1))
        centers = updated
        if previous is not None and found[2] == 0:
            strict = True
            break
        if (shift**2).sum() <= tol:
            break
        previous = labels
    if not strict:
        labels, keep = assignment.assign(centers, shift)
    (total,) = samples.compute(
        keep=[*keep, labels], wanted=[inertia(samples.x, samples.weights, centers, labels)]
    )
    return Run(centers, labels, float(total), n_iter)
