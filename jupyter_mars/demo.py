"""The seed example: ``python -m jupyter_mars.demo``.

Builds ``a = mt.random.rand(2000, 2000, chunk_size=200)`` and ``mt.inner(a, a)``, runs it
on the embedded runtime and on a local cluster (a supervisor and two workers started as
processes of this machine), checks both results against NumPy on the same data, and
prints a summary with the time taken, the cluster's web address and a link that opens
its dashboard logged in.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.launcher import new_cluster


def run_seed(size: int, chunk_size: int) -> tuple[float, np.ndarray, np.ndarray]:
    """Time the seed on the default session; the result and ``a``'s data."""
    start = time.perf_counter()
    mt.random.seed(0)
    a = mt.random.rand(size, size, chunk_size=chunk_size)
    b = mt.inner(a, a)
    b.execute()
    elapsed = time.perf_counter() - start
    return elapsed, b.fetch(), a.execute().fetch()


def report(where: str, elapsed: float, result: np.ndarray, data: np.ndarray) -> None:
    print(f"{where}: b = mt.inner(a, a) -> shape {result.shape}, dtype {result.dtype}")
    print(f"  sum {result.sum():.6e}  mean {result.mean():.6f}  trace {np.trace(result):.6e}")
    print(f"  b[:2, :2] = {result[:2, :2].tolist()}")
    print(f"  equal to numpy.inner on the same data: {np.allclose(result, np.inner(data, data))}")
    print(f"  time: {elapsed:.3f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2000, help="rows and columns of a")
    parser.add_argument("--chunk-size", type=int, default=200, help="chunk rows and columns")
    parser.add_argument("--n-cpu", type=int, default=None, help="embedded threads (all cores)")
    parser.add_argument("--workers", type=int, default=2, help="workers of the local cluster")
    parser.add_argument("--embedded-only", action="store_true", help="skip the local cluster")
    args = parser.parse_args(argv)

    print(f"a = mt.random.rand({args.size}, {args.size}, chunk_size={args.chunk_size})")
    session = mars.EmbeddedSession(n_cpu=args.n_cpu)
    session.as_default()
    report(f"embedded runtime ({session.n_cpu} threads)", *run_seed(args.size, args.chunk_size))
    session.close()
    if args.embedded_only:
        return 0
    started = time.perf_counter()
    with new_cluster(n_worker=args.workers, n_cpu=1) as cluster:
        ready = time.perf_counter() - started
        print(f"local cluster: {args.workers} workers of 1 core, ready in {ready:.2f} s")
        print(f"  web address: {cluster.endpoint} (API at {cluster.endpoint}/api/v1/cluster)")
        # the web address asks a browser for the cluster's token: this link logs it in
        link = cluster.session.dashboard_link() if cluster.session is not None else ""
        print(f"  dashboard: {link} (opens once, logged in, while the cluster runs)")
        report("local cluster", *run_seed(args.size, args.chunk_size))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
