"""The dashboard in a real headless Chromium (Debian's, driven by Playwright) against a
running local cluster served under a path prefix (``/mars/``, as behind a Jupyter server):
a link with the token logs in, the workers appear with their figures, a job's progress
reaches 100%, an execution's page draws its operators as a live graph, and a worker's
page shows its running tasks, its log and its stacks; GPU figures show where a worker
has GPUs and nothing of GPUs shows where none has. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import psutil
import pytest

import jupyter_mars.tensor as mt
from tests.browser import ARTIFACTS, chromium_page
from tests.cluster.processes import CliCluster, cli_cluster, remote_session
from tests.conftest import needs_gpu, no_gpu

GIB = 1 << 30


@pytest.fixture(scope="module")
def cluster() -> Iterator[CliCluster]:
    with cli_cluster(2, "--n-cpu", "1", base_path="/mars/") as c:
        yield c


def slow_block(block: np.ndarray) -> np.ndarray:
    time.sleep(1.0)
    return block * 2


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with chromium_page() as page:
        yield page


def test_the_dashboard_shows_workers_and_a_job_reaching_100_percent(
    cluster: CliCluster, page: Any, session: Any
) -> None:
    page.goto(cluster.url + "/")
    assert "/login" in page.url  # not logged in: the form first
    page.fill("input[name=token]", cluster.token)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))
    page.wait_for_selector("#status:has-text('live')")
    page.wait_for_function("document.querySelectorAll('#workers tbody tr').length === 2")
    assert "token" not in page.url

    with remote_session(cluster, session) as remote:
        a = mt.random.rand(3000, 3000, chunk_size=500)
        future = (a @ a).sum().execute(session=remote, wait=False)
        page.wait_for_function(
            "[...document.querySelectorAll('#executions .state')]"
            ".some(c => c.textContent === 'running')",
            timeout=30_000,
        )
        # the workers' CPU figures move while the job runs
        page.wait_for_function(
            "[...document.querySelectorAll('#workers .cpu')]"
            ".some(c => parseFloat(c.textContent) > 0.2)",
            timeout=30_000,
        )
        future.result(timeout=120)
        page.wait_for_function(
            "[...document.querySelectorAll('#executions tr')].some(r => "
            "r.querySelector('.state')?.textContent === 'succeeded' && "
            "r.querySelector('.progress')?.textContent.trim() === '100%')",
            timeout=30_000,
        )
    for text in (c.text_content() for c in page.query_selector_all("#workers .cpu")):
        used, total = (float(x) for x in text.split("/"))
        assert 0 <= used <= total == 1
    # two workers without --phy-mem on this machine: each has half of it, the total all
    memory = psutil.virtual_memory().total
    for text in (c.text_content() or "" for c in page.query_selector_all("#workers .memory")):
        assert text.endswith(f"/ {memory / 2 / 2**30:.1f} GiB"), text
    totals = page.text_content("#worker-totals") or ""
    assert totals == f"2 workers on 1 host: 2 cores, {memory / 2**30:.1f} GiB memory"
    page.screenshot(path=str(ARTIFACTS / "dashboard.png"), full_page=True)


def test_a_cancelled_execution_is_not_drawn_as_done(
    cluster: CliCluster, page: Any, session: Any
) -> None:
    """Its state and its progress bar take the cancelled colour, not the done green."""
    with remote_session(cluster, session) as remote:
        slow = mt.elemwise(slow_block, mt.arange(40, chunk_size=1), dtype=np.int64)
        future = slow.execute(session=remote, wait=False)
        page.goto(cluster.url + "/")
        page.wait_for_function(
            "[...document.querySelectorAll('#executions .state')]"
            ".some(c => c.textContent === 'running')",
            timeout=30_000,
        )
        assert future.cancel()
        page.wait_for_selector("#executions .state-cancelled", timeout=30_000)
    colour = page.eval_on_selector(
        "#executions tr:has(.state-cancelled) .bar > div",
        "el => getComputedStyle(el).backgroundColor",
    )
    done_green = "rgb(45, 164, 78)"
    assert colour != done_green


def test_executions_show_by_name(cluster: CliCluster, page: Any, session: Any) -> None:
    """The client's name, or what the execution computes, in the executions table."""
    page.goto(cluster.url + "/")
    with remote_session(cluster, session) as remote:
        a = mt.ones((40, 40), chunk_size=20)
        named = (a @ a).sum().execute(session=remote, wait=False, name="on-server")
        plain = (a + 1).max().execute(session=remote, wait=False)
        assert (named.name, plain.name) == ("on-server", "max(add)")
        named.result(timeout=60)
        plain.result(timeout=60)
        for text in ("on-server · ", "max(add) · "):
            page.wait_for_selector(f"#executions a:has-text('{text}')", timeout=30_000)


