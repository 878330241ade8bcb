"""``mt.stats``: SciPy's ``scipy.stats`` tests on tensors, lazily.

- ``ttest``: the t tests, from reductions of the chunks (means, variances, counts);
- ``divergence``: ``entropy``, ``power_divergence`` and ``chisquare``, reductions too;
- ``onesample``: ``ks_1samp`` over a parallel sort, with reductions for the statistic;
- ``ks``: ``ks_2samp`` and ``rankdata``, SciPy on blocks whose tested axis is whole (the
  other axes keep their chunks); ``twosample``: ``ks_2samp`` of two large 1-d samples
  over parallel sorts;
- ``_results``: result objects with SciPy's field names, tuples of tensors;
- ``_common``: checks of ``axis``, ``nan_policy`` and ``alternative``, and p-values.
"""

from __future__ import annotations

from jupyter_mars.tensor.stats._results import KstestResult as KstestResult
from jupyter_mars.tensor.stats._results import Power_divergenceResult as Power_divergenceResult
from jupyter_mars.tensor.stats._results import Ttest_indResult as Ttest_indResult
from jupyter_mars.tensor.stats._results import TtestResult as TtestResult
from jupyter_mars.tensor.stats.divergence import chisquare, entropy, power_divergence
from jupyter_mars.tensor.stats.ks import ks_2samp, rankdata
from jupyter_mars.tensor.stats.onesample import ks_1samp
from jupyter_mars.tensor.stats.ttest import (
    ttest_1samp,
    ttest_ind,
    ttest_ind_from_stats,
    ttest_rel,
)

__all__ = [
    "chisquare",
    "entropy",
    "ks_1samp",
    "ks_2samp",
    "power_divergence",
    "rankdata",
    "ttest_1samp",
    "ttest_ind",
    "ttest_ind_from_stats",
    "ttest_rel",
]
