"""``x[index]`` with a basic index is a view of ``x`` (see ``tensor/views.py``):
assigning into it assigns into ``x``, and assigning into ``x`` shows in it, as NumPy's
shared memory does. Integer arrays, masks and tensors as indices make copies, as in
NumPy, and so does an index of one integer per axis (NumPy returns a scalar).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.indexing.getitem import getitem
from jupyter_mars.tensor.indexing.setitem import setitem
from jupyter_mars.tensor.views import link_view


def _is_int(item: Any) -> bool:
    return isinstance(item, (numbers.Integral, np.integer)) and not isinstance(
        item, (bool, np.bool_)
    )


def is_view_index(index: Any, ndim: int) -> bool:
    """Whether NumPy's ``array[index]`` is a view of the array."""
    items = index if isinstance(index, tuple) else (index,)
    ints = 0
    for item in items:
        if _is_int(item):
            ints += 1
        elif not (item is None or item is Ellipsis or isinstance(item, slice)):
            return False
        elif isinstance(item, slice) and not all(
            part is None or _is_int(part) for part in (item.start, item.stop, item.step)
        ):
            return False
    return not (ints == ndim and len(items) == ints)


class _Region:
    """``derive`` and ``write_back`` of a basic-index view (a picklable pair of methods)."""

    def __init__(self, index: Any) -> None:
        self.index = index

    def derive(self, base: Tensor) -> Tensor:
        return getitem(base, self.index)

    def write_back(self, base: Tensor, view: Tensor) -> Tensor:
        updated = Tensor(base._node)
        setitem(updated, self.index, view)
        return updated


def getitem_view(x: Tensor, index: Any) -> Any:
    """``x[index]``, linked to ``x`` as a view when the index is basic."""
    result = getitem(x, index)
    if isinstance(result, Tensor) and is_view_index(index, x.ndim):
        region = _Region(index)
        link_view(result, x, region.derive, region.write_back)
    return result
