"""The Kubernetes objects of one Mars cluster, as the plain dicts the API takes: pure
functions of a ``ClusterSpec`` (``spec.py``).

``cluster_objects`` lists them in the order they are created: the Namespace (when the
spec creates one), the token's Secret, the pods' ServiceAccount with its Role and
RoleBinding, the supervisor Deployment and its Service, then the worker Deployment. The
launcher (``launcher.py``), the static manifests (``scripts/k8s_manifests.py``) and the
Helm chart describe the same objects.

Every container gets the pod environment the entry points of this package read:
``MARS_CONTAINER_IP``, ``MARS_K8S_POD_NAME``, ``MARS_K8S_POD_NAMESPACE``, ``MARS_CPU_TOTAL``
and ``MARS_MEMORY_TOTAL`` from the downward API, ``MARS_TOKEN`` from the Secret,
``MARS_BIND_PORT`` (and ``MARS_WEB_PORT``), ``MARS_SUPERVISOR_ADDRESS`` (the supervisor
Service's DNS name), in the supervisor ``MARS_WEB_ALLOWED_HOSTS`` (every DNS form of its
Service's name, which its web service then answers to, then those of a
``MARS_WEB_ALLOWED_HOSTS`` in ``extra_env``: an Ingress host) and, in workers,
``MARS_CACHE_MEM_SIZE`` and ``MARS_SPILL_DIRS``.
"""

from __future__ import annotations

from typing import Any

from jupyter_mars.launcher.kubernetes.quantities import cpu_quantity, memory_quantity
from jupyter_mars.launcher.kubernetes.spec import (
    SUPERVISOR_PORT,
    WEB_PORT,
    WORKER_PORT,
    ClusterSpec,
)

Object = dict[str, Any]
"""One Kubernetes object, as JSON."""

APP = "jupyter-mars"
"""The ``app.kubernetes.io/name`` of every object."""
DELETION_COST = "controller.kubernetes.io/pod-deletion-cost"
"""The pod annotation a ReplicaSet reads to choose which pods to remove first (lowest)."""

READY_COMMAND = (
    "import os, urllib.request as u; ip = os.environ['MARS_CONTAINER_IP']; "
    "host = '[' + ip + ']' if ':' in ip else ip; "
    "u.urlopen(u.Request('http://' + host + ':' + os.environ['MARS_WEB_PORT'] + "
    "'/api/v1/cluster', headers={'Authorization': 'token ' + os.environ['MARS_TOKEN']}), "
    "timeout=5)"
)
"""The supervisor's readiness check: its HTTP API answers an authenticated request (every
API route needs the token, which an ``httpGet`` probe cannot carry from the Secret)."""


def cluster_objects(spec: ClusterSpec, token: str | None) -> list[Object]:
    """Every object of the cluster, in creation order; ``token`` None leaves out the
    Secret (the manifests: the user makes it)."""
    objects = [namespace(spec)] if spec.create_namespace else []
    if token is not None:
        objects.append(secret(spec, token))
    return [
        *objects,
        service_account(spec),
        role(spec),
        role_binding(spec),
        supervisor_deployment(spec),
        supervisor_service(spec),
        worker_deployment(spec),
    ]


def labels(spec: ClusterSpec, component: str | None = None) -> dict[str, str]:
    """The labels that select the cluster's objects (and one component's pods)."""
    chosen = {"app.kubernetes.io/name": APP, "app.kubernetes.io/instance": spec.name}
    if component is not None:
        chosen["app.kubernetes.io/component"] = component
    return chosen


def selector(spec: ClusterSpec, component: str) -> str:
    """``labels`` as a label selector, for listing pods."""
    return ",".join(f"{k}={v}" for k, v in labels(spec, component).items())


def _metadata(spec: ClusterSpec, name: str, component: str | None = None) -> Object:
    meta: Object = {"name": name, "labels": {**labels(spec, component), **dict(spec.extra_labels)}}
    if spec.namespace is not None:
        meta["namespace"] = spec.namespace
    return meta


