"""A pod's environment into the programs' command lines: every variable, good and bad."""

from __future__ import annotations

import doctest
import json
import os
import subprocess
import sys

import pytest

from jupyter_mars.deploy.cli import parse_supervisor_args, parse_web_args, parse_worker_args
from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.kubernetes import (
    cluster_detail,
    dns_names,
    pod_env,
    scheduler,
    supervisor,
)
from jupyter_mars.deploy.kubernetes.pod_env import (
    kubernetes_cores,
    supervisor_command,
    web_command,
    worker_command,
)
from jupyter_mars.engine.sizes import EXPECTED
from tests.deploy.conftest import GIB, MACHINE

SUPERVISOR = {"MARS_SUPERVISOR_ADDRESS": "mars-supervisor.default.svc:7103"}


def flag(argv: list[str], name: str) -> str | None:
    """The value after the last ``name`` in ``argv``, as argparse would take it."""
    found = [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == name]
    return found[-1] if found else None


def worker(env: dict[str, str], *extra: str) -> list[str]:
    return worker_command({**SUPERVISOR, **env}, MACHINE, extra).argv


def test_supervisor_defaults_to_the_pod_ports_on_every_interface():
    command = supervisor_command({})
    assert command.argv == ["-H", "0.0.0.0", "-p", "7103", "-w", "7104"]


def test_supervisor_advertises_the_pod_ip_on_the_ports_given():
    env = {
        "MARS_CONTAINER_IP": "10.1.2.3",
        "MARS_BIND_PORT": "11111",
        "MARS_WEB_PORT": "8080",
        "MARS_K8S_POD_NAME": "mars-supervisor-0",
        "MARS_K8S_POD_NAMESPACE": "team",
    }
    command = supervisor_command(env)
    assert command.argv == ["-H", "0.0.0.0", "-a", "10.1.2.3", "-p", "11111", "-w", "8080"]
    assert command.notes[0] == "pod team/mars-supervisor-0"
    config = parse_supervisor_args(["-H", "127.0.0.1", "-p", "0", "-w", "0"], env={})
    assert config.port == 0  # the real parser takes the same flags


def test_supervisor_gets_the_list_only_when_it_names_several():
    assert "-s" not in supervisor_command(SUPERVISOR).argv
    several = {"MARS_SUPERVISOR_ADDRESS": "mars-0.mars:7103,mars-1.mars:7103"}
    assert flag(supervisor_command(several).argv, "-s") == "mars-0.mars:7103,mars-1.mars:7103"


def test_worker_command_is_accepted_by_the_worker_parser(tmp_path):
    spill = [tmp_path / "a", tmp_path / "b"]
    env = {
        "MARS_CONTAINER_IP": "127.0.0.1",
        "MARS_SUPERVISOR_ADDRESS": "127.0.0.1:7103",
        "MARS_BIND_PORT": "0",
        "MARS_CPU_TOTAL": "2",
        "MARS_MEMORY_TOTAL": str(4 * GIB),
        "MARS_CACHE_MEM_SIZE": "1Gi",
        "MARS_SPILL_DIRS": ",".join(map(str, spill)),
    }
    argv = worker_command(env, MACHINE).argv
    config = parse_worker_args(argv, env={}, resources=MACHINE)
    assert config.supervisors == ["127.0.0.1:7103"]
    assert config.advertise_address == "127.0.0.1"
    assert (config.n_cpu, config.phy_mem, config.cache_mem) == (2, 4 * GIB, GIB)
    assert config.spill_dirs == [str(path) for path in spill]
    assert all(path.is_dir() for path in spill)


def test_arguments_of_the_entry_point_come_last_and_win():
    argv = worker({"MARS_CPU_TOTAL": "2"}, "--n-cpu", "1")
    assert argv[-2:] == ["--n-cpu", "1"]
    assert parse_worker_args(argv, env={}, resources=MACHINE).n_cpu == 1


