"""Kubernetes quantities for cores and bytes, as a pod's ``resources`` write them.

>>> cpu_quantity(2), cpu_quantity(0.5), cpu_quantity(1.25)
('2', '500m', '1250m')
>>> memory_quantity(4 * 1024**3), memory_quantity(1536 * 1024**2), memory_quantity(1000)
('4Gi', '1536Mi', '1000')
"""

from __future__ import annotations

import math

_BINARY = [("Ei", 60), ("Pi", 50), ("Ti", 40), ("Gi", 30), ("Mi", 20), ("Ki", 10)]


def cpu_quantity(cores: float) -> str:
    """``cores`` as Kubernetes writes CPU: whole cores, else millicores (rounded up:
    a request never shrinks below what was asked)."""
    if isinstance(cores, bool) or not isinstance(cores, int | float) or not cores > 0:
        raise ValueError(f"cores must be a positive number, got {cores!r}")
    if float(cores).is_integer():
        return str(int(cores))
    return f"{math.ceil(cores * 1000)}m"


def memory_quantity(n_bytes: int) -> str:
    """``n_bytes`` in the largest binary unit (``Gi``, ``Mi``...) that holds it exactly,
    else as a plain number of bytes: the quantity is exactly the size asked for."""
    if isinstance(n_bytes, bool) or not isinstance(n_bytes, int) or n_bytes <= 0:
        raise ValueError(f"a memory quantity needs a positive int of bytes, got {n_bytes!r}")
    for suffix, shift in _BINARY:
        if n_bytes % (1 << shift) == 0:
            return f"{n_bytes >> shift}{suffix}"
    return str(n_bytes)
