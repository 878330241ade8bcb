"""Products: ``dot``, ``inner``, ``outer``, ``matmul``, ``tensordot``, ``vdot``, ``einsum``.

Every product is one ``Contract`` node: each operand axis carries a label (as in an
``einsum`` subscript); the output keeps some labels, the others are summed over. Tiling
makes one task per output chunk (on shared, contiguous panels for matrix products).

- ``contraction``: the ``Contract`` operator and its builder ``contract``;
- ``chunking``: chunk boundaries, panels, memory budget and thread use of a contraction;
- ``tiling``: its tile rule (panels, sum tree, the symmetric half of ``inner(a, a)``);
- ``kernels``: the chunk kernels; ``checks``: argument checks and dtype probes;
- ``tensordot``: ``tensordot`` (and the axis contraction ``dot``/``inner`` share);
- ``matmul``: ``dot``, ``matmul`` and the ``Tensor`` methods; ``inner``: ``inner``,
  ``vdot``, ``outer``; ``einsum``: ``einsum``.

This module re-exports every function and attaches the ``Tensor`` methods (``dot``,
``__matmul__``, ``__rmatmul__``).
"""

from __future__ import annotations

# the tile rule of ``Contract`` is registered by importing ``tiling``
import jupyter_mars.tensor.products.tiling as tiling  # noqa: F401
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.products.contraction import Contract as Contract
from jupyter_mars.tensor.products.contraction import contract as contract
from jupyter_mars.tensor.products.einsum import einsum
from jupyter_mars.tensor.products.inner import inner, outer, vdot
from jupyter_mars.tensor.products.matmul import (
    dot,
    dot_method,
    matmul,
    matmul_method,
    rmatmul_method,
)
from jupyter_mars.tensor.products.tensordot import tensordot


def _attach() -> None:
    Tensor.dot = dot_method  # type: ignore[attr-defined]
    setattr(Tensor, "__matmul__", matmul_method)  # noqa: B010
    setattr(Tensor, "__rmatmul__", rmatmul_method)  # noqa: B010


_attach()

__all__ = ["dot", "einsum", "inner", "matmul", "outer", "tensordot", "vdot"]