def supervisor_name(spec: ClusterSpec) -> str:
    return f"{spec.name}-supervisor"


def worker_name(spec: ClusterSpec) -> str:
    return f"{spec.name}-worker"


def namespace(spec: ClusterSpec) -> Object:
    if spec.namespace is None:
        raise ValueError("a namespace to create needs a name")
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": spec.namespace, "labels": labels(spec)},
    }


def secret(spec: ClusterSpec, token: str) -> Object:
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": _metadata(spec, spec.secret_name),
        "type": "Opaque",
        "stringData": {"token": token},
    }


def service_account(spec: ClusterSpec) -> Object:
    return {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": _metadata(spec, spec.name)}


def role(spec: ClusterSpec) -> Object:
    """What the pods' account may do, in the namespace only: read the cluster's pods (and
    their logs), Services and Endpoints; mark pods for removal and resize the
    Deployments, as a launcher running in a pod (a Jupyter server) does."""
    return {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "Role",
        "metadata": _metadata(spec, spec.name),
        "rules": [
            {
                "apiGroups": [""],
                "resources": ["pods", "pods/log", "services", "endpoints"],
                "verbs": ["get", "list", "watch"],
            },
            {"apiGroups": [""], "resources": ["pods"], "verbs": ["patch"]},
            {
                "apiGroups": ["apps"],
                "resources": ["deployments", "deployments/scale"],
                "verbs": ["get", "list", "watch", "patch"],
            },
        ],
    }


def role_binding(spec: ClusterSpec) -> Object:
    subject: Object = {"kind": "ServiceAccount", "name": spec.name}
    if spec.namespace is not None:
        subject["namespace"] = spec.namespace
    return {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "RoleBinding",
        "metadata": _metadata(spec, spec.name),
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": spec.name},
        "subjects": [subject],
    }


def supervisor_address(spec: ClusterSpec) -> str:
    """The supervisor Service's DNS name and RPC port; without a namespace (manifests),
    the pod's own, which Kubernetes substitutes from ``MARS_K8S_POD_NAMESPACE``."""
    namespace = spec.namespace or "$(MARS_K8S_POD_NAMESPACE)"
    return f"{supervisor_name(spec)}.{namespace}.svc:{SUPERVISOR_PORT}"


ALLOWED_HOSTS_ENV = "MARS_WEB_ALLOWED_HOSTS"
"""More names the supervisor's web service answers to (its ``--allowed-hosts``)."""
CLUSTER_DOMAIN = "cluster.local"
"""Kubernetes's default cluster domain, of a Service's full DNS name."""


def supervisor_host_names(spec: ClusterSpec) -> list[str]:
    """Every name the supervisor Service is reached by, in the pods' namespace (Kubernetes
    substitutes it when the spec has none): ``svc``, ``svc.ns``, ``svc.ns.svc`` and
    ``svc.ns.svc.cluster.local``. A browser sends the one typed as ``Host``.

    >>> from jupyter_mars.launcher.kubernetes.spec import cluster_spec
    >>> spec = cluster_spec(name="demo", namespace="team", worker_num=1, worker_cpu=1,
    ...                     worker_mem="1Gi")
    >>> supervisor_host_names(spec)[1:]
    ['demo-supervisor.team', 'demo-supervisor.team.svc', 'demo-supervisor.team.svc.cluster.local']
    """
    service = supervisor_name(spec)
    namespace = spec.namespace or "$(MARS_K8S_POD_NAMESPACE)"
    full = f"{service}.{namespace}.svc"
    return [service, f"{service}.{namespace}", full, f"{full}.{CLUSTER_DOMAIN}"]


def _field(path: str) -> Object:
    return {"fieldRef": {"fieldPath": path}}


def pod_env(spec: ClusterSpec, port: int, extra: dict[str, str]) -> list[Object]:
    """The pod environment contract, then ``extra`` and the user's ``extra_env`` (whose
    names the contract does not use: ``spec.py`` checks)."""
    env: list[Object] = [
        {"name": "MARS_CONTAINER_IP", "valueFrom": _field("status.podIP")},
        {"name": "MARS_K8S_POD_NAME", "valueFrom": _field("metadata.name")},
        {"name": "MARS_K8S_POD_NAMESPACE", "valueFrom": _field("metadata.namespace")},
        {
            "name": "MARS_CPU_TOTAL",
            "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu", "divisor": "1"}},
        },
        {
            "name": "MARS_MEMORY_TOTAL",
            "valueFrom": {"resourceFieldRef": {"resource": "limits.memory"}},
        },
        {
            "name": "MARS_TOKEN",
            "valueFrom": {"secretKeyRef": {"name": spec.secret_name, "key": "token"}},
        },
        {"name": "MARS_BIND_PORT", "value": str(port)},
        {"name": "MARS_SUPERVISOR_ADDRESS", "value": supervisor_address(spec)},
    ]
    # a name of ``extra`` also in ``extra_env`` (only MARS_WEB_ALLOWED_HOSTS may be: spec.py
    # refuses the others) has the user's value in it already
    given = {k: v for k, v in spec.extra_env if k not in extra}
    env += [{"name": k, "value": v} for k, v in {**extra, **given}.items()]
    return env


