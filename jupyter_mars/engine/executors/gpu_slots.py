"""What a GPU slot does that a CPU slot does not, in both runtimes.

A GPU slot is a thread bound to one CUDA device: it makes the device current once, before
its first task (CuPy allocates on, and launches kernels to, the current device of the
calling thread), and every GPU task it runs computes there. A GPU task's inputs are CuPy
arrays on that device; a NumPy array among them is a GPU chunk that came through host
memory (moved out of a full device store, or sent by a peer, which always sends host
copies), so it goes back to the device before the task reads it, as does a chunk another GPU slot
of the same process made on its own device.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from jupyter_mars.engine.devices import cupy_module, is_device_array, to_device, to_host


def use_device(device: int) -> None:
    """Make CUDA device ``device`` current in this thread (``GPUUnavailable`` where no GPU
    can be used)."""
    cupy_module(f"a GPU slot on device {device}").cuda.Device(device).use()


def host_copy(value: Any) -> Any:
    """A GPU chunk copied to host memory, from its own device whichever is current here
    (a host chunk unchanged): what a peer or a full device store gets."""
    device = getattr(value, "device", None)
    if device is None or not is_device_array(value):
        return value
    with device:
        return to_host(value)


def inputs_on_device(data: Mapping[Hashable, Any]) -> dict[Hashable, Any]:
    """``data`` with its host arrays, and its arrays on other devices (a chunk made by
    another GPU slot), copied to the current device."""
    return {key: _here(value) for key, value in data.items()}


def _here(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return to_device(value)
    if is_device_array(value):
        current = cupy_module("a GPU slot").cuda.Device().id
        if value.device.id != current:  # through host memory: works without peer access
            return to_device(host_copy(value))
    return value
