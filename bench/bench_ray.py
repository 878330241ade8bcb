"""Ray benchmark: ``new_ray_session`` against Dask-on-Ray and this project's own local
cluster, in one run.

Ray gets two CPUs on this machine (one local instance, ``ray.init(num_cpus=2)``), shared
by the Ray session and Dask-on-Ray (``dask.config.set(scheduler=ray_dask_get)``); the
cluster gets two single-core workers (``new_cluster(2, 1)``). Workloads: the seed
(``inner(a, a)``), the overhead graph (``(x + 1).sum()`` over 10,000 chunks: its time per
chunk is printed), a matmul of two executed arrays, and a groupby aggregation. Prints a
Markdown table with the ratios.

    .venv/bin/python bench/bench_ray.py [--quick] [--repeats 3] [--only matmul,groupby]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench_core import sizes  # the same array sizes as the embedded benchmark

WORKLOADS = ("seed", "overhead", "matmul", "groupby")


def median_time(run: Callable[[], Any], repeats: int) -> float:
    run()  # warm: imports, Ray's worker processes, the cluster's first graph
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def frame_sizes(quick: bool) -> dict[str, int]:
    return {"rows": 200_000, "groups": 100, "parts": 4} if quick else {
        "rows": 4_000_000, "groups": 1000, "parts": 20,
    }  # fmt: skip


def groupby_data(f: dict[str, int]) -> Any:
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    return pd.DataFrame({"k": rng.integers(0, f["groups"], f["rows"]), "v": rng.random(f["rows"])})


def mars_workloads(
    s: dict[str, int], f: dict[str, int], session: Any
) -> dict[str, Callable[[], Any]]:
    import jupyter_mars.dataframe as md
    import jupyter_mars.tensor as mt

    state: dict[str, Any] = {}
    data = groupby_data(f)

    def matmul() -> Any:
        if "a" not in state:
            state["a"] = mt.random.rand(s["mm"], s["mm"], chunk_size=s["mm_chunk"])
            state["b"] = mt.random.rand(s["mm"], s["mm"], chunk_size=s["mm_chunk"])
            session.execute(state["a"], state["b"])
        return session.fetch(session.execute(state["a"] @ state["b"]))

    def seed() -> Any:
        a = mt.random.rand(s["seed"], s["seed"], chunk_size=s["seed_chunk"])
        return session.fetch(session.execute(mt.inner(a, a)))

    def overhead() -> Any:
        x = mt.ones(s["n_chunks"] * 100, chunk_size=100)
        return session.fetch(session.execute((x + 1).sum()))

    def groupby() -> Any:
        frame = md.DataFrame(data, chunk_size=f["rows"] // f["parts"])
        return session.fetch(session.execute(frame.groupby("k").v.agg(["mean", "sum"])))

    return {"seed": seed, "overhead": overhead, "matmul": matmul, "groupby": groupby}


def dask_workloads(s: dict[str, int], f: dict[str, int]) -> dict[str, Callable[[], Any]]:
    import dask.array as da
    import dask.dataframe as dd

    state: dict[str, Any] = {}
    data = groupby_data(f)

    def matmul() -> Any:
        if "a" not in state:
            state["a"] = da.random.random((s["mm"], s["mm"]), chunks=s["mm_chunk"]).persist()
            state["b"] = da.random.random((s["mm"], s["mm"]), chunks=s["mm_chunk"]).persist()
        return (state["a"] @ state["b"]).compute()

    def seed() -> Any:
        a = da.random.random((s["seed"], s["seed"]), chunks=s["seed_chunk"])
        return da.tensordot(a, a, axes=(1, 1)).compute()

    def groupby() -> Any:
        frame = dd.from_pandas(data, npartitions=f["parts"])
        return frame.groupby("k").v.agg(["mean", "sum"]).compute()

    return {
        "seed": seed,
        "overhead": lambda: (da.ones(s["n_chunks"] * 100, chunks=100) + 1).sum().compute(),
        "matmul": matmul,
        "groupby": groupby,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default=",".join(WORKLOADS), help="workloads, comma-separated")
    args = parser.parse_args()
    only = args.only.split(",")
    unknown = sorted(set(only) - set(WORKLOADS))
    if unknown:
        parser.error(f"--only: no workload {unknown[0]!r}; the workloads: {', '.join(WORKLOADS)}")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    s, f = sizes(args.quick), frame_sizes(args.quick)
    import dask
    import numpy as np
    import ray
    from ray.util.dask import ray_dask_get

    import jupyter_mars as mars
    from jupyter_mars.launcher import new_cluster

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores; NumPy {np.__version__}, "
        f"Dask {dask.__version__}, Ray {ray.__version__}"
    )
    print(f"sizes: {s}, groupby: {f}\n")
    results: dict[str, dict[str, float]] = {name: {} for name in WORKLOADS if name in only}

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        session = mars.new_ray_session(default=False)
        for name, run in mars_workloads(s, f, session).items():
            if name not in results:
                continue
            results[name]["ray"] = median_time(run, args.repeats)
            print(f"  ray session {name}: {results[name]['ray']:.3f} s", flush=True)
        session.close()
        with dask.config.set(scheduler=ray_dask_get):
            for name, run in dask_workloads(s, f).items():
                if name not in results:
                    continue
                results[name]["dask"] = median_time(run, args.repeats)
                print(f"  Dask-on-Ray {name}: {results[name]['dask']:.3f} s", flush=True)
    finally:
        ray.shutdown()

    cluster = new_cluster(n_worker=2, n_cpu=1)
    try:
        for name, run in mars_workloads(s, f, cluster.session).items():
            if name not in results:
                continue
            results[name]["cluster"] = median_time(run, args.repeats)
            print(f"  mars cluster {name}: {results[name]['cluster']:.3f} s", flush=True)
    finally:
        cluster.stop()

    print()
    columns = ["workload", "Ray session s", "Dask-on-Ray s", "mars cluster s"]
    print("| " + " | ".join([*columns, "Ray session/Dask-on-Ray", "Ray session/cluster"]) + " |")
    print("|---|---|---|---|---|---|")
    for name, r in results.items():
        line = (
            f"| {name} | {r['ray']:.3f} | {r['dask']:.3f} | {r['cluster']:.3f} "
            f"| {r['ray'] / r['dask']:.2f} | {r['ray'] / r['cluster']:.2f} |"
        )
        if name == "overhead":
            per = 1e3 / s["n_chunks"]
            line += (
                f" ms/chunk: Ray session {r['ray'] * per:.3f}, Dask-on-Ray "
                f"{r['dask'] * per:.3f}, cluster {r['cluster'] * per:.3f}"
            )
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
