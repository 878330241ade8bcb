"""``ClusterView`` without a kernel, on a real local cluster: its rows and bars follow the
supervisor's API, its Scale control scales the cluster and shows what goes wrong, and on a
running asyncio loop it keeps itself current until closed or until the cluster stops."""

from __future__ import annotations

import asyncio
import doctest
import html
import http.cookiejar
import threading
import types
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import IPython
import pytest
from IPython.core.interactiveshell import InteractiveShell

import jupyter_mars as mars
from jupyter_mars.launcher import LocalCluster, display, new_cluster
from jupyter_mars.remote import HttpClient
from jupyter_mars.widgets import ClusterView, cluster_reading, view_of
from jupyter_mars.widgets import cluster as cluster_module
from jupyter_mars.widgets.cluster_reading import read_cluster

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def test_the_examples_hold() -> None:
    assert doctest.testmod(cluster_reading).failed == 0


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with new_cluster(2, connect=False) as started:
        yield started


@pytest.fixture
def two_workers(cluster: LocalCluster) -> Iterator[LocalCluster]:
    if len(cluster.workers) != 2:
        cluster.scale(2)
    yield cluster
    cluster.stop_adapting()  # a test that left it adapting leaves it to no other


def api_model(cluster: LocalCluster) -> dict[str, Any]:
    model: dict[str, Any] = HttpClient(cluster.endpoint, cluster.token, 5).json(
        "GET", "/api/v1/cluster"
    )
    return model


def shown_rows(view: ClusterView) -> list[dict[str, Any]]:
    return [
        {
            "address": row.address.value,
            "cores": row.cores.value,
            "cpu": row.cpu_bar.value,
            "memory": row.memory_bar.value,
            "memory_text": row.memory_label.value,
            "tasks": row.running.value,
        }
        for row in view.rows.values()
    ]


def test_a_reading_has_a_row_per_worker_with_bars_in_range(two_workers: LocalCluster) -> None:
    model = api_model(two_workers)
    reading = read_cluster(model)
    assert [row.address for row in reading.workers] == [w["address"] for w in model["workers"]]
    for row in reading.workers:
        assert row.cores == 1
        assert 0.0 <= row.cpu_percent <= 100.0
        assert 0.0 < row.memory_percent <= 100.0  # a live process uses some memory
        assert row.memory_text.endswith(" GiB")  # "… MiB of 11.8 GiB": of its share
        assert row.running == 0
    assert reading.totals_text.startswith("2 workers on 1 host: 2 cores, ")
    assert reading.totals_text.endswith(" memory, 0 tasks running")


def test_readings_beyond_a_workers_share_are_clamped() -> None:
    busy = {
        "address": "10.0.0.1:1",
        "n_cpu": 2,
        "running": 3,
        "resources": {"cpu_used": 2.7, "memory_rss": 3 * 2**30},
        "memory_share": 2**30,
    }
    unknown = {"address": "10.0.0.2:1", "n_cpu": 1, "resources": {}}
    reading = read_cluster({"workers": [busy, unknown], "totals": {"hosts": 2, "n_cpu": 3}})
    first, second = reading.workers
    assert (first.cpu_percent, first.memory_percent) == (100.0, 100.0)
    assert first.cpu_text == "2.00 of 2 cores"
    assert first.memory_text == "3.0 GiB of 1.0 GiB"
    assert (second.cpu_percent, second.memory_percent, second.memory_text) == (0.0, 0.0, "0 B")
    assert reading.running == 3
    assert reading.totals_text == "2 workers on 2 hosts: 3 cores, 0 B memory, 3 tasks running"


H100 = {
    "index": 0,
    "name": "NVIDIA H100 80GB HBM3",
    "utilization": 37.0,
    "memory_used": 10 * 2**30,
    "memory_total": 80 * 2**30,
    "temperature_c": 45.0,
    "power_w": 123.4,
}
"""A GPU as a worker's heartbeat gives it."""


