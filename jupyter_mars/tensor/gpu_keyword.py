"""The ``gpu=`` keyword of the functions that make tensors, as in Mars.

``gpu=True`` asks for a tensor whose chunks are made and held on a GPU (CuPy arrays);
``gpu=False`` for one in host memory; ``None`` (the default) keeps the function's own
rule: host memory for a tensor made from parameters or host data, and the GPU where a
tensor it reads is there. ``gpu=True`` is checked where it is given, so a machine without
a usable GPU says so at the line that asked for one, not later on a worker.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jupyter_mars.engine.devices import cupy_module


def check_gpu(gpu: Any, func: str) -> bool | None:
    """The ``gpu`` keyword of ``func`` as None, False or True; True raises
    ``GPUUnavailable`` (naming ``func(gpu=True)``) where no GPU can be used."""
    if gpu is not None and not isinstance(gpu, (bool, np.bool_)):
        raise TypeError(f"{func}(): gpu must be True, False or None, got {gpu!r}")
    if gpu is None:
        return None
    if gpu:
        cupy_module(f"{func}(gpu=True)")
    return bool(gpu)
