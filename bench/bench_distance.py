"""Compare ``mt.spatial.distance`` (``cdist``, ``pdist``) with SciPy in one process.

    .venv/bin/python bench/bench_distance.py [--n-cpu 2] [--target 0.5]

Each case's number of rows is doubled until SciPy takes about ``--target`` seconds; then
SciPy and the embedded runtime run it three times, interleaved, and the table shows the
medians and their ratio (ours / SciPy). Our inputs are executed tensors already, chunked
in blocks of rows (four blocks per core), so the time is the distances alone.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.spatial import distance as sd

import jupyter_mars as mars
import jupyter_mars.tensor as mt

FEATURES = 32
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("cdist", "euclidean", {}),
    ("cdist", "cosine", {}),
    ("cdist", "minkowski", {"p": 3}),
    ("cdist", "seuclidean", {}),
    ("pdist", "euclidean", {}),
    ("pdist", "cityblock", {}),
    ("pdist", "correlation", {}),
]


def seconds(func: Callable[..., Any], *args: Any, **kwargs: Any) -> float:
    start = time.perf_counter()
    func(*args, **kwargs)
    return time.perf_counter() - start


def mars_call(kind: str, metric: str, kwargs: dict[str, Any], *operands: Any) -> Any:
    return getattr(mt.spatial.distance, kind)(*operands, metric, **kwargs).execute()


def scipy_call(kind: str, metric: str, kwargs: dict[str, Any], x: Any, y: Any) -> Any:
    if kind == "cdist":
        return sd.cdist(x, y, metric, **kwargs)
    return sd.pdist(x, metric, **kwargs)


def rows_for(kind: str, metric: str, kwargs: dict[str, Any], target: float) -> int:
    """Rows (of each input) for which SciPy takes about ``target`` seconds."""
    rng = np.random.default_rng(0)
    rows = 256
    while True:
        x = rng.random((rows, FEATURES))
        took = seconds(scipy_call, kind, metric, kwargs, x, x)
        if took >= target / 4 or rows >= 1 << 16:
            # the work grows with rows squared
            return int(rows * np.sqrt(target / took))
        rows *= 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-cpu", type=int, default=2)
    parser.add_argument("--target", type=float, default=0.5)
    args = parser.parse_args()
    session = mars.new_session(n_cpu=args.n_cpu)
    rng = np.random.default_rng(1)
    print(f"| case | rows x features | scipy s | mars s ({args.n_cpu} cpu) | ratio |")
    print("| --- | --- | ---: | ---: | ---: |")
    for kind, metric, kwargs in CASES:
        rows = rows_for(kind, metric, kwargs, args.target)
        x = rng.random((rows, FEATURES))
        y = rng.random((rows, FEATURES))
        chunk = max(1, rows // (4 * args.n_cpu))
        tx = mt.tensor(x, chunk_size=(chunk, FEATURES)).execute()
        ty = mt.tensor(y, chunk_size=(chunk, FEATURES)).execute()
        operands = (tx, ty) if kind == "cdist" else (tx,)
        scipy_times, mars_times = [], []
        for _ in range(3):
            scipy_times.append(seconds(scipy_call, kind, metric, kwargs, x, y))
            mars_times.append(seconds(mars_call, kind, metric, kwargs, *operands))
        t_scipy, t_mars = statistics.median(scipy_times), statistics.median(mars_times)
        print(
            f"| {kind} {metric} | {rows} x {FEATURES} | {t_scipy:.3f} | {t_mars:.3f} "
            f"| {t_mars / t_scipy:.2f} |",
            flush=True,
        )
    session.close()


if __name__ == "__main__":
    main()
