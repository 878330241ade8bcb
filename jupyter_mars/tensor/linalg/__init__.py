"""``mt.linalg``: lazy, chunked ``numpy.linalg`` (and ``scipy.linalg.lu``/``solve_triangular``).

- ``qr``/``svd``: TSQR for tall-and-skinny matrices chunked along rows (``qr.py``);
- ``cholesky``: blocked over the chunk grid (``cholesky.py``);
- ``lu``: blocked LU with partial pivoting (``lu.py``; its permutation blocks in
  ``permutation.py``), which ``solve`` and ``inv`` (``solve.py``), ``det`` and ``slogdet``
  (``det.py``) build on;
- ``solve_triangular``: blocked substitution (``triangular.py``);
- ``norm``: tree reductions (``norm.py``); ``lstsq`` from TSQR (``lstsq.py``);
- ``randomized_svd``: random projection, power iterations and TSQR (``randomized.py``);
- ``dot``, ``vdot``, ``matmul``, ``inner``/``innerproduct``, ``tensordot``: the products of
  ``mt``, listed here as Mars does (``products.py``);
- ``_core.py``: input checks, small kernels, and ``BatchApply`` for stacks of matrices.
"""

from jupyter_mars.tensor.linalg._core import LinAlgError
from jupyter_mars.tensor.linalg.cholesky import cholesky
from jupyter_mars.tensor.linalg.det import det, slogdet
from jupyter_mars.tensor.linalg.lstsq import lstsq
from jupyter_mars.tensor.linalg.lu import lu
from jupyter_mars.tensor.linalg.norm import norm
from jupyter_mars.tensor.linalg.products import (
    dot,
    inner,
    innerproduct,
    matmul,
    tensordot,
    vdot,
)
from jupyter_mars.tensor.linalg.qr import qr, svd
from jupyter_mars.tensor.linalg.randomized import randomized_svd
from jupyter_mars.tensor.linalg.solve import inv, solve
from jupyter_mars.tensor.linalg.triangular import solve_triangular

__all__ = [
    "LinAlgError",
    "cholesky",
    "det",
    "dot",
    "inner",
    "innerproduct",
    "inv",
    "lstsq",
    "lu",
    "matmul",
    "norm",
    "qr",
    "randomized_svd",
    "slogdet",
    "solve",
    "solve_triangular",
    "svd",
    "tensordot",
    "vdot",
]
