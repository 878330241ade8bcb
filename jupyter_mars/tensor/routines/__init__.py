"""NumPy's main-namespace routines that Mars also exports, built from the other families.

Most are compositions: ``append``/``insert``/``delete``/``block`` join and slice,
``diff`` subtracts two slices, ``union1d``/``setdiff1d`` use ``unique`` and ``isin``,
``indices``/``mgrid``/``ogrid`` broadcast ranges. Modules:

- ``constants``: NumPy's constants and scalar types, ``AxisError``, ``ExecutableTuple``;
- ``elementwise``: ``angle``, ``fix``, ``i0``, ``sinc``, ``nan_to_num``, ``iscomplex``,
  ``isreal``, ``round``, ``tree_add``, ``tree_multiply``;
- ``arrays``: ``result_type``, ``ndim``, ``scalar``, ``copy``, ``copyto``,
  ``ascontiguousarray``, ``asfortranarray``, ``broadcast_arrays``, ``product``
  (``innerproduct`` is ``linalg``'s);
- ``editing``: ``append``, ``insert``, ``delete``; ``blocks``: ``block``;
- ``axes``: ``hsplit``, ``vsplit``, ``dsplit``, ``rollaxis``;
- ``differences``: ``diff``, ``ediff1d``;
- ``selection``: ``choose``, ``unravel_index``, ``indices``, ``diagflat``, ``fill_diagonal``;
- ``setops``: ``union1d``, ``setdiff1d``;
- ``jupyter_mars.tensor.index_tricks`` (also ``mt.lib``, as in Mars): ``mgrid``, ``ogrid``, ``r_``,
  ``c_``, ``ndindex``;
- ``jupyter_mars.tensor.float_errors``: ``errstate``, ``seterr``, ``geterr`` (kept beside
  ``elemwise``, which uses it).
"""

from __future__ import annotations

from jupyter_mars.tensor import float_errors
from jupyter_mars.tensor import lib as lib
from jupyter_mars.tensor.float_errors import *  # noqa: F403
from jupyter_mars.tensor.index_tricks import c_, mgrid, ndindex, ogrid, r_
from jupyter_mars.tensor.routines import (
    arrays,
    axes,
    blocks,
    constants,
    differences,
    editing,
    elementwise,
    selection,
    setops,
)
from jupyter_mars.tensor.routines.arrays import *  # noqa: F403
from jupyter_mars.tensor.routines.axes import *  # noqa: F403
from jupyter_mars.tensor.routines.blocks import *  # noqa: F403
from jupyter_mars.tensor.routines.constants import *  # noqa: F403
from jupyter_mars.tensor.routines.differences import *  # noqa: F403
from jupyter_mars.tensor.routines.editing import *  # noqa: F403
from jupyter_mars.tensor.routines.elementwise import *  # noqa: F403
from jupyter_mars.tensor.routines.selection import *  # noqa: F403
from jupyter_mars.tensor.routines.setops import *  # noqa: F403

__all__ = [
    "c_",
    "lib",
    "mgrid",
    "ndindex",
    "ogrid",
    "r_",
    *arrays.__all__,
    *axes.__all__,
    *blocks.__all__,
    *constants.__all__,
    *differences.__all__,
    *editing.__all__,
    *elementwise.__all__,
    *float_errors.__all__,
    *selection.__all__,
    *setops.__all__,
]
