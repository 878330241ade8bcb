"""Kubernetes objects checked against Kubernetes' own schemas (``kubernetes-validate``),
strictly (an unknown field is an error), for one pinned Kubernetes version; and the pod
environment contract every Mars container must meet."""

from __future__ import annotations

from typing import Any

import kubernetes_validate

KUBERNETES_VERSION = "1.30.0"
"""The oldest Kubernetes release still widely run when this was written."""

CONTRACT = {
    "MARS_CONTAINER_IP": ("fieldRef", "status.podIP"),
    "MARS_K8S_POD_NAME": ("fieldRef", "metadata.name"),
    "MARS_K8S_POD_NAMESPACE": ("fieldRef", "metadata.namespace"),
    "MARS_CPU_TOTAL": ("resourceFieldRef", "limits.cpu"),
    "MARS_MEMORY_TOTAL": ("resourceFieldRef", "limits.memory"),
    "MARS_TOKEN": ("secretKeyRef", "token"),
}
"""What the downward API and the Secret give each container, by variable."""
PORTS = {"supervisor": "7103", "worker": "7105"}


def validate(obj: dict[str, Any]) -> None:
    """Raise ``AssertionError`` naming the object and the first schema error."""
    try:
        kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=True)
    except kubernetes_validate.ValidationError as exc:
        where = "/".join(str(p) for p in exc.path)
        name = f"{obj.get('kind')} {obj.get('metadata', {}).get('name')}"
        raise AssertionError(f"{name}: {where}: {exc.message}") from None


def containers(obj: dict[str, Any]) -> list[dict[str, Any]]:
    if obj["kind"] not in ("Deployment", "StatefulSet"):
        return []
    return list(obj["spec"]["template"]["spec"]["containers"])


def check_contract(container: dict[str, Any], secret_name: str) -> dict[str, Any]:
    """Assert ``container`` gets the pod environment contract; returns its env by name
    (a value, or the ``valueFrom`` source)."""
    env = {e["name"]: e.get("value", e.get("valueFrom")) for e in container["env"]}
    assert len(env) == len(container["env"]), "a variable is set twice"
    for name, (source, key) in CONTRACT.items():
        got = env[name]
        assert isinstance(got, dict), (name, got)
        assert source in got, (name, got)
        ref = got[source]
        assert ref.get("fieldPath", ref.get("resource", ref.get("key"))) == key, (name, ref)
    assert env["MARS_TOKEN"]["secretKeyRef"]["name"] == secret_name
    assert env["MARS_CPU_TOTAL"]["resourceFieldRef"]["divisor"] == "1"
    component = container["name"]
    assert env["MARS_BIND_PORT"] == PORTS[component]
    if component == "supervisor":
        assert env["MARS_WEB_PORT"] == "7104"
    host, _, port = env["MARS_SUPERVISOR_ADDRESS"].rpartition(":")
    assert port == "7103"
    assert host.endswith(".svc"), host
    assert "-supervisor." in host, host
    assert container["command"] == ["python", "-m", f"jupyter_mars.deploy.kubernetes.{component}"]
    limits, requests = container["resources"]["limits"], container["resources"]["requests"]
    assert limits == requests
    assert set(limits) == {"cpu", "memory"}
    return env
