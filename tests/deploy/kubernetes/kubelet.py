"""What a kubelet gives a container of the launcher's objects, done here: its environment
resolved (the downward API's fields and limits, the Secret's keys, ``$(VAR)`` references
to variables defined before), so the tests can start the container's command as a local
process with exactly that environment."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from jupyter_mars.engine.sizes import parse_size
from jupyter_mars.launcher.kubernetes.status import cpu_cores

_REFERENCE = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)")


def expand(value: str, defined: Mapping[str, str]) -> str:
    """``$(VAR)`` replaced by a variable defined before, as Kubernetes does (an undefined
    one stays as written).

    >>> expand("a.$(NS).svc:$(PORT)", {"NS": "team"})
    'a.team.svc:$(PORT)'
    """
    return _REFERENCE.sub(lambda m: defined.get(m[1], m[0]), value)


def container_env(
    container: dict[str, Any],
    *,
    pod_ip: str,
    pod_name: str,
    namespace: str,
    secrets: Mapping[str, Mapping[str, str]],
) -> dict[str, str]:
    """The variables the container's process sees, in the order defined."""
    limits = container["resources"]["limits"]
    fields = {"status.podIP": pod_ip, "metadata.name": pod_name, "metadata.namespace": namespace}
    resolved: dict[str, str] = {}
    for entry in container["env"]:
        if "value" in entry:
            value = expand(entry["value"], resolved)
        elif "fieldRef" in entry["valueFrom"]:
            value = fields[entry["valueFrom"]["fieldRef"]["fieldPath"]]
        elif "resourceFieldRef" in entry["valueFrom"]:
            ref = entry["valueFrom"]["resourceFieldRef"]
            divisor = float(ref.get("divisor", "1"))
            if ref["resource"] == "limits.cpu":
                # the downward API rounds cores up to whole divisors
                value = str(math.ceil(cpu_cores(limits["cpu"]) / divisor))
            else:
                value = str(math.ceil(parse_size(limits["memory"]) / divisor))
        else:
            ref = entry["valueFrom"]["secretKeyRef"]
            value = secrets[ref["name"]][ref["key"]]
        resolved[entry["name"]] = value
    return resolved
