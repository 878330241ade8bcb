"""Compare chunked products with NumPy in one process (median of 3 interleaved runs).

    .venv/bin/python bench/bench_matmul.py

Prints, per case, NumPy's time, ours, the ratio (ours / NumPy), and the CPU time each
used per second of wall time (a loaded machine shows up as values well below n_cpu).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

import jupyter_mars as mars
import jupyter_mars.tensor as mt


def timed(func: Callable[[], Any]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (all threads of this process) of one call."""
    t0, c0 = time.perf_counter(), os.times()
    func()
    t1, c1 = time.perf_counter(), os.times()
    return t1 - t0, (c1.user - c0.user) + (c1.system - c0.system)


def compare(
    name: str, numpy_func: Callable[[], Any], mars_func: Callable[[], Any], n_cpu: int
) -> float:
    # interleaved, so that load from other processes hits both sides alike; NumPy gets
    # its BLAS threads explicitly (an execution may leave this thread's BLAS limited)
    np_runs, mt_runs = [], []
    for _ in range(3):
        with threadpool_limits(limits=n_cpu):
            np_runs.append(timed(numpy_func))
        mt_runs.append(timed(mars_func))
    t_np = statistics.median(w for w, _ in np_runs)
    t_mt = statistics.median(w for w, _ in mt_runs)
    cpu_np = statistics.median(c / w for w, c in np_runs)
    cpu_mt = statistics.median(c / w for w, c in mt_runs)
    print(
        f"{name:44s} numpy {t_np:6.3f}s (cpu {cpu_np:4.2f})  "
        f"mars {t_mt:6.3f}s (cpu {cpu_mt:4.2f})  ratio {t_mt / t_np:5.2f}",
        flush=True,
    )
    return t_mt / t_np


def bench_matmul(n: int) -> None:
    rng = np.random.default_rng(0)
    a_np = rng.random((4000, 4000))
    b_np = rng.random((4000, 4000))
    a = mt.tensor(a_np, chunk_size=1000).execute()
    b = mt.tensor(b_np, chunk_size=1000).execute()
    compare("a @ b, 4000^2 float64, chunk 1000", lambda: a_np @ b_np, lambda: (a @ b).execute(), n)
    compare(
        "a @ b, 4000^2, chunk 1000, + fetch",
        lambda: a_np @ b_np,
        lambda: (a @ b).execute().fetch(),
        n,
    )


def bench_seed(n: int) -> None:
    def seed_numpy() -> Any:
        x = np.random.rand(2000, 2000)
        return np.inner(x, x)

    def seed_mars() -> Any:
        if hasattr(mt.random, "rand"):
            x = mt.random.rand(2000, 2000, chunk_size=200)
        else:
            x = mt.tensor(np.random.rand(2000, 2000), chunk_size=200)
        return mt.inner(x, x).execute()

    compare("rand(2000, 2000) + inner(a, a), chunk 200", seed_numpy, seed_mars, n)


def bench_vector(n: int) -> None:
    v_np = np.random.default_rng(0).random(20_000_000)
    v = mt.tensor(v_np, chunk_size=2_000_000).execute()
    compare("dot of 2e7-vectors, chunk 2e6", lambda: v_np @ v_np, lambda: mt.dot(v, v).execute(), n)


def main() -> None:
    session = mars.new_session()
    print(f"n_cpu={session.n_cpu}")
    bench_matmul(session.n_cpu)
    bench_seed(session.n_cpu)
    bench_vector(session.n_cpu)
    session.close()


if __name__ == "__main__":
    main()
