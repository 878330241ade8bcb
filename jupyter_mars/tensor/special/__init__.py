"""``mt.special``: ``scipy.special`` as lazy, chunked, element-wise tensor functions.

``mt.special.jv(v, z)`` builds one blockwise node that calls ``scipy.special.jv`` on each
chunk. The functions are generated from SciPy's own ufunc objects (every ufunc that
``scipy.special`` lists publicly), so names, arity, broadcasting and dtype rules are
SciPy's; ufuncs with several outputs (``airy``, ``fresnel``, ``sici``, ...) return a tuple
of tensors, and ``out=``/``where=`` take tensors (``outputs.py``).

Modules: ``ufunc`` (one lazy function from one ufunc, its argument checks and dtypes),
``outputs`` (``out=`` and ``where=``), ``functions`` (the few that SciPy writes as Python
functions: ``polygamma``, ``multigammaln``, ``zeta``, the ellipsoidal harmonics).
"""

import numpy as np
import scipy.special

from jupyter_mars.tensor.special import functions
from jupyter_mars.tensor.special.functions import *  # noqa: F403
from jupyter_mars.tensor.special.ufunc import special_function

UFUNC_NAMES = sorted(
    {
        name
        for name in scipy.special.__all__
        if isinstance(getattr(scipy.special, name), np.ufunc) and not name.startswith("_")
    }
)
globals().update(
    {name: special_function(getattr(scipy.special, name), name) for name in UFUNC_NAMES}
)

__all__ = sorted({*UFUNC_NAMES, *functions.__all__})
