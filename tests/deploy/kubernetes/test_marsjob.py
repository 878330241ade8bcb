"""The MarsJob example for KubeDL users: valid pod templates, commands that exist, and a
memory tuning policy whose every field has its effect on a real worker started with the
environment KubeDL's controller would give it (``kubedl.py``)."""

from __future__ import annotations

import copy
import http.client
import importlib
import importlib.util
import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.deploy.kubernetes.pod_env import (
    supervisor_command,
    web_command,
    worker_command,
)
from jupyter_mars.launcher.local import _Process
from tests.cluster.processes import WEB, free_port, wait_until
from tests.deploy.conftest import GIB, MACHINE
from tests.deploy.kubernetes.kubedl import pod_environment, pod_template
from tests.deploy.kubernetes.pods import supervisor_pod

EXAMPLE = Path(__file__).resolve().parents[3] / "deploy/kubernetes/examples/marsjob.yaml"
MIB = 1 << 20
TOKEN_SECRET = "mars-test-demo-token"
ROLES = {"Scheduler": "scheduler", "WebService": "web", "Worker": "worker"}


def load_job() -> dict[str, Any]:
    job: dict[str, Any] = yaml.safe_load(EXAMPLE.read_text())
    return job


def validate_template(template: dict[str, Any]) -> None:
    """Check ``template`` against the Kubernetes schema of a PodTemplateSpec (strict:
    a misspelt field fails), as the ``template`` of a v1 PodTemplate."""
    pod_template_object = {
        "apiVersion": "v1",
        "kind": "PodTemplate",
        "metadata": {"name": "check"},
        "template": template,
    }
    try:
        kubernetes_validate.validate(
            pod_template_object, kubernetes_validate.latest_version(), strict=True
        )
    except kubernetes_validate.ValidationError as error:
        pytest.fail(f"not a valid PodTemplateSpec: {error.message}")


def pod_env(job: dict[str, Any], replica_type: str, index: int, secrets=None) -> dict[str, str]:
    """The ``mars`` container's environment in pod ``index`` of ``replica_type``."""
    name = f"{job['metadata']['name']}-{replica_type.lower()}-{index}"
    return pod_environment(
        pod_template(job, replica_type, index),
        pod_ip="127.0.0.1",
        pod_name=name,
        namespace=job["metadata"]["namespace"],
        secrets=secrets or {TOKEN_SECRET: {"token": "t0ken-of-the-secret"}},
    )


def test_the_example_is_the_documents_job_with_our_image():
    job = load_job()
    assert (job["apiVersion"], job["kind"]) == ("training.kubedl.io/v1alpha1", "MarsJob")
    assert set(job["spec"]["marsReplicaSpecs"]) == set(ROLES)
    assert set(job["spec"]["workerMemoryTuningPolicy"]) == {
        "plasmaStore",
        "lockFreeFileIO",
        "spillDirs",
        "workerCachePercentage",
        "workerCacheSize",
    }
    for replica_type, role in ROLES.items():
        template = job["spec"]["marsReplicaSpecs"][replica_type]["template"]
        (container,) = template["spec"]["containers"]
        assert container["name"] == "mars"  # KubeDL sets the variables of this one only
        assert container["image"] == "jupyter-mars:0.1.0"
        # the web service answers to the Ingress's host (webHost) too
        given = f" --allowed-hosts {job['spec']['webHost']}" if role == "web" else ""
        assert container["command"] == [
            "/bin/sh",
            "-c",
            f"exec python -m jupyter_mars.deploy.kubernetes.{role}{given}",
        ]
        secret = container["env"][0]["valueFrom"]["secretKeyRef"]
        assert (container["env"][0]["name"], secret) == (
            "MARS_TOKEN",
            {"name": TOKEN_SECRET, "key": "token"},
        )


@pytest.mark.parametrize("role", ["scheduler", "worker"])
def test_the_commands_name_modules_that_exist(role):
    assert importlib.util.find_spec(f"jupyter_mars.deploy.kubernetes.{role}") is not None


def test_the_web_service_command_names_a_module_that_exists():
    module = importlib.import_module("jupyter_mars.deploy.kubernetes.web")
    assert callable(module.main)


@pytest.mark.parametrize("replica_type", list(ROLES))
def test_pod_templates_are_valid_as_written_and_as_kubedl_completes_them(replica_type):
    job = load_job()
    validate_template(job["spec"]["marsReplicaSpecs"][replica_type]["template"])
    validate_template(pod_template(job, replica_type, 0))


