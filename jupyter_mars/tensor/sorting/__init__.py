"""Sorting and searching: ``sort``, ``argsort``, ``partition``, ``argpartition``, ``unique``,
``searchsorted``, ``isin`` and ``in1d``.

One module per idea; each module's docstring says how its functions are tiled:

- ``psrs``: the parallel sort by regular sampling, for an axis split into several chunks
  (its result keeps the input's chunks, so no task ever holds a whole axis);
- ``sort``: ``sort`` and ``argsort`` (NumPy per chunk along a one-chunk axis, else ``psrs``);
- ``partition``: ``partition`` and ``argpartition``;
- ``unique``: ``unique``, spread over value-range buckets (gathered when given an ``axis``);
- ``search``: ``searchsorted``; ``membership``: ``isin`` and ``in1d``;
- ``_outer`` (each chunk of one operand against every chunk of the other, combined by a
  tree) and ``_common`` (argument checks, chunk grids, gathering, tree reductions) are
  shared; ``statistics`` and ``fft`` use the helpers re-exported here too.

This module re-exports every function and attaches the ``Tensor`` methods.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.sorting._common import Gather as Gather
from jupyter_mars.tensor.sorting._common import check_known as check_known
from jupyter_mars.tensor.sorting._common import chunk_indices as chunk_indices
from jupyter_mars.tensor.sorting._common import flat_index as flat_index
from jupyter_mars.tensor.sorting._common import gather as gather
from jupyter_mars.tensor.sorting._common import identity as identity
from jupyter_mars.tensor.sorting._common import int_nsplits as int_nsplits
from jupyter_mars.tensor.sorting._common import internal as internal
from jupyter_mars.tensor.sorting._common import known_nsplits as known_nsplits
from jupyter_mars.tensor.sorting._common import tree_reduce as tree_reduce
from jupyter_mars.tensor.sorting._outer import OuterReduce as OuterReduce
from jupyter_mars.tensor.sorting.membership import Ravel as Ravel
from jupyter_mars.tensor.sorting.membership import in1d, isin
from jupyter_mars.tensor.sorting.partition import Partition as Partition
from jupyter_mars.tensor.sorting.partition import argpartition, partition
from jupyter_mars.tensor.sorting.search import TakeGathered as TakeGathered
from jupyter_mars.tensor.sorting.search import searchsorted
from jupyter_mars.tensor.sorting.sort import Sort as Sort
from jupyter_mars.tensor.sorting.sort import argsort, sort
from jupyter_mars.tensor.sorting.sort import sort_tiled as sort_tiled
from jupyter_mars.tensor.sorting.unique import UniqueAxisField as UniqueAxisField
from jupyter_mars.tensor.sorting.unique import UniqueBuckets as UniqueBuckets
from jupyter_mars.tensor.sorting.unique import UniqueField as UniqueField
from jupyter_mars.tensor.sorting.unique import UniqueLocal as UniqueLocal
from jupyter_mars.tensor.sorting.unique import unique
from jupyter_mars.tensor.views import rebind

__all__ = [
    "argpartition",
    "argsort",
    "in1d",
    "isin",
    "partition",
    "searchsorted",
    "sort",
    "unique",
]


# ---- Tensor methods ---------------------------------------------------------------------------


def _sort_method(
    self: Tensor,
    axis: int = -1,
    kind: str | None = None,
    order: Any = None,
    *,
    stable: bool | None = None,
) -> None:
    """Sort in place: the tensor is rebound to the sorted expression (as in Mars)."""
    result = sort(self, axis=axis, kind=kind, order=order, stable=stable)
    rebind(self, result.node)


def _argsort_method(
    self: Tensor,
    axis: int = -1,
    kind: str | None = None,
    order: Any = None,
    *,
    stable: bool | None = None,
) -> Tensor:
    return argsort(self, axis=axis, kind=kind, order=order, stable=stable)


def _partition_method(
    self: Tensor, kth: Any, axis: int = -1, kind: str = "introselect", order: Any = None
) -> None:
    """Partition in place: the tensor is rebound to the partitioned expression."""
    rebind(self, partition(self, kth, axis=axis, kind=kind, order=order).node)


def _argpartition_method(
    self: Tensor, kth: Any, axis: int = -1, kind: str = "introselect", order: Any = None
) -> Tensor:
    return argpartition(self, kth, axis=axis, kind=kind, order=order)


def _searchsorted_method(self: Tensor, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    return searchsorted(self, v, side=side, sorter=sorter)


def _attach() -> None:
    Tensor.sort = _sort_method  # type: ignore[attr-defined]
    Tensor.argsort = _argsort_method  # type: ignore[attr-defined]
    Tensor.partition = _partition_method  # type: ignore[attr-defined]
    Tensor.argpartition = _argpartition_method  # type: ignore[attr-defined]
    Tensor.searchsorted = _searchsorted_method  # type: ignore[attr-defined]


_attach()
