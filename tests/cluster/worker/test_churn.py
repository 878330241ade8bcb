"""Workers survive peers that die in the middle of a transfer, in either direction.

Real worker processes (``--no-nanny``, so a crash stays visible); the test drives them
over their RPC port as the supervisor does (``execute`` with the holders of the inputs)
and SIGKILLs only the workers it started for that purpose.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time

import numpy as np

from jupyter_mars.cluster.wire.rpc import RPCClient
from jupyter_mars.engine.graph import Ref, Task
from tests.cluster.processes import WORKER, cli_cluster

ROUNDS = 12
CHUNK = 4 * 2**20
"""Elements of each chunk (32 MiB of float64): more than a socket buffer holds, so a kill
lands in the middle of a transfer."""
SIGNS_OF_A_CRASH = ("BufferError", "Fatal Python error", "Segmentation fault", "Traceback")


def test_workers_survive_peers_killed_mid_transfer() -> None:
    rng = random.Random(0)
    with cli_cluster(2, "--n-cpu", "1") as cluster:
        survivors = list(cluster.workers)
        addresses = [w["address"] for w in cluster.wait_for_workers(2)]

        async def churn() -> None:
            clients = {a: RPCClient(a, cluster.token, timeout=60) for a in addresses}
            for i, client in enumerate(clients.values()):
                await client.call(
                    "execute", key=("held", i), task=_full(("held", i), i), locations={}
                )
            started = time.monotonic()
            for round_ in range(ROUNDS):
                victim = cluster.add_worker("--n-cpu", "1")
                address = victim.wait_for(WORKER, 1)
                doomed = RPCClient(address, cluster.token, timeout=60)
                chunk = ("doomed", round_)
                await doomed.call("execute", key=chunk, task=_full(chunk, -1), locations={})
                calls = [
                    # the victim reads both survivors' chunks...
                    doomed.call(
                        "execute",
                        key=("sum", round_),
                        task=Task(("sum", round_), np.add, (Ref(("held", 0)), Ref(("held", 1)))),
                        locations={("held", i): a for i, a in enumerate(addresses)},
                    ),
                    # ...while each survivor reads the victim's
                    *(
                        client.call(
                            "execute",
                            key=("copy", round_, i),
                            task=Task(("copy", round_, i), np.negative, (Ref(chunk),)),
                            locations={chunk: address},
                        )
                        for i, client in enumerate(clients.values())
                    ),
                ]
                running = [asyncio.ensure_future(call) for call in calls]
                await asyncio.sleep(rng.uniform(0.02, 0.3))
                victim.popen.send_signal(signal.SIGKILL)
                victim.popen.wait(10)
                await asyncio.gather(*running, return_exceptions=True)
                await doomed.close()
                cluster.workers.remove(victim)
                victim.stop()
                for i, client in enumerate(clients.values()):
                    await client.call("delete_data", keys=[("copy", round_, i)])
                assert time.monotonic() - started < 120, f"{round_ + 1} rounds took too long"
            # the survivors still serve their chunks, whole
            for i, client in enumerate(clients.values()):
                held = (await client.call("get_data", keys=[("held", i)]))[("held", i)]
                assert held.shape == (CHUNK,)
                assert (held == i).all()
                await client.close()

        try:
            asyncio.run(churn())
        finally:  # a survivor that stopped answering is reported with its log
            for worker in survivors:
                log = "\n".join(worker.lines)
                assert worker.popen.poll() is None, f"a worker died:\n{log}"
                assert not any(sign in log for sign in SIGNS_OF_A_CRASH), log


def _full(key: object, value: float) -> Task:
    return Task(key, np.full, ((CHUNK,), float(value)))
