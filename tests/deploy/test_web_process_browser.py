"""The dashboard in Debian's headless Chromium, opened at ``mars-web`` (its own process in
front of a ``mars-scheduler``), as document 003 opens ``http://<web_ip>:<web_port>``:
the ``?token=`` link logs in, the live stream arrives through the web process, the
workers and a job's progress show. The screenshot goes to ``test-artifacts/``."""

from __future__ import annotations

import numpy as np

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from tests.browser import ARTIFACTS, chromium_page
from tests.deploy.old_cluster import old_cluster

WAIT = 30_000


def test_the_dashboard_is_live_through_the_web_process(tmp_path):
    with old_cluster(str(tmp_path / "tokens")) as cluster, chromium_page() as page:
        cluster.start_web()
        for _ in range(2):
            cluster.add_worker("--cpu-procs", "1", "--disable-proc-recover")
        cluster.wait_for_workers(2)
        page.goto(f"{cluster.url}/?token={cluster.token}")
        assert page.url == f"{cluster.url}/"  # the link logged in and dropped the token
        page.wait_for_selector("#status:has-text('live')", timeout=WAIT)
        page.wait_for_function(
            "document.querySelectorAll('#workers tbody tr').length === 2", timeout=WAIT
        )
        session = mars.new_session(cluster.url, token=cluster.token, default=False)
        try:
            x = mt.ones((400, 400), chunk_size=100)
            result = (x + 1).sum().execute(session=session).fetch(session=session)
            assert result == np.full((400, 400), 2.0).sum()
            page.wait_for_function(
                "[...document.querySelectorAll('#executions .state')]"
                ".some(c => c.textContent === 'succeeded')",
                timeout=WAIT,
            )
        finally:
            session.close()
        page.screenshot(path=str(ARTIFACTS / "mars-web-dashboard.png"), full_page=True)