def test_validation_rejects_a_misspelt_field():
    template = copy.deepcopy(load_job()["spec"]["marsReplicaSpecs"]["Worker"]["template"])
    template["spec"]["containers"][0]["comand"] = ["python"]
    with pytest.raises(pytest.fail.Exception, match="'comand' was unexpected"):
        validate_template(template)


def test_kubedl_turns_the_policy_into_the_workers_environment_and_volumes():
    job = load_job()
    template = pod_template(job, "Worker", 1)
    env = pod_env(job, "Worker", 1)
    assert env["MARS_CACHE_MEM_SIZE"] == str(GIB)  # workerCacheSize wins over the share
    assert env["MARS_SPILL_DIRS"] == "/mnt/spill0,/mnt/spill1"
    assert env["MARS_PLASMA_DIRS"] == "/dev/shm"
    assert env["MARS_LOCK_FREE_FILEIO"] == "1"
    mounts = {m["mountPath"]: m["name"] for m in template["spec"]["containers"][0]["volumeMounts"]}
    volumes = {v["name"]: v["emptyDir"] for v in template["spec"]["volumes"]}
    assert volumes[mounts["/mnt/spill0"]] == volumes[mounts["/mnt/spill1"]] == {}
    assert volumes[mounts["/dev/shm"]] == {"medium": "Memory", "sizeLimit": str(GIB)}
    share = copy.deepcopy(job)
    del share["spec"]["workerMemoryTuningPolicy"]["workerCacheSize"]
    assert pod_env(share, "Worker", 0)["MARS_CACHE_MEM_SIZE"] == str(GIB // 2)  # 25% of 2Gi


def test_each_pods_environment_makes_its_programs_command_line():
    job = load_job()
    scheduler = "mars-test-demo-scheduler-0.default.svc:11111"
    worker = worker_command(pod_env(job, "Worker", 1), MACHINE)
    assert worker.argv == [
        "-H", "0.0.0.0", "-a", "127.0.0.1", "-p", "11111", "-s", scheduler,
        "--n-cpu", "2", "--phy-mem", str(2 * GIB), "--cache-mem", str(GIB),
        "--spill-dirs", "/mnt/spill0:/mnt/spill1",
    ]  # fmt: skip
    assert worker.notes[0] == "pod default/mars-test-demo-worker-1"
    # each answers to its own Services' names, in every DNS form
    scheduler_names = service_forms("mars-test-demo-scheduler-0")
    assert supervisor_command(pod_env(job, "Scheduler", 0)).argv == [
        "-H", "0.0.0.0", "-a", "127.0.0.1", "-p", "11111", "-w", "7104",
        "--allowed-hosts", scheduler_names,
    ]  # fmt: skip
    # the web service's pod has one port, KubeDL's, which its Service and ingress name
    assert web_command(pod_env(job, "WebService", 0)).argv == [
        "-H", "0.0.0.0", "-a", "127.0.0.1", "-p", "11111", "-s", scheduler,
        "--allowed-hosts", service_forms("mars-test-demo-webservice-0"),
    ]  # fmt: skip


def service_forms(service: str, namespace: str = "default") -> str:
    full = f"{service}.{namespace}.svc"
    return f"{service},{service}.{namespace},{full},{full}.cluster.local"


def on_this_machine(env: dict[str, str], scheduler: str) -> dict[str, str]:
    """A pod's environment with the pod's fixed port and the scheduler's host name
    replaced by what they are on this machine."""
    detail = json.loads(env["MARS_TASK_DETAIL"])
    detail["cluster"]["scheduler"] = [scheduler]
    return {**env, "MARS_BIND_PORT": str(free_port()), "MARS_TASK_DETAIL": json.dumps(detail)}


def test_every_memory_tuning_field_has_its_effect_on_real_workers(tmp_path):
    job = load_job()
    policy = job["spec"]["workerMemoryTuningPolicy"]
    # the paths, like the host names, are this machine's: emptyDirs are folders here
    policy["spillDirs"] = [str(tmp_path / "spill0"), str(tmp_path / "spill1")]
    policy["plasmaStore"] = str(tmp_path / "shm")
    os.mkdir(policy["plasmaStore"])
    # worker 0: an exact cache size, small enough that the job below spills;
    # worker 1: no size, so the share of the memory limit (25% of 2Gi) counts
    sized, shared = copy.deepcopy(job), copy.deepcopy(job)
    sized["spec"]["workerMemoryTuningPolicy"]["workerCacheSize"] = "16Mi"
    del shared["spec"]["workerMemoryTuningPolicy"]["workerCacheSize"]
    with supervisor_pod("scheduler") as pods:
        secrets = {TOKEN_SECRET: {"token": pods.token}}
        pods.start_worker(on_this_machine(pod_env(sized, "Worker", 0, secrets), pods.rpc))
        (small,) = pods.workers_model(1)
        assert small["resources"]["store"]["cache_bytes"] == 16 * MIB
        remote = mars.new_session(pods.url, token=pods.token, default=False)
        try:  # alone in the cluster, the 16Mi worker must spill 64 MiB of chunks
            # computed chunks: a chunk of ones is dropped and drawn again, not written
            x = mt.ones((8192, 1024), chunk_size=(512, 1024)).cumsum(axis=1)
            x.execute(session=remote)

            def spilled() -> bool:
                (worker,) = pods.workers_model(1)
                return worker["resources"]["store"]["spill_writes"] > 0

            assert wait_until(spilled, 30), "the 16Mi worker never spilled"
            # spillDirs: the worker wrote chunks in a corner of its own of the directories
            chunks = [
                name
                for root in policy["spillDirs"]
                for _, _, names in os.walk(root)
                for name in names
                if name != ".owner.lock"
            ]
            assert chunks
            total = x.sum().execute(session=remote).fetch(session=remote)
            assert float(total) == 8192 * (1024 * 1025 // 2)
        finally:
            remote.close()
        pods.start_worker(on_this_machine(pod_env(shared, "Worker", 1, secrets), pods.rpc))
        workers = pods.workers_model(2)
        assert {w["resources"]["store"]["cache_bytes"] for w in workers} == {16 * MIB, 512 * MIB}
        for worker in workers:
            assert worker["resources"]["store"]["phy_mem_bytes"] == 2 * GIB
            assert worker["n_cpu"] == min(2, os.cpu_count() or 1)
        # each worker has its own corner of both directories, whatever lockFreeFileIO says
        assert all(len(os.listdir(root)) == 2 for root in policy["spillDirs"])
        # plasmaStore: accepted, nothing written there; both notes are in the pods' logs
        assert os.listdir(policy["plasmaStore"]) == []
        for worker in pods.workers:
            said = "\n".join(worker.lines)
            assert f"MARS_PLASMA_DIRS ({policy['plasmaStore']}): accepted" in said
            assert "MARS_LOCK_FREE_FILEIO (true): accepted" in said


def host_status(port: int, host: str, token: str) -> int:
    """``GET /api/v1/cluster`` on 127.0.0.1:``port`` with ``Host: host``: its status."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        conn.request(
            "GET", "/api/v1/cluster", headers={"Host": host, "Authorization": f"token {token}"}
        )
        return conn.getresponse().status
    finally:
        conn.close()


def test_the_web_service_answers_to_its_service_and_ingress_names():
    job = load_job()
    (container,) = job["spec"]["marsReplicaSpecs"]["WebService"]["template"]["spec"]["containers"]
    program = shlex.split(container["command"][2])
    assert program[:3] == ["exec", "python", "-m"]
    with supervisor_pod("scheduler") as pods:
        secrets = {TOKEN_SECRET: {"token": pods.token}}
        env = on_this_machine(pod_env(job, "WebService", 0, secrets), pods.rpc)
        port = int(env["MARS_BIND_PORT"])
        # the example's command, with this machine's python for the image's
        web = _Process([sys.executable, *program[2:]], {**os.environ, **env})
        try:
            web.wait_for(WEB, 60)
            service = "mars-test-demo-webservice-0"
            for host in (
                service,
                f"{service}.default:11111",  # document 003's address
                f"{service}.default.svc",
                f"{service}.default.svc.cluster.local",
                job["spec"]["webHost"],  # what KubeDL's Ingress sends
            ):
                assert host_status(port, host, pods.token) == 200, host
            for host in ("evil.example", "mars-test-demo-scheduler-0.default"):
                assert host_status(port, host, pods.token) == 403, host
        finally:
            web.stop()
        said = "\n".join(web.lines)
        assert f"the web service answers to {service},{service}.default," in said
