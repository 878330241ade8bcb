"""The dashboard's cards as Lab panes, end to end: a real ``jupyter lab`` in Debian's
headless Chromium with a cluster the server runs. Two panes open from the command
palette, one is docked beside the other, each shows live figures of a notebook's job,
both come back where they were when the page is reloaded; when the cluster stops a pane
says so, and it shows the next cluster once one runs. Screenshots go to
``test-artifacts/``."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import ARTIFACTS, chromium_page
from tests.labextension.jupyterlab import TOKEN, WAIT, Lab, jupyter_lab, write_notebook

CONNECT = "%load_ext jupyter_mars\n%mars connect"
JOB = """\
import time
import numpy as np
import jupyter_mars.tensor as mt

def slow(block):
    time.sleep(1.0)
    return block * 2

x = mt.ones((12, 12), chunk_size=2)  # 36 chunks of a second on two single-core workers
print("total =", mt.elemwise(slow, x, dtype=np.float64).sum().execute().fetch())"""

KERNEL_READY = (
    "window.jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel"
    "?.connectionStatus === 'connected' && window.jupyterapp.shell.currentWidget"
    ".sessionContext.session.kernel.status === 'idle'"
)
TASKS = "#jupyter-mars-pane-tasks"
MEMORY = "#jupyter-mars-pane-memory"


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Lab]:
    root = tmp_path / "notebooks"
    root.mkdir()
    write_notebook(root / "job.ipynb", [CONNECT, JOB])
    args = ("--MarsExtension.n_cpu=1", "--LabApp.expose_app_in_browser=True")
    with jupyter_lab(root, *args) as lab:
        yield lab


def _api(lab: Lab, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{lab.url}mars/api/{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"token {TOKEN}", "Content-Type": "application/json"},
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        answer: dict[str, Any] = json.loads(reply.read())
        return answer


def _start_cluster(lab: Lab) -> None:
    _api(lab, "cluster/start", {"n_workers": 2})
    deadline = time.monotonic() + WAIT / 1000
    while (status := _api(lab, "cluster"))["state"] != "running":
        assert status["state"] == "starting", status
        assert time.monotonic() < deadline, status
        time.sleep(0.3)


def _layout_saved(lab: Lab, name: str) -> None:
    """Once the workspace JupyterLab saves (a while after a change) holds ``name``."""
    deadline = time.monotonic() + WAIT / 1000
    request = urllib.request.Request(
        f"{lab.url}lab/api/workspaces/default", headers={"Authorization": f"token {TOKEN}"}
    )
    while True:
        with urllib.request.urlopen(request, timeout=30) as reply:
            if name in reply.read().decode():
                return
        assert time.monotonic() < deadline, f"{name} not in the saved workspace"
        time.sleep(0.3)


def _job_done(lab: Lab) -> None:
    deadline = time.monotonic() + WAIT / 1000
    while (tasks := _api(lab, "tasks")["tasks"]) and tasks[-1]["state"] != "succeeded":
        assert tasks[-1]["state"] == "running", tasks[-1]
        assert time.monotonic() < deadline, tasks[-1]
        time.sleep(0.3)
    assert tasks, "the job did not reach the cluster"


def _open_from_palette(page: Any, label: str) -> None:
    page.keyboard.press("Control+Shift+C")
    page.fill(".lm-CommandPalette-input", label)
    page.click(f".lm-CommandPalette-item:has-text('{label}')")


def _card(page: Any, pane: str) -> Any:
    """The frame of ``pane`` once it shows the dashboard's card."""
    page.wait_for_selector(f"{pane}[data-shown='dashboard']", timeout=WAIT)
    frame = page.wait_for_selector(f"{pane} iframe").content_frame()
    assert frame is not None
    return frame


