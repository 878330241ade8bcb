"""Probing the machine for the worker defaults."""

from __future__ import annotations

import os

from jupyter_mars.deploy import probe_host
from jupyter_mars.deploy.resources import available_cpu_count


def test_cpu_count_is_this_process_affinity():
    assert available_cpu_count() == len(os.sched_getaffinity(0))


def test_probe_host_gives_plausible_memory():
    machine = probe_host()
    assert machine.n_cpu >= 1
    assert 0 < machine.available_memory <= machine.total_memory
    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert machine.total_memory <= physical
