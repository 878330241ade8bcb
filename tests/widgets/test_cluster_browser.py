"""The cluster widget as a notebook user sees it: a real ``jupyter lab`` in Debian's headless
Chromium runs ``%mars start`` and ``%mars status``; the widget draws a row per worker with
its CPU and memory bars, links the dashboard, its Scale control grows the cluster and its
Adapt control makes it adaptive.
The screenshot goes to ``test-artifacts/cluster-widget.png``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser import ARTIFACTS, chromium_page
from tests.labextension.jupyterlab import WAIT, Lab, jupyter_lab, write_notebook

CELL = "%load_ext jupyter_mars\n%mars start --workers 2 --n-cpu 1\n%mars status"
WIDGET = ".jp-OutputArea-output .widget-vbox"
ADDRESS_CELLS = f"{WIDGET} .widget-gridbox .widget-label"


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Lab]:
    root = tmp_path / "notebooks"
    root.mkdir()
    write_notebook(root / "status.ipynb", [CELL, "%mars stop"])
    with jupyter_lab(root) as lab:
        yield lab


def _worker_rows(page: Any) -> list[str]:
    texts = page.eval_on_selector_all(ADDRESS_CELLS, "cells => cells.map(c => c.textContent)")
    return [t for t in texts if re.fullmatch(r"127\.0\.0\.1:\d+", t)]


def _run_first_cell(page: Any) -> None:
    """Run the first cell, again where the key press came before the kernel took it (an
    idle indicator can show before the notebook's kernel connection is ready); running it
    twice is harmless: the second %mars start says the cluster runs."""
    prompt = ".jp-Notebook .jp-Cell:first-child .jp-InputArea-prompt"
    for _ in range(5):
        page.click(prompt)
        page.keyboard.press("Shift+Enter")
        try:
            page.wait_for_function(
                f"/\\[(\\*|\\d+)\\]/.test(document.querySelector('{prompt}').textContent)",
                timeout=5000,
            )
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("the first cell never ran")


def test_the_widget_shows_the_workers_and_scales_the_cluster(lab: Lab) -> None:
    with chromium_page(1200, 800) as page:
        page.goto(lab.open_url("lab/tree/status.ipynb"))
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=WAIT)
        _run_first_cell(page)

        try:
            page.wait_for_selector(f"{WIDGET}:has-text('2 workers on 1 host')", timeout=WAIT)
        except Exception:
            page.screenshot(path=str(ARTIFACTS / "cluster-widget-failed.png"))
            raise
        assert len(_worker_rows(page)) == 2
        bars = page.eval_on_selector_all(
            f"{WIDGET} .widget-gridbox progress, {WIDGET} .widget-gridbox .progress-bar",
            "bars => bars.length",
        )
        assert bars >= 4  # a CPU and a memory bar per worker
        link = page.get_attribute(f"{WIDGET} a:has-text('Dashboard')", "href") or ""
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?login=\S+", link), link
        with page.expect_popup() as opened:  # a login link: the dashboard, logged in
            page.click(f"{WIDGET} a:has-text('Dashboard')")
        dashboard = opened.value
        dashboard.wait_for_load_state()
        assert dashboard.title() == "jupyter_mars cluster"
        assert "login=" not in dashboard.url
        dashboard.close()

        page.fill(f"{WIDGET} .widget-text:has(label:has-text('Workers')) input", "3")
        page.click(f"{WIDGET} button:has-text('Scale')")
        page.wait_for_selector(f"{WIDGET}:has-text('Scaled to 3 workers.')", timeout=WAIT)
        page.wait_for_selector(f"{WIDGET}:has-text('3 workers on 1 host')", timeout=WAIT)
        assert len(_worker_rows(page)) == 3

        # bounds that keep the three workers: nothing moves while the test looks
        page.fill(f"{WIDGET} .widget-text:has(label:has-text('Min')) input", "3")
        page.fill(f"{WIDGET} .widget-text:has(label:has-text('Max')) input", "4")
        page.click(f"{WIDGET} button:has-text('Adapt')")
        page.wait_for_selector(
            f"{WIDGET}:has-text('adapting between 3 and 4 workers')", timeout=WAIT
        )
        page.screenshot(path=str(ARTIFACTS / "cluster-widget.png"))

        page.click(".jp-Notebook .jp-Cell:nth-child(2) .jp-InputArea-prompt")
        page.keyboard.press("Shift+Enter")  # %mars stop: the widget says the cluster is gone
        page.wait_for_selector(f"{WIDGET}:has-text('does not answer')", timeout=WAIT)
