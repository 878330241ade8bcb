"""NumPy main-namespace functions that Mars does not export, built from the other
families (see ``docs/api-coverage.md`` for what is still missing and why). Modules:

- ``aliases``: NumPy 2's names ``concat``, ``permute_dims``, ``matrix_transpose``,
  ``unstack``; ``asanyarray`` and ``require``;
- ``queries``: answers from shape and dtype: ``size``, ``iscomplexobj``, ``isrealobj``,
  ``common_type``, ``broadcast_shapes``;
- ``values``: ``isposinf``, ``isneginf``, ``asarray_chkfinite``, ``sort_complex``,
  ``array_equiv``;
- ``cumulative``: ``cumulative_sum``, ``cumulative_prod``;
- ``diagonals``: ``diagonal``, ``trace``, ``diag_indices(_from)``, ``tril_indices(_from)``,
  ``triu_indices(_from)``, ``mask_indices``;
- ``rearrange``: ``rot90``, ``resize``, ``trim_zeros``;
- ``windows``: ``bartlett``, ``blackman``, ``hamming``, ``hanning``, ``kaiser``;
- ``spacing``: ``logspace``, ``geomspace``, ``fromfunction``, ``vander``, ``fromiter``,
  ``from_dlpack``;
- ``vector_products``: ``vecdot``, ``matvec``, ``vecmat``, ``cross``, ``kron``,
  ``einsum_path``;
- ``sets``: ``intersect1d``, ``setxor1d``, ``unique_values``, ``unique_counts``,
  ``unique_inverse``, ``unique_all``;
- ``placement``: ``take_along_axis``, and the in-place ``put_along_axis``, ``put``,
  ``place``, ``putmask``;
- ``functional``: ``select``, ``piecewise``, ``apply_over_axes``, ``apply_along_axis``;
- ``index_builders``: ``ix_``, ``ravel_multi_index``;
- ``bits``: ``packbits``, ``unpackbits``; ``ordering``: ``lexsort``;
- ``padding``: ``pad``;
- ``signal``: ``interp``, ``convolve``, ``correlate``, ``unwrap``; ``derivatives``: ``gradient``
  (``_gathered`` holds the operators that give a function some inputs whole);
- ``histograms``: ``histogramdd``, ``histogram2d``.
"""

from __future__ import annotations

from jupyter_mars.tensor.numpy_extras import (
    aliases,
    bits,
    cumulative,
    derivatives,
    diagonals,
    functional,
    histograms,
    index_builders,
    ordering,
    padding,
    placement,
    queries,
    rearrange,
    sets,
    signal,
    spacing,
    values,
    vector_products,
    windows,
)
from jupyter_mars.tensor.numpy_extras.aliases import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.bits import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.cumulative import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.derivatives import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.diagonals import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.functional import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.histograms import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.index_builders import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.ordering import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.padding import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.placement import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.queries import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.rearrange import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.sets import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.signal import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.spacing import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.values import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.vector_products import *  # noqa: F403
from jupyter_mars.tensor.numpy_extras.windows import *  # noqa: F403

__all__ = [
    *aliases.__all__,
    *bits.__all__,
    *cumulative.__all__,
    *derivatives.__all__,
    *diagonals.__all__,
    *functional.__all__,
    *histograms.__all__,
    *index_builders.__all__,
    *ordering.__all__,
    *padding.__all__,
    *placement.__all__,
    *queries.__all__,
    *rearrange.__all__,
    *sets.__all__,
    *signal.__all__,
    *spacing.__all__,
    *values.__all__,
    *vector_products.__all__,
    *windows.__all__,
]
