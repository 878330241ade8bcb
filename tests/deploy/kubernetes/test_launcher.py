"""The Kubernetes launcher without a Kubernetes cluster (none can run here): its argument
checks, its clear failure when no API server is configured or reachable, its lazy
import, and what it reads from the API's answers (``status.py``)."""

from __future__ import annotations

import doctest
import inspect
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jupyter_mars.launcher.handle import ClusterHandle
from jupyter_mars.launcher.kubernetes import objects, status
from jupyter_mars.launcher.kubernetes.cluster import (
    KubernetesCluster,
    KubernetesClusterError,
    new_cluster,
)
from jupyter_mars.launcher.kubernetes.spec import cluster_spec
from jupyter_mars.launcher.kubernetes.status import (
    made_by_launcher,
    parse_cluster_id,
    pod_problem,
    unschedulable,
    web_endpoint,
    worker_settings,
)

MARS_PARAMETERS = [
    "kube_api_client",
    "image",
    "supervisor_num",
    "supervisor_cpu",
    "supervisor_mem",
    "worker_num",
    "worker_cpu",
    "worker_mem",
    "worker_spill_paths",
    "worker_cache_mem",
    "min_worker_num",
    "service_type",
    "timeout",
]
"""Mars's ``new_cluster(...)`` parameters, in its order."""


@pytest.fixture
def no_kubeconfig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No kubeconfig anywhere, and not in a pod."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "missing-kubeconfig"))
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    return tmp_path


def test_the_signature_is_mars() -> None:
    names = list(inspect.signature(new_cluster).parameters)
    assert names[: len(MARS_PARAMETERS)] == MARS_PARAMETERS


BAD: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"worker_num": 0}, ValueError, "worker_num"),
    ({"worker_num": 2.5}, TypeError, "worker_num"),
    ({"worker_mem": "lots"}, ValueError, "worker_mem"),
    ({"worker_num": 2, "min_worker_num": 3}, ValueError, "min_worker_num"),
    ({"worker_cpu": -1}, ValueError, "worker_cpu"),
    ({"timeout": 0}, ValueError, "timeout"),
    ({"timeout": "soon"}, ValueError, "timeout"),
    ({"namespace": "Not A Name"}, ValueError, "namespace"),
    ({"service_type": "ClusterIP"}, ValueError, "ClusterIP"),
    ({"extra_modules": ["mylib"]}, ValueError, "extra_modules"),
    ({"worker_spill_paths": ["spill"]}, ValueError, "worker_spill_paths"),
    ({"no_such_argument": 1}, TypeError, "no_such_argument"),
]


@pytest.mark.parametrize(("kwargs", "error", "named"), BAD)
@pytest.mark.usefixtures("no_kubeconfig")
def test_bad_arguments_are_named_before_any_cluster_is_asked(
    kwargs: dict[str, Any], error: type[Exception], named: str
) -> None:
    with pytest.raises(error, match=named):
        new_cluster(**kwargs)


@pytest.mark.usefixtures("no_kubeconfig")
def test_without_a_kubeconfig_it_fails_at_once_saying_so() -> None:
    with pytest.raises(KubernetesClusterError, match="no Kubernetes cluster to start Mars on"):
        new_cluster(worker_num=2, worker_mem=4)


