"""Out of core, arrays: a 6.3 GB float64 array held, then summed and maxed, within 2 GiB.

The workload as a Mars user writes it::

    x = mt.random.rand(786432, 1000, chunk_size=(8192, 1000))   # 96 chunks of 64 MiB
    x.execute(); x.sum().execute(); x.max().execute()

run on NumPy (no limit), Dask threads (no limit: ``persist()``, then ``sum`` and ``max``),
the embedded runtime with ``memory_limit="2GiB"`` and a local cluster of two single-core
workers with ``--cache-mem 1GiB`` each and a spill directory. Each runs in a fresh
interpreter, whose resident memory and its children's is sampled every 50 ms; the time
includes holding the array (Dask's ``persist`` too). Prints a Markdown table.

    .venv/bin/python bench/bench_out_of_core_array.py [--quick] [--repeats 1] [--only NAME]

``--quick`` runs a tenth of the rows (limits a tenth as large as well). The full size
needs about 7 GiB free for NumPy and Dask.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

import psutil

ROWS, COLS, CHUNK_ROWS = 786432, 1000, 8192
RUNTIMES = ("numpy", "dask-threads", "embedded", "cluster")


class PeakSampler:
    """The largest summed RSS of this process and its descendants, sampled every 50 ms;
    ``workers`` also tracks the summed RSS of the processes ``worker_pids`` returns."""

    def __init__(self, worker_pids: Callable[[], list[int]] = list) -> None:
        self.peak = 0
        self.workers_peak = 0
        self._worker_pids = worker_pids
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> PeakSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        me = psutil.Process()
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, _rss_tree(me))
            pids = self._worker_pids()
            if pids:
                self.workers_peak = max(self.workers_peak, sum(_rss_tree(p) for p in pids))


def _rss_tree(process: psutil.Process | int) -> int:
    try:
        root = process if isinstance(process, psutil.Process) else psutil.Process(process)
        family = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for p in family:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def run_numpy(rows: int, check: dict[str, float]) -> None:
    import numpy as np

    x = np.random.default_rng(0).random((rows, COLS))
    check["sum"], check["max"] = float(x.sum()), float(x.max())


def run_dask(rows: int, check: dict[str, float]) -> None:
    import dask
    import dask.array as da

    with dask.config.set(scheduler="threads"):
        x = da.random.random((rows, COLS), chunks=(CHUNK_ROWS, COLS)).persist()
        check["sum"], check["max"] = float(x.sum().compute()), float(x.max().compute())


def run_mars(check: dict[str, float], rows: int) -> Any:
    """The workload; returns the held array, whose chunks the runtime keeps until it goes."""
    import jupyter_mars.tensor as mt

    x = mt.random.rand(rows, COLS, chunk_size=(CHUNK_ROWS, COLS))
    x.execute()
    check["sum"] = float(x.sum().execute().fetch())
    check["max"] = float(x.max().execute().fetch())
    return x


def one(name: str, rows: int, scale: float) -> dict[str, Any]:
    """Run ``name`` in this process; its seconds, peak RSS and sanity figures."""
    check: dict[str, float] = {}
    workers: list[int] = []
    spill_root = tempfile.mkdtemp(prefix="bench-ooc-")
    with PeakSampler(lambda: workers) as sampler:
        if name == "numpy":
            start = time.perf_counter()
            run_numpy(rows, check)
        elif name == "dask-threads":
            start = time.perf_counter()
            run_dask(rows, check)
        elif name == "embedded":
            from jupyter_mars.session import new_session

            limit = int(2 * 2**30 * scale)
            with new_session(memory_limit=limit, spill_dir=spill_root) as session:
                start = time.perf_counter()
                held = run_mars(check, rows)
                seconds = time.perf_counter() - start
                check["store"] = session.memory_info()  # type: ignore[attr-defined]
                del held
        else:
            from jupyter_mars.launcher.local import new_cluster

            cache = int(2**30 * scale)
            with new_cluster(
                n_worker=2, n_cpu=1, cache_mem=cache, spill_dirs=[spill_root]
            ) as cluster:
                workers.extend(w.popen.pid for w in cluster.workers)
                start = time.perf_counter()
                held = run_mars(check, rows)
                # before the cluster stops, as the embedded session's time is taken
                # before it closes: stopping processes is not the workload
                seconds = time.perf_counter() - start
                del held
        if name in ("numpy", "dask-threads"):
            seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "peak": sampler.peak,
        "workers_peak": sampler.workers_peak,
        "check": check,
    }


def child(name: str, rows: int, scale: float) -> dict[str, Any]:
    """Run ``name`` in a fresh interpreter, so no runtime's memory counts for another."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", name, "--rows", str(rows), "--scale", str(scale)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    if out.returncode:
        sys.exit(f"{name} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the size")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--only", choices=RUNTIMES, action="append")
    parser.add_argument("--child", choices=RUNTIMES, help=argparse.SUPPRESS)
    parser.add_argument("--rows", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--scale", type=float, default=1.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one(args.child, args.rows, args.scale), default=str))
        return
    scale = 0.1 if args.quick else 1.0
    rows = int(ROWS * scale) // CHUNK_ROWS * CHUNK_ROWS
    gib = 2**30
    print(
        f"x: {rows} x {COLS} float64 = {rows * COLS * 8 / gib:.2f} GiB in "
        f"{rows // CHUNK_ROWS} chunks; embedded limit {2 * scale:.2f} GiB, "
        f"cluster 2 x {scale:.2f} GiB cache; {psutil.cpu_count()} cores, "
        f"{psutil.virtual_memory().total / gib:.0f} GiB\n"
    )
    print("| runtime | seconds | peak RSS (GiB) | workers' peak RSS (GiB) | sum | max |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in args.only or RUNTIMES:
        for _ in range(args.repeats):
            r = child(name, rows, scale)
            workers = f"{r['workers_peak'] / gib:.2f}" if r["workers_peak"] else ""
            print(
                f"| {name} | {r['seconds']:.2f} | {r['peak'] / gib:.2f} | {workers} | "
                f"{r['check']['sum']:.6g} | {r['check']['max']:.6f} |",
                flush=True,
            )
            if "store" in r["check"]:
                print(f"<!-- {name} store: {r['check']['store']} -->", flush=True)


if __name__ == "__main__":
    main()
