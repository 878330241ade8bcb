"""Out of core: a groupby over a Parquet dataset three times the cluster's ``--cache-mem``.

A local cluster of two single-core workers, each with ``--cache-mem`` of ``--cache-mib``
MiB and a spill directory. The dataset is read and held (``execute()``), which cannot fit
in memory and spills; then a groupby reads it back. The result is checked against pandas
and the workers' spill figures are printed.

    .venv/bin/python bench/bench_out_of_core.py [--cache-mib 128]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROW_BYTES = 24  # k int64, v float64, w float64


def write_dataset(folder: Path, total_bytes: int, n_files: int) -> None:
    rows = total_bytes // ROW_BYTES
    rng = np.random.default_rng(1)
    folder.mkdir(parents=True, exist_ok=True)
    for i, part in enumerate(np.array_split(np.arange(rows), n_files)):
        n = len(part)
        frame = pd.DataFrame(
            {"k": rng.integers(0, 1000, n), "v": rng.random(n), "w": rng.normal(size=n)}
        )
        frame.to_parquet(folder / f"part-{i:03d}.parquet", index=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-mib", type=int, default=128)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    import jupyter_mars.dataframe as md
    from jupyter_mars.launcher.local import new_cluster
    from jupyter_mars.remote import HttpClient

    cache = args.cache_mib * 2**20
    total = 3 * cache * args.workers
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "dataset"
        write_dataset(folder, total, n_files=48)
        spill = Path(tmp) / "spill"
        spill.mkdir()
        with new_cluster(
            n_worker=args.workers,
            n_cpu=1,
            cache_mem=f"{args.cache_mib}MiB",
            spill_dirs=[str(spill)],
        ) as cluster:
            start = time.perf_counter()
            held = md.read_parquet(str(folder)).execute()
            got = held.groupby("k").agg({"v": ["sum", "mean"], "w": "max"}).to_pandas()
            seconds = time.perf_counter() - start
            http = HttpClient(cluster.endpoint, cluster.token, timeout=10)
            workers = http.json("GET", "/api/v1/cluster")["workers"]
        expected = pd.read_parquet(folder).groupby("k").agg({"v": ["sum", "mean"], "w": "max"})
    pd.testing.assert_frame_equal(got, expected, check_exact=False, rtol=1e-9)
    stores = [w["resources"]["store"] for w in workers]
    spilled = sum(s["spilled_bytes"] for s in stores)
    writes = sum(s["spill_writes"] for s in stores)
    print(f"dataset {total / 2**20:.0f} MiB in memory; cache {args.workers} x {args.cache_mib} MiB")
    print(f"read + held + groupby: {seconds:.1f} s; result equal to pandas")
    print(f"chunks written to disk: {writes}; on disk at the end: {spilled / 2**20:.0f} MiB")
    for w, store in zip(workers, stores):
        print(f"  {w['address']}: {store}")


if __name__ == "__main__":
    main()