def _live(page: Any) -> tuple[Any, Any]:
    """Both cards, each with live figures of the running job."""
    tasks, memory = _card(page, TASKS), _card(page, MEMORY)
    tasks.wait_for_function(
        "[...document.querySelectorAll('#task-lanes span')].some(s => s.dataset.running >= 1)",
        timeout=WAIT,
    )
    shown = tasks.eval_on_selector_all(
        "#view-cluster .card", "cards => cards.filter(c => !c.hidden).map(c => c.id)"
    )
    assert shown == ["card-tasks"]
    samples = "Number(document.getElementById('memory-chart').dataset.samples)"
    before = memory.evaluate(samples)
    memory.wait_for_function(f"{samples} > {before}", timeout=WAIT)
    assert len(memory.query_selector_all("#card-memory .legend span")) == 2
    return tasks, memory


def _side_by_side(page: Any) -> None:
    left = page.locator(TASKS).bounding_box()
    right = page.locator(MEMORY).bounding_box()
    assert left is not None, "the task stream is not shown"
    assert right is not None, "the memory pane is not shown"
    assert right["x"] >= left["x"] + left["width"] - 1, (left, right)
    assert abs(right["y"] - left["y"]) < 2, (left, right)


def test_panes_open_from_the_palette_dock_show_live_data_and_come_back(lab: Lab) -> None:
    _start_cluster(lab)
    with chromium_page(1400, 900) as page:
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(lab.open_url("lab/tree/job.ipynb"))
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=WAIT)
        page.wait_for_function(KERNEL_READY, timeout=WAIT)
        page.click(".jp-Notebook .jp-Cell:first-child .jp-InputArea-prompt")
        for _ in range(2):  # the connect code, then the job
            page.keyboard.press("Shift+Enter")
        page.wait_for_selector(
            ".jp-OutputArea-output:has-text('on this Jupyter server')", timeout=WAIT
        )

        # the Mars menu lists every card
        page.click(".lm-MenuBar-item:has-text('Mars')")
        for title in ("Task Stream", "Progress", "Memory per Worker", "CPU per Worker"):
            page.wait_for_selector(f".lm-Menu-item:has-text('{title}')")
        page.keyboard.press("Escape")

        _open_from_palette(page, "Open Mars Task Stream")
        _open_from_palette(page, "Open Mars Memory per Worker")
        page.wait_for_selector(".lm-TabBar-tab:has-text('Mars Task Stream')")
        # dock the memory pane to the right of the task stream, as a drag would
        page.evaluate(
            "window.jupyterapp.commands.execute('jupyter-mars:open-pane', {view: 'memory',"
            " mode: 'split-right', ref: 'jupyter-mars-pane-tasks'}).then(() => null)"
        )
        page.click(".lm-TabBar-tab:has-text('Mars Task Stream')")
        _side_by_side(page)
        _live(page)
        page.screenshot(path=str(ARTIFACTS / "lab-panes.png"))

        # reloaded: the panes come back beside each other, on the cluster that runs
        _layout_saved(lab, "jupyter-mars-pane:memory")
        page.reload()
        page.wait_for_selector(MEMORY, timeout=WAIT)
        page.click(".lm-TabBar-tab:has-text('Mars Task Stream')")
        _side_by_side(page)
        tasks, _ = _live(page)
        assert "view=tasks" in tasks.url
        _job_done(lab)

        # the cluster stops: the card says so; reloaded meanwhile, the pane says why it
        # shows nothing, then the next cluster's workers once it runs
        _api(lab, "cluster/stop", {})
        tasks.wait_for_selector("#status:has-text('disconnected')", timeout=WAIT)
        page.screenshot(path=str(ARTIFACTS / "lab-panes-stopped.png"))
        page.reload()
        page.wait_for_selector(f"{TASKS}[data-shown='waiting']", timeout=WAIT)
        notice = page.text_content(f"{TASKS} .jp-MarsPane-notice") or ""
        assert "no cluster is running" in notice
        _start_cluster(lab)
        tasks = _card(page, TASKS)
        tasks.wait_for_function(
            "document.querySelectorAll('#task-lanes span').length === 2", timeout=WAIT
        )
        assert not page.is_visible(f"{TASKS} .jp-MarsPane-notice")
        assert not [e for e in errors if "jupyter_mars" in e or "jupyter-mars" in e], errors
