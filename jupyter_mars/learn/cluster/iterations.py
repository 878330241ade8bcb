"""One run of k-means from given centres: Lloyd's iterations (``lloyd.py``), or Elkan's
(``elkan.py``).

Each iteration is one graph over the row blocks: the labels of the rows (kept in the
session for the next iteration's comparison) and each block's ``Totals``, its clusters'
sums and weights and how many of its labels changed; the new centres are computed in
memory from those totals. As scikit-learn's runs, an iteration that changes no label
ends the run (strict convergence), as does one whose centres moved by at most ``tol``
in total (squared); the labels are then computed once more for the final centres, and
the inertia with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from jupyter_mars.learn.cluster.lloyd import add_up
from jupyter_mars.learn.cluster.samples import Samples, inertia, new_centers
from jupyter_mars.tensor.core import Tensor


class Assignment(Protocol):
    def step(self, centers: np.ndarray, shift: np.ndarray) -> tuple[Tensor, list[Tensor], Tensor]:
        """Lazy labels for ``centers`` (moved by ``shift`` since the last call), the
        tensors to compute and hold with them, and the blocks' ``Totals``."""
        ...


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
    shift = np.zeros(len(centers), dtype=centers.dtype)
    strict = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007 - read after the loop
        labels, keep, totals = assignment.step(centers, shift)
        (items,) = samples.compute(keep=keep, wanted=[totals])
        found = add_up(items)
        updated = new_centers(samples, centers, labels, found.sums, found.weights)
        shift = np.sqrt(((updated - centers) ** 2).sum(axis=1))
        centers = updated
        if found.changed == 0:
            strict = True
            break
        if (shift**2).sum() <= tol:
            break
    if not strict:
        labels, keep, _ = assignment.step(centers, shift)
    (total,) = samples.compute(
        keep=[*keep, labels], wanted=[inertia(samples.x, samples.weights, centers, labels)]
    )
    return Run(centers, labels, float(total), n_iter)
