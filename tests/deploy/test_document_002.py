"""Document 002 ("Run on Clusters", the scheduler/worker/web generation) walked as
written, with only the host names (127.0.0.1, localhost), the ports (free ones), the spill
directories (under a temporary one) and the imports changed, and the cluster token that
two schedulers must share given in ``MARS_TOKEN``: two schedulers, two workers spilling
to two directories each, a web service in front of both, the snippet, and the memory
tuning example's worker."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.session import new_session
from tests.cluster.processes import RPC, WEB, WORKER, free_port
from tests.deploy.old_cluster import old_cluster, start

MIB = 1024**2


def test_document_002_as_written(tmp_path):
    p1, p2, p3, p4, p5 = (free_port() for _ in range(5))
    schedulers = f"127.0.0.1:{p1},127.0.0.1:{p2}"
    spill = f"{tmp_path}/disk2/spill:{tmp_path}/disk3/spill"
    (tmp_path / "disk2").mkdir()
    (tmp_path / "disk3").mkdir()
    # the processes keep their token files where this test's client looks for them
    with old_cluster(os.environ["JUPYTER_MARS_TOKEN_DIR"], "-s", schedulers, port=p1) as c:
        # On Scheduler 2
        second = start("scheduler", RPC, c.env, "-a", "127.0.0.1", "-p", str(p2), "-s", schedulers)
        try:
            # On Worker 1 and Worker 2
            for port in (p3, p4):
                argv = ["-a", "127.0.0.1", "-p", str(port), "-s", schedulers, "--spill-dirs", spill]
                c.workers.append(start("worker", WORKER, c.env, *argv))
            # On the web server: no -a, so every interface
            c.web = start("web", WEB, c.env, "-p", str(p5), "-s", schedulers)
            assert c.web.wait_for(WEB, 1) == f"0.0.0.0:{p5}"
            c.web_address = f"127.0.0.1:{p5}"
            c.wait_for_workers(2)

            session = new_session(f"http://127.0.0.1:{p5}").as_default()
            try:
                a = mt.ones((2000, 2000), chunk_size=200)
                b = mt.inner(a, a)
                b.execute()  # submit tensor to cluster
                df = md.DataFrame(a).sum()
                df.execute()  # submit DataFrame to cluster
                ones = np.ones((2000, 2000))
                np.testing.assert_array_equal(b.fetch(), np.inner(ones, ones))
                pd.testing.assert_series_equal(df.fetch(), pd.DataFrame(ones).sum())
            finally:
                session.close()
            for disk in ("disk2", "disk3"):
                assert (tmp_path / disk / "spill").is_dir()

            # Memory Tuning: mars-worker -a localhost -p 9012 -s localhost:9010
            # --cache-mem 512m --phy-mem 90%
            argv = ["-a", "localhost", "-p", str(free_port()), "-s", f"localhost:{p1}"]
            tuned = start("worker", WORKER, c.env, *argv, "--cache-mem", "512m", "--phy-mem", "90%")
            c.workers.append(tuned)
            c.wait_for_workers(3)
            workers = {w["address"]: w for w in c.http().json("GET", "/api/v1/workers")}
            assert tuned.address is not None
            assert tuned.address.startswith("localhost:")
            store = workers[tuned.address]["resources"]["store"]
            assert store["cache_bytes"] == 512 * MIB
            total = workers[tuned.address]["resources"]["host"]["memory"]
            assert abs(store["phy_mem_bytes"] - 0.9 * total) <= 1
        finally:
            second.stop()
