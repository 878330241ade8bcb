"""In-place operators (``t += 1``) as NumPy's: the ufunc with ``out=t``.

The tensor is rebound (through ``views.rebind``, so ``b = a[2:]; b += 1`` changes
``a``), and the result is cast to the tensor's dtype under ``same_kind``: ``t += 1.5`` on
an integer tensor raises NumPy's casting error instead of making ``t`` a float tensor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jupyter_mars.tensor import ufuncs
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.products import matmul


def _operand_ok(x: Any) -> bool:
    return isinstance(x, (Tensor, np.ndarray, np.generic, int, float, complex, bool, list, tuple))


def _inplace(func: Callable[..., Any]) -> Callable[[Tensor, Any], Any]:
    def method(self: Tensor, other: Any) -> Any:
        if not _operand_ok(other):
            return NotImplemented
        func(self, other, out=self)
        return self

    return method


def _attach() -> None:
    for dunder, name in ufuncs.OPERATORS.items():
        ufunc = getattr(ufuncs, name)
        setattr(Tensor, f"__i{dunder}__", _inplace(ufunc))
    setattr(Tensor, "__imatmul__", _inplace(matmul))  # noqa: B010


_attach()

__all__: list[str] = []
