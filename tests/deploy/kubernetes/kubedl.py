"""What KubeDL's MarsJob controller makes of a MarsJob: each pod's template, with the
environment and volumes it adds, written from the controller's documented behaviour
(``controllers/mars`` of kubedl-io/kubedl) so that the tests can start a pod's program
with the environment a MarsJob would give it.

The controller, for the container named ``mars`` of every replica:

- sets ``MARS_CPU_TOTAL`` and ``MARS_MEMORY_TOTAL`` (the container's request, else its
  limit, as whole cores rounded up and bytes), ``MARS_BIND_PORT`` (11111, the container
  port named ``mars-port``), ``MARS_CONTAINER_IP``, ``MARS_K8S_POD_NAME`` and
  ``MARS_K8S_POD_NAMESPACE`` (downward API), and ``MARS_TASK_DETAIL``: the JSON
  ``{"cluster": {"scheduler": [...], "webservice": [...], "worker": [...]}, "task": ...}``,
  each address ``<job>-<type>-<index>.<namespace>.svc:<port>``, and for a worker the pod's
  requested ``cpu_procs`` and ``phy_mem`` (in MiB);
- for a worker, from ``spec.workerMemoryTuningPolicy``: an emptyDir mounted at each of
  ``spillDirs`` and ``MARS_SPILL_DIRS`` (the paths joined by commas); ``MARS_PLASMA_DIRS``
  (``plasmaStore``); ``MARS_LOCK_FREE_FILEIO`` (``1`` or ``0``); ``MARS_CACHE_MEM_SIZE`` in
  bytes (``workerCacheSize``, else ``workerCachePercentage``, at most 100, of the memory),
  with a memory-backed emptyDir of that size mounted at ``plasmaStore`` (or ``/dev/shm``).
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Mapping
from typing import Any

from kubernetes.utils import parse_quantity

DEFAULT_PORT = 11111
DEFAULT_CACHE_MOUNT = "/dev/shm"
CONTAINER = "mars"


def quantity(value: object) -> int:
    """A Kubernetes quantity's ``Value()``: rounded up to a whole number."""
    return math.ceil(parse_quantity(str(value)))


def pod_template(job: Mapping[str, Any], replica_type: str, index: int) -> dict[str, Any]:
    """The template of pod ``index`` of ``replica_type`` (``Scheduler``, ``Worker``, ...)."""
    spec = job["spec"]
    template = copy.deepcopy(spec["marsReplicaSpecs"][replica_type]["template"])
    container = mars_container(template)
    role = replica_type.lower()
    resources = container.get("resources", {})
    memory = _request_or_limit(resources, "memory")
    task: dict[str, Any] = {"type": role, "index": index}
    if role == "worker":
        requests = _pod_requests(template)
        task["resources"] = {
            "cpu_procs": requests.get("cpu", 0),
            "phy_mem": requests.get("memory", 0) // (1024 * 1024),
        }
    env: list[dict[str, Any]] = [
        {"name": "MARS_CPU_TOTAL", "value": str(_request_or_limit(resources, "cpu"))},
        {"name": "MARS_MEMORY_TOTAL", "value": str(memory)},
        {"name": "MARS_CPU_USE_PROCESS_STAT", "value": "1"},
        {"name": "MARS_MEM_USE_CGROUP_STAT", "value": "1"},
        {"name": "MARS_BIND_PORT", "value": str(DEFAULT_PORT)},
        {"name": "MARS_K8S_GROUP_LABELS", "value": "job-name"},
        _field("MARS_CONTAINER_IP", "status.podIP"),
        _field("MARS_K8S_POD_NAME", "metadata.name"),
        _field("MARS_K8S_POD_NAMESPACE", "metadata.namespace"),
        {
            "name": "MARS_TASK_DETAIL",
            "value": json.dumps({"cluster": cluster_spec(job), "task": task}),
        },
    ]
    policy = spec.get("workerMemoryTuningPolicy")
    if role == "worker" and policy:
        env += _memory_tuning(policy, memory, template, container)
    names = {entry["name"]: i for i, entry in enumerate(container.setdefault("env", []))}
    for entry in env:  # KubeDL overrides a variable the template sets, else appends it
        if entry["name"] in names:
            container["env"][names[entry["name"]]] = entry
        else:
            container["env"].append(entry)
    return template


