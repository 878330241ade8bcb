"""What ``new_cluster_in_ray`` is asked for, checked before Ray is touched (pure).

Mars's names and defaults: ``worker_num`` workers of ``worker_cpu`` cores and
``worker_mem`` memory each, a supervisor of ``supervisor_mem``. Memory without a unit is
GiB (``parse_worker_memory``). Ray reserves memory in bytes, so a share of a host
(``"80%"``), which the other launchers accept, is refused here.

>>> ray_cluster_request(2, 1, "1GiB", supervisor_mem=0.5)
RayClusterRequest(worker_num=2, worker_cpu=1, worker_mem=1073741824, \
supervisor_mem=536870912, min_worker_num=2, timeout=120.0, config=None)
>>> ray_cluster_request(worker_mem="80%")
Traceback (most recent call last):
ValueError: worker_mem must be a size Ray can reserve (bytes, or a number with a unit), got '80%'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jupyter_mars.engine.sizes import parse_worker_memory
from jupyter_mars.launcher.request import worker_request

DEFAULT_WORKER_NUM = 1
DEFAULT_WORKER_CPU = 2
DEFAULT_WORKER_MEM = 2 << 30
DEFAULT_SUPERVISOR_MEM = 1 << 30
DEFAULT_TIMEOUT = 120.0
"""Seconds to wait for the actors to be placed and the servers to join: Ray may first
have to start worker processes (or, autoscaling, nodes)."""


@dataclass(frozen=True)
class RayClusterRequest:
    worker_num: int
    worker_cpu: int
    worker_mem: int
    """Bytes: each worker actor reserves them in Ray and its worker serves with them."""
    supervisor_mem: int
    min_worker_num: int
    timeout: float
    config: str | None = None
    """A config file (``mars-supervisor -f``) both programs read, at this path on every
    node."""


def ray_cluster_request(
    worker_num: Any = DEFAULT_WORKER_NUM,
    worker_cpu: Any = DEFAULT_WORKER_CPU,
    worker_mem: Any = DEFAULT_WORKER_MEM,
    supervisor_mem: Any = DEFAULT_SUPERVISOR_MEM,
    min_worker_num: Any = None,
    timeout: Any = DEFAULT_TIMEOUT,
    config: Any = None,
) -> RayClusterRequest:
    """The checked request: ``TypeError`` or ``ValueError`` naming the argument."""
    request = worker_request(worker_num, worker_cpu, worker_mem, min_worker_num)
    if not isinstance(request.worker_mem, int):
        raise ValueError(
            "worker_mem must be a size Ray can reserve (bytes, or a number with a unit), "
            f"got {worker_mem!r}"
        )
    supervisor_bytes = parse_worker_memory(supervisor_mem, "supervisor_mem")
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise TypeError(f"timeout must be a number of seconds, got {timeout!r}")
    if not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    if config is not None and not isinstance(config, str):
        raise TypeError(
            f"config must be the path of a config file on every node, got {type(config).__name__}"
        )
    return RayClusterRequest(
        request.worker_num,
        request.worker_cpu,
        request.worker_mem,
        supervisor_bytes,
        request.min_worker_num,
        float(timeout),
        config,
    )
