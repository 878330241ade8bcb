"""The seed example: ``python -m jupyter_mars.demo``.

Builds ``a = mt.random.rand(2000, 2000, chunk_size=200)`` and ``mt.inner(a, a)`` on the
embedded runtime, checks the result against NumPy on the same data, and prints a summary
with the time taken.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import jupyter_mars as mars
import jupyter_mars.tensor as mt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2000, help="rows and columns of a")
    parser.add_argument("--chunk-size", type=int, default=200, help="chunk rows and columns")
    parser.add_argument("--n-cpu", type=int, default=None, help="threads (default: all cores)")
    args = parser.parse_args(argv)

    session = mars.EmbeddedSession(n_cpu=args.n_cpu)
    session.as_default()
    print(f"jupyter_mars {mars.__version__}: embedded session with {session.n_cpu} threads")
    start = time.perf_counter()
    mt.random.seed(0)
    a = mt.random.rand(args.size, args.size, chunk_size=args.chunk_size)
    b = mt.inner(a, a)
    b.execute()
    elapsed = time.perf_counter() - start
    result = b.fetch()
    a.execute()  # the same seed and chunks give the same numbers again
    data = a.fetch()
    check = np.inner(data, data)
    print(f"a = mt.random.rand({args.size}, {args.size}, chunk_size={args.chunk_size})")
    print(f"b = mt.inner(a, a): shape {result.shape}, dtype {result.dtype}")
    print(f"  sum {result.sum():.6e}  mean {result.mean():.6f}  trace {np.trace(result):.6e}")
    print(f"  b[:2, :2] =\n{result[:2, :2]}")
    print(f"  equal to numpy.inner on the same data: {np.allclose(result, check)}")
    print(f"time: {elapsed:.3f} s")
    session.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
