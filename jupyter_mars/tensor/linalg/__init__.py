"""``mt.linalg``: lazy, chunked ``numpy.linalg`` (and ``scipy.linalg.lu``/``solve_triangular``).

- ``qr``/``svd``: TSQR for tall-and-skinny matrices chunked along rows (``qr.py``);
- ``cholesky``: blocked over the chunk grid (``cholesky.py``);
- ``lu``, ``solve``, ``inv``, ``det``, ``slogdet``: blocked LU with partial pivoting;
  ``solve_triangular``: blocked substitution (``lu.py``);
- ``norm``: tree reductions (``norm.py``); ``lstsq`` from TSQR (``lstsq.py``).
"""

from jupyter_mars.tensor.linalg._core import LinAlgError
from jupyter_mars.tensor.linalg.cholesky import cholesky
from jupyter_mars.tensor.linalg.lstsq import lstsq
from jupyter_mars.tensor.linalg.lu import det, inv, lu, slogdet, solve, solve_triangular
from jupyter_mars.tensor.linalg.norm import norm
from jupyter_mars.tensor.linalg.qr import qr, svd

__all__ = [
    "LinAlgError",
    "cholesky",
    "det",
    "inv",
    "lstsq",
    "lu",
    "norm",
    "qr",
    "slogdet",
    "solve",
    "solve_triangular",
    "svd",
]
