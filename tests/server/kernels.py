"""Chunk functions the server tests run on a cluster; a module of their own, which the
workers import without pulling in the Jupyter server."""

from __future__ import annotations

import time
from typing import Any


def sleepy(block: Any, seconds: float) -> Any:
    time.sleep(seconds)
    return block


def slow_double(block: Any) -> Any:
    time.sleep(0.4)
    return block * 2
