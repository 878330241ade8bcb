"""The Helm chart, rendered and linted by Helm's own library (``helm-python-sdk``): every
object valid for Kubernetes, meeting the pod environment contract, and the same objects
the launcher builds for the same settings."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import helm_python
import pytest
import yaml

from jupyter_mars.launcher.kubernetes import objects
from jupyter_mars.launcher.kubernetes.spec import cluster_spec
from jupyter_mars.launcher.kubernetes.status import worker_settings
from tests.deploy.kubernetes.schemas import check_contract, containers, validate

CHART = Path(__file__).resolve().parents[3] / "deploy" / "kubernetes" / "chart" / "jupyter-mars"
HELM_LABELS = ("helm.sh/chart", "app.kubernetes.io/managed-by")

OVERRIDES: dict[str, Any] = {
    "image": {
        "repository": "registry.example/jupyter-mars",
        "tag": "0.1.0",
        "pullPolicy": "Always",
    },
    "supervisor": {"replicas": 1, "cpu": "500m", "memory": "1Gi"},
    "worker": {
        "replicas": 5,
        "cpu": 4,
        "memory": "16Gi",
        "cacheMemory": "10Gi",
        "spillPaths": ["/data/spill-a", "/data/spill-b"],
        "spillVolume": "hostPath",
    },
    "token": {"existingSecret": "mars-token"},
    "service": {"type": "NodePort"},
    "extraEnv": {"OMP_NUM_THREADS": "1"},
    "extraLabels": {"team": "analytics"},
}
SAME_SPEC: dict[str, Any] = {
    "image": "registry.example/jupyter-mars:0.1.0",
    "image_pull_policy": "Always",
    "supervisor_cpu": 0.5,
    "supervisor_mem": "1Gi",
    "worker_num": 5,
    "worker_cpu": 4,
    "worker_mem": "16Gi",
    "worker_cache_mem": "10Gi",
    "worker_spill_paths": ["/data/spill-a", "/data/spill-b"],
    "worker_spill_volume": "hostPath",
    "token_secret": "mars-token",
    "service_type": "NodePort",
    "extra_env": {"OMP_NUM_THREADS": "1"},
    "extra_labels": {"team": "analytics"},
}
"""``OVERRIDES`` as the launcher's arguments."""
DEFAULT_SPEC: dict[str, Any] = {
    "image_pull_policy": "IfNotPresent",
    "worker_num": 2,
    "worker_cpu": 2,
    "worker_spill_paths": ["/home/mars/spill"],
    "service_type": "ClusterIP",
}
"""The chart's default values as the launcher's arguments."""


def render(values: dict[str, Any] | None = None) -> dict[str, str]:
    with helm_python.Chart.load(CHART) as chart:
        rendered = chart.render(values, name="demo", namespace="team", is_install=True)
    return {Path(path).name: text for path, text in rendered.items()}


def manifests(rendered: dict[str, str]) -> list[dict[str, Any]]:
    return [
        doc
        for name, text in sorted(rendered.items())
        if name.endswith(".yaml")
        for doc in yaml.safe_load_all(text)
        if doc is not None
    ]


def test_helm_lints_it_clean() -> None:
    report = helm_python.lint(CHART, strict=True, kube_version="v1.30.0")
    assert report["errors"] == []
    assert [m for m in report["messages"] if m["severity"] >= 2] == []


@pytest.mark.parametrize("values", [None, OVERRIDES], ids=["defaults", "overrides"])
def test_every_rendered_object_is_valid_and_gets_the_pod_environment(
    values: dict[str, Any] | None,
) -> None:
    made = manifests(render(values))
    secret_name = (values or {}).get("token", {}).get("existingSecret") or "demo-token"
    for obj in made:
        validate(obj)
        for container in containers(obj):
            env = check_contract(container, secret_name)
            assert env["MARS_SUPERVISOR_ADDRESS"] == "demo-supervisor.team.svc:7103"
    kinds = sorted(o["kind"] for o in made)
    expected = ["Deployment", "Deployment", "Role", "RoleBinding", "Service", "ServiceAccount"]
    assert kinds == sorted(expected + ([] if values else ["Secret"]))