def test_worker_port_defaults_to_the_pod_worker_port():
    assert flag(worker({}), "-p") == "7105"
    assert flag(worker({"MARS_BIND_PORT": "11111"}), "-p") == "11111"


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("MARS_BIND_PORT", "x", "MARS_BIND_PORT: expected a port number 0-65535"),
        ("MARS_BIND_PORT", "70000", "MARS_BIND_PORT: expected a port number 0-65535"),
        ("MARS_WEB_PORT", "-1", "MARS_WEB_PORT: expected a port number 0-65535"),
        ("MARS_CONTAINER_IP", "10.0.0.1 10.0.0.2", "MARS_CONTAINER_IP: expected a host name"),
    ],
)
def test_bad_address_variables_are_named(variable, value, message):
    with pytest.raises(UsageError, match=f"^{message}"):
        supervisor_command({variable: value})


def test_worker_without_supervisors_names_the_variable():
    with pytest.raises(UsageError, match="^MARS_SUPERVISOR_ADDRESS: expected the supervisors'"):
        worker_command({}, MACHINE)
    argv = worker_command({}, MACHINE, ["-s", "127.0.0.1:7001"]).argv
    assert flag(argv, "-s") == "127.0.0.1:7001"
    assert worker_command({}, MACHINE, ["--supervisors=127.0.0.1:7001"]).argv
    assert worker_command({}, MACHINE, ["--help"]).argv[-1] == "--help"


def test_bad_supervisor_address_is_named():
    with pytest.raises(UsageError, match="^MARS_SUPERVISOR_ADDRESS: expected host:port"):
        worker_command({"MARS_SUPERVISOR_ADDRESS": "mars-supervisor"}, MACHINE)


def detail(schedulers, resources=None):
    task: dict = {"type": "worker", "index": 0}
    if resources is not None:
        task["resources"] = resources
    return json.dumps({"cluster": {"scheduler": schedulers, "webservice": ["w:1"]}, "task": task})


def test_kubedl_cluster_detail_names_the_supervisors_and_resources():
    env = {
        "MARS_CLUSTER_DETAIL": detail(
            ["job-scheduler-0.default.svc:11111"], {"cpu_procs": 2, "phy_mem": 2 * GIB}
        )
    }
    command = worker_command(env, MACHINE)
    assert flag(command.argv, "-s") == "job-scheduler-0.default.svc:11111"
    assert flag(command.argv, "--n-cpu") == "2"
    assert flag(command.argv, "--phy-mem") == str(2 * GIB)
    assert any(note.startswith("MARS_CLUSTER_DETAIL") for note in command.notes)


def test_kubedl_task_detail_gives_the_memory_in_mib():
    """KubeDL's controller names it ``MARS_TASK_DETAIL`` and writes ``phy_mem`` in MiB."""
    env = {"MARS_TASK_DETAIL": detail(["s-0.ns.svc:11111"], {"cpu_procs": 1, "phy_mem": 2048})}
    argv = worker_command(env, MACHINE).argv
    assert flag(argv, "--phy-mem") == str(2 * GIB)
    assert flag(argv, "-s") == "s-0.ns.svc:11111"


def test_the_limits_variables_win_over_the_detail():
    env = {
        "MARS_SUPERVISOR_ADDRESS": "a:1",
        "MARS_CLUSTER_DETAIL": detail(["b:2"], {"cpu_procs": 3, "phy_mem": 3 * GIB}),
        "MARS_CPU_TOTAL": "1",
        "MARS_MEMORY_TOTAL": str(GIB),
    }
    argv = worker_command(env, MACHINE).argv
    assert (flag(argv, "-s"), flag(argv, "--n-cpu"), flag(argv, "--phy-mem")) == (
        "a:1",
        "1",
        str(GIB),
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not JSON"),
        ('["a"]', "expected KubeDL's JSON"),
        ('{"cluster": {"scheduler": "a:1"}}', "cluster.scheduler as a list"),
        ('{"cluster": {"scheduler": ["nohost"]}}', "cluster.scheduler: expected host:port"),
        ('{"cluster": {"webservice": ["w:1"]}}', "found none"),
        (
            '{"cluster": {"scheduler": ["a:1"]}, "task": {"resources": {"cpu_procs": -1}}}',
            "cpu_procs",
        ),
        (
            '{"cluster": {"scheduler": ["a:1"]}, "task": {"resources": {"phy_mem": "2g"}}}',
            "phy_mem",
        ),
    ],
)
def test_bad_cluster_detail_is_named(text, message):
    with pytest.raises(UsageError, match=f"^MARS_CLUSTER_DETAIL: .*{message}"):
        worker_command({"MARS_CLUSTER_DETAIL": text}, MACHINE)


