"""Workers that share a machine: each shows its share, totals count the machine once."""

from __future__ import annotations

from typing import Any

from jupyter_mars.cluster.supervisor.shares import cluster_totals, memory_shares

GIB = 1 << 30


def worker(
    address: str,
    host: str | None,
    n_cpu: int = 2,
    limit: int = 24 * GIB,
    given: bool = False,
    host_memory: int = 24 * GIB,
    host_cpus: int = 4,
) -> dict[str, Any]:
    resources: dict[str, Any] = {"store": {"phy_mem_bytes": limit}, "memory_limit_given": given}
    if host is not None:
        resources["host"] = {"id": host, "memory": host_memory, "cpus": host_cpus}
    return {"address": address, "n_cpu": n_cpu, "resources": resources}


def test_workers_on_one_machine_share_its_memory_and_cores():
    workers = [worker("a:1", "m1", n_cpu=4), worker("a:2", "m1", n_cpu=4)]
    assert memory_shares(workers) == {"a:1": 12 * GIB, "a:2": 12 * GIB}
    assert cluster_totals(workers) == {"hosts": 1, "n_cpu": 4, "memory": 24 * GIB}


def test_a_given_limit_is_the_workers_share_and_the_machine_is_never_exceeded():
    workers = [
        worker("a:1", "m1", limit=4 * GIB, given=True),
        worker("a:2", "m1", limit=4 * GIB, given=True),
        worker("a:3", "m1"),
    ]
    assert memory_shares(workers) == {"a:1": 4 * GIB, "a:2": 4 * GIB, "a:3": 8 * GIB}
    assert cluster_totals(workers)["memory"] == 16 * GIB
    greedy = [worker("a:1", "m1", limit=20 * GIB, given=True), worker("a:2", "m1")]
    assert cluster_totals(greedy)["memory"] == 24 * GIB  # 20 + 12 asked, 24 there


def test_a_containers_limit_below_its_part_of_the_machine_is_its_share():
    workers = [worker("a:1", "m1", limit=2 * GIB), worker("a:2", "m1")]
    assert memory_shares(workers) == {"a:1": 2 * GIB, "a:2": 12 * GIB}


def test_machines_add_up_and_workers_without_machine_figures_count_alone():
    workers = [
        worker("a:1", "m1"),
        worker("b:1", "m2", host_memory=8 * GIB, limit=8 * GIB, host_cpus=2),
        worker("c:1", None, n_cpu=3, limit=5 * GIB),
    ]
    assert cluster_totals(workers) == {"hosts": 3, "n_cpu": 7, "memory": 37 * GIB}
    assert cluster_totals([]) == {"hosts": 0, "n_cpu": 0, "memory": 0}
