"""Documents 001 ("Run on Clusters", the supervisor/worker generation) and 000 (a user's
notes on the same commands) walked as written, with only the host names (127.0.0.1), the
ports (free ones) and the imports changed, and the token two supervisors must share given
in ``MARS_TOKEN``: two supervisors listing each other, two workers with 000's worker
flags, the snippet, and 000's asynchronous execution."""

from __future__ import annotations

import os
import secrets
from contextlib import ExitStack

import numpy as np
import pandas as pd

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.remote import HttpClient
from tests.cluster.processes import RPC, WEB, WORKER, free_port, wait_until
from tests.deploy.old_cluster import start


def test_documents_001_and_000_as_written(tmp_path):
    p1, p2, p3, p4, web_port = (free_port() for _ in range(5))
    supervisors = f"127.0.0.1:{p1},127.0.0.1:{p2}"
    env = {
        **os.environ,
        "MARS_TOKEN": secrets.token_urlsafe(16),
        "PYTHONUNBUFFERED": "1",
        # the processes keep their token files where this test's client looks for them
        "JUPYTER_MARS_TOKEN_DIR": os.environ["JUPYTER_MARS_TOKEN_DIR"],
    }
    with ExitStack() as stack:
        # On Supervisor 1 and Supervisor 2
        first = start(
            "supervisor", WEB, env,
            "-H", "127.0.0.1", "-p", str(p1), "-w", str(web_port), "-s", supervisors,
        )  # fmt: skip
        stack.callback(first.stop)
        assert first.wait_for(WEB, 1) == f"127.0.0.1:{web_port}"  # "Mars Web started at"
        second = start("supervisor", RPC, env, "-H", "127.0.0.1", "-p", str(p2), "-s", supervisors)
        stack.callback(second.stop)
        # On Worker 1 and Worker 2, with 000's flags on the second
        for port, flags in ((p3, []), (p4, ["--n-cpu", "1", "--n-io-process", "1"])):
            argv = ["-H", "127.0.0.1", "-p", str(port), "-s", supervisors, *flags]
            stack.callback(start("worker", WORKER, env, *argv).stop)

        http = HttpClient(f"http://127.0.0.1:{web_port}", env["MARS_TOKEN"], timeout=15)
        assert wait_until(lambda: len(http.json("GET", "/api/v1/workers")) == 2, 30)
        session = mars.new_session(f"http://127.0.0.1:{web_port}")
        stack.callback(session.close)
        a = mt.random.rand(2000, 2000, chunk_size=200)
        b = mt.inner(a, a)
        b.execute()  # submit tensor to cluster
        df = md.DataFrame(a).sum()
        df.execute()  # submit DataFrame to cluster
        values = a.execute().fetch()  # the same values: a random tensor keeps its seed
        np.testing.assert_allclose(b.fetch(), np.inner(values, values))
        pd.testing.assert_series_equal(df.fetch(), pd.DataFrame(values).sum())

        # 000: asynchronous execution
        c = mt.random.rand(100, 10)
        future = c.mean().execute(wait=False)
        result = future.result()
        assert future.done()
        assert 0 < result < 1
