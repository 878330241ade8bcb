"""NumPy's arguments and ``ndarray`` behaviours honoured on tensors.

- ``ufunc_methods``: ``reduce``, ``accumulate``, ``outer`` and ``at`` on ``mt``'s ufuncs
  (and through ``np.<ufunc>.<method>(tensor)``);
- ``dtype_view``: ``Tensor.view(dtype)``, NumPy's reinterpretation of the bytes;
- ``flat``: ``Tensor.flat``, indexed, assigned and iterated;
- ``inplace``: ``t += x`` and the other in-place operators, as ``out=t``;
- ``integrate``: ``trapezoid`` and its older name ``trapz``.

``out=`` lives in ``tensor/outputs.py`` and views that write through to their base in
``tensor/views.py``, because the families below this package use them.
"""

from __future__ import annotations

from jupyter_mars.tensor.numpy_compat import dtype_view, flat, inplace, integrate, ufunc_methods
from jupyter_mars.tensor.numpy_compat.integrate import trapezoid as trapezoid
from jupyter_mars.tensor.numpy_compat.integrate import trapz as trapz

__all__ = sorted(
    {
        *dtype_view.__all__,
        *flat.__all__,
        *inplace.__all__,
        *integrate.__all__,
        *ufunc_methods.__all__,
    }
)
