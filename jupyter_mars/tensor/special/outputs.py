"""``out=`` and ``where=`` for the special functions: NumPy's rules, shared with every
ufunc of ``mt`` (``jupyter_mars/tensor/outputs.py``), so an ``out`` that is a view of
another tensor writes through to it."""

from __future__ import annotations

from jupyter_mars.tensor.outputs import normalize_out as normalize_out
from jupyter_mars.tensor.outputs import select as select
from jupyter_mars.tensor.outputs import write_outputs as write_outputs
