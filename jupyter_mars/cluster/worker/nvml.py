"""GPU figures read from NVML (``pynvml``), the library ``nvidia-smi`` is built on: per
device its index, name, use, memory, temperature and power draw.

NVML is initialised once per process, on the first reading, and never shut down: a
worker reads its GPUs every second or so for as long as it lives, and initialising per
reading would pay the library's start each time and drop the device handles, which are
kept here after their first lookup. A process where NVML cannot start (no library, no
driver) remembers why and reads nothing from then on.

Device indices are NVML's, the ones ``nvidia-smi`` shows. Nothing here raises: the
figures are for display, and a missing or failing GPU must never stop a heartbeat.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pynvml

logger = logging.getLogger(__name__)

T = TypeVar("T")


def device_row(
    index: int,
    name: str | bytes | None,
    utilization: float | None,
    memory: tuple[int, int] | None,
    temperature: float | None,
    milliwatts: float | None,
) -> dict[str, Any] | None:
    """One device's figures as heartbeats carry them: utilisation in percent, memory
    ``(used, total)`` in bytes, temperature in °C and power in watts (NVML reports
    milliwatts); None for each figure the device does not report (a GPU in MIG mode
    reports no utilisation, many report no power). None for a device that reports none
    of them: it has nothing to show.

    >>> device_row(0, b"NVIDIA H100", 37, (2**30, 80 * 2**30), 45, 123456)
    ... # doctest: +NORMALIZE_WHITESPACE
    {'index': 0, 'name': 'NVIDIA H100', 'utilization': 37.0, 'memory_used': 1073741824,
     'memory_total': 85899345920, 'temperature_c': 45.0, 'power_w': 123.5}
    >>> device_row(1, "A100", None, (0, 40 * 2**30), None, None)["utilization"] is None
    True
    >>> device_row(2, "A100", None, None, None, None) is None
    True
    """
    figures = (utilization, memory, temperature, milliwatts)
    if all(figure is None for figure in figures):
        return None
    if isinstance(name, bytes):
        name = name.decode(errors="replace")
    return {
        "index": index,
        "name": name or f"GPU {index}",
        "utilization": None if utilization is None else float(utilization),
        "memory_used": None if memory is None else int(memory[0]),
        "memory_total": None if memory is None else int(memory[1]),
        "temperature_c": None if temperature is None else float(temperature),
        "power_w": None if milliwatts is None else round(milliwatts / 1000, 1),
    }


def _reported(read: Callable[[], T]) -> T | None:
    """What ``read`` returns; None where the device does not report it."""
    try:
        return read()
    except pynvml.NVMLError:
        return None


def _memory(handle: Any) -> tuple[int, int]:
    info = pynvml.nvmlDeviceGetMemoryInfo(handle)
    return int(info.used), int(info.total)


class Nvml:
    """This process's NVML: started on the first ``figures`` call, once, thread-safe
    (heartbeats and page requests read from executor threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._started: bool | None = None
        """None until NVML was tried; then whether it started."""
        self._count = 0
        """How many devices NVML saw when it started."""
        self._handles: dict[int, Any] = {}
        """Device handles by index, looked up once."""
        self.init_calls = 0
        """How many times ``nvmlInit`` was called: one at most in a process's life."""
        self.failure: str | None = None
        """Why NVML could not start (no library, no driver); None while it could."""

    def _start(self, asked: bool) -> bool:
        if self._started is None:
            self.init_calls += 1
            try:
                pynvml.nvmlInit()
                self._count = int(pynvml.nvmlDeviceGetCount())
                self._started = True
            except Exception as error:  # noqa: BLE001 - any failure means: no figures
                self._started = False
                self.failure = str(error) or type(error).__name__
                # worth a line where GPUs were named (--cuda-devices); routine elsewhere
                logger.log(
                    logging.WARNING if asked else logging.DEBUG,
                    "no GPU figures: NVML could not start (%s)",
                    self.failure,
                )
        return self._started

    def _handle(self, index: int) -> Any:
        handle = self._handles.get(index)
        if handle is None:
            handle = self._handles[index] = pynvml.nvmlDeviceGetHandleByIndex(index)
        return handle

    def _device(self, index: int) -> dict[str, Any] | None:
        if not 0 <= index < self._count:
            return None  # no such device (NVML takes a C unsigned int: 2**32 would be 0)
        try:
            handle = self._handle(index)
        except pynvml.NVMLError:
            return None  # no such device
        return device_row(
            index,
            _reported(lambda: pynvml.nvmlDeviceGetName(handle)),
            _reported(lambda: pynvml.nvmlDeviceGetUtilizationRates(handle).gpu),
            _reported(lambda: _memory(handle)),
            _reported(lambda: pynvml.nvmlDeviceGetTemperature(handle, pynvml.NVML_TEMPERATURE_GPU)),
            _reported(lambda: pynvml.nvmlDeviceGetPowerUsage(handle)),
        )

    def figures(self, devices: Sequence[int] | None) -> list[dict[str, Any]]:
        """The figures (``device_row``) of ``devices``, every device NVML sees for None;
        [] where NVML cannot be read. A device that does not exist or reports nothing is
        left out. Never raises."""
        if devices is not None and not devices:
            return []  # a worker given no GPU (``--cuda-devices ""``): NVML is not started
        with self._lock:
            try:
                if not self._start(asked=devices is not None):
                    return []
                wanted = range(self._count) if devices is None else devices
                rows = (self._device(index) for index in wanted)
                return [row for row in rows if row is not None]
            except Exception:  # noqa: BLE001 - a driver in a state NVML has no error for
                logger.debug("NVML could not read the GPUs", exc_info=True)
                return []


NVML = Nvml()
"""The one per process."""


def gpu_figures(devices: Sequence[int] | None) -> list[dict[str, Any]]:
    """Figures of the GPUs ``devices`` (NVML indices; None: every GPU NVML sees), read
    through this process's NVML; [] without GPUs. Never raises."""
    return NVML.figures(devices)