@pytest.mark.parametrize(
    ("text", "cores"),
    [("1", 1), ("2", 2), ("1500m", 2), ("2.5", 3), ("250m", 1), ("0.1", 1), ("4000m", 4)],
)
def test_cpu_limits_round_up_to_whole_cores(text, cores):
    assert kubernetes_cores(text) == cores
    assert flag(worker({"MARS_CPU_TOTAL": text}), "--n-cpu") == str(cores)


@pytest.mark.parametrize("text", ["abc", "-1", "2 cores", "1.5Gi", "0x10"])
def test_bad_cpu_limit_is_named(text):
    with pytest.raises(UsageError, match="^MARS_CPU_TOTAL: expected"):
        worker({"MARS_CPU_TOTAL": text})


@pytest.mark.parametrize(("cpu", "memory"), [("0", "0"), ("0m", "0"), ("0.0", "0")])
def test_a_zero_limit_is_no_limit(cpu, memory):
    """KubeDL writes 0 for a container without requests or limits: the worker's defaults
    (the cores and memory of the machine) count, not an error."""
    command = worker_command(
        {**SUPERVISOR, "MARS_CPU_TOTAL": cpu, "MARS_MEMORY_TOTAL": memory}, MACHINE
    )
    assert "--n-cpu" not in command.argv
    assert "--phy-mem" not in command.argv
    assert "MARS_CPU_TOTAL: 0, no limit" in command.notes
    zero = detail(["a:1"], {"cpu_procs": 0, "phy_mem": 0})
    argv = worker_command({"MARS_TASK_DETAIL": zero}, MACHINE).argv
    assert "--n-cpu" not in argv
    assert "--phy-mem" not in argv


def test_limits_above_the_machine_are_cut_to_it():
    command = worker_command(
        {**SUPERVISOR, "MARS_CPU_TOTAL": "64", "MARS_MEMORY_TOTAL": "1Ti"}, MACHINE
    )
    assert flag(command.argv, "--n-cpu") == str(MACHINE.n_cpu)
    assert flag(command.argv, "--phy-mem") == str(MACHINE.total_memory)
    assert any("this container may use 4" in note for note in command.notes)


@pytest.mark.parametrize(
    ("text", "size"), [("2147483648", 2 * GIB), ("2Gi", 2 * GIB), ("2g", 2 * GIB)]
)
def test_memory_limit_is_bytes_or_a_quantity(text, size):
    assert flag(worker({"MARS_MEMORY_TOTAL": text}), "--phy-mem") == str(size)


@pytest.mark.parametrize("text", ["x", "80%", "-5"])
def test_bad_memory_limit_is_named(text):
    with pytest.raises(UsageError, match="^MARS_MEMORY_TOTAL: expected"):
        worker({"MARS_MEMORY_TOTAL": text})


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("1073741824", GIB),
        ("1Gi", GIB),
        ("10Gi", 10 * GIB),
        ("80%", int(12 * GIB * 0.8)),
        ("0.5", 6 * GIB),
    ],
)
def test_cache_size_is_bytes_a_quantity_or_a_share_of_the_memory_limit(text, size):
    argv = worker({"MARS_MEMORY_TOTAL": "12Gi", "MARS_CACHE_MEM_SIZE": text})
    assert flag(argv, "--cache-mem") == str(size)