def test_an_api_server_that_does_not_answer_is_named(
    no_kubeconfig: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kubeconfig naming a loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    kubeconfig = no_kubeconfig / "kubeconfig"
    kubeconfig.write_text(
        f"""apiVersion: v1
kind: Config
clusters: [{{name: here, cluster: {{server: "http://127.0.0.1:{port}"}}}}]
users: [{{name: me, user: {{token: abc}}}}]
contexts: [{{name: here, context: {{cluster: here, user: me}}}}]
current-context: here
"""
    )
    monkeypatch.setenv("KUBECONFIG", str(kubeconfig))
    with pytest.raises(KubernetesClusterError, match=f"127.0.0.1:{port} cannot be reached"):
        new_cluster(worker_num=1, timeout=30)


def test_importing_the_package_leaves_the_client_unloaded() -> None:
    code = (
        "import sys, jupyter_mars.deploy.kubernetes as k\n"
        "assert 'kubernetes' not in sys.modules\n"
        "from jupyter_mars.deploy.kubernetes import new_cluster, KubernetesCluster\n"
        "assert 'kubernetes' in sys.modules\n"
        "assert new_cluster.__module__ == 'jupyter_mars.launcher.kubernetes.cluster'\n"
        "try:\n    k.nothing\nexcept AttributeError as e:\n    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "has no attribute 'nothing'" in done.stdout


def test_status_doctests() -> None:
    assert doctest.testmod(status).failed == 0


def _pod(**status: Any) -> dict[str, Any]:
    return {"metadata": {"name": "p"}, "status": status}


def test_pods_that_will_not_start() -> None:
    crash = {"name": "worker", "state": {"waiting": {"reason": "CrashLoopBackOff"}}}
    assert pod_problem(_pod(phase="Running", containerStatuses=[crash])) == (
        "pod p: container worker: CrashLoopBackOff"
    )
    assert pod_problem(_pod(phase="Failed", reason="Evicted")) == "pod p: failed (Evicted)"
    starting = {"name": "worker", "state": {"waiting": {"reason": "ContainerCreating"}}}
    assert pod_problem(_pod(phase="Pending", containerStatuses=[starting])) is None
    assert pod_problem({"metadata": {"name": "p"}}) is None
    full = {"type": "PodScheduled", "reason": "Unschedulable", "message": "0/3 nodes: cpu"}
    assert unschedulable(_pod(phase="Pending", conditions=[full])) == "pod p: 0/3 nodes: cpu"
    assert unschedulable(_pod(phase="Running")) is None


def test_where_the_web_service_is_reached() -> None:
    node_port = {
        "spec": {
            "type": "NodePort",
            "clusterIP": "fd00::9",
            "ports": [{"name": "rpc", "port": 7103, "nodePort": 31003}, {"name": "web"}],
        }
    }
    assert web_endpoint(node_port, "10.0.0.5", False) is None  # no node port yet
    node_port["spec"]["ports"][1] = {"name": "web", "port": 7104, "nodePort": 31004}
    assert web_endpoint(node_port, None, False) is None  # the pod is not on a node yet
    assert web_endpoint(node_port, "fd00::5", False) == "http://[fd00::5]:31004"
    assert web_endpoint(node_port, None, True) == "http://[fd00::9]:7104"
    pending = {"spec": {"type": "LoadBalancer", "ports": [{"name": "web", "port": 7104}]}}
    assert web_endpoint(pending, None, False) is None
    named = {**pending, "status": {"loadBalancer": {"ingress": [{"hostname": "lb.example"}]}}}
    assert web_endpoint(named, None, False) == "http://lb.example:7104"
    cluster_ip = {"spec": {"type": "ClusterIP", "clusterIP": "10.96.0.3", "ports": []}}
    assert web_endpoint(cluster_ip, "10.0.0.5", False) is None


def test_a_running_clusters_settings_are_read_back_from_its_objects() -> None:
    """What ``attach`` reads: the worker Deployment the launcher made gives back the
    settings it was made with, and its namespace says the cluster made it."""
    spec = cluster_spec(
        name="demo", namespace="team", worker_num=3, worker_cpu=0.5, worker_mem="1536Mi"
    )
    worker = objects.worker_deployment(spec)
    assert worker_settings(worker) == {
        "worker_num": 3,
        "worker_cpu": 0.5,
        "worker_mem": 1536 * 1024**2,
        "token_secret": "demo-token",
    }
    again = cluster_spec(name="demo", namespace="team", **worker_settings(worker))
    assert objects.worker_deployment(again) == worker
    assert made_by_launcher(objects.namespace(spec), "demo")
    assert not made_by_launcher({"metadata": {"name": "team"}}, "demo")
    assert parse_cluster_id("team/demo") == ("team", "demo")


@pytest.mark.parametrize("bad", ["demo", "a/b/c", "/demo", "team/", 7])
@pytest.mark.usefixtures("no_kubeconfig")
def test_attaching_takes_a_namespace_and_name(bad: object) -> None:
    with pytest.raises(ValueError, match="<namespace>/<name>"):
        KubernetesCluster.attach(bad)  # type: ignore[arg-type]


@pytest.mark.usefixtures("no_kubeconfig")
def test_attaching_by_id_refuses_settings_and_needs_a_cluster() -> None:
    with pytest.raises(ValueError, match="instance_id attaches to a running cluster"):
        new_cluster(instance_id="team/demo", worker_num=3)
    with pytest.raises(KubernetesClusterError, match="no Kubernetes cluster"):
        new_cluster(instance_id="team/demo")


def test_it_answers_the_pyodps_handle_calls() -> None:
    # get_logview_address(), stop_server(), instance_id, as every launcher's cluster
    assert issubclass(KubernetesCluster, ClusterHandle)
    for name in ("get_logview_address", "stop_server", "instance_id", "announce"):
        assert getattr(KubernetesCluster, name) is getattr(ClusterHandle, name)
