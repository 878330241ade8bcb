"""Cluster benchmark: jupyter_mars local cluster against Dask distributed, in one run.

Both get two single-core workers on this machine: ``new_cluster(n_worker=2, n_cpu=1)``
and ``LocalCluster(n_workers=2, threads_per_worker=1)``. The embedded runtime runs the
same workloads for the "within 1.5x of embedded" comparison. Prints a Markdown table.

    .venv/bin/python bench/bench_cluster.py [--quick] [--repeats 3]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench_core import sizes  # the same workload sizes as the embedded benchmark


def median_time(run: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def mars_workloads(s: dict[str, int]) -> dict[str, Callable[[], Any]]:
    import jupyter_mars.tensor as mt

    state: dict[str, Any] = {}

    def matmul() -> Any:
        if "a" not in state:
            state["a"] = mt.random.rand(s["mm"], s["mm"], chunk_size=s["mm_chunk"]).execute()
            state["b"] = mt.random.rand(s["mm"], s["mm"], chunk_size=s["mm_chunk"]).execute()
        return (state["a"] @ state["b"]).execute()

    return {
        "overhead": lambda: (mt.ones(s["n_chunks"] * 100, chunk_size=100) + 1).sum().execute(),
        "seed": lambda: mt.inner(
            a := mt.random.rand(s["seed"], s["seed"], chunk_size=s["seed_chunk"]), a
        ).execute(),
        "matmul": matmul,
        "elementwise": lambda: (
            ((mt.random.rand(s["big"], s["big"], chunk_size=s["big_chunk"]) + 1) * 2)
            .sum()
            .execute()
        ),
    }


def dask_workloads(s: dict[str, int], client: Any) -> dict[str, Callable[[], Any]]:
    import dask.array as da

    state: dict[str, Any] = {}

    def matmul() -> Any:
        if "a" not in state:
            state["a"] = da.random.random((s["mm"], s["mm"]), chunks=s["mm_chunk"]).persist()
            state["b"] = da.random.random((s["mm"], s["mm"]), chunks=s["mm_chunk"]).persist()
        return (state["a"] @ state["b"]).compute()

    def seed() -> Any:
        a = da.random.random((s["seed"], s["seed"]), chunks=s["seed_chunk"])
        return da.tensordot(a, a, axes=(1, 1)).compute()

    return {
        "overhead": lambda: (da.ones(s["n_chunks"] * 100, chunks=100) + 1).sum().compute(),
        "seed": seed,
        "matmul": matmul,
        "elementwise": lambda: (
            ((da.random.random((s["big"], s["big"]), chunks=s["big_chunk"]) + 1) * 2)
            .sum()
            .compute()
        ),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    s = sizes(args.quick)
    import dask
    import numpy as np

    import jupyter_mars as mars
    from jupyter_mars.launcher import new_cluster

    print(f"machine: {platform.machine()}; NumPy {np.__version__}, Dask {dask.__version__}")
    print(f"sizes: {s}\n")
    results: dict[str, dict[str, float]] = {}

    start = time.perf_counter()
    cluster = new_cluster(n_worker=2, n_cpu=1)
    mars_start = time.perf_counter() - start
    try:
        for name, run in mars_workloads(s).items():
            results.setdefault(name, {})["mars"] = median_time(run, args.repeats)
    finally:
        cluster.stop()

    embedded = mars.new_session(n_cpu=2)
    for name, run in mars_workloads(s).items():
        results[name]["embedded"] = median_time(run, args.repeats)
    embedded.close()

    from dask.distributed import Client, LocalCluster

    start = time.perf_counter()
    dcluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = Client(dcluster)
    dask_start = time.perf_counter() - start
    try:
        for name, run in dask_workloads(s, client).items():
            results[name]["dask"] = median_time(run, args.repeats)
    finally:
        client.close()
        dcluster.close()

    print(f"cluster ready: mars {mars_start:.2f} s, Dask distributed {dask_start:.2f} s\n")
    columns = ["workload", "mars cluster s", "Dask distributed s", "embedded s"]
    print("| " + " | ".join([*columns, "mars/Dask", "mars/embedded"]) + " |")
    print("|---|---|---|---|---|---|")
    for name, r in results.items():
        line = (
            f"| {name} | {r['mars']:.3f} | {r['dask']:.3f} | {r['embedded']:.3f} "
            f"| {r['mars'] / r['dask']:.2f} | {r['mars'] / r['embedded']:.2f} |"
        )
        if name == "overhead":
            per = 1e3 / s["n_chunks"]
            line += f" ms/chunk: mars {r['mars'] * per:.2f}, Dask {r['dask'] * per:.2f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