def test_cache_share_without_a_memory_limit_is_of_the_machine():
    argv = worker({"MARS_CACHE_MEM_SIZE": "25%"})
    assert flag(argv, "--cache-mem") == str(MACHINE.total_memory // 4)


def test_bad_cache_size_is_named():
    with pytest.raises(UsageError) as error:
        worker({"MARS_CACHE_MEM_SIZE": "x"})
    assert str(error.value) == f"MARS_CACHE_MEM_SIZE: expected {EXPECTED}, got 'x'"
    with pytest.raises(UsageError, match=r"^MARS_CACHE_MEM_SIZE: expected at most .* \(2GiB\)"):
        worker({"MARS_MEMORY_TOTAL": "2Gi", "MARS_CACHE_MEM_SIZE": "3Gi"})


@pytest.mark.parametrize("separator", [",", ":"])
def test_spill_dirs_are_separated_by_commas_or_colons(separator):
    argv = worker({"MARS_SPILL_DIRS": separator.join(["/mnt/a", "/mnt/b", "/mnt/a"])})
    assert flag(argv, "--spill-dirs") == "/mnt/a:/mnt/b"


def test_relative_spill_dir_is_named():
    with pytest.raises(UsageError, match="^MARS_SPILL_DIRS: expected absolute paths.*'spill'"):
        worker({"MARS_SPILL_DIRS": "/mnt/a,spill"})


def test_plasma_dirs_and_lock_free_io_are_accepted_and_noted():
    env = {**SUPERVISOR, "MARS_PLASMA_DIRS": "/dev/shm", "MARS_LOCK_FREE_FILEIO": "1"}
    command = worker_command(env, MACHINE)
    assert command.argv == worker({})  # no flag: nothing here to map them to
    plasma, lock_free = command.notes[-2:]
    assert plasma.startswith("MARS_PLASMA_DIRS (/dev/shm): accepted; the chunk store")
    assert lock_free.startswith("MARS_LOCK_FREE_FILEIO (true): accepted")


@pytest.mark.parametrize(("text", "shown"), [("0", "false"), ("false", "false"), ("true", "true")])
def test_lock_free_io_takes_kubedl_and_yaml_booleans(text, shown):
    notes = worker_command({**SUPERVISOR, "MARS_LOCK_FREE_FILEIO": text}, MACHINE).notes
    assert notes[-1].startswith(f"MARS_LOCK_FREE_FILEIO ({shown})")


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("MARS_LOCK_FREE_FILEIO", "maybe", "MARS_LOCK_FREE_FILEIO: expected true or false"),
        ("MARS_PLASMA_DIRS", "shm", "MARS_PLASMA_DIRS: expected absolute paths"),
    ],
)
def test_bad_tuning_variables_are_named(variable, value, message):
    with pytest.raises(UsageError, match=f"^{message}"):
        worker({variable: value})


def test_the_token_is_never_on_the_command_line_nor_in_the_notes():
    env = {**SUPERVISOR, "MARS_TOKEN": "s3cr3t-token", "MARS_CPU_TOTAL": "1"}
    for command in (worker_command(env, MACHINE), supervisor_command(env), web_command(env)):
        assert "s3cr3t-token" not in " ".join(command.argv + command.notes)
        assert "MARS_TOKEN: the cluster token" in command.notes


def test_web_service_listens_on_its_web_port_in_front_of_the_supervisors():
    env = {**SUPERVISOR, "MARS_CONTAINER_IP": "10.0.0.9"}
    assert web_command(env).argv == [
        "-H",
        "0.0.0.0",
        "-a",
        "10.0.0.9",
        "-p",
        "7104",
        "-s",
        "mars-supervisor.default.svc:7103",
    ]
    assert flag(web_command({**env, "MARS_BIND_PORT": "11111"}).argv, "-p") == "11111"
    both = {**env, "MARS_BIND_PORT": "11111", "MARS_WEB_PORT": "8080"}
    assert flag(web_command(both).argv, "-p") == "8080"
    kubedl = {"MARS_TASK_DETAIL": detail(["job-scheduler-0.ns.svc:11111"])}
    assert flag(web_command(kubedl).argv, "-s") == "job-scheduler-0.ns.svc:11111"
    with pytest.raises(UsageError, match="^MARS_SUPERVISOR_ADDRESS"):
        web_command({})


def test_scheduler_is_the_supervisor_under_its_older_name():
    assert scheduler.main is supervisor.main