def test_a_reading_tells_each_workers_gpus() -> None:
    gpu_worker = {"address": "10.0.0.1:1", "n_cpu": 1, "resources": {"gpus": [H100]}}
    cpu_worker = {"address": "10.0.0.2:1", "n_cpu": 1, "resources": {"gpus": []}}
    old_worker = {"address": "10.0.0.3:1", "n_cpu": 1, "resources": {}}  # sent no GPU field
    reading = read_cluster({"workers": [gpu_worker, cpu_worker, old_worker]})
    assert reading.with_gpus
    assert [(row.gpus, row.gpu_text) for row in reading.workers] == [
        (1, "0: 37% busy, 10.0 of 80.0 GiB"),
        (0, "none"),
        (0, "none"),
    ]
    assert not read_cluster({"workers": [cpu_worker, old_worker]}).with_gpus


def _header(view: ClusterView) -> list[str]:
    names = len(view.grid.children) - sum(len(r.cells(view.with_gpus)) for r in view.rows.values())
    return [
        html.unescape(c.value).removeprefix("<b>").removesuffix("</b>")
        for c in view.grid.children[:names]
    ]


def test_the_view_has_a_gpu_column_only_while_a_worker_has_gpus(two_workers: LocalCluster) -> None:
    view = ClusterView(two_workers.endpoint, two_workers.token)
    model = api_model(two_workers)
    has_gpus = any(w["resources"]["gpus"] for w in model["workers"])  # every one NVML sees
    assert view.with_gpus == has_gpus
    assert _header(view) == list(cluster_module.GPU_COLUMNS if has_gpus else cluster_module.COLUMNS)
    # figures as a worker with a GPU sends them: the column comes, with its line
    model["workers"][0]["resources"]["gpus"] = [H100]
    view._show(read_cluster(model))
    assert _header(view) == list(cluster_module.GPU_COLUMNS)
    first = next(iter(view.rows.values()))
    assert first.cells(True)[4] is first.gpus
    assert first.gpus.value == "0: 37% busy, 10.0 of 80.0 GiB"
    assert view.grid.layout.grid_template_columns == cluster_module.GPU_GRID_COLUMNS
    assert len(view.grid.children) == 6 * (1 + len(view.rows))
    # and goes with the last GPU
    for worker in model["workers"]:
        worker["resources"]["gpus"] = []
    view._show(read_cluster(model))
    assert _header(view) == list(cluster_module.COLUMNS)
    assert len(view.grid.children) == 5 * (1 + len(view.rows))
    view.close()


def test_the_view_shows_the_workers_the_supervisor_reports(two_workers: LocalCluster) -> None:
    view = ClusterView(two_workers.endpoint, two_workers.token, owner=two_workers)
    assert not view.following  # no loop runs: it read once, on this thread
    rows = shown_rows(view)
    assert [r["address"] for r in rows] == [w["address"] for w in api_model(two_workers)["workers"]]
    assert all(r["cores"] == "1" and r["tasks"] == "0" for r in rows)
    assert all(0 <= r["cpu"] <= 100 and 0 < r["memory"] <= 100 for r in rows)
    assert view.totals.value.startswith("2 workers on 1 host")
    assert two_workers.endpoint in view.header.value
    assert f'href="{two_workers.endpoint}/?login=' in view.header.value  # a login link
    assert view.scale.input.value == 2  # the control starts at the current count
    assert view.message.value == ""


