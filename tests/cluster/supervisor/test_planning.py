"""How a supervisor plans: for its workers' cores, not its own, and away from its event
loop, which stays responsive while a large graph is tiled and coarsened."""

from __future__ import annotations

import time

import numpy as np

import jupyter_mars.tensor as mt
from jupyter_mars.session import available_cpus
from tests.cluster.processes import cli_cluster, remote_session


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


def test_products_are_tiled_for_the_cores_of_the_workers(session):
    # more cores on the workers than on the supervisor's machine: tiling follows them
    per_worker = available_cpus() + 2
    with (
        cli_cluster(2, "--n-cpu", str(per_worker)) as cluster,
        remote_session(cluster, session) as remote,
    ):
        rng = np.random.default_rng(5)
        a, b = rng.random((1024, 512)), rng.random((512, 1024))
        product = mt.tensor(a, chunk_size=-1) @ mt.tensor(b, chunk_size=-1)
        product.execute(session=remote)
        nsplits = remote._executed[product.key]
        assert len(nsplits[0]) * len(nsplits[1]) >= 2 * per_worker
        np.testing.assert_allclose(product.fetch(session=remote), a @ b)
