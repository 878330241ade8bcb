"""The panel lists every cluster of this machine, end to end: in a real ``jupyter lab``
and Debian's headless Chromium, a notebook starts its own cluster with ``%mars start``
and runs a long job on it; the panel lists that cluster as the notebook's (with how to stop
it), shows the job, opens the cluster's dashboard through the Jupyter server and cancels
the job, and the notebook's future ends cancelled; ``%mars stop`` takes it off the list.
Screenshots go to ``test-artifacts/``."""

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

START = """\
%load_ext jupyter_mars
%mars start --workers 1 --n-cpu 1"""

LONG_JOB = """\
%%mars --name long-job
import time
import numpy as np
import jupyter_mars.tensor as mt

def slow(block):
    time.sleep(1.0)
    return block * 2

# 400 chunks of a second on one single-core worker: cancelled long before the end
total = mt.elemwise(slow, mt.ones((40, 40), chunk_size=2), dtype=np.float64).sum()"""

WAIT_FOR_IT = """\
import concurrent.futures
try:
    _.result(timeout=300)
    print("the future finished")
except concurrent.futures.CancelledError:
    print("the future was cancelled")"""

STOP = "%mars stop"


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Lab]:
    root = tmp_path / "notebooks"
    root.mkdir()
    write_notebook(root / "clusters.ipynb", [START, LONG_JOB, WAIT_FOR_IT, STOP])
    with jupyter_lab(root) as lab:
        yield lab


def test_the_panel_lists_a_notebooks_cluster_and_cancels_its_job(lab: Lab) -> None:
    with chromium_page(1400, 900) as page:
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(lab.open_url("lab/tree/clusters.ipynb"))
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=WAIT)
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=WAIT)
        page.click(".lm-TabBar-tab[data-id='jupyter-mars-panel']")
        page.wait_for_selector(f"{PANEL} .jp-MarsPanel-state[data-state='stopped']", timeout=WAIT)
        page.wait_for_selector(f"{PANEL} .jp-MarsPanel-clusterList:has-text('none running')")

        run_cells(page, 1, 3)  # start, the long job, wait for its future

        # the notebook's cluster is listed as its, and shown while the server runs none
        theirs = f"{PANEL} .jp-MarsPanel-cluster[data-own='false']"
        try:
            page.wait_for_selector(f"{theirs}:has-text('notebook clusters.ipynb')", timeout=WAIT)
        except PlaywrightTimeout:
            page.screenshot(path=str(ARTIFACTS / "lab-panel-notebook-cluster-missing.png"))
            shown = (page.text_content(PANEL), page.text_content(".jp-Notebook"))
            raise AssertionError(f"the notebook's cluster is not listed: {shown}") from None
        assert "stop it there with %mars stop" in (page.text_content(theirs) or "")
        assert "1 worker" in (page.text_content(f"{theirs} .jp-MarsPanel-clusterDetail") or "")
        assert page.is_visible(f"{PANEL} .jp-MarsPanel-cluster.jp-mod-selected[data-own='false']")
        page.wait_for_function(
            f"document.querySelectorAll('{PANEL} .jp-MarsPanel-worker').length === 1",
            timeout=WAIT,
        )
        running = f"{PANEL} .jp-MarsPanel-task[data-state='running']"
        page.wait_for_selector(running, timeout=WAIT)
        assert page.text_content(f"{running} .jp-MarsPanel-taskName") == "long-job"
        # the panel's Stop is the server's own cluster's, which is not running
        assert page.is_disabled(f"{PANEL} .jp-MarsPanel-stop")
        page.screenshot(path=str(ARTIFACTS / "lab-panel-notebook-cluster.png"))

        # its dashboard opens in a tab, through the Jupyter server
        cluster_id = page.get_attribute(theirs, "data-cluster")
        page.click(f"{PANEL} .jp-MarsPanel-dashboard")
        frame_element = page.wait_for_selector(".jp-IFrame iframe", timeout=WAIT)
        frame = frame_element.content_frame()
        assert frame is not None
        frame.wait_for_selector("#workers tbody tr", timeout=WAIT)
        assert f"/jl/mars/dashboards/{cluster_id}/" in frame.url

        # cancelled from the panel: the notebook's future ends cancelled
        page.click(f"{running} .jp-MarsPanel-cancel")
        cancelled = f"{PANEL} .jp-MarsPanel-task[data-state='cancelled']"
        page.wait_for_selector(cancelled, timeout=WAIT)
        page.click(".lm-DockPanel .lm-TabBar-tab:has-text('clusters.ipynb')")
        page.wait_for_selector(
            ".jp-OutputArea-output:has-text('the future was cancelled')", timeout=WAIT
        )
        page.screenshot(path=str(ARTIFACTS / "lab-panel-notebook-cluster-cancelled.png"))

        assert not [e for e in errors if "mars" in e.lower()], errors
        # %mars stop in the notebook: the cluster leaves the list
        page.click(".jp-Notebook .jp-Cell:nth-child(4) .jp-InputArea-prompt")
        page.keyboard.press("Shift+Enter")
        page.wait_for_selector(theirs, state="detached", timeout=WAIT)
        page.wait_for_selector(f"{PANEL} .jp-MarsPanel-clusterList:has-text('none running')")
        # the dashboard's tab is still open: its stream may try its stopped cluster again
        # (a 404 the browser logs); nothing else may fail
        gone = f"/mars/dashboards/{cluster_id}/"
        assert not [e for e in errors if "mars" in e.lower() and gone not in e], errors

    left = stop(lab)
    assert left == [], [p.info for p in left]
