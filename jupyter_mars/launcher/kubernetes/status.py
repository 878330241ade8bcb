"""What the launcher reads from the objects the Kubernetes API returns (as JSON): pure.

A pod that cannot start (``pod_problem``), where the supervisor's web service is
reached from outside the cluster (``web_endpoint``), how many workers the nodes hold
(``workers_fitting``), and what a running cluster was made with, to re-attach to it
(``parse_cluster_id``, ``worker_settings``, ``made_by_launcher``).
"""

from __future__ import annotations

import json
import math
from typing import Any

from jupyter_mars.engine.sizes import parse_size
from jupyter_mars.launcher.kubernetes.spec import WEB_PORT

STUCK = frozenset(
    {
        "ErrImagePull",
        "ImagePullBackOff",
        "InvalidImageName",
        "CrashLoopBackOff",
        "CreateContainerConfigError",
        "CreateContainerError",
        "RunContainerError",
    }
)
"""Waiting reasons a container does not leave by itself."""


def pod_problem(pod: dict[str, Any]) -> str | None:
    """Why ``pod`` will not start, or None while it may.

    >>> pod_problem({"metadata": {"name": "w-1"}, "status": {"phase": "Pending",
    ...     "containerStatuses": [{"name": "worker", "state": {"waiting": {
    ...         "reason": "ImagePullBackOff", "message": "pull access denied"}}}]}})
    'pod w-1: container worker: ImagePullBackOff (pull access denied)'
    >>> pod_problem({"metadata": {"name": "w-1"}, "status": {"phase": "Running"}}) is None
    True
    """
    name = pod.get("metadata", {}).get("name", "?")
    status = pod.get("status") or {}
    if status.get("phase") == "Failed":
        return f"pod {name}: failed ({status.get('reason') or status.get('message') or '?'})"
    for container in status.get("containerStatuses") or []:
        waiting = (container.get("state") or {}).get("waiting") or {}
        if waiting.get("reason") in STUCK:
            message = f" ({waiting['message']})" if waiting.get("message") else ""
            return f"pod {name}: container {container.get('name')}: {waiting['reason']}{message}"
    return None


def unschedulable(pod: dict[str, Any]) -> str | None:
    """The scheduler's message for a pod no node can take yet: not final (a node may
    join), but what a launcher that gives up should say."""
    for condition in (pod.get("status") or {}).get("conditions") or []:
        if condition.get("type") == "PodScheduled" and condition.get("reason") == "Unschedulable":
            return f"pod {pod['metadata']['name']}: {condition.get('message', 'unschedulable')}"
    return None


def web_endpoint(service: dict[str, Any], host_ip: str | None, in_cluster: bool) -> str | None:
    """The supervisor's web address as seen from the launcher, or None until known: the
    load balancer's address (``LoadBalancer``), the node port on the supervisor's node
    (``NodePort``), or (from inside the cluster) the Service's cluster IP. Always an IP
    where one is known: the web service refuses names it was not started with.

    >>> svc = {"spec": {"type": "NodePort", "clusterIP": "10.96.0.9",
    ...        "ports": [{"name": "web", "port": 7104, "nodePort": 31004}]}}
    >>> web_endpoint(svc, "192.168.1.5", False), web_endpoint(svc, "192.168.1.5", True)
    ('http://192.168.1.5:31004', 'http://10.96.0.9:7104')
    >>> lb = {"spec": {"type": "LoadBalancer", "ports": [{"name": "web", "port": 7104}]},
    ...       "status": {"loadBalancer": {"ingress": [{"ip": "203.0.113.7"}]}}}
    >>> web_endpoint(lb, None, False)
    'http://203.0.113.7:7104'
    """
    spec = service.get("spec") or {}
    port: dict[str, Any] = next((p for p in spec.get("ports") or [] if p.get("name") == "web"), {})
    cluster_ip = spec.get("clusterIP")
    if in_cluster and cluster_ip and cluster_ip != "None":
        return f"http://{_host(cluster_ip)}:{port.get('port', WEB_PORT)}"
    if spec.get("type") == "LoadBalancer":
        ingress = ((service.get("status") or {}).get("loadBalancer") or {}).get("ingress") or []
        for entry in ingress:
            address = entry.get("ip") or entry.get("hostname")
            if address:
                return f"http://{_host(address)}:{port.get('port', WEB_PORT)}"
    if spec.get("type") in ("NodePort", "LoadBalancer") and host_ip and port.get("nodePort"):
        return f"http://{_host(host_ip)}:{port['nodePort']}"
    return None