def cluster_spec(job: Mapping[str, Any]) -> dict[str, list[str]]:
    """Every replica's address, by lower-case replica type."""
    name, namespace = job["metadata"]["name"], job["metadata"].get("namespace", "default")
    cluster = {}
    for replica_type, replica in job["spec"]["marsReplicaSpecs"].items():
        role = replica_type.lower()
        port = _port(replica["template"])
        cluster[role] = [
            f"{name}-{role}-{i}.{namespace}.svc:{port}" for i in range(replica.get("replicas", 1))
        ]
    return cluster


def pod_environment(
    template: Mapping[str, Any],
    *,
    pod_ip: str,
    pod_name: str,
    namespace: str,
    secrets: Mapping[str, Mapping[str, str]],
) -> dict[str, str]:
    """The ``mars`` container's environment as the kubelet resolves it for one pod."""
    fields = {"status.podIP": pod_ip, "metadata.name": pod_name, "metadata.namespace": namespace}
    env = {}
    for entry in mars_container(template).get("env", []):
        if "value" in entry:
            env[entry["name"]] = entry["value"]
        elif "fieldRef" in entry.get("valueFrom", {}):
            env[entry["name"]] = fields[entry["valueFrom"]["fieldRef"]["fieldPath"]]
        else:
            ref = entry["valueFrom"]["secretKeyRef"]
            env[entry["name"]] = secrets[ref["name"]][ref["key"]]
    return env


def mars_container(template: Mapping[str, Any]) -> dict[str, Any]:
    containers: list[dict[str, Any]] = template["spec"]["containers"]
    return next(container for container in containers if container["name"] == CONTAINER)


def _memory_tuning(
    policy: Mapping[str, Any], memory: int, template: dict[str, Any], container: dict[str, Any]
) -> list[dict[str, Any]]:
    env = []
    volumes = template["spec"].setdefault("volumes", [])
    mounts = container.setdefault("volumeMounts", [])
    spill_dirs = policy.get("spillDirs")
    if spill_dirs is not None:
        for i, path in enumerate(spill_dirs):
            volumes.append({"name": f"mars-empty-dir-{i}", "emptyDir": {}})
            mounts.append({"name": f"mars-empty-dir-{i}", "mountPath": path})
        env.append({"name": "MARS_SPILL_DIRS", "value": ",".join(spill_dirs)})
    plasma = policy.get("plasmaStore")
    if plasma:
        env.append({"name": "MARS_PLASMA_DIRS", "value": plasma})
    if policy.get("lockFreeFileIO") is not None:
        env.append(
            {"name": "MARS_LOCK_FREE_FILEIO", "value": "1" if policy["lockFreeFileIO"] else "0"}
        )
    cache = -1
    if policy.get("workerCacheSize") is not None:
        cache = quantity(policy["workerCacheSize"])
    elif policy.get("workerCachePercentage") is not None:
        cache = memory * min(int(policy["workerCachePercentage"]), 100) // 100
    if cache > 0:
        env.append({"name": "MARS_CACHE_MEM_SIZE", "value": str(cache)})
        volumes.append(
            {"name": "mars-shared-cache", "emptyDir": {"medium": "Memory", "sizeLimit": str(cache)}}
        )
        mounts.append({"name": "mars-shared-cache", "mountPath": plasma or DEFAULT_CACHE_MOUNT})
    return env


def _request_or_limit(resources: Mapping[str, Any], name: str) -> int:
    for kind in ("requests", "limits"):
        if name in resources.get(kind, {}):
            return quantity(resources[kind][name])
    return 0


def _pod_requests(template: Mapping[str, Any]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for container in template["spec"]["containers"]:
        for name, value in container.get("resources", {}).get("requests", {}).items():
            totals[name] = totals.get(name, 0) + quantity(value)
    return totals


def _port(template: Mapping[str, Any]) -> int:
    for port in mars_container(template).get("ports", []):
        if port.get("name") == "mars-port":
            return int(port["containerPort"])
    return DEFAULT_PORT


def _field(name: str, path: str) -> dict[str, Any]:
    return {"name": name, "valueFrom": {"fieldRef": {"fieldPath": path}}}
