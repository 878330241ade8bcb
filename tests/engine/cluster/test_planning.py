"""A supervisor stays responsive while it plans a large graph (tiling and coarsening run
away from its event loop)."""

from __future__ import annotations

import time

import jupyter_mars.tensor as mt
from tests.engine.cluster.processes import cli_cluster, remote_session


def test_the_supervisor_answers_while_it_plans_a_large_graph(session):
    with cli_cluster(1, "--n-cpu", "1") as cluster, remote_session(cluster, session) as remote:
        http = cluster.http()  # a request not answered within 10 s fails
        (worker,) = http.json("GET", "/api/v1/workers")
        # 2M elements in 200 chunks: an 81,000-task graph to tile and coarsen
        future = remote.execute(mt.sort(mt.random.rand(2_000_000, chunk_size=10_000)), wait=False)
        answered = 0
        deadline = time.monotonic() + 300
        while future.progress() == 0 and not future.done():
            assert time.monotonic() < deadline, "the graph was not planned in 300 s"
            # the worker's heartbeats are answered too: it is never given up for dead
            assert [w["address"] for w in http.json("GET", "/api/v1/workers")] == [
                worker["address"]
            ]
            answered += 1
            time.sleep(0.1)
        assert answered > 0
        future.cancel()
