"""The dashboard in a real headless Chromium (Debian's, driven by Playwright) against a
running local cluster: a link with the token logs in, the workers appear with their
figures, and a job's progress reaches 100%. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from tests.engine.cluster.processes import CliCluster, cli_cluster

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _browser_or_skip() -> str:
    if os.path.exists(CHROMIUM) and shutil.which(CHROMIUM):
        return CHROMIUM
    message = f"{CHROMIUM} is missing: scripts/install-chromium installs it"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def cluster() -> Iterator[CliCluster]:
    with cli_cluster(2, "--n-cpu", "1") as c:
        yield c


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    executable = _browser_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=FLAGS, headless=True)
        try:
            yield browser.new_page(viewport={"width": 1100, "height": 900})
        finally:
            browser.close()


def test_the_dashboard_shows_workers_and_a_job_reaching_100_percent(
    cluster: CliCluster, page: Any, session: Any
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(cluster.url + "/")
    assert "/login" in page.url  # not logged in: the form first
    page.fill("input[name=token]", cluster.token)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))
    page.wait_for_selector("#status:has-text('live')")
    page.wait_for_function("document.querySelectorAll('#workers tbody tr').length === 2")
    assert "token" not in page.url

    remote = mars.new_session(cluster.url, token=cluster.token)
    try:
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
    finally:
        remote.close()
        session.as_default()
    for text in (c.text_content() for c in page.query_selector_all("#workers .cpu")):
        used, total = (float(x) for x in text.split("/"))
        assert 0 <= used <= total == 1
    page.screenshot(path=str(ARTIFACTS / "dashboard.png"), full_page=True)


def test_a_link_with_the_token_logs_in_and_drops_it(cluster: CliCluster, page: Any) -> None:
    page.context.clear_cookies()
    page.goto(f"{cluster.url}/?token={cluster.token}")
    page.wait_for_selector("#status:has-text('live')")
    assert "token" not in page.url
    page.screenshot(path=str(ARTIFACTS / "dashboard-link-login.png"))
