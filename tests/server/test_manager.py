"""``ClusterManager`` used directly: its state machine with a stand-in launcher, and a real
local cluster where the processes matter."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from jupyter_mars.launcher import registry
from jupyter_mars.server.clusters import StartOptions
from jupyter_mars.server.errors import ClusterError, Conflict, InvalidRequest
from jupyter_mars.server.manager import ClusterManager
from tests.server.conftest import gone


class StandInCluster:
    """What a launcher returns, without processes; ``scale`` waits for ``release``."""

    kind = "local"
    endpoint = "http://127.0.0.1:9"
    token = "t"
    web_base_path = "/"
    pids: list[int] = []

    def __init__(self, options: StartOptions) -> None:
        self.options = options
        self.workers = options.n_workers or 1
        self.stopped = False
        self.release = threading.Event()

    def worker_count(self) -> int:
        return self.workers

    def scale(self, n: int) -> None:
        assert self.release.wait(10)
        self.adapting = None
        self.workers = n

    adapting: dict[str, Any] | None = None

    def adapt(self, bounds: Any) -> None:
        self.adapting = bounds.as_dict()

    def stop_adapting(self) -> None:
        self.adapting = None

    def adaptive(self) -> dict[str, Any] | None:
        return None if self.adapting is None else {**self.adapting, "error": None}

    def stop(self) -> None:
        self.stopped = True


class StandInLauncher:
    """Launches ``StandInCluster``s, failing first when told to, and waiting for ``go``."""

    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.go = threading.Event()
        self.go.set()
        self.called = threading.Event()
        self.launched: list[StandInCluster] = []

    def __call__(self, options: StartOptions) -> StandInCluster:
        self.called.set()
        assert self.go.wait(10)
        if self.failures:
            self.failures -= 1
            raise RuntimeError("no room for workers")
        cluster = StandInCluster(options)
        self.launched.append(cluster)
        return cluster


def wait_until(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


@pytest.fixture
def launcher() -> StandInLauncher:
    return StandInLauncher()


@pytest.fixture
def manager(launcher: StandInLauncher) -> Any:
    manager = ClusterManager(n_workers=2, n_cpu=1, launcher=launcher)
    yield manager
    launcher.go.set()
    manager.close()


def test_start_twice_is_a_conflict(manager, launcher):
    launcher.go.clear()
    future = manager.start()
    assert manager.state == "starting"
    with pytest.raises(Conflict, match="already starting"):
        manager.start()
    launcher.go.set()
    future.result(10)
    assert manager.state == "running"
    with pytest.raises(Conflict, match="already running"):
        manager.start(n_workers=3)
    assert len(launcher.launched) == 1


def test_stop_when_stopped_does_nothing(manager):
    manager.stop_now()
    assert manager.snapshot()["state"] == "stopped"
    manager.start().result(10)
    manager.stop_now()
    manager.stop_now()
    assert manager.state == "stopped"


def test_a_failed_start_reports_its_error_and_can_be_retried(manager, launcher):
    launcher.failures = 1
    with pytest.raises(RuntimeError, match="no room"):
        manager.start().result(10)
    assert manager.snapshot()["state"] == "failed"
    assert manager.snapshot()["error"] == "RuntimeError: no room for workers"
    assert manager.cluster is None
    manager.start().result(10)
    assert (manager.state, manager.snapshot()["error"]) == ("running", None)


def test_stop_during_start_stops_the_cluster_once_it_is_up(manager, launcher):
    launcher.go.clear()
    manager.start()
    assert launcher.called.wait(10)  # the launch is under way
    stopping = threading.Thread(target=manager.stop_now)
    stopping.start()
    wait_until(lambda: manager.state == "stopping")
    with pytest.raises(Conflict, match="no cluster is running"):
        manager.scale_now(3)
    launcher.go.set()
    stopping.join(10)
    assert manager.state == "stopped"
    assert [c.stopped for c in launcher.launched] == [True]


def test_a_launch_overtaken_by_a_stop_starts_nothing(manager, launcher):
    busy = threading.Event()
    manager._executor.submit(busy.wait, 10)  # the manager's thread is taken
    queued = manager.start()
    manager.stop_now()  # nothing runs yet: stopped at once
    assert manager.state == "stopped"
    busy.set()
    queued.result(10)
    assert (manager.state, launcher.launched) == ("stopped", [])


@pytest.mark.parametrize("n", [0, -1, True, "2", 2.0, 257])
def test_scale_checks_the_count_first(manager, n):
    with pytest.raises(InvalidRequest, match="n must be a whole number from 1 to 256"):
        manager.scale_now(n)


def test_scale_needs_a_running_cluster_and_one_scale_at_a_time(manager, launcher):
    with pytest.raises(Conflict, match=r"no cluster is running \(it is stopped\)"):
        manager.scale_now(2)
    manager.start().result(10)
    cluster = launcher.launched[0]
    scaling = threading.Thread(target=manager.scale_now, args=(4,))
    scaling.start()
    wait_until(lambda: manager._scaling)
    with pytest.raises(Conflict, match="already being scaled"):
        manager.scale_now(3)
    cluster.release.set()
    scaling.join(10)
    assert cluster.workers == 4
    assert manager.snapshot()["options"]["n_workers"] == 4


def test_adapt_hands_checked_bounds_to_the_running_cluster(manager, launcher):
    with pytest.raises(Conflict, match=r"no cluster is running \(it is stopped\)"):
        manager.adapt_now({"minimum": 1, "maximum": 2})
    manager.start().result(10)
    cluster = launcher.launched[0]
    manager.adapt_now({"minimum": 1, "maximum": 3, "wait": 2.0})
    assert manager.snapshot()["adaptive"] == {
        "minimum": 1,
        "maximum": 3,
        "wait": 2.0,
        "interval": 1.0,
        "error": None,
    }
    with pytest.raises(InvalidRequest, match="maximum must be at least minimum"):
        manager.adapt_now({"minimum": 3, "maximum": 2})
    assert cluster.adapting["maximum"] == 3  # refused: unchanged
    manager.adapt_now(None)
    assert manager.snapshot()["adaptive"] is None


def test_adapt_waits_for_no_scale_and_a_scale_ends_it(manager, launcher):
    manager.start().result(10)
    cluster = launcher.launched[0]
    manager.adapt_now({"minimum": 1, "maximum": 3})
    scaling = threading.Thread(target=manager.scale_now, args=(2,))
    scaling.start()
    wait_until(lambda: manager._scaling)
    with pytest.raises(Conflict, match="being scaled"):
        manager.adapt_now({"minimum": 1, "maximum": 4})
    cluster.release.set()
    scaling.join(10)
    assert manager.snapshot()["adaptive"] is None


def test_start_options_come_from_the_configuration_and_are_checked(launcher):
    manager = ClusterManager(n_workers=3, n_cpu=2, memory="1g", web_base_path="/x/")
    options = manager.start_options(n_workers=1)
    assert (options.n_workers, options.n_cpu, options.memory) == (1, 2, "1g")
    assert (options.host_list, options.web_base_path) == ("", "/x/")
    with pytest.raises(InvalidRequest, match="memory:"):
        manager.start_options(memory="lots")
    ssh = ClusterManager(host_list="/nowhere/hosts.yaml", n_workers=3)
    assert ssh.start_options().n_workers is None  # the host list decides
    assert ssh.start_options(n_workers=2).n_workers == 2
    with pytest.raises(InvalidRequest, match="per host in the host list"):
        ssh.start_options(n_cpu=4)


def test_host_list_is_checked_before_it_is_written(tmp_path: Path):
    path = tmp_path / "hosts.yaml"
    manager = ClusterManager(host_list=str(path))
    assert manager.read_host_list()["text"] == ""
    with pytest.raises(InvalidRequest, match="host 0: 'address' is missing"):
        manager.write_host_list("- {user: ann}")
    assert not path.exists()
    manager.write_host_list("- 10.0.0.5\n")
    assert manager.read_host_list() == {
        "path": str(path),
        "configured": True,
        "text": "- 10.0.0.5\n",
    }
    with pytest.raises(Conflict, match="no host list file is configured"):
        ClusterManager().write_host_list("- 10.0.0.5\n")


def test_a_host_list_can_be_created_where_none_is_configured(tmp_path: Path) -> None:
    """The panel's editor writes one to the server's default place; from then on it is
    the host list. Until then the default file, if any, is shown and not used."""
    draft = tmp_path / "data" / "hosts.yml"
    manager = ClusterManager(new_host_list=str(draft))
    assert manager.read_host_list() == {"path": str(draft), "configured": False, "text": ""}
    with pytest.raises(InvalidRequest, match="invalid YAML at line 1"):
        manager.write_host_list("- [a")
    assert manager.host_list == ""
    manager.write_host_list("- 10.0.0.5\n")
    assert manager.host_list == str(draft)
    assert draft.read_text() == "- 10.0.0.5\n"
    assert manager.read_host_list() == {
        "path": str(draft),
        "configured": True,
        "text": "- 10.0.0.5\n",
    }
    kept = ClusterManager(new_host_list=str(draft)).read_host_list()
    assert (kept["configured"], kept["text"]) == (False, "- 10.0.0.5\n")


async def test_a_real_local_cluster_is_published_reported_scaled_and_stopped():
    manager = ClusterManager(n_workers=1, n_cpu=1, start_timeout=30)
    try:
        manager.start().result(30)
        status = await manager.status()
        assert (status["state"], status["kind"], status["n_workers"]) == ("running", "local", 1)
        assert status["supervisor_error"] is None
        published = registry.published()
        assert published is not None
        assert (published.kind, published.endpoint) == ("server", status["endpoint"])
        await manager.scale(2)
        assert len(await manager.workers()) == 2
        await manager.scale(1)
        assert len(await manager.workers()) == 1
        assert await manager.tasks() == []
        pids = manager.pids
        assert len(pids) == 2
    finally:
        await manager.stop()
    assert manager.state == "stopped"
    assert gone(pids)
    assert registry.published() is None
    manager.close()


def test_a_failed_stop_is_reported_and_a_second_stop_clears_it(manager, launcher):
    manager.start().result(10)

    def refuse() -> None:
        raise OSError("a worker survived")

    launcher.launched[0].stop = refuse
    with pytest.raises(ClusterError, match="stopping the cluster failed: OSError: a worker"):
        manager.stop_now()
    assert manager.snapshot()["state"] == "failed"
    manager.stop_now()
    assert (manager.state, manager.snapshot()["error"]) == ("stopped", None)
