"""DataFrame benchmark: jupyter_mars (embedded) against pandas and Dask DataFrame, in one run.

Workloads, data already in memory unless they read a file:

- groupby: ``groupby("k").v.agg(["mean", "sum"])`` on 20M rows x 1000 groups, 20 chunks;
- sort: ``sort_values("v")`` on 10M rows;
- merge: inner merge of 10M x 1M rows on an integer key (the right side's key unique);
- csv: ``read_csv`` of a ~1 GiB file, then the groupby;
- parquet: ``read_parquet`` of a dataset folder, a filter, then the groupby;
- resample: ``resample("5min").mean()`` of 20M rows one second apart (bins cross chunks);
- replace: ``replace({"k": {1: -1, 2: -2}, "v": {0.5: 0.0}})`` on the groupby's 20M rows.
- describe, quantile, agg: ``describe()``, ``quantile([0.1, 0.5, 0.9])`` and
  ``agg(["sum", "mean", "std", "min", "max", "skew"])`` of 10M rows x 4 float columns
  (Dask's quantiles are approximate, pandas' and jupyter_mars's exact).
- wide_sum, wide_mean, wide_filter: column sums, column means and a row filter by one
  column (``df[df[0] > 0]``) of a 5,000 x 10,000 frame of floats, which jupyter_mars
  splits by columns as well as rows (``chunk_size=(rows, 1000)``) and Dask by rows.

pandas runs single-threaded, as it does; Dask uses its threaded scheduler, and
jupyter_mars an embedded session, both with every core. Prints a Markdown table of
medians and ratios. Files are written once into ``--data-dir`` and reused.

    .venv/bin/python bench/bench_dataframe.py [--quick] [--repeats 3] [--only groupby,sort]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

FULL = {
    "groupby": 20_000_000,
    "groups": 1000,
    "sort": 10_000_000,
    "left": 10_000_000,
    "right": 1_000_000,
    "csv_rows": 24_000_000,
    "series": 20_000_000,
    "parts": 20,
    "stats": 10_000_000,
    "wide_rows": 5_000,
    "wide_cols": 10_000,
}
QUICK = {
    "groupby": 2_000_000,
    "groups": 1000,
    "sort": 1_000_000,
    "left": 1_000_000,
    "right": 100_000,
    "csv_rows": 2_000_000,
    "series": 2_000_000,
    "parts": 20,
    "stats": 1_000_000,
    "wide_rows": 500,
    "wide_cols": 10_000,
}
QUANTILES = [0.1, 0.5, 0.9]
AGGREGATIONS = ["sum", "mean", "std", "min", "max", "skew"]
WIDE_COLUMN_CHUNK = 1000
"""Columns per chunk of the wide frame in jupyter_mars."""


def median_time(run: Callable[[], Any], repeats: int) -> float:
    run()  # warm: imports, first allocations
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def make_data(s: dict[str, int], data_dir: Path) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    n = s["groupby"]
    grouped = pd.DataFrame({"k": rng.integers(0, s["groups"], n), "v": rng.random(n)})
    to_sort = pd.DataFrame({"v": rng.random(s["sort"]), "i": np.arange(s["sort"])})
    left = pd.DataFrame({"key": rng.integers(0, s["right"], s["left"]), "a": rng.random(s["left"])})
    right = pd.DataFrame({"key": rng.permutation(s["right"]), "b": rng.random(s["right"])})
    times = pd.date_range("2024-01-01 00:00:07", periods=s["series"], freq="s")
    series = pd.DataFrame({"v": rng.random(s["series"]), "w": rng.normal(size=s["series"])}, times)
    stats = pd.DataFrame(rng.normal(size=(s["stats"], 4)), columns=list("abcd"))
    data_dir.mkdir(parents=True, exist_ok=True)
    rows = s["csv_rows"]
    csv_path = data_dir / f"table-{rows}.csv"
    parquet_dir = data_dir / f"table-{rows}.parquet"
    if not csv_path.exists() or not parquet_dir.exists():
        table = pd.DataFrame(
            {
                "k": rng.integers(0, s["groups"], rows),
                "v": rng.random(rows),
                "w": rng.normal(size=rows),
                "s": rng.choice(["alpha", "beta", "gamma", "delta"], rows),
            }
        )
        tmp = csv_path.with_suffix(".tmp")
        table.to_csv(tmp, index=False)
        tmp.rename(csv_path)
        parquet_dir.mkdir(exist_ok=True)
        for i, part in enumerate(np.array_split(np.arange(rows), s["parts"])):
            table.iloc[part].to_parquet(parquet_dir / f"part-{i:03d}.parquet", index=False)
    wide = pd.DataFrame(rng.standard_normal((s["wide_rows"], s["wide_cols"])))
    return {
        "wide": wide,
        "grouped": grouped,
        "to_sort": to_sort,
        "left": left,
        "right": right,
        "series": series,
        "stats": stats,
        "csv": str(csv_path),
        "parquet": str(parquet_dir),
    }


def pandas_workloads(d: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    return {
        "groupby": lambda: d["grouped"].groupby("k").v.agg(["mean", "sum"]),
        "sort": lambda: d["to_sort"].sort_values("v"),
        "merge": lambda: d["left"].merge(d["right"], on="key"),
        "csv": lambda: pd.read_csv(d["csv"]).groupby("k").v.agg(["mean", "sum"]),
        "parquet": lambda: _filter_group(pd.read_parquet(d["parquet"])),
        "resample": lambda: d["series"].resample("5min").mean(),
        "replace": lambda: d["grouped"].replace(REPLACE),
        "describe": lambda: d["stats"].describe(),
        "quantile": lambda: d["stats"].quantile(QUANTILES),
        "agg": lambda: d["stats"].agg(AGGREGATIONS),
        "wide_sum": lambda: d["wide"].sum(),
        "wide_mean": lambda: d["wide"].mean(),
        "wide_filter": lambda: _filter_wide(d["wide"]),
    }


REPLACE = {"k": {1: -1, 2: -2}, "v": {0.5: 0.0}}


def _filter_wide(df: Any) -> Any:
    return df[df[0] > 0]


def _filter_group(df: Any) -> Any:
    return df[df.w > 0].groupby("k").v.agg(["mean", "sum"])


def dask_workloads(d: dict[str, Any], s: dict[str, int]) -> dict[str, Callable[[], Any]]:
    import dask
    import dask.dataframe as dd

    dask.config.set(scheduler="threads")
    parts = s["parts"]
    grouped = dd.from_pandas(d["grouped"], npartitions=parts).persist()
    to_sort = dd.from_pandas(d["to_sort"], npartitions=parts).persist()
    left = dd.from_pandas(d["left"], npartitions=parts).persist()
    right = dd.from_pandas(d["right"], npartitions=max(1, parts // 10)).persist()
    series = dd.from_pandas(d["series"], npartitions=parts).persist()
    stats = dd.from_pandas(d["stats"], npartitions=parts).persist()
    wide = dd.from_pandas(d["wide"], npartitions=4).persist()
    return {
        "groupby": lambda: grouped.groupby("k").v.agg(["mean", "sum"]).compute(),
        "sort": lambda: to_sort.sort_values("v").compute(),
        "merge": lambda: left.merge(right, on="key").compute(),
        "csv": lambda: dd.read_csv(d["csv"]).groupby("k").v.agg(["mean", "sum"]).compute(),
        "parquet": lambda: _filter_group(dd.read_parquet(d["parquet"])).compute(),
        "resample": lambda: series.resample("5min").mean().compute(),
        "replace": lambda: grouped.replace(REPLACE).compute(),
        "describe": lambda: stats.describe().compute(),
        "quantile": lambda: stats.quantile(QUANTILES).compute(),
        # Dask DataFrame has no agg: the same reductions, computed together
        "agg": lambda: (
            pd.DataFrame(
                dict(zip(AGGREGATIONS, dask.compute(*(getattr(stats, f)() for f in AGGREGATIONS))))
            ).T
        ),
        "wide_sum": lambda: wide.sum().compute(),
        "wide_mean": lambda: wide.mean().compute(),
        "wide_filter": lambda: _filter_wide(wide).compute(),
    }


def mars_workloads(d: dict[str, Any], s: dict[str, int]) -> dict[str, Callable[[], Any]]:
    import jupyter_mars.dataframe as md

    def frame(data: pd.DataFrame, parts: int) -> Any:
        return md.DataFrame(data, chunk_size=max(1, -(-len(data) // parts))).execute()

    parts = s["parts"]
    grouped = frame(d["grouped"], parts)
    to_sort = frame(d["to_sort"], parts)
    left = frame(d["left"], parts)
    right = frame(d["right"], max(1, parts // 10))
    series = frame(d["series"], parts)
    stats = frame(d["stats"], parts)
    rows = max(1, -(-len(d["wide"]) // 4))
    wide = md.DataFrame(d["wide"], chunk_size=(rows, WIDE_COLUMN_CHUNK)).execute()
    return {
        "groupby": lambda: grouped.groupby("k").v.agg(["mean", "sum"]).to_pandas(),
        "sort": lambda: to_sort.sort_values("v").to_pandas(),
        "merge": lambda: left.merge(right, on="key").to_pandas(),
        "csv": lambda: md.read_csv(d["csv"]).groupby("k").v.agg(["mean", "sum"]).to_pandas(),
        "parquet": lambda: _filter_group(md.read_parquet(d["parquet"])).to_pandas(),
        "resample": lambda: series.resample("5min").mean().to_pandas(),
        "replace": lambda: grouped.replace(REPLACE).to_pandas(),
        "describe": lambda: stats.describe().to_pandas(),
        "quantile": lambda: stats.quantile(QUANTILES).to_pandas(),
        "agg": lambda: stats.agg(AGGREGATIONS).to_pandas(),
        "wide_sum": lambda: wide.sum().to_pandas(),
        "wide_mean": lambda: wide.mean().to_pandas(),
        "wide_filter": lambda: _filter_wide(wide).to_pandas(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the sizes")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated workload names")
    parser.add_argument("--data-dir", default=os.environ.get("MARS_BENCH_DATA", "/tmp/mars-bench"))
    args = parser.parse_args()
    s = QUICK if args.quick else FULL
    only = [w for w in args.only.split(",") if w]
    data = make_data(s, Path(args.data_dir))

    import jupyter_mars as mars

    session = mars.new_session()
    runners = {
        "pandas": pandas_workloads(data),
        "dask": dask_workloads(data, s),
        "mars": mars_workloads(data, s),
    }
    names = [w for w in runners["pandas"] if not only or w in only]
    times: dict[str, dict[str, float]] = {w: {} for w in names}
    for name in names:
        for engine, workloads in runners.items():
            times[name][engine] = median_time(workloads[name], args.repeats)
    session.close()
    print(f"# {platform.machine()}, {os.cpu_count()} cores, medians of {args.repeats}\n")
    print("| workload | pandas s | Dask s | mars s | mars / pandas | mars / Dask |")
    print("|---|---|---|---|---|---|")
    for name in names:
        t = times[name]
        print(
            f"| {name} | {t['pandas']:.2f} | {t['dask']:.2f} | {t['mars']:.2f} | "
            f"{t['mars'] / t['pandas']:.2f}x | {t['mars'] / t['dask']:.2f}x |"
        )


if __name__ == "__main__":
    main()
