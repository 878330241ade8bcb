"""The products of ``mt`` in ``mt.linalg`` too, as Mars lists them there: ``dot``, ``vdot``,
``matmul``, ``inner``, ``tensordot``, and ``innerproduct``, Mars's other name of ``inner``.

They are the very functions of ``jupyter_mars.tensor.products`` (one implementation).
"""

from jupyter_mars.tensor.products import dot, inner, matmul, tensordot, vdot

innerproduct = inner
"""Mars's name of ``inner``."""

__all__ = ["dot", "inner", "innerproduct", "matmul", "tensordot", "vdot"]
