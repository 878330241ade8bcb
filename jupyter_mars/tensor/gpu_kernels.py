"""Functions CuPy lacks: a clear error where one meets a GPU tensor, when the graph is built.

Kernels compute with the module of their chunks (``array_module``), so a function runs on
the GPU exactly where CuPy has it. Where CuPy has no such function, the chunk would fail
on a worker with CuPy's "operand type(s) all returned NotImplemented"; instead the call
that builds the tensor raises at once, naming the function and the way out: move the
GPU inputs to host memory with ``.to_cpu()`` first. ``docs/gpu-kernels.md`` lists them.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from jupyter_mars.engine.devices import GPU
from jupyter_mars.tensor.core import Tensor


class NotOnGPU(NotImplementedError):
    """A function CuPy does not have was asked to run on GPU chunks."""


def on_gpu(*values: Any) -> bool:
    """Whether any of ``values`` is a tensor whose chunks live on a GPU."""
    return any(isinstance(v, Tensor) and v.node.device == GPU for v in values)


def cupy_has(name: str) -> bool:
    """Whether CuPy has ``name``, a dotted path below ``cupy`` (``"linalg.qr"``) or, for
    ``"scipy.<...>"``, below ``cupyx`` (``"scipy.linalg.lu_factor"``). False where CuPy was
    never imported: no GPU tensor exists then."""
    if "cupy" not in sys.modules:
        return False
    package, _, attr = name.rpartition(".")
    root = "cupyx" if name.startswith("scipy.") else "cupy"
    try:
        module = importlib.import_module(f"{root}.{package}" if package else root)
    except ImportError:
        return False
    return hasattr(module, attr)


def check_on_gpu(function: str, name: str, *inputs: Any) -> None:
    """Raise ``NotOnGPU`` where one of ``inputs`` is on a GPU and CuPy lacks ``name``;
    ``function`` is what the user called, as the message names it."""
    if on_gpu(*inputs) and not cupy_has(name):
        raise NotOnGPU(
            f"{function} does not run on a GPU: CuPy has no {name}; "
            "call .to_cpu() on its GPU inputs first"
        )
