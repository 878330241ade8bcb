"""Sparse products on the embedded runtime against scipy.sparse on the same data
(median of 3 interleaved runs).

    .venv/bin/python bench/bench_sparse.py [n] [density] [chunk] [n_cpu]

Prints a small table: per case SciPy's time, ours, and the ratio (ours / SciPy; below 1
is faster). The sparse operands are executed once before timing; the products are
executed (and, on the "+ fetch" rows, fetched: the CSR chunks assembled into one matrix).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sps

import jupyter_mars as mars
import jupyter_mars.tensor as mt


def seconds(func: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    func()
    return time.perf_counter() - t0


def compare(name: str, scipy_func: Callable[[], Any], mars_func: Callable[[], Any]) -> None:
    # interleaved, so that load from other processes hits both sides alike
    ours, theirs = [], []
    for _ in range(3):
        theirs.append(seconds(scipy_func))
        ours.append(seconds(mars_func))
    t_sp, t_mt = statistics.median(theirs), statistics.median(ours)
    print(f"| {name:42s} | {t_sp:8.3f} | {t_mt:8.3f} | {t_mt / t_sp:6.2f} |", flush=True)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    density = float(sys.argv[2]) if len(sys.argv) > 2 else 1e-4
    chunk = int(sys.argv[3]) if len(sys.argv) > 3 else 25_000
    n_cpu = int(sys.argv[4]) if len(sys.argv) > 4 else None
    session = mars.new_session(n_cpu=n_cpu)
    rng = np.random.default_rng(0)
    a_sp = sps.random(n, n, density=density, format="csr", random_state=rng)
    b_sp = sps.random(n, n, density=density, format="csr", random_state=rng)
    dense = rng.random((n, 64))
    a = mt.tensor(a_sp, chunk_size=chunk).execute()
    b = mt.tensor(b_sp, chunk_size=chunk).execute()
    d = mt.tensor(dense, chunk_size=(chunk, 64)).execute()
    print(f"n_cpu={session.n_cpu}  {n}x{n}, density {density:g} ({a_sp.nnz} stored), chunk {chunk}")
    print(f"| {'case':42s} | {'scipy s':>8s} | {'mars s':>8s} | {'ratio':>6s} |")
    print(f"|{'-' * 44}|{'-' * 10}|{'-' * 10}|{'-' * 8}|")
    compare("sparse @ dense (n x 64)", lambda: a_sp @ dense, lambda: (a @ d).execute())
    compare(
        "sparse @ dense (n x 64), + fetch",
        lambda: a_sp @ dense,
        lambda: (a @ d).execute().fetch(),
    )
    compare("sparse @ sparse", lambda: a_sp @ b_sp, lambda: (a @ b).execute())
    compare("sparse @ sparse, + fetch", lambda: a_sp @ b_sp, lambda: (a @ b).execute().fetch())
    session.close()


if __name__ == "__main__":
    main()
