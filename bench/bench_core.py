"""Core benchmark: NumPy, Dask (threaded scheduler) and jupyter_mars in one run.

Each (library, workload) pair runs in its own subprocess so that peak memory (max RSS)
is measured for that pair alone. Prints medians, ratios to NumPy and Dask, and peak
memory, with the machine and versions, as a Markdown table for docs/performance.md.

    .venv/bin/python bench/bench_core.py            # all workloads, 3 repeats
    .venv/bin/python bench/bench_core.py --quick    # smaller sizes, for a smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

WORKLOADS = ["seed", "elementwise", "mean_axis0", "matmul", "overhead"]
LIBRARIES = ["numpy", "dask", "mars"]


def sizes(quick: bool) -> dict[str, int]:
    if quick:
        return {
            "seed": 1000,
            "seed_chunk": 100,
            "big": 4000,
            "big_chunk": 1000,
            "mm": 1000,
            "mm_chunk": 250,
            "n_chunks": 1000,
        }
    return {
        "seed": 2000,
        "seed_chunk": 200,
        "big": 20000,
        "big_chunk": 2000,
        "mm": 4000,
        "mm_chunk": 1000,
        "n_chunks": 10000,
    }


def build(
    lib: str, workload: str, s: dict[str, int]
) -> tuple[Callable[[], object], Callable[[], None]]:
    """(setup, run) for one pair; setup's work is not timed."""
    import numpy as np

    state: dict[str, object] = {}
    if lib == "numpy":
        rng = np.random.default_rng(0)
        if workload == "seed":

            def run() -> object:
                a = np.random.rand(s["seed"], s["seed"])
                return np.inner(a, a)
        elif workload == "elementwise":

            def run() -> object:
                x = rng.random((s["big"], s["big"]))
                return ((x + 1) * 2).sum()
        elif workload == "mean_axis0":

            def run() -> object:
                x = rng.random((s["big"], s["big"]))
                return x.mean(axis=0)
        elif workload == "matmul":
            state["a"] = rng.random((s["mm"], s["mm"]))
            state["b"] = rng.random((s["mm"], s["mm"]))

            def run() -> object:
                return state["a"] @ state["b"]  # type: ignore[operator]
        else:

            def run() -> object:
                x = np.ones(s["n_chunks"] * 100)
                return (x + 1).sum()

        return (lambda: None), run
    if lib == "dask":
        import dask
        import dask.array as da

        dask.config.set(scheduler="threads")
        if workload == "seed":

            def run() -> object:
                a = da.random.random((s["seed"], s["seed"]), chunks=s["seed_chunk"])
                return da.tensordot(a, a, axes=(1, 1)).compute()  # np.inner for 2-D
        elif workload == "elementwise":

            def run() -> object:
                x = da.random.random((s["big"], s["big"]), chunks=s["big_chunk"])
                return ((x + 1) * 2).sum().compute()
        elif workload == "mean_axis0":

            def run() -> object:
                x = da.random.random((s["big"], s["big"]), chunks=s["big_chunk"])
                return x.mean(axis=0).compute()
        elif workload == "matmul":
            a = da.random.random((s["mm"], s["mm"]), chunks=s["mm_chunk"]).persist()
            b = da.random.random((s["mm"], s["mm"]), chunks=s["mm_chunk"]).persist()

            def run() -> object:
                return (a @ b).compute()
        else:

            def run() -> object:
                x = da.ones(s["n_chunks"] * 100, chunks=100)
                return (x + 1).sum().compute()

        return (lambda: None), run
    import jupyter_mars as mars
    import jupyter_mars.tensor as mt

    mars.new_session()
    if workload == "seed":

        def run() -> object:
            a = mt.random.rand(s["seed"], s["seed"], chunk_size=s["seed_chunk"])
            return mt.inner(a, a).execute()
    elif workload == "elementwise":

        def run() -> object:
            x = mt.random.rand(s["big"], s["big"], chunk_size=s["big_chunk"])
            return ((x + 1) * 2).sum().execute()
    elif workload == "mean_axis0":

        def run() -> object:
            x = mt.random.rand(s["big"], s["big"], chunk_size=s["big_chunk"])
            return x.mean(axis=0).execute()
    elif workload == "matmul":
        a = mt.random.rand(s["mm"], s["mm"], chunk_size=s["mm_chunk"]).execute()
        b = mt.random.rand(s["mm"], s["mm"], chunk_size=s["mm_chunk"]).execute()

        def run() -> object:
            return (a @ b).execute()
    else:

        def run() -> object:
            x = mt.ones(s["n_chunks"] * 100, chunk_size=100)
            return (x + 1).sum().execute()

    return (lambda: None), run


def child(lib: str, workload: str, repeats: int, quick: bool) -> None:
    setup, run = build(lib, workload, sizes(quick))
    setup()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {"median": statistics.median(times), "times": times, "peak_mib": peak_kib / 1024}
        )
    )


def versions() -> str:
    import dask
    import numpy as np

    import jupyter_mars

    return (
        f"Python {platform.python_version()}, NumPy {np.__version__}, Dask {dask.__version__}, "
        f"jupyter_mars {jupyter_mars.__version__}"
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=WORKLOADS)
    parser.add_argument("--child", nargs=2, metavar=("LIB", "WORKLOAD"))
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.repeats, args.quick)
        return 0
    s = sizes(args.quick)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores; {versions()}")
    print(f"sizes: {s}\n")
    columns = ["workload", "NumPy s", "Dask s", "mars s", "mars/NumPy", "mars/Dask"]
    print("| " + " | ".join([*columns, "peak MiB NumPy / Dask / mars"]) + " |")
    print("|---|---|---|---|---|---|---|")
    for workload in args.only:
        res = {}
        for lib in LIBRARIES:
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    lib,
                    workload,
                    "--repeats",
                    str(args.repeats),
                    *(["--quick"] if args.quick else []),
                ],
                capture_output=True,
                text=True,
                check=False,
            )
            if out.returncode != 0:
                print(f"{lib} {workload} failed:\n{out.stderr[-2000:]}", file=sys.stderr)
                res[lib] = {"median": float("nan"), "peak_mib": float("nan")}
                continue
            res[lib] = json.loads(out.stdout.strip().splitlines()[-1])
        n, d, m = (res[lib]["median"] for lib in LIBRARIES)
        peaks = " / ".join(f"{res[lib]['peak_mib']:.0f}" for lib in LIBRARIES)
        line = f"| {workload} | {n:.3f} | {d:.3f} | {m:.3f} | {m / n:.2f} | {m / d:.2f} | {peaks} |"
        if workload == "overhead":
            per = 1e6 / s["n_chunks"]
            line += f" µs/chunk: Dask {d * per:.0f}, mars {m * per:.0f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