def _open_in_a_browser(url: str) -> tuple[int, bytes]:
    """``url`` opened as a browser would (redirects followed, cookies kept)."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    try:
        with opener.open(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read()


def test_the_dashboard_link_logs_a_browser_in_once_and_new_link_makes_another(
    two_workers: LocalCluster,
) -> None:
    view = ClusterView(two_workers.endpoint, two_workers.token, owner=two_workers)
    link = view.dashboard_link
    assert link.startswith(f"{two_workers.endpoint}/?login=")
    assert two_workers.token not in view.header.value
    status, page = _open_in_a_browser(link)
    assert status == 200
    assert b"<title>jupyter_mars cluster</title>" in page  # the dashboard, not its form
    assert _open_in_a_browser(link)[0] == 401  # used
    assert view.link_button is not None
    view.link_button.click()
    assert view.dashboard_link != link
    assert f'href="{html.escape(view.dashboard_link)}"' in view.header.value
    assert _open_in_a_browser(view.dashboard_link)[0] == 200


def test_a_view_of_a_cluster_it_does_not_own_has_no_scale_control(
    two_workers: LocalCluster,
) -> None:
    view = ClusterView(two_workers.endpoint, two_workers.token, "/lab/mars/dashboard/")
    assert view.scale is None
    assert len(view.rows) == 2
    assert 'href="/lab/mars/dashboard/"' in view.header.value  # the Jupyter server's page
    assert view.link_button is None  # which the browser's Jupyter login opens


def test_scale_from_the_view_changes_the_worker_count(two_workers: LocalCluster) -> None:
    view = ClusterView(two_workers.endpoint, two_workers.token, owner=two_workers)
    view.scale.input.value = 1
    view.scale.button.click()
    assert len(api_model(two_workers)["workers"]) == 1
    assert len(view.rows) == 1
    assert view.totals.value.startswith("1 worker on 1 host")
    assert view.message.value == "Scaled to 1 worker."
    assert not view.scale.button.disabled


def test_a_failed_scale_is_shown_in_the_view_not_raised(two_workers: LocalCluster) -> None:
    view = ClusterView(two_workers.endpoint, two_workers.token, owner=two_workers)
    view.scale.input.value = -1
    view.scale.button.click()  # raises nothing
    assert "Scaling to -1 failed: ValueError: n must be a non-negative int" in view.message.value
    assert "color" in view.message.value  # shown as an error
    assert not view.scale.button.disabled
    assert len(api_model(two_workers)["workers"]) == 2


def test_adapt_from_the_view_starts_and_ends_the_clusters_adaptive_loop(
    two_workers: LocalCluster,
) -> None:
    view = ClusterView(two_workers.endpoint, two_workers.token, owner=two_workers)
    assert view.adapt is not None
    assert not view.adapt.toggle.value
    assert view.adapt.maximum.value == 2  # offered: the workers there are
    view.adapt.minimum.value = 2  # bounds that keep the two: nothing moves meanwhile
    view.adapt.maximum.value = 3
    view.adapt.toggle.value = True
    adaptive = two_workers.adaptive
    assert adaptive is not None
    assert adaptive.running
    assert (adaptive.bounds.minimum, adaptive.bounds.maximum) == (2, 3)
    assert view.message.value == "Adapting."
    assert view.adapt.status.value == "adapting between 2 and 3 workers"
    view.adapt.maximum.value = 4  # edited while it adapts: applied
    assert two_workers.adaptive is adaptive
    assert adaptive.bounds.maximum == 4
    view.adapt.toggle.value = False
    assert two_workers.adaptive is None
    assert view.message.value == "Adaptive scaling ended."
    assert view.adapt.status.value == ""


def test_bounds_the_cluster_refuses_are_shown_and_the_toggle_goes_back_off(
    two_workers: LocalCluster,
) -> None:
    view = ClusterView(two_workers.endpoint, two_workers.token, owner=two_workers)
    assert view.adapt is not None
    view.adapt.minimum.value = 3
    view.adapt.maximum.value = 2
    view.adapt.toggle.value = True  # raises nothing
    assert "Adapting failed: ValueError: maximum must be at least minimum (3)" in (
        view.message.value
    )
    assert not view.adapt.toggle.value
    assert not view.adapt.toggle.disabled
    assert two_workers.adaptive is None


def test_the_toggle_follows_adapting_begun_and_ended_from_code(
    two_workers: LocalCluster,
) -> None:
    view = ClusterView(two_workers.endpoint, two_workers.token, owner=two_workers)
    assert view.adapt is not None
    assert view.scale is not None
    two_workers.adapt(minimum=2, maximum=5)
    view.refresh()
    assert view.adapt.toggle.value
    assert (view.adapt.minimum.value, view.adapt.maximum.value) == (2, 5)
    view.scale.input.value = 2
    view.scale.button.click()  # a scale ends adapting, as cluster.scale(n) does
    assert two_workers.adaptive is None
    assert not view.adapt.toggle.value


def test_a_cluster_that_does_not_answer_is_said_so() -> None:
    with new_cluster(1, connect=False) as gone:
        endpoint, token = gone.endpoint, gone.token
    view = ClusterView(endpoint, token)
    assert not view.refresh()
    assert "does not answer" in view.message.value
    assert view.rows == {}


def test_on_a_running_loop_the_view_follows_the_cluster_from_that_loop(
    two_workers: LocalCluster,
) -> None:
    threads: set[str] = set()

    async def watch() -> tuple[ClusterView, list[str]]:
        view = ClusterView(two_workers.endpoint, two_workers.token, owner=two_workers)
        assert view.following
        view.totals.observe(lambda _: threads.add(threading.current_thread().name), "value")
        await view.updated()
        before = list(view.rows)
        view.scale.input.value = 3
        view.scale.button.click()
        assert view.scale.task is not None
        assert view.scale.button.disabled  # while the scale runs
        await asyncio.wait_for(view.scale.task, 60)
        await view.updated()
        assert view.following
        view.close()
        await asyncio.sleep(0)
        return view, before

    view, before = asyncio.run(watch())
    assert len(before) == 2
    assert len(view.rows) == 3
    assert view.message.value == "Scaled to 3 workers."
    assert not view.following  # closed: the updater stopped
    assert threads == {"MainThread"}


def test_the_updater_stops_once_the_cluster_stops() -> None:
    async def watch(cluster: LocalCluster) -> ClusterView:
        view = ClusterView(cluster.endpoint, cluster.token, owner=cluster)
        await view.updated()
        assert len(view.rows) == 1
        cluster.stop()
        await asyncio.wait_for(view.updated(), 10)
        return view

    with new_cluster(1, connect=False) as cluster:
        view = asyncio.run(watch(cluster))
    assert not view.following
    assert "does not answer" in view.message.value
    assert view.scale.button.disabled


def _fake_kernel_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    shell = types.SimpleNamespace(kernel=object())
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)


def test_outside_a_kernel_a_cluster_displays_as_text(two_workers: LocalCluster) -> None:
    bundle = two_workers._repr_mimebundle_()
    assert bundle == {"text/plain": f"<LocalCluster {two_workers.endpoint} 2 workers>"}


def test_in_a_kernel_a_cluster_displays_as_its_one_view(
    two_workers: LocalCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_kernel_shell(monkeypatch)

    async def show_twice() -> tuple[dict[str, Any], dict[str, Any], ClusterView]:
        first = two_workers._repr_mimebundle_()
        second = two_workers._repr_mimebundle_()
        view = view_of(two_workers.endpoint, owner=two_workers)
        await view.updated()
        view.close()
        return first, second, view

    first, second, view = asyncio.run(show_twice())
    assert first[WIDGET_MIME]["model_id"] == second[WIDGET_MIME]["model_id"]  # one view
    assert first["text/plain"] == repr(two_workers)
    assert view.owner is two_workers
    assert len(view.rows) == 2


def test_in_a_kernel_without_ipywidgets_a_cluster_displays_as_text(
    two_workers: LocalCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_kernel_shell(monkeypatch)
    monkeypatch.setattr(display, "_view", None)  # as where ipywidgets is missing
    assert two_workers._repr_mimebundle_() == {"text/plain": repr(two_workers)}
    assert display.cluster_view(two_workers.endpoint, two_workers.token) is None


def test_a_stopped_cluster_displays_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_kernel_shell(monkeypatch)
    with new_cluster(1, connect=False) as cluster:
        pass
    assert cluster._repr_mimebundle_() == {
        "text/plain": f"<LocalCluster {cluster.endpoint} stopped>"
    }


def test_in_a_kernel_mars_status_shows_a_connected_cluster_without_scale_control(
    two_workers: LocalCluster, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "jupyter_mars")
    shell.run_line_magic("mars", f"connect {two_workers.endpoint} --token {two_workers.token}")
    connected = mars.get_default_session()
    address = connected.address
    capsys.readouterr()
    _fake_kernel_shell(monkeypatch)

    async def status() -> ClusterView:
        shell.run_line_magic("mars", "status")
        view = cluster_module._views[(address, id(None))]  # the one the magic showed
        assert view_of(address) is view  # and shows again while it follows
        await view.updated()
        view.close()
        return view

    try:
        view = asyncio.run(status())
    finally:
        connected.close()
        InteractiveShell.clear_instance()
    # this shell shows a display's text form: the table, which a notebook keeps beside
    # the widget for whatever cannot draw widgets
    shown = capsys.readouterr().out
    assert shown.startswith(f"Cluster at {address}, 2 workers on 1 host")
    assert shown.splitlines()[1].split() == ["worker", "cores", "CPU", "used", "memory", "tasks"]
    assert view.owner is None
    assert view.scale is None
    assert len(view.rows) == 2