def test_a_link_with_the_token_logs_in_and_drops_it(cluster: CliCluster, page: Any) -> None:
    page.context.clear_cookies()
    page.goto(f"{cluster.url}/?token={cluster.token}")
    page.wait_for_selector("#status:has-text('live')")
    assert "token" not in page.url
    page.screenshot(path=str(ARTIFACTS / "dashboard-link-login.png"))


def test_an_execution_page_draws_its_operators_as_they_run(
    cluster: CliCluster, page: Any, session: Any
) -> None:
    page.goto(f"{cluster.url}/?token={cluster.token}")
    page.wait_for_selector("#status:has-text('live')")
    with remote_session(cluster, session) as remote:
        x = mt.ones((8, 4), chunk_size=2)
        result = (mt.elemwise(slow_block, x, dtype=np.float64) + 1).sum()
        future = result.execute(session=remote, wait=False)
        page.wait_for_selector("#executions tbody tr[data-execution] a", timeout=30_000)
        page.click("#executions tbody tr[data-execution]:last-child a")
        page.wait_for_url(re.compile(r"#/execution/"))
        page.wait_for_selector("#graph g.op", timeout=30_000)
        # live: some operator is seen running before all are done
        page.wait_for_selector("#graph g.op-running", timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "dashboard-execution-running.png"), full_page=True)
        future.result(timeout=120)
        assert result.fetch(session=remote) == 96.0  # 32 elements, each 1 * 2 + 1
        page.wait_for_function(
            "[...document.querySelectorAll('#graph g.op')].every(g => g.dataset.state === 'done')",
            timeout=30_000,
        )
    ops = {
        row.get_attribute("data-operator"): [c.text_content() for c in row.query_selector_all("td")]
        for row in page.query_selector_all("#operators tbody tr")
    }
    slow = [cells for op_id, cells in ops.items() if op_id.startswith("slow_block-")]
    assert slow, ops
    assert slow[0][3] == "8 / 8"  # chunks done / total
    assert float(slow[0][5].split()[0]) >= 7.5  # eight chunks of a second each
    assert len(page.query_selector_all("#graph path.edge")) >= 2
    page.screenshot(path=str(ARTIFACTS / "dashboard-execution.png"), full_page=True)


def test_a_worker_page_shows_running_tasks_log_and_stacks(
    cluster: CliCluster, page: Any, session: Any
) -> None:
    page.goto(f"{cluster.url}/?token={cluster.token}")
    page.wait_for_selector("#workers tbody tr a")
    with remote_session(cluster, session) as remote:
        x = mt.ones((8, 8), chunk_size=2)  # sixteen chunks of a second over two cores
        future = mt.elemwise(slow_block, x, dtype=np.float64).execute(session=remote, wait=False)
        page.click("#workers tbody tr:first-child a")
        page.wait_for_url(re.compile(r"#/worker/"))
        page.wait_for_function(
            "[...document.querySelectorAll('#worker-tasks tbody td')]"
            ".some(td => td.textContent === 'slow_block')",
            timeout=30_000,
        )
        # --n-cpu 1: one task at a time on a slot, the next one waits for it
        running = page.eval_on_selector_all(
            "#worker-tasks .state", "cells => cells.filter(c => c.textContent === 'running').length"
        )
        assert running <= 1
        page.click("#dump-stacks")
        page.wait_for_selector("#worker-stacks details", timeout=15_000)
        stacks = page.text_content("#worker-stacks") or ""
        page.screenshot(path=str(ARTIFACTS / "dashboard-worker.png"), full_page=True)
        future.result(timeout=120)
    assert "mars-slot" in stacks
    assert "slow_block" in stacks
    figures = page.text_content("#worker-figures") or ""
    assert "CPU used / total" in figures
    assert "received / sent per s" in figures
    assert "alive" in figures