def _resources(cores: float, n_bytes: int) -> Object:
    amounts = {"cpu": cpu_quantity(cores), "memory": memory_quantity(n_bytes)}
    return {"requests": dict(amounts), "limits": dict(amounts)}


def _container(spec: ClusterSpec, component: str, port: int, env: list[Object]) -> Object:
    container: Object = {
        "name": component,
        "image": spec.image,
        "command": ["python", "-m", f"jupyter_mars.deploy.kubernetes.{component}"],
        "env": env,
        "ports": [{"name": "rpc", "containerPort": port, "protocol": "TCP"}],
        "securityContext": {"allowPrivilegeEscalation": False},
    }
    if spec.image_pull_policy is not None:
        container["imagePullPolicy"] = spec.image_pull_policy
    if spec.pre_stop_command:
        container["lifecycle"] = {"preStop": {"exec": {"command": list(spec.pre_stop_command)}}}
    mounts = [{"name": v.volume["name"], "mountPath": v.mount_path} for v in spec.extra_volumes]
    if mounts:
        container["volumeMounts"] = mounts
    return container


def _deployment(
    spec: ClusterSpec, component: str, replicas: int, container: Object, volumes: list[Object]
) -> Object:
    pod_spec: Object = {"serviceAccountName": spec.name, "containers": [container]}
    all_volumes = volumes + [v.volume for v in spec.extra_volumes]
    if all_volumes:
        pod_spec["volumes"] = all_volumes
    name = f"{spec.name}-{component}"
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": _metadata(spec, name, component),
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": labels(spec, component)},
            "template": {
                "metadata": {"labels": {**labels(spec, component), **dict(spec.extra_labels)}},
                "spec": pod_spec,
            },
        },
    }


def supervisor_deployment(spec: ClusterSpec) -> Object:
    names = supervisor_host_names(spec)
    given = dict(spec.extra_env).get(ALLOWED_HOSTS_ENV)
    if given:  # the user's (an Ingress host) after the Service's own
        names.append(given)
    # in the order Helm's chart writes them: by name
    extra = {ALLOWED_HOSTS_ENV: ",".join(names), "MARS_WEB_PORT": str(WEB_PORT)}
    env = pod_env(spec, SUPERVISOR_PORT, extra)
    container = _container(spec, "supervisor", SUPERVISOR_PORT, env)
    container["ports"].append({"name": "web", "containerPort": WEB_PORT, "protocol": "TCP"})
    container["resources"] = _resources(spec.supervisor_cpu, spec.supervisor_mem)
    container["readinessProbe"] = {
        "exec": {"command": ["python", "-c", READY_COMMAND]},
        "initialDelaySeconds": 3,
        "periodSeconds": 10,
        "timeoutSeconds": 8,
    }
    return _deployment(spec, "supervisor", spec.supervisor_num, container, [])


