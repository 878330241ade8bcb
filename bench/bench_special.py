"""``mt.special`` on the embedded runtime against ``scipy.special`` on the same data.

For each function the input size is chosen so that SciPy takes about ``--target``
seconds (default 0.5): a cheap function (erf) gets many more elements than an expensive
one (jv). jupyter_mars runs the same data as a tensor cut into ``--chunks`` chunks, timed
from ``execute()`` to the fetched NumPy array. Prints medians and the ratio
mars / scipy (below 1: faster) as a Markdown table.

    .venv/bin/python bench/bench_special.py             # about half a minute
    .venv/bin/python bench/bench_special.py --n-cpu 1   # one core's worth
    .venv/bin/python bench/bench_special.py --quick     # smaller sizes, a smoke run
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy
import scipy.special as sc

import jupyter_mars as mars
import jupyter_mars.tensor as mt

# name -> (operands for n elements, what the row says about them)
WORKLOADS: dict[str, tuple[Callable[[np.random.Generator, int], list[Any]], str]] = {
    "erf": (lambda rng, n: [rng.uniform(-3, 3, n)], "x in (-3, 3)"),
    "gammaln": (lambda rng, n: [rng.uniform(0.1, 50, n)], "x in (0.1, 50)"),
    "jv": (lambda rng, n: [rng.uniform(0, 10, n), rng.uniform(0, 50, n)], "v in (0, 10), z"),
}


def median_time(run: Callable[..., object], args: list[Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run_mars(func: Callable[..., Any], *tensors: Any) -> Any:
    return func(*tensors).execute().fetch()


def size_for(name: str, target: float, rng: np.random.Generator) -> int:
    """Elements for which SciPy takes about ``target`` seconds, from a timed sample."""
    make, _ = WORKLOADS[name]
    n = 100_000
    while True:
        args = make(rng, n)
        elapsed = median_time(getattr(sc, name), args, 1)
        if elapsed > 0.05:
            return int(n * target / elapsed)
        n *= 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", type=float, default=0.5, help="seconds SciPy should take")
    parser.add_argument("--chunks", type=int, default=8, help="chunks per tensor")
    parser.add_argument("--n-cpu", type=int, default=None, help="cores of the session")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="target 0.1 s, one repeat")
    opts = parser.parse_args()
    target, repeats = (0.1, 1) if opts.quick else (opts.target, opts.repeats)

    rng = np.random.default_rng(0)
    session = mars.new_session(n_cpu=opts.n_cpu)
    rows = []
    try:
        for name, (make, note) in WORKLOADS.items():
            n = size_for(name, target, rng)
            args = make(rng, n)
            chunk = -(-n // opts.chunks)
            tensors = [mt.tensor(a, chunk_size=chunk) for a in args]
            expected = getattr(sc, name)(*args)
            got = getattr(mt.special, name)(*tensors).execute().fetch()
            np.testing.assert_allclose(got, expected, rtol=1e-12, equal_nan=True)
            scipy_s = median_time(getattr(sc, name), args, repeats)
            mars_s = median_time(run_mars, [getattr(mt.special, name), *tensors], repeats)
            rows.append((name, note, n, scipy_s, mars_s))
    finally:
        session.close()

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(
        f"{platform.processor() or platform.machine()}, {cpus} CPUs; numpy {np.__version__}, "
        f"scipy {scipy.__version__}; session n_cpu={session.n_cpu}, {opts.chunks} chunks a tensor, "
        f"median of {repeats}\n"
    )
    print("| function | data | elements | scipy.special (s) | mt.special (s) | mars / scipy |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for name, note, n, scipy_s, mars_s in rows:
        ratio = mars_s / scipy_s
        print(f"| {name} | {note} | {n:,} | {scipy_s:.3f} | {mars_s:.3f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
