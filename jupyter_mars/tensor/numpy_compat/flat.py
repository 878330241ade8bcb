"""``Tensor.flat``: the tensor's elements in C order, indexed, assigned and iterated as
through ``ndarray.flat``.

``t.flat[index]`` reads from the raveled tensor (a copy, as NumPy's). ``t.flat[index] =
value`` assigns into the raveled tensor and rebinds ``t`` to it reshaped back (through
``views.rebind``, so a view writes through to its base); a value with fewer elements than
the selection is repeated, as NumPy repeats it. ``t.flat = value`` assigns every element.
Iterating computes the tensor once and yields NumPy scalars, as NumPy does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.numpy_compat.ufunc_methods import selected_positions
from jupyter_mars.tensor.shape import ravel, reshape
from jupyter_mars.tensor.views import rebind


class TensorFlat:
    """The flat iterator of a tensor (``ndarray.flat``)."""

    def __init__(self, base: Tensor) -> None:
        self.base = base

    def __len__(self) -> int:
        return int(self.base.size)

    def __getitem__(self, index: Any) -> Any:
        return ravel(self.base)[index]

    def __setitem__(self, index: Any, value: Any) -> None:
        base = self.base
        flat = Tensor(ravel(base)._node)
        if not isinstance(value, Tensor):
            wanted = selected_positions((int(base.size),), index).shape
            # NumPy repeats a shorter value over the selection
            arr = np.asarray(value)
            if arr.size and arr.size != int(np.prod(wanted)):
                values = np.empty(arr.size, dtype=base.dtype)
                values[...] = arr.ravel()
                value = np.resize(values, wanted)
        flat[index] = value
        rebind(base, reshape(flat, base.shape)._node)

    def __iter__(self) -> Iterator[Any]:
        return iter(np.asarray(self.base).flat)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        arr = np.asarray(self.base).ravel()
        return arr.astype(dtype) if dtype is not None else arr

    def copy(self) -> Tensor:
        return ravel(self.base)

    def __repr__(self) -> str:
        return f"<flat iterator of {self.base!r}>"


def _get_flat(self: Tensor) -> TensorFlat:
    return TensorFlat(self)


def _set_flat(self: Tensor, value: Any) -> None:
    TensorFlat(self)[...] = value


Tensor.flat = property(_get_flat, _set_flat, doc="``ndarray.flat``: see ``TensorFlat``.")  # type: ignore[attr-defined]

__all__: list[str] = []
