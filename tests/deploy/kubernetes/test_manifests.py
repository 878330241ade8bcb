"""The static manifests: what ``scripts/k8s_manifests.py`` writes, valid for Kubernetes,
and (through kustomize, as ``kubectl apply -k`` reads them) a whole cluster in one
namespace with the token's Secret."""

from __future__ import annotations

import base64
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from tests.deploy.kubernetes.schemas import check_contract, containers, validate

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "scripts" / "k8s_manifests.py"
MANIFESTS = ROOT / "deploy" / "kubernetes" / "manifests"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("k8s_manifests", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _objects(text: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(text) if d is not None]


def test_the_manifests_are_what_the_script_writes(script: ModuleType) -> None:
    assert script.main(["--check"]) == 0, "run scripts/k8s_manifests.py"
    written = {p.name for p in MANIFESTS.glob("*.yaml")}
    assert written == set(script.render())


def test_every_manifest_is_valid_and_namespace_less() -> None:
    kinds = []
    for path in sorted(MANIFESTS.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for obj in _objects(path.read_text()):
            validate(obj)
            assert "namespace" not in obj["metadata"], path.name
            kinds.append(obj["kind"])
            for container in containers(obj):
                env = check_contract(container, "jupyter-mars-token")
                assert env["MARS_SUPERVISOR_ADDRESS"] == (
                    "jupyter-mars-supervisor.$(MARS_K8S_POD_NAMESPACE).svc:7103"
                )
    assert sorted(kinds) == sorted(
        ["ServiceAccount", "Role", "RoleBinding", "Deployment", "Service", "Deployment"]
    )


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl (its kustomize) not here")
def test_kustomize_makes_a_whole_cluster_in_one_namespace(tmp_path: Path) -> None:
    folder = tmp_path / "manifests"
    shutil.copytree(MANIFESTS, folder)
    (folder / "token.env").write_text("token=s3cret\n")
    done = subprocess.run(
        ["kubectl", "kustomize", str(folder)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    made = _objects(done.stdout)
    for obj in made:
        validate(obj)
        assert obj["metadata"]["namespace"] == "jupyter-mars"
    secret = next(o for o in made if o["kind"] == "Secret")
    assert secret["metadata"]["name"] == "jupyter-mars-token"
    assert base64.b64decode(secret["data"]["token"]) == b"s3cret"
    binding = next(o for o in made if o["kind"] == "RoleBinding")
    assert binding["subjects"] == [
        {"kind": "ServiceAccount", "name": "jupyter-mars", "namespace": "jupyter-mars"}
    ]


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl (its kustomize) not here")
def test_without_a_token_file_kustomize_refuses(tmp_path: Path) -> None:
    """No default token ships: the user makes one."""
    folder = tmp_path / "manifests"
    shutil.copytree(MANIFESTS, folder, ignore=shutil.ignore_patterns("token.env"))
    done = subprocess.run(
        ["kubectl", "kustomize", str(folder)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert "token.env" in done.stderr
