"""Statistics: ``percentile``, ``quantile``, ``median`` (and their ``nan`` variants),
``histogram``, ``histogram_bin_edges``, ``bincount``, ``digitize``, ``cov`` and ``corrcoef``.

One module per family; each module's docstring says how its functions are tiled:

- ``quantiles``: order statistics; the reduced axes are rechunked to a single chunk (the
  other axes keep their chunks) and NumPy runs per chunk, so ``axis=None`` gathers the whole
  array into one chunk;
- ``histogram``: ``histogram``, ``histogram_bin_edges`` (tree reductions of per-chunk counts)
  and ``digitize`` (per chunk);
- ``bincount``: a data-dependent length found by iterative tiling, then summed counts;
- ``covariance``: ``cov`` and ``corrcoef``, two passes over chunks of observations;
- ``_common``: NumPy on blocks whose given axes are whole (``apply_whole_axes``, also used by
  ``fft``) and weights chunked like the data.
"""

from __future__ import annotations

from jupyter_mars.tensor.statistics.bincount import Bincount as Bincount
from jupyter_mars.tensor.statistics.bincount import BincountLength as BincountLength
from jupyter_mars.tensor.statistics.bincount import bincount
from jupyter_mars.tensor.statistics.common import WholeAxesApply as WholeAxesApply
from jupyter_mars.tensor.statistics.common import apply_whole_axes as apply_whole_axes
from jupyter_mars.tensor.statistics.covariance import Cov as Cov
from jupyter_mars.tensor.statistics.covariance import GatheredCall as GatheredCall
from jupyter_mars.tensor.statistics.covariance import corrcoef, cov
from jupyter_mars.tensor.statistics.histogram import HistEdges as HistEdges
from jupyter_mars.tensor.statistics.histogram import Histogram as Histogram
from jupyter_mars.tensor.statistics.histogram import HistSpec as HistSpec
from jupyter_mars.tensor.statistics.histogram import digitize, histogram, histogram_bin_edges
from jupyter_mars.tensor.statistics.quantiles import (
    median,
    nanmedian,
    nanpercentile,
    nanquantile,
    percentile,
    quantile,
)

__all__ = [
    "bincount",
    "corrcoef",
    "cov",
    "digitize",
    "histogram",
    "histogram_bin_edges",
    "median",
    "nanmedian",
    "nanpercentile",
    "nanquantile",
    "percentile",
    "quantile",
]
