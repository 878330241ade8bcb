"""NumPy's main-namespace routines that Mars also exports, built from the other families.

Most are compositions: ``append``/``insert``/``delete``/``block`` join and slice,
``diff`` subtracts two slices, ``union1d``/``setdiff1d`` use ``unique`` and ``isin``,
``indices``/``mgrid``/``ogrid`` broadcast ranges. Modules:

- ``constants``: NumPy's constants and scalar types, ``AxisError``, ``ExecutableTuple``;
- ``elementwise``: ``angle``, ``fix``, ``i0``, ``sinc``, ``nan_to_num``, ``iscomplex``,
  ``isreal``, ``round``, ``tree_add``, ``tree_multiply``;
- ``jupyter_mars.tensor.float_errors``: ``errstate``, ``seterr``, ``geterr`` (kept beside
  ``elemwise``, which uses it).
"""

from __future__ import annotations

from jupyter_mars.tensor import float_errors
from jupyter_mars.tensor.float_errors import *  # noqa: F403
from jupyter_mars.tensor.routines import constants, elementwise
from jupyter_mars.tensor.routines.constants import *  # noqa: F403
from jupyter_mars.tensor.routines.elementwise import *  # noqa: F403

__all__ = [*constants.__all__, *elementwise.__all__, *float_errors.__all__]
