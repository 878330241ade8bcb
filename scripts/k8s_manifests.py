"""Write deploy/kubernetes/manifests/: a Mars cluster's Kubernetes objects as YAML, from
the same builders the launcher uses (``jupyter_mars/launcher/kubernetes/objects.py``).

Run it after changing those builders:
``PYTHONPATH=. .venv/bin/python scripts/k8s_manifests.py`` (``--check`` only compares;
``tests/deploy/kubernetes/test_manifests.py`` checks the files are up to date).

The objects carry no namespace: ``kubectl apply -k deploy/kubernetes/manifests/`` puts
them in the one ``kustomization.yaml`` names (and fills in the RoleBinding's subject),
and makes the token's Secret from ``token.env``, which the user writes (never committed:
a token in a repository is no secret).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

from jupyter_mars.launcher.kubernetes import objects
from jupyter_mars.launcher.kubernetes.spec import ClusterSpec, cluster_spec

ROOT = Path(__file__).resolve().parents[1]
MANIFESTS = ROOT / "deploy" / "kubernetes" / "manifests"
HEADER = "# Written by scripts/k8s_manifests.py from jupyter_mars/launcher/kubernetes/objects.py:\n"
HEADER += "# change those and run the script, rather than editing this file.\n"

SPEC: ClusterSpec = cluster_spec(
    name="jupyter-mars",
    worker_num=2,
    worker_cpu=2,
    worker_mem="4Gi",
    worker_spill_paths=["/home/mars/spill"],
    service_type="ClusterIP",
)
"""The cluster the manifests describe: one supervisor, reached with ``kubectl
port-forward``, and two workers of 2 cores and 4 GiB spilling to an ``emptyDir``."""
NAMESPACE = "jupyter-mars"
"""The namespace ``kustomization.yaml`` names; edit it there (or ``kustomize edit set
namespace``) to use another."""


def _documents(items: list[dict[str, Any]]) -> str:
    return HEADER + "---\n".join(yaml.safe_dump(o, sort_keys=False) for o in items)


def kustomization(resources: list[str]) -> dict[str, Any]:
    return {
        "apiVersion": "kustomize.config.k8s.io/v1beta1",
        "kind": "Kustomization",
        "namespace": NAMESPACE,
        "resources": resources,
        "secretGenerator": [{"name": SPEC.secret_name, "envs": ["token.env"]}],
        # the Deployments name the Secret as it is; a hash suffix would be rewritten
        # into them too, but a stable name is what the launcher and the chart use
        "generatorOptions": {"disableNameSuffixHash": True},
    }


def render() -> dict[str, str]:
    """The files of the manifests folder, by name."""
    made = objects.cluster_objects(SPEC, token=None)
    by_kind = {
        "rbac.yaml": [o for o in made if o["kind"] in ("ServiceAccount", "Role", "RoleBinding")],
        "supervisor.yaml": [objects.supervisor_deployment(SPEC), objects.supervisor_service(SPEC)],
        "worker.yaml": [objects.worker_deployment(SPEC)],
    }
    files = {name: _documents(items) for name, items in by_kind.items()}
    files["kustomization.yaml"] = _documents([kustomization(list(by_kind))])
    return files


def main(argv: list[str]) -> int:
    files = render()
    if "--check" in argv:
        stale = [n for n, text in files.items() if _read(MANIFESTS / n) != text]
        if stale:
            print(f"out of date in {MANIFESTS}: {', '.join(stale)}; run {__file__}")
            return 1
        return 0
    MANIFESTS.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (MANIFESTS / name).write_text(text)
    return 0


def _read(path: Path) -> str | None:
    return path.read_text() if path.exists() else None


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
