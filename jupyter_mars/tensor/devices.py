"""``to_gpu`` and ``to_cpu``: a tensor's chunks copied between host memory and a GPU.

As in Mars and CuPy, a GPU tensor computes with CuPy, and its ``fetch()`` gives a CuPy
array; ``to_cpu()`` gives the tensor whose chunks are NumPy arrays again. An operation
reading a GPU tensor runs on the GPU, whatever its other inputs (their chunks are copied
to the device as they are read); an operation on host tensors only runs on the CPU.
"""

from __future__ import annotations

from jupyter_mars.engine.devices import cupy_module
from jupyter_mars.tensor.core import Tensor, moved


def to_gpu(self: Tensor) -> Tensor:
    """This tensor with its chunks on a GPU (itself where they are already). Raises
    ``GPUUnavailable`` at once where no GPU can be used."""
    cupy_module("to_gpu()")
    return moved(self, True)


def to_cpu(self: Tensor) -> Tensor:
    """This tensor with its chunks in host memory, as NumPy arrays (itself where they are
    already)."""
    return moved(self, False)


def _attach() -> None:
    Tensor.to_gpu = to_gpu  # type: ignore[attr-defined]
    Tensor.to_cpu = to_cpu  # type: ignore[attr-defined]


_attach()