def test_entry_point_passes_its_arguments_to_the_program():
    result = subprocess.run(
        [sys.executable, "-m", "jupyter_mars.deploy.kubernetes.worker", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "MARS_CPU_TOTAL": "1"},
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout.startswith("usage: mars-worker")
    assert "-> mars-worker -H 0.0.0.0 -p 7105 --n-cpu 1 --help" in result.stderr


def test_entry_point_reports_a_bad_variable_in_one_line():
    env = {**os.environ, **SUPERVISOR, "MARS_CACHE_MEM_SIZE": "x", "MARS_TOKEN": "tok-12345"}
    result = subprocess.run(
        [sys.executable, "-m", "jupyter_mars.deploy.kubernetes.worker"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"mars-worker: error: MARS_CACHE_MEM_SIZE: expected {EXPECTED}, got 'x'"
    )


def test_doctests():
    for module in (pod_env, cluster_detail, dns_names):
        results = doctest.testmod(module)
        assert results.attempted > 0
        assert results.failed == 0


def kubedl_detail(schedulers: list[str], webservices: list[str]) -> str:
    cluster = {"scheduler": schedulers, "webservice": webservices}
    return json.dumps({"cluster": cluster, "task": {"type": "scheduler", "index": 0}})


def forms(service: str, namespace: str) -> list[str]:
    full = f"{service}.{namespace}.svc"
    return [service, f"{service}.{namespace}", full, f"{full}.cluster.local"]


def test_kubedl_pods_answer_to_their_own_services_names():
    env = {
        "MARS_TASK_DETAIL": kubedl_detail(
            ["job-scheduler-0.ns.svc:11111", "job-scheduler-1.ns.svc:11111"],
            ["job-webservice-0.ns.svc:11111"],
        ),
        "MARS_K8S_POD_NAMESPACE": "ns",
    }
    web = web_command(env).argv
    assert flag(web, "--allowed-hosts") == ",".join(forms("job-webservice-0", "ns"))
    names = forms("job-scheduler-0", "ns") + forms("job-scheduler-1", "ns")
    assert flag(supervisor_command(env).argv, "--allowed-hosts") == ",".join(names)
    # what the programs' own parsers make of them, with a pod spec's args: added
    config = parse_web_args([*web, "--token", "t", "--allowed-hosts", "mars.domain.com"], env={})
    assert config.allowed_hosts == [*forms("job-webservice-0", "ns"), "mars.domain.com"]


@pytest.mark.parametrize(
    ("address", "names"),
    [
        ("w.ns:1", forms("w", "ns")),  # document 003's {webservice-name}.{namespace}
        ("w.ns.svc.cluster.local:1", forms("w", "ns")),
        ("w:1", forms("w", "pods-ns")),  # a bare name is in the pod's namespace
        ("10.0.0.9:1", None),  # an address: the web services accept those anyway
        ("[fd00::9]:1", None),
        ("mars.example.com:1", ["mars.example.com"]),  # not a Service's name: as it is
    ],
)
def test_every_dns_form_of_the_listed_web_service(address, names):
    env = {
        "MARS_CLUSTER_DETAIL": kubedl_detail(["s.ns.svc:7103"], [address]),
        "MARS_K8S_POD_NAMESPACE": "pods-ns",
    }
    found = flag(web_command(env).argv, "--allowed-hosts")
    assert found == (",".join(names) if names else None)


def test_without_kubedl_or_web_services_no_names_are_added():
    assert "--allowed-hosts" not in web_command(SUPERVISOR).argv
    assert "--allowed-hosts" not in supervisor_command(SUPERVISOR).argv
    env = {"MARS_TASK_DETAIL": kubedl_detail(["s.ns.svc:7103"], [])}
    assert "--allowed-hosts" not in web_command(env).argv


def test_the_names_variable_is_noted_and_left_to_the_program():
    env = {**SUPERVISOR, "MARS_WEB_ALLOWED_HOSTS": "mars-supervisor,mars.domain.com"}
    for command in (supervisor_command(env), web_command(env)):
        assert "--allowed-hosts" not in command.argv
        assert (
            "MARS_WEB_ALLOWED_HOSTS: the web service answers to mars-supervisor,mars.domain.com"
            in command.notes
        )
    notes = worker_command(env, MACHINE).notes  # a worker has no web service
    assert not any("MARS_WEB_ALLOWED_HOSTS" in note for note in notes)
    config = parse_supervisor_args(supervisor_command(env).argv, env=env)
    assert config.allowed_hosts == ["mars-supervisor", "mars.domain.com"]


def test_a_bad_web_service_name_is_named():
    env = {"MARS_TASK_DETAIL": kubedl_detail(["s.ns.svc:7103"], ["bad_name.ns.svc:1"])}
    with pytest.raises(UsageError, match=r"^MARS_TASK_DETAIL \(cluster.webservice\): expected"):
        web_command(env)
    env = {"MARS_TASK_DETAIL": kubedl_detail(["s.ns.svc:7103"], "w:1")}  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="expected cluster.webservice as a list of host:port"):
        web_command(env)
