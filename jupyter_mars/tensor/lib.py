"""``mt.lib``, as Mars has it: the index tricks (``mgrid``, ``ogrid``, ``r_``, ``c_``,
``ndindex``, in ``jupyter_mars.tensor.index_tricks``), also exported by ``mt`` itself."""

from jupyter_mars.tensor import index_tricks
from jupyter_mars.tensor.index_tricks import c_, mgrid, ndindex, ogrid, r_

__all__ = ["c_", "index_tricks", "mgrid", "ndindex", "ogrid", "r_"]
