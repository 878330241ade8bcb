"""``mt.spatial.distance``: SciPy's ``cdist``, ``pdist`` and ``squareform`` on tensors.

- ``metrics``: the metrics, their aliases and keywords, and the checks made at the call;
- ``pairwise``: ``cdist`` and ``pdist``, one task per pair of blocks of rows;
- ``squareform``: condensed vector to square matrix and back, by blocks of rows.
"""

from __future__ import annotations

from jupyter_mars.tensor.spatial.distance.pairwise import PairwiseDistance as PairwiseDistance
from jupyter_mars.tensor.spatial.distance.pairwise import cdist, pdist
from jupyter_mars.tensor.spatial.distance.squareform import SquareForm as SquareForm
from jupyter_mars.tensor.spatial.distance.squareform import squareform

__all__ = ["cdist", "pdist", "squareform"]
