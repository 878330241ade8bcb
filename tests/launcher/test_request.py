"""The PyODPS-style cluster request: keywords, their older names, and what a host holds."""

from __future__ import annotations

import pytest

from jupyter_mars.launcher.hosts import parse_hosts
from jupyter_mars.launcher.request import WorkerRequest, overcommitted, worker_request
from jupyter_mars.launcher.ssh_cluster import reshape_hosts

GIB = 1 << 30


def test_positional_numbers_are_workers_cores_and_gib() -> None:
    assert worker_request(5, 4, 16, 3) == WorkerRequest(5, 4, 16 * GIB, 3)
    assert worker_request(5, 4, 16).min_worker_num == 5  # all, by default
    assert worker_request().worker_num == 2
    assert worker_request().worker_mem is None


def test_sizes_with_a_unit_are_read_as_written_and_shares_are_left_to_the_worker() -> None:
    assert worker_request(worker_mem="512MiB").worker_mem == 512 << 20
    assert worker_request(worker_mem="10Gi").worker_mem == 10 * GIB
    assert worker_request(worker_mem="16").worker_mem == 16 * GIB
    assert worker_request(worker_mem=17179869184).worker_mem == 16 * GIB  # bytes, as Mars's
    assert worker_request(memory="80%").worker_mem == "80%"


def test_the_older_names_are_aliases_and_errors_name_what_was_given() -> None:
    assert worker_request(n_worker=3, n_cpu=2, memory="1g") == WorkerRequest(3, 2, GIB, 3)
    with pytest.raises(TypeError, match="give worker_num or n_worker, not both"):
        worker_request(worker_num=2, n_worker=2)
    with pytest.raises(ValueError, match="n_worker must be at least 1"):
        worker_request(n_worker=0)
    with pytest.raises(ValueError, match="worker_cpu must be at least 1"):
        worker_request(worker_cpu=0)
    with pytest.raises(TypeError, match="worker_num must be an int, got str '5'"):
        worker_request("5")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="worker_mem must be at least 1MiB"):
        worker_request(worker_mem="16b")
    with pytest.raises(ValueError, match="memory: expected a size"):
        worker_request(memory="lots")
    with pytest.raises(ValueError, match="worker_mem must be a share in"):
        worker_request(worker_mem="150%")
    with pytest.raises(ValueError, match=r"min_worker_num must be at most worker_num \(2\)"):
        worker_request(2, min_worker_num=3)
    with pytest.raises(ValueError, match="min_worker_num must be at least 0"):
        worker_request(2, min_worker_num=-1)


def test_overcommitting_the_host_is_said_in_one_line_per_resource() -> None:
    assert overcommitted(worker_request(4, 1, 4), host_cores=2, host_memory=24 * GIB) == []
    notes = overcommitted(worker_request(5, 4, 16), host_cores=2, host_memory=24 * GIB)
    assert notes == [
        "a worker of 4 cores runs 4 tasks at once; this machine has 2 cores: they share them",
        "5 workers of 16GiB ask 80GiB; this machine has 24GiB: they share it",
    ]
    with pytest.raises(ValueError, match=r"worker_mem must be at most this machine's memory"):
        overcommitted(worker_request(1, 1, 32), host_cores=2, host_memory=24 * GIB)


def test_the_keywords_reshape_an_ssh_host_list() -> None:
    hosts = parse_hosts(
        {"hosts": ["10.0.0.5", {"address": "10.0.0.6", "n_cpu": 8, "workers": 3}, "10.0.0.7"]}
    )
    request = worker_request(5, 4, 16, default_workers=5)
    reshaped = reshape_hosts(hosts, request, 5, 4, 16)
    assert [h.workers for h in reshaped.hosts] == [2, 2, 1]
    assert {(h.n_cpu, h.memory) for h in reshaped.hosts} == {(4, str(16 * GIB))}
    # only what is given replaces the list's values
    kept = reshape_hosts(hosts, worker_request(worker_cpu=2, default_workers=5), None, 2, None)
    assert [(h.workers, h.n_cpu, h.memory) for h in kept.hosts] == [
        (1, 2, None),
        (3, 2, None),
        (1, 2, None),
    ]