def test_a_page_opened_late_draws_the_last_minutes(cluster: CliCluster, page: Any) -> None:
    """The supervisor kept the workers' figures: the charts of a page opened now reach
    back before it was opened, not only from its first message on."""
    time.sleep(3)  # the cluster ran before: samples exist whether or not a page was open
    page.goto(cluster.url + "/")
    page.wait_for_selector("#status:has-text('live')")
    page.wait_for_function("document.querySelectorAll('#workers tbody tr').length === 2")
    reach = page.evaluate(
        "Math.min(...[...history.values()].map(s => s.length ? Date.now() / 1000 - s[0].t : 0))"
    )
    assert reach > 2.5, reach


@no_gpu
def test_workers_without_gpus_show_nothing_of_gpus(cluster: CliCluster, page: Any) -> None:
    page.goto(f"{cluster.url}/?token={cluster.token}")
    page.wait_for_function("document.querySelectorAll('#workers tbody tr').length === 2")
    assert page.query_selector("#workers th.gpu") is not None
    assert not page.is_visible("#workers th.gpu")
    assert page.query_selector_all("#workers td.gpu") == []
    assert "GPU" not in (page.inner_text("#card-workers") or "")
    page.click("#workers tbody tr:first-child a")
    page.wait_for_selector("#worker-figures th:has-text('reachable')")
    assert "GPU" not in (page.inner_text("#worker-figures") or "")


def test_gpu_figures_read_with_their_units_and_a_missing_one_is_said(
    cluster: CliCluster, page: Any
) -> None:
    """The page's own functions on figures as a worker sends them (no GPU needed)."""
    page.goto(f"{cluster.url}/?token={cluster.token}")
    page.wait_for_selector("#status:has-text('live')")
    h100 = {
        "index": 0,
        "name": "NVIDIA H100 80GB HBM3",
        "utilization": 37.0,
        "memory_used": 10 * GIB,
        "memory_total": 80 * GIB,
        "temperature_c": 45.0,
        "power_w": 123.4,
    }
    mig = {  # a GPU in MIG mode reports no use; many report no power
        "index": 1,
        "name": "NVIDIA A100",
        "utilization": None,
        "memory_used": GIB,
        "memory_total": 40 * GIB,
        "temperature_c": None,
        "power_w": None,
    }
    assert page.evaluate("gpus => gpuLines(gpus)", [h100, mig]) == (
        "0: 37% busy · 10.0 GiB / 80.0 GiB · 45 °C · 123 W\n1: ? busy · 1.0 GiB / 40.0 GiB"
    )
    with_one = [{"resources": {"gpus": []}}, {"resources": {"gpus": [mig]}}]
    assert page.evaluate("workers => anyGpus(workers)", with_one) is True
    without = [{"resources": {"gpus": []}}, {"resources": {}}]
    assert page.evaluate("workers => anyGpus(workers)", without) is False
    # a worker page shows each GPU by its index and name
    rows = page.evaluate(
        "w => workerGpus(w).map(g => g.name)", {"gpus": [], "resources": {"gpus": [mig]}}
    )
    assert rows == ["NVIDIA A100"]


@needs_gpu
def test_a_gpu_workers_figures_show_in_its_row_and_on_its_page(page: Any) -> None:
    with cli_cluster(1, "--cuda-devices", "0", base_path="/mars/") as gpu_cluster:
        page.goto(f"{gpu_cluster.url}/?token={gpu_cluster.token}")
        page.wait_for_selector("#workers td.gpu", timeout=30_000)
        assert page.is_visible("#workers th.gpu")
        text = page.inner_text("#workers td.gpu")
        assert re.fullmatch(r"0: (\d+%|\?) busy · .+ / .+", text.splitlines()[0]), text
        page.screenshot(path=str(ARTIFACTS / "dashboard-gpu.png"), full_page=True)
        page.click("#workers tbody tr:first-child a")
        page.wait_for_selector("#worker-figures th:has-text('GPU 0')", timeout=30_000)
        assert "busy" in (page.inner_text("#worker-figures") or "")
