"""The panel shows a notebook's Ray session like any cluster, end to end: in a real
``jupyter lab`` and Debian's headless Chromium, a notebook runs ``%mars start --ray`` (a
local Ray instance owned by its kernel) and a long job on it; the panel lists the Ray
session as the notebook's, shows the job running, opens its page through the Jupyter
server, cancels the job, and the notebook's future
ends cancelled; ``%mars stop`` takes it off the list. Screenshots go to
``test-artifacts/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

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
from tests.ray.local_cluster import LOOPBACK_ENV

pytest.importorskip("ray", reason="Ray is optional: pip install 'jupyter_mars[ray]'")

START = """\
%load_ext jupyter_mars
%mars start --ray"""

LONG_JOB = """\
%%mars --name ray-job
import time
import numpy as np
import jupyter_mars.tensor as mt

def slow(block):
    time.sleep(1.0)
    return block * 2

# 400 chunks of a second on Ray's two CPUs: cancelled long before the end
total = mt.elemwise(slow, mt.ones((40, 40), chunk_size=2), dtype=np.float64).sum()"""

WAIT_FOR_IT = """\
import concurrent.futures
try:
    _.result(timeout=300)
    print("the future finished")
except concurrent.futures.CancelledError:
    print("the future was cancelled")"""

STOP = "%mars stop"
RAY_WAIT = 180_000
"""Milliseconds for the kernel's Ray to start (tens of seconds on a busy machine)."""


@pytest.fixture
def lab(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Lab]:
    for name, value in LOOPBACK_ENV.items():  # the kernel's Ray: loopback, no token
        monkeypatch.setenv(name, value)
    root = tmp_path / "notebooks"
    root.mkdir()
    write_notebook(root / "ray.ipynb", [START, LONG_JOB, WAIT_FOR_IT, STOP])
    with jupyter_lab(root) as lab:
        yield lab


def test_the_panel_lists_a_notebooks_ray_session_and_cancels_its_job(lab: Lab) -> None:
    with chromium_page(1400, 900) as page:
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(lab.open_url("lab/tree/ray.ipynb"))
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=WAIT)
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=WAIT)
        page.click(".lm-TabBar-tab[data-id='jupyter-mars-panel']")
        page.wait_for_selector(f"{PANEL} .jp-MarsPanel-state[data-state='stopped']", timeout=WAIT)
        page.wait_for_selector(f"{PANEL} .jp-MarsPanel-clusterList:has-text('none running')")

        run_cells(page, 1, 3, timeout=RAY_WAIT)  # Ray, the long job, wait for its future

        theirs = f"{PANEL} .jp-MarsPanel-cluster[data-own='false']"
        try:
            page.wait_for_selector(f"{theirs}:has-text('notebook ray.ipynb')", timeout=RAY_WAIT)
        except PlaywrightTimeout:
            page.screenshot(path=str(ARTIFACTS / "lab-panel-ray-missing.png"))
            shown = (page.text_content(PANEL), page.text_content(".jp-Notebook"))
            raise AssertionError(f"the notebook's Ray session is not listed: {shown}") from None
        assert "stop it there with %mars stop" in (page.text_content(theirs) or "")
        running = f"{PANEL} .jp-MarsPanel-task[data-state='running']"
        page.wait_for_selector(running, timeout=WAIT)
        assert page.text_content(f"{running} .jp-MarsPanel-taskName") == "ray-job"
        page.screenshot(path=str(ARTIFACTS / "lab-panel-ray-session.png"))

        # its "dashboard", through the Jupyter server: the page of its nodes and executions
        page.click(f"{PANEL} .jp-MarsPanel-dashboard")
        frame_element = page.wait_for_selector(".jp-IFrame iframe", timeout=WAIT)
        frame = frame_element.content_frame()
        assert frame is not None
        frame.wait_for_selector("#executions td:has-text('ray-job')", timeout=WAIT)
        assert frame.locator("#nodes tr").count() == 2  # a header and the kernel's Ray node

        # cancelled from the panel: the notebook's future ends cancelled
        page.click(f"{running} .jp-MarsPanel-cancel")
        page.wait_for_selector(f"{PANEL} .jp-MarsPanel-task[data-state='cancelled']", timeout=WAIT)
        page.click(".lm-DockPanel .lm-TabBar-tab:has-text('ray.ipynb')")
        page.wait_for_selector(
            ".jp-OutputArea-output:has-text('the future was cancelled')", timeout=WAIT
        )

        # %mars stop in the notebook: the Ray session leaves the list
        page.click(".jp-Notebook .jp-Cell:nth-child(4) .jp-InputArea-prompt")
        page.keyboard.press("Shift+Enter")
        page.wait_for_selector(theirs, state="detached", timeout=WAIT)
        assert not [e for e in errors if "mars" in e.lower()], errors

    left = stop(lab)
    assert left == [], [p.info for p in left]
