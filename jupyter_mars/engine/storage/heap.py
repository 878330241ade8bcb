"""Giving freed memory back to the system, so the resident size the limits watch falls.

glibc's malloc keeps freed blocks for reuse, and by default raises its mmap threshold
after each large free, so that chunk-sized arrays end up on the heap and their memory
stays resident after the arrays are gone. A worker measures its memory as its resident
set (``admission.process_rss``): memory the process freed but glibc kept would count
against its limits, and spilling or stopping a task would not bring it down. So a worker
fixes the threshold (arrays of ``MMAP_THRESHOLD`` bytes and more get their own mappings,
unmapped when freed) and trims the heap after it frees memory. Elsewhere (musl, macOS)
these are no-ops.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from typing import Any

logger = logging.getLogger(__name__)

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
"""``mallopt`` parameters (glibc's ``malloc.h``)."""
MMAP_THRESHOLD = 1 << 20
"""Blocks from this size up are mapped apart and unmapped when freed."""
TRIM_THRESHOLD = 4 << 20
"""Free memory at the top of the heap past this is given back at once."""


def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    if not hasattr(libc, "mallopt") or not hasattr(libc, "malloc_trim"):
        return None
    return libc


_LIBC = _libc()


def return_freed_memory_promptly() -> bool:
    """Fix glibc's thresholds for this process (see the module docstring); whether done."""
    if _LIBC is None:
        return False
    done = bool(_LIBC.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    done = bool(_LIBC.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)) and done
    if not done:
        logger.debug("mallopt refused the thresholds: freed memory may stay resident")
    return done


def trim() -> None:
    """Give the free memory of every heap back to the system now."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)
