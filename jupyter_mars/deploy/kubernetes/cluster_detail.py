"""KubeDL's cluster detail: the JSON its MarsJob controller gives every Mars pod.

>>> detail = cluster_detail({"MARS_TASK_DETAIL": json.dumps({
...     "cluster": {"scheduler": ["job-scheduler-0.ns.svc:11111"],
...                 "webservice": ["job-webservice-0.ns.svc:11111"]},
...     "task": {"type": "worker", "index": 0,
...              "resources": {"cpu_procs": 2, "phy_mem": 2048}}})})
>>> detail.schedulers, detail.webservices, detail.cpu, detail.memory
(['job-scheduler-0.ns.svc:11111'], ['job-webservice-0.ns.svc:11111'], 2, 2147483648)

``{"cluster": {"scheduler": [...], "webservice": [...], "worker": [...]}, "task": {"type":
..., "index": ..., "resources": {"cpu_procs": ..., "phy_mem": ...}}}``: every replica's
``host:port``, and this pod's role and, for a worker, its requested cores and memory.
KubeDL's controller names it ``MARS_TASK_DETAIL`` and writes ``phy_mem`` in MiB;
``MARS_CLUSTER_DETAIL``, read first, is the same JSON with ``phy_mem`` in bytes. A 0 is
what KubeDL writes for a container without requests or limits: no figure.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.values import to_addresses

DETAIL_VARIABLES = ("MARS_CLUSTER_DETAIL", "MARS_TASK_DETAIL")
"""Our name for KubeDL's cluster detail, then the one KubeDL's controller injects."""


@dataclass(frozen=True)
class ClusterDetail:
    """What KubeDL's JSON cluster detail says of the cluster and of this pod's task."""

    variable: str
    """The variable it was read from, for messages."""
    schedulers: list[str]
    """``host:port`` of each supervisor (Mars's schedulers)."""
    webservices: list[str]
    """``host:port`` of each web service (``cluster.webservice``): its Service's name,
    which the web service answers to (``dns_names``)."""
    cpu: int | None
    """The worker's cores (``task.resources.cpu_procs``), if given."""
    memory: int | None
    """The worker's memory in bytes (``task.resources.phy_mem``), if given."""


def cluster_detail(env: Mapping[str, str]) -> ClusterDetail | None:
    """KubeDL's cluster detail, from the first of ``DETAIL_VARIABLES`` that is set."""
    for variable in DETAIL_VARIABLES:
        text = env.get(variable, "").strip()
        if text:
            return _read_detail(variable, text)
    return None


def _read_detail(variable: str, text: str) -> ClusterDetail:
    expected = (
        f"{variable}: expected KubeDL's JSON "
        '{"cluster": {"scheduler": ["host:port", ...]}, "task": {...}}'
    )
    try:
        detail = json.loads(text)
    except ValueError:
        raise UsageError(f"{expected}, got text that is not JSON") from None
    cluster = detail.get("cluster") if isinstance(detail, dict) else None
    task = detail.get("task", {}) if isinstance(detail, dict) else None
    if not isinstance(cluster, dict) or not isinstance(task, dict):
        raise UsageError(f"{expected}, got {_clip(text)}")
    addresses = _addresses(variable, cluster, "scheduler")
    webservices = _addresses(variable, cluster, "webservice")
    resources = task.get("resources") or {}
    if not isinstance(resources, dict):
        raise UsageError(f"{variable}: expected task.resources as an object, got {resources!r}")
    cpu = _detail_number(variable, resources, "cpu_procs")
    memory = _detail_number(variable, resources, "phy_mem")
    if memory is not None and variable == "MARS_TASK_DETAIL":
        memory <<= 20  # KubeDL's controller writes the memory limit in MiB
    return ClusterDetail(variable, addresses, webservices, cpu, memory)


def _addresses(variable: str, cluster: Mapping[str, Any], key: str) -> list[str]:
    """The ``host:port`` list ``cluster[key]``; none when it is absent."""
    entries = cluster.get(key) or []
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        raise UsageError(f"{variable}: expected cluster.{key} as a list of host:port")
    try:
        return to_addresses(entries) if entries else []
    except ValueError as error:
        raise UsageError(f"{variable}: cluster.{key}: {error}") from None


def _detail_number(variable: str, resources: Mapping[str, Any], key: str) -> int | None:
    value = resources.get(key)
    if value is None or value == 0:  # KubeDL writes 0 for a container without limits
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UsageError(f"{variable}: expected task.resources.{key} >= 0, got {value!r}")
    return value


def _clip(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")
