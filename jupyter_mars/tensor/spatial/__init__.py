"""``mt.spatial``: SciPy's ``scipy.spatial`` on tensors (so far its ``distance`` module)."""

from __future__ import annotations

from jupyter_mars.tensor.spatial import distance as distance

__all__ = ["distance"]
