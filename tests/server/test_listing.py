"""Which clusters the panel lists and who it says started each (``server/listing.py``)."""

from __future__ import annotations

from jupyter_mars.launcher.registry import ClusterRecord
from jupyter_mars.server.listing import kernel_owners, listed_clusters

OWN = "http://127.0.0.1:9001/jl/mars/dashboard"


def _record(endpoint: str, kind: str, pid: int, created: float, id: str) -> ClusterRecord:
    return ClusterRecord(endpoint, kind, owner_pid=pid, id=id, created=created)


def test_the_servers_own_cluster_comes_first_and_each_endpoint_once() -> None:
    records = [
        _record("http://127.0.0.1:9002", "local", 40, 3.0, "nb"),
        _record("http://127.0.0.1:9003", "local", 50, 4.0, "proc"),
        _record(OWN, "server", 10, 1.0, "own"),
        # an SSH cluster the server owns: the launcher's record and the server's
        _record("http://127.0.0.1:9004/", "ssh", 0, 5.0, "ssh-launch"),
        _record("http://127.0.0.1:9004", "server", 10, 5.5, "ssh-server"),
        _record("http://127.0.0.1:9005", "ssh", 60, 2.0, "up"),
    ]
    listed = listed_clusters(records, OWN, {40: "work/a.ipynb"})
    assert [c.id for c in listed] == ["own", "ssh-server", "proc", "nb", "up"]
    by_id = {c.id: c for c in listed}
    assert by_id["own"].own
    assert by_id["own"].stop_hint is None
    assert by_id["own"].started_by == "this Jupyter server"
    assert by_id["ssh-server"].record_ids == ("ssh-launch", "ssh-server")
    assert by_id["ssh-server"].created == 5.0
    # another server's cluster, here where this one does not own it
    assert by_id["ssh-server"].origin == "jupyter"
    assert by_id["nb"].origin == "kernel"
    assert by_id["nb"].started_by == "notebook work/a.ipynb"
    assert by_id["nb"].stop_hint == (
        "started by notebook work/a.ipynb: stop it there with %mars stop"
    )
    assert (by_id["proc"].origin, by_id["proc"].started_by) == ("process", "a process, pid 50")
    assert by_id["up"].origin == "ssh"
    assert by_id["up"].stop_hint == "started over SSH: stop it with mars-cluster down up"


def test_a_server_record_of_another_process_is_another_servers() -> None:
    records = [_record(OWN, "server", 10, 1.0, "own")]
    (listed,) = listed_clusters(records, None, {}, own_pid=11)
    assert not listed.own
    assert listed.started_by == "another Jupyter server, pid 10"
    # recorded by this server's process before its manager says it runs: its own
    (starting,) = listed_clusters(records, None, {}, own_pid=10)
    assert starting.own


def test_a_kernel_without_a_session_is_named_by_its_pid() -> None:
    (listed,) = listed_clusters([_record("http://h:1", "local", 7, 1.0, "k")], None, {7: None})
    assert listed.started_by == "a notebook kernel, pid 7"


def test_a_process_under_a_kernel_counts_as_that_kernels() -> None:
    owners = kernel_owners({7: "a.ipynb"}, {70: [69, 7, 1], 80: [1]})
    assert owners == {7: "a.ipynb", 70: "a.ipynb"}
