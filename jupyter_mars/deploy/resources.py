"""What this machine offers a worker: cores, physical memory, free memory.

The worker flags default to these (``--n-cpu`` to the cores this process may run on,
``--phy-mem`` to the physical memory, ``--cache-mem`` to half of the free memory) and
percentages such as ``--phy-mem 80%`` are shares of the total. Inside a container the
memory limit of the control group counts as the total when it is the smaller.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class HostResources:
    """A snapshot of the machine's capacity, so that defaults can be computed (and tested)."""

    n_cpu: int
    """Cores this process may run on (its CPU affinity, not every core of the machine)."""
    total_memory: int
    """Physical memory in bytes, or the control group's limit when that is smaller."""
    available_memory: int
    """Memory in bytes that can be had now without swapping."""


def probe_host() -> HostResources:
    """Measure this machine."""
    total = _physical_memory()
    limit = _cgroup_memory_limit()
    if limit is not None and limit < total:
        total = limit
    return HostResources(
        n_cpu=available_cpu_count(),
        total_memory=total,
        available_memory=min(_available_memory(), total),
    )


def available_cpu_count() -> int:
    """Cores this process may run on: its affinity mask where the OS has one."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        import psutil  # only where sysconf cannot tell (Windows)

        return int(psutil.virtual_memory().total)


def _available_memory() -> int:
    meminfo = _read_meminfo()
    if "MemAvailable" in meminfo:
        return meminfo["MemAvailable"]
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        import psutil

        return int(psutil.virtual_memory().available)


def _read_meminfo() -> dict[str, int]:
    """``/proc/meminfo`` in bytes (Linux), or empty elsewhere."""
    try:
        lines = Path("/proc/meminfo").read_text().splitlines()
    except OSError:
        return {}
    values = {}
    for line in lines:
        name, _, rest = line.partition(":")
        fields = rest.split()
        if fields and fields[0].isdigit():
            values[name] = int(fields[0]) * (1024 if fields[1:] == ["kB"] else 1)
    return values


def _cgroup_memory_limit() -> int | None:
    """The memory limit of this process's control group (v2, then v1), if it has one."""
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(path).read_text().strip()
        except OSError:
            continue
        # v2 writes "max" for no limit; v1 writes a number near 2**63.
        if text.isdigit() and int(text) < 2**60:
            return int(text)
    return None