def _host(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def cpu_cores(quantity: str) -> float:
    """Cores in a CPU quantity (``"4"``, ``"3920m"``).

    >>> cpu_cores("4"), cpu_cores("3920m")
    (4.0, 3.92)
    """
    return float(quantity[:-1]) / 1000 if quantity.endswith("m") else float(quantity)


def workers_fitting(allocatable_cpu: list[str], worker_cpu: float) -> int:
    """How many workers of ``worker_cpu`` cores the nodes' allocatable CPUs hold.

    >>> workers_fitting(["4", "3920m"], 2)
    3
    """
    return sum(math.floor(cpu_cores(q) / worker_cpu + 1e-9) for q in allocatable_cpu)


def parse_cluster_id(cluster_id: object) -> tuple[str, str]:
    """A cluster's id, ``<namespace>/<name>``, as its two parts.

    >>> parse_cluster_id("analytics/jupyter-mars-1f2e3d4c")
    ('analytics', 'jupyter-mars-1f2e3d4c')
    """
    if not isinstance(cluster_id, str) or cluster_id.count("/") != 1:
        raise ValueError(
            f"a Kubernetes cluster's id is '<namespace>/<name>' (its .id), got {cluster_id!r}"
        )
    namespace, name = cluster_id.split("/")
    if not namespace or not name:
        raise ValueError(f"a Kubernetes cluster's id is '<namespace>/<name>', got {cluster_id!r}")
    return namespace, name


def token_secret(worker: dict[str, Any]) -> str:
    """The name of the Secret a worker Deployment takes ``MARS_TOKEN`` from."""
    for container in worker["spec"]["template"]["spec"]["containers"]:
        for entry in container.get("env") or []:
            if entry["name"] == "MARS_TOKEN" and "secretKeyRef" in entry.get("valueFrom", {}):
                return str(entry["valueFrom"]["secretKeyRef"]["name"])
    raise ValueError("the worker Deployment takes MARS_TOKEN from no Secret")


def worker_settings(worker: dict[str, Any]) -> dict[str, Any]:
    """The worker settings (``cluster_spec``'s arguments) a running cluster's worker
    Deployment was made with: what its handle needs to resize it."""
    container = worker["spec"]["template"]["spec"]["containers"][0]
    limits = container["resources"]["limits"]
    return {
        "worker_num": int(worker["spec"].get("replicas", 1)),
        "worker_cpu": cpu_cores(str(limits["cpu"])),
        "worker_mem": parse_size(str(limits["memory"])),
        "token_secret": token_secret(worker),
    }


def made_by_launcher(namespace: dict[str, Any], name: str) -> bool:
    """Whether a namespace was created for the cluster ``name`` (and goes with it)."""
    labels = (namespace.get("metadata") or {}).get("labels") or {}
    return bool(labels.get("app.kubernetes.io/instance") == name)


def api_error_text(status: int | None, reason: str | None, body: object) -> str:
    """An API server's refusal in its own words.

    >>> api_error_text(409, "Conflict", '{"kind": "Status", "message": "x already exists"}')
    '409 Conflict: x already exists'
    >>> api_error_text(503, "Service Unavailable", "<html>")
    '503 Service Unavailable'
    """
    try:
        status_object = json.loads(body) if isinstance(body, str | bytes) else {}
        message = status_object.get("message") if isinstance(status_object, dict) else None
    except ValueError:
        message = None
    return f"{status} {reason}" + (f": {message}" if message else "")