INGRESS_HOST = {"MARS_WEB_ALLOWED_HOSTS": "mars.example.com"}
"""A name the supervisor's web service answers to besides its Service's (an Ingress's)."""


@pytest.mark.parametrize(
    ("values", "arguments"),
    [
        (None, DEFAULT_SPEC),
        (OVERRIDES, SAME_SPEC),
        ({"extraEnv": INGRESS_HOST}, {**DEFAULT_SPEC, "extra_env": INGRESS_HOST}),
    ],
    ids=["defaults", "overrides", "allowed-hosts"],
)
def test_the_chart_makes_what_the_launcher_makes(
    values: dict[str, Any] | None, arguments: dict[str, Any]
) -> None:
    spec = cluster_spec(name="demo", namespace="team", **arguments)
    built = {
        (o["kind"], o["metadata"]["name"]): o for o in objects.cluster_objects(spec, token=None)
    }
    rendered = {(o["kind"], o["metadata"]["name"]): o for o in manifests(render(values))}
    rendered.pop(("Secret", "demo-token"), None)
    assert set(rendered) == set(built)
    for key, obj in rendered.items():
        for label in HELM_LABELS:
            del obj["metadata"]["labels"][label]
        expected = dict(built[key])
        expected["metadata"] = {k: v for k, v in expected["metadata"].items() if k != "namespace"}
        assert obj == expected, key


def test_a_release_can_be_attached_to() -> None:
    """``KubernetesCluster.attach("team/demo")`` reads the release's worker Deployment."""
    made = manifests(render(OVERRIDES))
    worker = next(o for o in made if o["metadata"]["name"] == "demo-worker")
    assert worker_settings(worker) == {
        "worker_num": 5,
        "worker_cpu": 4.0,
        "worker_mem": 16 * 1024**3,
        "token_secret": "mars-token",
    }


def test_a_token_is_generated_or_given() -> None:
    secret = next(o for o in manifests(render()) if o["kind"] == "Secret")
    generated = base64.b64decode(secret["data"]["token"]).decode()
    assert len(generated) == 48
    assert generated.isalnum()
    other = next(o for o in manifests(render()) if o["kind"] == "Secret")
    assert base64.b64decode(other["data"]["token"]).decode() != generated
    given = render({"token": {"value": "s3cret-given"}})
    secret = next(o for o in manifests(given) if o["kind"] == "Secret")
    assert base64.b64decode(secret["data"]["token"]) == b"s3cret-given"


def test_the_notes_say_where_the_dashboard_is() -> None:
    assert "kubectl port-forward -n team svc/demo-supervisor 7104:7104" in render()["NOTES.txt"]
    node_port = render({"service": {"type": "NodePort"}})["NOTES.txt"]
    assert "nodePort" in node_port
    assert "secret demo-token" in node_port


@pytest.mark.parametrize(
    "values",
    [
        {"worker": {"replicas": "three"}},
        {"supervisor": {"replicas": 2}},
        {"worker": {"memory": "lots"}},
        {"worker": {"spillVolume": "nfs"}},
        {"worker": {"spillPaths": ["relative"]}},
        {"service": {"type": "ExternalName"}},
        {"workers": {"replicas": 2}},
    ],
)
def test_bad_values_are_refused_naming_them(values: dict[str, Any]) -> None:
    with pytest.raises(helm_python.HelmError) as caught:
        render(values)
    section = next(iter(values))
    assert section in str(caught.value)


def test_the_supervisor_answers_to_its_services_names_and_those_given() -> None:
    service = "demo-supervisor"
    names = f"{service},{service}.team,{service}.team.svc,{service}.team.svc.cluster.local"
    for values, expected in (
        (None, names),
        ({"extraEnv": INGRESS_HOST}, f"{names},mars.example.com"),
    ):
        made = {
            o["metadata"]["name"]: o for o in manifests(render(values)) if o["kind"] == "Deployment"
        }
        env = containers(made[service])[0]["env"]
        given = [e["value"] for e in env if e["name"] == "MARS_WEB_ALLOWED_HOSTS"]
        assert given == [expected]  # once: the chart's names and extraEnv's together