def supervisor_service(spec: ClusterSpec) -> Object:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": _metadata(spec, supervisor_name(spec), "supervisor"),
        "spec": {
            "type": spec.service_type,
            "selector": labels(spec, "supervisor"),
            "ports": [
                {"name": "rpc", "port": SUPERVISOR_PORT, "targetPort": "rpc", "protocol": "TCP"},
                {"name": "web", "port": WEB_PORT, "targetPort": "web", "protocol": "TCP"},
            ],
        },
    }


def spill_volumes(spec: ClusterSpec) -> list[Object]:
    """One volume per spill path: an ``emptyDir`` (the pod's own scratch space, gone with
    it), or the node's directory of that path (``hostPath``) when asked."""
    volumes = []
    for i, path in enumerate(spec.worker_spill_paths):
        source: Object = (
            {"hostPath": {"path": path, "type": "DirectoryOrCreate"}}
            if spec.worker_spill_volume == "hostPath"
            else {"emptyDir": {}}
        )
        volumes.append({"name": f"spill-{i}", **source})
    return volumes


def worker_deployment(spec: ClusterSpec) -> Object:
    extra = {}
    if spec.worker_cache_mem is not None:
        extra["MARS_CACHE_MEM_SIZE"] = spec.worker_cache_mem
    if spec.worker_spill_paths:
        extra["MARS_SPILL_DIRS"] = ",".join(spec.worker_spill_paths)
    env = pod_env(spec, WORKER_PORT, extra)
    container = _container(spec, "worker", WORKER_PORT, env)
    container["resources"] = _resources(spec.worker_cpu, spec.worker_mem)
    container["readinessProbe"] = {
        "tcpSocket": {"port": "rpc"},
        "initialDelaySeconds": 3,
        "periodSeconds": 10,
    }
    volumes = spill_volumes(spec)
    mounts = [
        {"name": v["name"], "mountPath": path}
        for v, path in zip(volumes, spec.worker_spill_paths, strict=True)
    ]
    if mounts:
        container["volumeMounts"] = mounts + container.get("volumeMounts", [])
    return _deployment(spec, "worker", spec.worker_num, container, volumes)


def replicas_patch(n: int) -> Object:
    """The patch of a Deployment that makes it run ``n`` pods."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    return {"spec": {"replicas": n}}


def deletion_cost_patch(cost: int) -> Object:
    """The patch of a pod that makes its ReplicaSet remove it before pods of a higher
    cost (unmarked pods cost 0) when the Deployment shrinks."""
    return {"metadata": {"annotations": {DELETION_COST: str(cost)}}}


def retire_costs(retire: list[str], pod_ips: dict[str, str], excess: int) -> dict[str, int]:
    """Pods to mark for removal, by name, and their deletion cost: the workers named in
    ``retire`` (supervisor addresses ``ip:port``) whose pod is found by IP in
    ``pod_ips`` (pod name to IP), the first lowest, at most ``excess`` of them.

    >>> retire_costs(["10.0.0.7:7105", "10.0.0.9:7105", "10.0.0.5:7105"],
    ...              {"w-a": "10.0.0.5", "w-b": "10.0.0.7"}, 5)
    {'w-b': -1000, 'w-a': -999}
    """
    by_ip = {ip: name for name, ip in pod_ips.items()}
    chosen: dict[str, int] = {}
    for address in dict.fromkeys(retire):
        host = address.rsplit(":", 1)[0].strip("[]")
        name = by_ip.get(host)
        if name is not None and name not in chosen and len(chosen) < excess:
            chosen[name] = -1000 + len(chosen)
    return chosen
