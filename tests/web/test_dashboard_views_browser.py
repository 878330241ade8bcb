"""The dashboard's cards one at a time (``?view=...``, as a JupyterLab pane shows them) in
Debian's headless Chromium against a local cluster served under ``/mars/``: each view
shows its card alone, full size and without the header, with live figures while a job
runs; an unknown view is said on the page above the whole dashboard; a card whose cluster
stops says so. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from tests.browser import ARTIFACTS, chromium_page
from tests.cluster.processes import CliCluster, cli_cluster, remote_session

WAIT = 30_000
CARDS = {
    "supervisors": "card-supervisors",
    "workers": "card-workers",
    "cpu": "card-cpu",
    "memory": "card-memory",
    "tasks": "card-tasks",
    "progress": "card-progress",
}
LIVE = {
    # what each card shows of a running job (or of the cluster), as a page function
    "supervisors": "document.querySelectorAll('#supervisors tbody tr').length === 1",
    "workers": "document.querySelectorAll('#workers tbody tr').length === 2",
    "cpu": "Number(document.getElementById('cpu-chart').dataset.samples) >= 4",
    "memory": "Number(document.getElementById('memory-chart').dataset.samples) >= 4",
    "tasks": "[...document.querySelectorAll('#task-lanes span')]"
    ".filter(s => Number(s.dataset.running) >= 1).length >= 1",
    "progress": "[...document.querySelectorAll('#executions .state')]"
    ".some(c => c.textContent === 'running')",
}


def slow_block(block: np.ndarray) -> np.ndarray:
    time.sleep(1.0)
    return block * 2


@pytest.fixture(scope="module")
def cluster() -> Iterator[CliCluster]:
    with cli_cluster(2, "--n-cpu", "1", base_path="/mars/") as c:
        yield c


@pytest.fixture(scope="module")
def page(cluster: CliCluster) -> Iterator[Any]:
    with chromium_page() as page:
        page.goto(f"{cluster.url}/?token={cluster.token}")  # logs in: a cookie from now on
        page.wait_for_selector("#status:has-text('live')")
        yield page


def _shown_cards(page: Any) -> list[str]:
    return list(
        page.eval_on_selector_all(
            "#view-cluster .card", "cards => cards.filter(c => c.offsetParent).map(c => c.id)"
        )
    )


def test_each_view_shows_its_card_alone_with_live_figures(
    cluster: CliCluster, page: Any, session: Any
) -> None:
    with remote_session(cluster, session) as remote:
        x = mt.ones((12, 8), chunk_size=2)  # 24 chunks of a second over two cores
        future = mt.elemwise(slow_block, x, dtype=np.float64).execute(session=remote, wait=False)
        for view, card in CARDS.items():
            page.goto(f"{cluster.url}/?view={view}")
            assert "view=" + view in page.url
            page.wait_for_function(LIVE[view], timeout=WAIT)
            assert _shown_cards(page) == [card], view
            assert not page.is_visible("header"), view  # live: no header, no status
            assert not page.is_visible("#view-error")
            if view in ("cpu", "memory", "tasks"):
                # the chart fills the page: its width, and the height under its title
                width, height = page.eval_on_selector(f"#{card} canvas", "c => [c.width, c.height]")
                assert width >= 1000, (view, width)
                assert height >= 600, (view, height)
            page.screenshot(path=str(ARTIFACTS / f"dashboard-view-{view}.png"))
        future.cancel()
    # the task stream has a lane per worker, named by its address
    lanes = page.eval_on_selector_all("#task-lanes span", "s => s.map(x => x.dataset.worker)")
    workers = page.evaluate("[...slots.keys()]")
    assert sorted(lanes) == sorted(workers)
    assert len(lanes) == 2


def test_the_progress_card_links_to_an_execution_page_with_a_way_back(
    cluster: CliCluster, page: Any, session: Any
) -> None:
    page.goto(f"{cluster.url}/?view=progress")
    page.wait_for_selector("#status:has-text('live')", state="attached")
    with remote_session(cluster, session) as remote:  # its executions go with it
        (mt.ones((4, 4), chunk_size=2) + 1).sum().execute(session=remote)
        page.click("#executions tr:has(.state-succeeded) a:has-text('sum(add)')", timeout=WAIT)
        page.wait_for_selector("#graph g.op", timeout=WAIT)
        assert page.is_visible("header h1 a")  # away from the card: the header, its link home
        page.click("header h1 a")
        page.wait_for_selector("#card-progress", state="visible")
        assert _shown_cards(page) == ["card-progress"]
        assert "view=progress" in page.url


def test_an_unknown_view_is_said_above_the_whole_dashboard(cluster: CliCluster, page: Any) -> None:
    page.goto(f"{cluster.url}/?view=gantt")
    page.wait_for_selector("#status:has-text('live')")
    message = page.text_content("#view-error") or ""
    assert 'There is no view "gantt"' in message
    for view in CARDS:
        assert view in message
    assert _shown_cards(page) == list(CARDS.values())
    assert page.is_visible("header")


def test_no_view_is_the_whole_dashboard(cluster: CliCluster, page: Any) -> None:
    page.goto(f"{cluster.url}/")
    page.wait_for_selector("#status:has-text('live')")
    assert _shown_cards(page) == list(CARDS.values())
    assert not page.is_visible("#view-error")
    # the workers' colours once, under the memory chart
    assert page.is_visible("#card-memory .legend")
    assert not page.is_visible("#card-cpu .legend")


def test_a_card_says_its_cluster_stopped(page: Any) -> None:
    with cli_cluster(1, base_path="/mars/") as small:
        page.goto(f"{small.url}/?view=workers&token={small.token}")
        page.wait_for_function(LIVE["workers"].replace("=== 2", "=== 1"), timeout=WAIT)
        assert not page.is_visible("#status")
    page.wait_for_selector("#status:has-text('disconnected')", timeout=WAIT)
    assert not page.is_visible("header h1")
    page.screenshot(path=str(ARTIFACTS / "dashboard-view-disconnected.png"))
