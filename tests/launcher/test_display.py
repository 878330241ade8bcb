"""How a cluster displays outside its widget: a worker's GPUs in one line."""

from __future__ import annotations

import doctest

from jupyter_mars.launcher import display
from jupyter_mars.launcher.display import gpu_text


def test_the_examples_hold() -> None:
    assert doctest.testmod(display).failed == 0


def test_a_workers_gpus_come_one_after_another_as_sent() -> None:
    gpus = [
        {"index": 2, "utilization": 99.6, "memory_used": 3 * 2**29, "memory_total": 2**34},
        {"index": 0, "utilization": 0.0, "memory_used": 0, "memory_total": 2**34},
    ]
    assert gpu_text(gpus) == "2: 100% busy, 1.5 of 16.0 GiB; 0: 0% busy, 0.0 of 16.0 GiB"
