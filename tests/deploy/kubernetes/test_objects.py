"""The objects of one cluster, over several settings: valid for Kubernetes, meeting the
pod environment contract, and carrying what was asked for."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
from typing import Any

import pytest

from jupyter_mars.launcher.kubernetes import objects, quantities
from jupyter_mars.launcher.kubernetes.objects import (
    READY_COMMAND,
    cluster_objects,
    deletion_cost_patch,
    replicas_patch,
    retire_costs,
)
from jupyter_mars.launcher.kubernetes.spec import ClusterSpec, cluster_spec
from jupyter_mars.launcher.local import LocalCluster
from tests.deploy.kubernetes.schemas import check_contract, containers, validate

GIB = 1024**3

SETTINGS: dict[str, dict[str, Any]] = {
    "defaults": {},
    "own namespace": {"name": "demo", "namespace": "mars-demo", "create_namespace": True},
    "Mars script": {
        "namespace": "team",
        "supervisor_num": 1,
        "supervisor_cpu": 0.5,
        "supervisor_mem": "1Gi",
        "worker_num": 3,
        "worker_cpu": 2,
        "worker_mem": 16 * GIB,
        "worker_spill_paths": ["/mnt/spill/a", "/mnt/spill/b"],
        "worker_cache_mem": "10Gi",
        "service_type": "LoadBalancer",
        "min_worker_num": 2,
    },
    "everything": {
        "name": "big",
        "namespace": "big",
        "image": "registry.example/jupyter-mars:0.1.0",
        "image_pull_policy": "Always",
        "worker_mem": 16,
        "worker_spill_paths": "/data/spill",
        "worker_spill_volume": "hostPath",
        "worker_cache_mem": "80%",
        "service_type": "ClusterIP",
        "token_secret": "mars-token",
        "extra_env": {"OMP_NUM_THREADS": "1", "MARS_LOG_LEVEL": "debug"},
        "extra_labels": {"team": "analytics", "example.org/cost-centre": "a-1"},
        "extra_volumes": [
            {"name": "data", "mountPath": "/data/in", "persistentVolumeClaim": {"claimName": "d"}}
        ],
        "pre_stop_command": "sleep 5",
    },
}


@pytest.fixture(params=list(SETTINGS))
def spec(request: pytest.FixtureRequest) -> ClusterSpec:
    return cluster_spec(**SETTINGS[request.param])


def test_doctests() -> None:
    assert doctest.testmod(objects).failed == 0
    assert doctest.testmod(quantities).failed == 0


def test_every_object_is_valid_kubernetes(spec: ClusterSpec) -> None:
    made = cluster_objects(spec, token="s3cret")
    for obj in made:
        validate(obj)
    kinds = [o["kind"] for o in made]
    expected = ["Secret", "ServiceAccount", "Role", "RoleBinding", "Deployment", "Service"]
    assert kinds == (["Namespace"] if spec.create_namespace else []) + expected + ["Deployment"]
    assert "Secret" not in [o["kind"] for o in cluster_objects(spec, token=None)]


def test_every_container_gets_the_pod_environment(spec: ClusterSpec) -> None:
    made = cluster_objects(spec, token="s3cret")
    found = [c for o in made for c in containers(o)]
    assert [c["name"] for c in found] == ["supervisor", "worker"]
    for container in found:
        env = check_contract(container, spec.secret_name)
        assert env["MARS_SUPERVISOR_ADDRESS"] == (
            f"{spec.name}-supervisor.{spec.namespace or '$(MARS_K8S_POD_NAMESPACE)'}.svc:7103"
        )
    secret = next(o for o in made if o["kind"] == "Secret")
    assert secret["metadata"]["name"] == spec.secret_name
    assert secret["stringData"] == {"token": "s3cret"}


def test_without_a_namespace_the_address_names_the_pods_own() -> None:
    """Kubernetes substitutes ``$(VAR)`` only from variables defined before it."""
    worker = objects.worker_deployment(cluster_spec())
    names = [e["name"] for e in containers(worker)[0]["env"]]
    assert names.index("MARS_K8S_POD_NAMESPACE") < names.index("MARS_SUPERVISOR_ADDRESS")
    assert all("namespace" not in o["metadata"] for o in cluster_objects(cluster_spec(), "t"))


def test_the_supervisors_web_service_answers_to_its_services_names() -> None:
    def allowed(spec: ClusterSpec, component: str = "supervisor") -> list[str]:
        deployment = getattr(objects, f"{component}_deployment")(spec)
        env = containers(deployment)[0]["env"]
        return [e["value"] for e in env if e["name"] == "MARS_WEB_ALLOWED_HOSTS"]

    team = cluster_spec(name="demo", namespace="team")
    forms = "demo-supervisor,demo-supervisor.team,demo-supervisor.team.svc"
    assert allowed(team) == [f"{forms},demo-supervisor.team.svc.cluster.local"]
    assert allowed(team, "worker") == []  # a worker has no web service
    # without a namespace (the manifests), the pod's own, defined before it
    own = objects.supervisor_deployment(cluster_spec())
    names = [e["name"] for e in containers(own)[0]["env"]]
    assert names.index("MARS_K8S_POD_NAMESPACE") < names.index("MARS_WEB_ALLOWED_HOSTS")
    assert allowed(cluster_spec())[0].split(",")[1] == (
        "jupyter-mars-supervisor.$(MARS_K8S_POD_NAMESPACE)"
    )
    # names given in extra_env (an Ingress host) come after the Service's, in one variable
    ingress = cluster_spec(extra_env={"MARS_WEB_ALLOWED_HOSTS": "mars.domain.com"})
    (value,) = allowed(ingress)
    assert value.split(",")[-2:] == [
        "jupyter-mars-supervisor.$(MARS_K8S_POD_NAMESPACE).svc.cluster.local",
        "mars.domain.com",
    ]


def test_the_labels_select_each_component(spec: ClusterSpec) -> None:
    made = cluster_objects(spec, token="t")
    deployments = {o["metadata"]["name"]: o for o in made if o["kind"] == "Deployment"}
    service = next(o for o in made if o["kind"] == "Service")
    supervisor = deployments[f"{spec.name}-supervisor"]
    worker = deployments[f"{spec.name}-worker"]
    for deployment in (supervisor, worker):
        pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
        assert deployment["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
        assert pod_labels["app.kubernetes.io/instance"] == spec.name
        assert dict(spec.extra_labels).items() <= pod_labels.items()
    sup_labels = supervisor["spec"]["template"]["metadata"]["labels"]
    wrk_labels = worker["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= sup_labels.items()
    assert not service["spec"]["selector"].items() <= wrk_labels.items()
    assert service["spec"]["type"] == spec.service_type
    assert {p["port"] for p in service["spec"]["ports"]} == {7103, 7104}
    assert supervisor["spec"]["replicas"] == spec.supervisor_num
    assert worker["spec"]["replicas"] == spec.worker_num
    assert objects.selector(spec, "worker") == ",".join(
        f"{k}={v}" for k, v in worker["spec"]["selector"]["matchLabels"].items()
    )


def test_mars_sizes_become_kubernetes_quantities() -> None:
    spec = cluster_spec(**SETTINGS["Mars script"])
    worker = containers(objects.worker_deployment(spec))[0]
    assert worker["resources"]["limits"] == {"cpu": "2", "memory": "16Gi"}
    supervisor = containers(objects.supervisor_deployment(spec))[0]
    assert supervisor["resources"]["limits"] == {"cpu": "500m", "memory": "1Gi"}
    unitless = containers(objects.worker_deployment(cluster_spec(worker_mem=4)))[0]
    assert unitless["resources"]["limits"]["memory"] == "4Gi"
    odd = containers(objects.worker_deployment(cluster_spec(worker_mem="1.5GiB")))[0]
    assert odd["resources"]["limits"]["memory"] == "1536Mi"


def test_worker_memory_tuning_and_spill_volumes() -> None:
    spec = cluster_spec(**SETTINGS["Mars script"])
    worker = objects.worker_deployment(spec)
    container = containers(worker)[0]
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env["MARS_CACHE_MEM_SIZE"] == "10Gi"
    assert env["MARS_SPILL_DIRS"] == "/mnt/spill/a,/mnt/spill/b"
    volumes = worker["spec"]["template"]["spec"]["volumes"]
    assert volumes == [{"name": "spill-0", "emptyDir": {}}, {"name": "spill-1", "emptyDir": {}}]
    assert container["volumeMounts"] == [
        {"name": "spill-0", "mountPath": "/mnt/spill/a"},
        {"name": "spill-1", "mountPath": "/mnt/spill/b"},
    ]
    host = objects.worker_deployment(cluster_spec(**SETTINGS["everything"]))
    pod = host["spec"]["template"]["spec"]
    assert pod["volumes"][0] == {
        "name": "spill-0",
        "hostPath": {"path": "/data/spill", "type": "DirectoryOrCreate"},
    }
    assert pod["volumes"][1]["persistentVolumeClaim"] == {"claimName": "d"}
    mounts = pod["containers"][0]["volumeMounts"]
    assert {"name": "data", "mountPath": "/data/in"} in mounts
    assert "MARS_CACHE_MEM_SIZE" not in str(objects.worker_deployment(cluster_spec()))


def test_extra_env_and_pre_stop_runs_in_every_container() -> None:
    made = cluster_objects(cluster_spec(**SETTINGS["everything"]), "t")
    for container in [c for o in made for c in containers(o)]:
        env = {e["name"]: e.get("value") for e in container["env"]}
        assert env["MARS_LOG_LEVEL"] == "debug"
        assert env["OMP_NUM_THREADS"] == "1"
        assert container["lifecycle"]["preStop"]["exec"]["command"] == [
            "/bin/sh",
            "-c",
            "sleep 5",
        ]
        assert container["imagePullPolicy"] == "Always"


def test_patches_and_which_pods_retire() -> None:
    assert replicas_patch(0) == {"spec": {"replicas": 0}}
    with pytest.raises(ValueError, match="n must be"):
        replicas_patch(-1)
    patch = deletion_cost_patch(-1000)
    assert patch == {"metadata": {"annotations": {objects.DELETION_COST: "-1000"}}}
    pods = {"w-1": "10.0.0.1", "w-2": "10.0.0.2", "w-3": "fd00::3"}
    assert retire_costs(["[fd00::3]:7105", "10.0.0.1:7105"], pods, 1) == {"w-3": -1000}
    assert retire_costs(["10.0.0.9:7105"], pods, 2) == {}
    assert retire_costs(["10.0.0.2:7105", "10.0.0.2:7105", "10.0.0.1:7105"], pods, 3) == {
        "w-2": -1000,
        "w-1": -999,
    }


def test_the_readiness_command_asks_a_real_supervisor_with_the_token() -> None:
    """The probe a supervisor pod runs, run here against a real supervisor, with the
    variables the pod would have."""
    with LocalCluster(n_worker=1, connect=False) as cluster:
        host, _, port = cluster.endpoint.removeprefix("http://").rpartition(":")
        env = {**os.environ, "MARS_CONTAINER_IP": host, "MARS_WEB_PORT": port}

        def probe(token: str) -> int:
            argv = [sys.executable, "-c", READY_COMMAND]
            done = subprocess.run(argv, env={**env, "MARS_TOKEN": token}, capture_output=True)
            return done.returncode

        assert probe(cluster.token) == 0
        assert probe("wrong") != 0
