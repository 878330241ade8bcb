"""NumPy's arguments and ``ndarray`` behaviours honoured on tensors.

- ``inplace``: ``t += x`` and the other in-place operators, as ``out=t``.

``out=`` lives in ``tensor/outputs.py`` and views that write through to their base in
``tensor/views.py``, because the families below this package use them.
"""

from __future__ import annotations

from jupyter_mars.tensor.numpy_compat import inplace

__all__ = sorted({*inplace.__all__})
