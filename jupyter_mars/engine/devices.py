"""Where a chunk lives: host memory (a NumPy array) or a CUDA device (a CuPy array).

CuPy is imported at its first use only: it takes a second to import, and a notebook that
never asks for a GPU must not wait for it. Whether a GPU can be used is decided once per
process (CuPy installed, and the CUDA runtime finds at least one device); every call that
needs one and cannot have it raises ``GPUUnavailable`` with one sentence that says which
of the two is missing. Nothing falls back to the CPU silently.

Kernels ask ``array_module(*chunks)`` for the module that computes on their inputs, as
CuPy's own ``get_array_module`` does, so one kernel serves both kinds of chunk.
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np

GPU = "gpu"
"""The device of a task that runs on a GPU slot (``Task.device``); None: a CPU slot."""

CUPY_HINT = "pip install 'jupyter_mars[gpu]', or the CuPy wheel of this machine's CUDA version"


class GPUUnavailable(RuntimeError):
    """A GPU was asked for where none can be used: CuPy is missing or finds no device."""


@functools.cache
def _cupy_or_reason() -> tuple[ModuleType | None, str | None]:
    try:
        cupy = importlib.import_module("cupy")
    except ImportError:
        return None, f"CuPy is not installed ({CUPY_HINT})"
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as exc:  # noqa: BLE001 - CUDARuntimeError, or a missing driver library
        return None, f"CuPy finds no CUDA device: {_one_line(exc)}"
    if count < 1:
        return None, "CuPy finds no CUDA device"
    return cupy, None


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def gpu_unavailable_reason() -> str | None:
    """Why no GPU can be used in this process, or None where one can."""
    return _cupy_or_reason()[1]


def device_count() -> int:
    """CUDA devices this process can use (0 without CuPy or a device)."""
    cupy, _ = _cupy_or_reason()
    return 0 if cupy is None else int(cupy.cuda.runtime.getDeviceCount())


def cupy_module(what: str) -> ModuleType:
    """CuPy, for ``what`` (the argument or call that asked for a GPU); raises
    ``GPUUnavailable`` naming ``what`` where no GPU can be used."""
    cupy, reason = _cupy_or_reason()
    if cupy is None:
        raise GPUUnavailable(f"{what} needs a GPU, and none can be used here: {reason}")
    return cupy


def check_devices(devices: Sequence[int], what: str) -> None:
    """Raise ``GPUUnavailable`` unless every CUDA device index in ``devices`` exists."""
    if not devices:
        return
    cupy_module(what)
    count = device_count()
    missing = [d for d in devices if not 0 <= d < count]
    if missing:
        names = ", ".join(map(str, missing))
        raise GPUUnavailable(
            f"{what}: no CUDA device {names} on this machine (it has {count}: "
            f"indices 0 to {count - 1})"
        )


def is_device_array(value: Any) -> bool:
    """Whether ``value`` is a CuPy array; without importing CuPy, which is loaded
    wherever one was made."""
    cupy = sys.modules.get("cupy")
    return cupy is not None and isinstance(value, cupy.ndarray)


def array_module(*values: Any) -> ModuleType:
    """CuPy where any of ``values`` is a CuPy array, else NumPy."""
    for value in values:
        if is_device_array(value):
            return sys.modules["cupy"]
    return np


def device_module(device: str | None) -> ModuleType:
    """The array module of chunks made on ``device`` (a ``Task.device``): for a task with no
    chunk input to ask ``array_module`` about, such as an empty chunk made from nothing."""
    return cupy_module("a GPU task") if device == GPU else np


def to_device(block: Any) -> Any:
    """A chunk copied to the current CUDA device (a CuPy array unchanged)."""
    if is_device_array(block):
        return block
    return cupy_module("to_gpu()").asarray(block)


def to_host(block: Any) -> Any:
    """A chunk copied to host memory as a NumPy array (a host chunk unchanged)."""
    if is_device_array(block):
        return block.get()
    return block
