"""The JupyterLab panel end to end: a real ``jupyter lab`` (with the extension as ``pip
install`` put it) in Debian's headless Chromium. The panel starts a local cluster, inserts
the connect code into a notebook, a cell runs a job on the cluster, and the task's progress
in the panel reaches 100%; the dashboard opens in a Lab tab; the panel stops the cluster and
stopping the server leaves no process behind. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jupyter_mars.cluster.worker.nvml import gpu_figures
from tests.browser import ARTIFACTS, chromium_page
from tests.labextension.jupyterlab import (
    PANEL,
    WAIT,
    Lab,
    jupyter_lab,
    run_cells,
    stop,
    write_notebook,
)

JOB = """\
import time
import numpy as np
import jupyter_mars.tensor as mt

def slow(block):
    time.sleep(1.0)
    return block * 2

x = mt.ones((8, 8), chunk_size=2)  # sixteen chunks of a second on two single-core workers
total = mt.elemwise(slow, x, dtype=np.float64).sum().execute().fetch()
print("total =", total)"""

LONG_JOB = """\
y = mt.ones((40, 40), chunk_size=2)  # 400 chunks of a second: cancelled long before the end
mt.elemwise(slow, y, dtype=np.float64).sum().execute()"""


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Lab]:
    root = tmp_path / "notebooks"
    root.mkdir()
    write_notebook(root / "job.ipynb", [JOB, LONG_JOB])
    with jupyter_lab(root, "--MarsExtension.n_cpu=1", "--MarsExtension.start_timeout=60") as lab:
        yield lab


def _panel_state(page: Any, state: str) -> None:
    page.wait_for_selector(f"{PANEL} .jp-MarsPanel-state[data-state='{state}']", timeout=WAIT)


def _frame_at(page: Any, fragment: str) -> Any:
    """The frame (a dashboard tab) whose address has ``fragment``, once there is one."""
    deadline = time.monotonic() + WAIT / 1000
    while time.monotonic() < deadline:
        for frame in page.frames:
            if fragment in frame.url:
                return frame
        page.wait_for_timeout(100)
    raise AssertionError(f"no frame at {fragment}: {[f.url for f in page.frames]}")


def _chunks(text: str | None) -> tuple[int, int]:
    match = re.fullmatch(r"[\d.]+ s · (\d+) / (\d+) chunks", text or "")
    assert match, text
    return int(match[1]), int(match[2])


def test_the_panel_starts_a_cluster_and_shows_a_notebook_job_reach_100_percent(
    lab: Lab,
) -> None:
    with chromium_page(1400, 900) as page:
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(lab.open_url("lab/tree/job.ipynb"))
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=WAIT)
        # the kernel is up before anything runs in it
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=WAIT)

        page.click(".lm-TabBar-tab[data-id='jupyter-mars-panel']")
        _panel_state(page, "stopped")
        assert page.is_disabled(f"{PANEL} .jp-MarsPanel-stop")

        # a mistake in the form is named, and nothing starts
        page.fill(f"{PANEL} input[name=n_workers]", "two")
        page.click(f"{PANEL} .jp-MarsPanel-start")
        page.wait_for_selector(f"{PANEL} .jp-MarsPanel-error:has-text('workers must be')")
        _panel_state(page, "stopped")

        page.fill(f"{PANEL} input[name=n_workers]", "2")
        page.click(f"{PANEL} .jp-MarsPanel-start")
        _panel_state(page, "running")
        page.wait_for_function(
            f"document.querySelectorAll('{PANEL} .jp-MarsPanel-worker').length === 2",
            timeout=WAIT,
        )
        assert not page.is_visible(f"{PANEL} .jp-MarsPanel-error")
        cpu = page.text_content(f"{PANEL} .jp-MarsPanel-worker .jp-MarsPanel-bar[data-label=CPU]")
        assert "/ 1 cores" in (cpu or "")
        # GPU bars only for the GPUs the workers have: every one NVML sees, none here
        labels = page.eval_on_selector_all(
            f"{PANEL} .jp-MarsPanel-worker:first-child .jp-MarsPanel-bar",
            "bars => bars.map(b => b.dataset.label)",
        )
        gpus = [
            name
            for g in gpu_figures(None)
            for name in (f"GPU {g['index']}", f"GPU {g['index']} memory")
        ]
        assert labels == ["CPU", "memory", *gpus]

        # the connect code goes into the notebook above the jobs, then every cell runs
        page.click(".jp-Notebook .jp-Cell .jp-InputArea-prompt")
        page.click(f"{PANEL} .jp-MarsPanel-connect")
        page.wait_for_function(
            "document.querySelectorAll('.jp-Notebook .jp-Cell').length === 3", timeout=WAIT
        )
        first = page.text_content(".jp-Notebook .jp-Cell:first-child .jp-InputArea-editor")
        assert "%mars connect" in (first or "")
        run_cells(page, 1, 3)  # the connect code, the job, then the long job

        # the job shows in the panel while it runs, with a cancel button, then at 100%
        running = f"{PANEL} .jp-MarsPanel-task[data-state='running']"
        page.wait_for_selector(running, timeout=WAIT)
        assert page.is_visible(f"{running} .jp-MarsPanel-cancel")
        percent = page.text_content(f"{running} .jp-MarsPanel-barText") or ""
        assert 0 <= int(percent.rstrip("%")) < 100
        page.screenshot(path=str(ARTIFACTS / "lab-panel-running.png"))
        done = f"{PANEL} .jp-MarsPanel-task[data-state='succeeded']"
        page.wait_for_selector(done, timeout=WAIT)
        assert page.text_content(f"{done} .jp-MarsPanel-barText") == "100%"
        done_chunks, total_chunks = _chunks(page.text_content(f"{done} .jp-MarsPanel-taskText"))
        assert done_chunks == total_chunks >= 16  # every chunk of every operator
        page.wait_for_selector(".jp-OutputArea-output:has-text('total = 128.0')", timeout=WAIT)
        page.screenshot(path=str(ARTIFACTS / "lab-panel.png"))

        # while the long job runs: the cluster grows to three workers, then the job is
        # cancelled from the panel and the notebook's cell says so
        page.wait_for_selector(running, timeout=WAIT)
        page.fill(f"{PANEL} input[name=scale]", "3")
        page.click(f"{PANEL} .jp-MarsPanel-scale")
        page.wait_for_function(
            f"document.querySelectorAll('{PANEL} .jp-MarsPanel-worker').length === 3",
            timeout=WAIT,
        )
        page.click(f"{running} .jp-MarsPanel-cancel")
        cancelled = f"{PANEL} .jp-MarsPanel-task[data-state='cancelled']"
        page.wait_for_selector(cancelled, timeout=WAIT)
        assert int((page.text_content(f"{cancelled} .jp-MarsPanel-barText") or "").rstrip("%")) < 50
        page.wait_for_selector(".jp-OutputArea-output:has-text('CancelledError')", timeout=WAIT)
        page.screenshot(path=str(ARTIFACTS / "lab-panel-cancelled.png"))

        # the dashboard opens in a Lab tab, through the Jupyter server
        page.click(f"{PANEL} .jp-MarsPanel-dashboard")
        frame_element = page.wait_for_selector(".jp-IFrame iframe", timeout=WAIT)
        frame = frame_element.content_frame()
        assert frame is not None
        frame.wait_for_selector("#workers tbody tr", timeout=WAIT)
        assert "/jl/mars/dashboard/" in frame.url
        page.screenshot(path=str(ARTIFACTS / "lab-dashboard-tab.png"))

        # a task's name opens its page of the dashboard, a worker's address its own
        task_name = page.text_content(f"{done} .jp-MarsPanel-taskName") or ""
        assert "(" in task_name  # named after what it computes, as the widget names it
        page.click(f"{done} .jp-MarsPanel-taskName")
        _frame_at(page, "#/execution/").wait_for_selector("#operators tbody tr", timeout=WAIT)
        page.wait_for_selector(f".lm-TabBar-tab:has-text('Mars: {task_name}')")
        page.click(f"{PANEL} .jp-MarsPanel-worker .jp-MarsPanel-workerName")
        worker = _frame_at(page, "#/worker/")
        worker.wait_for_selector("#worker-figures tbody tr", timeout=WAIT)
        page.screenshot(path=str(ARTIFACTS / "lab-dashboard-worker-tab.png"))

        # the connect cell named the dashboard on this server and linked to it: the link
        # opens it in a new browser tab, logged in by Jupyter's own cookie
        page.click(".lm-DockPanel .lm-TabBar-tab:has-text('job.ipynb')")
        assert "dashboard /jl/mars/dashboard/ on this Jupyter server" in (
            page.text_content(".jp-Notebook .jp-Cell:first-child .jp-OutputArea") or ""
        )
        with page.expect_popup() as popup:
            page.click(".jp-Notebook .jp-Cell:first-child a:has-text('Open the cluster dashboard')")
        popup.value.wait_for_selector("#workers tbody tr", timeout=WAIT)
        assert popup.value.url.endswith("/jl/mars/dashboard/")
        popup.value.close()

        page.click(f"{PANEL} .jp-MarsPanel-stop")  # the sidebar stayed open beside the tab
        _panel_state(page, "stopped")
        page.wait_for_selector(f"{PANEL} .jp-MarsPanel-worker", state="detached")
        assert not [e for e in errors if "mars" in e.lower()], errors

    left = stop(lab)
    assert left == [], [p.info for p in left]


HOSTS = "hosts:\n  - 10.0.0.5\n"
CLUSTER_READ = re.compile(r"/mars/api/cluster(\?|$)")  # GETs carry a cache-busting query


@pytest.fixture
def lab_with_host_list(tmp_path: Path) -> Iterator[tuple[Lab, Path]]:
    root = tmp_path / "notebooks"
    root.mkdir()
    hosts = tmp_path / "hosts.yml"
    hosts.write_text(HOSTS)
    fast = {"jupyter_mars/plugin": {"refreshSeconds": 0.5}}
    with jupyter_lab(root, f"--MarsExtension.host_list={hosts}", settings=fast) as lab:
        yield lab, hosts


def test_the_panel_edits_the_host_list_and_refreshes_as_set(
    lab_with_host_list: tuple[Lab, Path],
) -> None:
    lab, hosts = lab_with_host_list
    with chromium_page() as page:
        reads: list[float] = []
        page.on(
            "request",
            lambda r: reads.append(time.monotonic()) if CLUSTER_READ.search(r.url) else None,
        )
        page.goto(lab.open_url("lab"))
        page.click(".lm-TabBar-tab[data-id='jupyter-mars-panel']", timeout=WAIT)
        _panel_state(page, "stopped")

        page.click(f"{PANEL} .jp-MarsPanel-hosts summary")
        page.wait_for_function(
            f"document.querySelector('{PANEL} .jp-MarsPanel-hostText').value.includes('10.0.0.5')",
            timeout=WAIT,
        )
        assert page.text_content(f"{PANEL} .jp-MarsPanel-hostPath") == str(hosts)

        # a mistake is refused with the host and field named; the file is left as it was
        page.fill(
            f"{PANEL} .jp-MarsPanel-hostText", "hosts:\n  - {address: 10.0.0.6, n_cpu: lots}\n"
        )
        page.click(f"{PANEL} .jp-MarsPanel-saveHosts")
        page.wait_for_selector(f"{PANEL} .jp-MarsPanel-error:has-text('n_cpu')", timeout=WAIT)
        assert hosts.read_text() == HOSTS

        edited = "hosts:\n  - 10.0.0.5\n  - {address: 10.0.0.6, n_cpu: 8}\n"
        page.fill(f"{PANEL} .jp-MarsPanel-hostText", edited)
        page.click(f"{PANEL} .jp-MarsPanel-saveHosts")
        page.wait_for_selector(f"{PANEL} .jp-MarsPanel-hostStatus:has-text('saved')", timeout=WAIT)
        assert hosts.read_text() == edited
        assert not page.is_visible(f"{PANEL} .jp-MarsPanel-error")
        page.screenshot(path=str(ARTIFACTS / "lab-panel-host-list.png"))

        # refreshSeconds = 0.5 in the user's settings: the panel reads the cluster about
        # twice a second while shown (the default is every 2 s), and not at all when hidden
        page.wait_for_function("1", timeout=WAIT)
        start = len(reads)
        page.wait_for_timeout(3000)
        shown = reads[start:]
        assert len(shown) >= 4, shown
        page.click(".lm-TabBar-tab[data-id='jupyter-mars-panel']")  # hides the sidebar
        page.wait_for_timeout(1000)
        hidden_from = len(reads)
        page.wait_for_timeout(2000)
        assert reads[hidden_from:] == []


def test_the_panel_says_when_the_server_extension_is_not_enabled(tmp_path: Path) -> None:
    root = tmp_path / "notebooks"
    root.mkdir()
    off = "--ServerApp.jpserver_extensions={'jupyter_mars.server': False}"
    with jupyter_lab(root, off) as lab, chromium_page() as page:
        page.goto(lab.open_url("lab"))
        page.click(".lm-TabBar-tab[data-id='jupyter-mars-panel']", timeout=WAIT)
        error = f"{PANEL} .jp-MarsPanel-error"
        page.wait_for_selector(f"{error}:has-text('server extension does not answer')")
        assert "jupyter server extension list" in (page.text_content(error) or "")
        assert page.is_disabled(f"{PANEL} .jp-MarsPanel-dashboard")
