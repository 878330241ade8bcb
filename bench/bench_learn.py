"""Learn benchmark: jupyter_mars.learn against scikit-learn and dask-ml, in one run.

One data set, generated once: 10M x 20 float64 rows (``--quick``: 1M) drawn around 8
centres, and a 0/1 label from a linear function of them plus logistic noise. Each library
holds it in its own memory before the clock starts: scikit-learn the NumPy array,
jupyter_mars a tensor executed on an embedded session, dask-ml a persisted Dask array,
both chunked by 1M rows (``--quick``: 100k, so that the quick run has chunks too).

- kmeans: 8 clusters, one initialisation, up to 100 iterations, ``tol=1e-4``: ours and
  dask-ml by k-means||, scikit-learn by its k-means++ (it has no k-means||);
- pca: 10 components, each library's ``svd_solver='auto'``;
- logistic: L2, ``C=1``, L-BFGS up to 100 iterations (dask-ml: its ``lbfgs`` solver);
- xgboost: 20 rounds of ``hist`` trees, depth 6, on a 2-worker local cluster of ours
  (``new_cluster(2, 1)``, ``jupyter_mars.learn.contrib.xgboost``) against ``xgboost.dask``
  on a 2-worker Dask ``LocalCluster``; skipped, with the reason, where
  ``jupyter_mars.learn.contrib.xgboost`` cannot be imported.

scikit-learn runs in this process with its own threads (OpenMP, BLAS), dask-ml on Dask's
threaded scheduler, ours on an embedded session with every core. Each time is the median
of ``--repeats`` runs after a warm-up run. The last column checks that the runs did the
same work: the inertia (against scikit-learn's) and the accuracy, both measured here on
the first 100k rows, and the explained variance. A contender that fails has its error in
its cell.

    .venv/bin/python bench/bench_learn.py [--quick] [--repeats 3] [--only kmeans,pca]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

WORKLOADS = ("kmeans", "pca", "logistic", "xgboost")
CONTENDERS = ("mars", "sklearn", "dask-ml")
FULL = {"rows": 10_000_000, "chunk": 1_000_000}
QUICK = {"rows": 1_000_000, "chunk": 100_000}
FEATURES, CLUSTERS, COMPONENTS, ROUNDS = 20, 8, 10, 20
CHECK_ROWS = 100_000
"""Rows the accuracy is measured on."""
KMEANS: dict[str, Any] = {"n_clusters": CLUSTERS, "max_iter": 100, "tol": 1e-4, "random_state": 0}
XGBOOST: dict[str, Any] = {
    "objective": "binary:logistic",
    "tree_method": "hist",
    "max_depth": 6,
    "eta": 0.3,
}


def median_time(run: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """The median time of ``repeats`` runs after a warm-up run, and the last run's result."""
    result = run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def make_data(rows: int, chunk: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    centers = rng.normal(scale=0.8, size=(CLUSTERS, FEATURES))  # overlapping: ~10 iterations
    x = rng.standard_normal((rows, FEATURES))
    w = rng.normal(size=FEATURES) / np.sqrt(FEATURES)
    y = np.empty(rows, dtype=np.int64)
    for start in range(0, rows, chunk):  # a block at a time: no second copy of x
        block = x[start : start + chunk]
        block += centers[rng.integers(0, CLUSTERS, len(block))]
        y[start : start + chunk] = block @ w + rng.logistic(size=len(block)) > 0
    return x, y


def accuracy(coef: Any, intercept: Any, x: np.ndarray, y: np.ndarray) -> float:
    margin = x[:CHECK_ROWS] @ np.ravel(coef) + float(np.ravel(intercept)[0])
    return float(np.mean((margin > 0) == y[:CHECK_ROWS]))


def inertia(centers: Any, x: np.ndarray) -> float:
    """Sum of squared distances of the first rows to their nearest centre."""
    rows = x[:CHECK_ROWS]
    distances = ((rows[:, None, :] - np.asarray(centers)[None, :, :]) ** 2).sum(axis=2)
    return float(distances.min(axis=1).sum())


def sklearn_workloads(x: np.ndarray, y: np.ndarray) -> dict[str, Callable[[], Any]]:
    from sklearn.cluster import KMeans
    from sklearn.decomposition import PCA
    from sklearn.linear_model import LogisticRegression

    return {
        "kmeans": lambda: KMeans(n_init=1, **KMEANS).fit(x),
        "pca": lambda: PCA(COMPONENTS).fit(x),
        "logistic": lambda: LogisticRegression(max_iter=100).fit(x, y),
    }


def mars_workloads(
    x: np.ndarray, y: np.ndarray, chunk: int, session: Any
) -> dict[str, Callable[[], Any]]:
    import jupyter_mars.tensor as mt
    from jupyter_mars.learn.cluster import KMeans
    from jupyter_mars.learn.decomposition import PCA
    from jupyter_mars.learn.linear_model import LogisticRegression

    xt = mt.tensor(x, chunk_size=(chunk, FEATURES))
    yt = mt.tensor(y, chunk_size=chunk)
    session.execute(xt, yt, show_progress=False)
    return {
        "kmeans": lambda: KMeans(init="k-means||", n_init=1, **KMEANS).fit(xt, session=session),
        "pca": lambda: PCA(COMPONENTS).fit(xt, session=session),
        "logistic": lambda: LogisticRegression(max_iter=100).fit(xt, yt, session=session),
    }


def dask_ml_workloads(x: np.ndarray, y: np.ndarray, chunk: int) -> dict[str, Callable[[], Any]]:
    import dask
    import dask.array as da
    from dask_ml.cluster import KMeans
    from dask_ml.decomposition import PCA
    from dask_ml.linear_model import LogisticRegression

    dask.config.set(scheduler="threads")
    xd = da.from_array(x, chunks=(chunk, FEATURES)).persist()
    yd = da.from_array(y, chunks=chunk).persist()
    return {
        "kmeans": lambda: KMeans(init="k-means||", **KMEANS).fit(xd),
        "pca": lambda: PCA(COMPONENTS).fit(xd),
        "logistic": lambda: LogisticRegression(solver="lbfgs", C=1.0, max_iter=100).fit(xd, yd),
    }


def check(
    name: str, model: Any, seconds: float, x: np.ndarray, y: np.ndarray, reference: Any
) -> str:
    """What the fitted ``model`` found, against scikit-learn's (``reference``) where run."""
    if name == "kmeans":
        # measured here, the same way for all: dask-ml's own inertia_ is not the sum
        # of squared distances scikit-learn's is
        found = inertia(model.cluster_centers_, x)
        versus = (
            "" if reference is None else f" (x{found / inertia(reference.cluster_centers_, x):.4f})"
        )
        n_iter = int(model.n_iter_)
        return f"inertia {found:.5g}{versus}, {n_iter} iter, {seconds / n_iter:.3f} s/iter"
    if name == "pca":
        explained = np.asarray(model.explained_variance_ratio_)
        gap = "" if reference is None else (
            f", max diff {np.max(np.abs(explained - reference.explained_variance_ratio_)):.1e}"
        )  # fmt: skip
        return f"explained {explained.sum():.4f}{gap}"
    score = f"accuracy {accuracy(model.coef_, model.intercept_, x, y):.4f}"
    iterations = getattr(model, "n_iter_", None)  # dask-ml's has none
    return score if iterations is None else f"{score}, {np.ravel(iterations)[0]} iter"


def run_in_memory(
    names: list[str], x: np.ndarray, y: np.ndarray, chunk: int, repeats: int
) -> dict[str, dict[str, Any]]:
    """Times and checks of the in-memory workloads, per workload and contender."""
    import jupyter_mars as mars

    results: dict[str, dict[str, Any]] = {name: {} for name in names}
    makers: dict[str, Callable[[], dict[str, Callable[[], Any]]]] = {
        "sklearn": lambda: sklearn_workloads(x, y),
        "mars": lambda: mars_workloads(x, y, chunk, session),
        "dask-ml": lambda: dask_ml_workloads(x, y, chunk),
    }
    session = mars.new_session(default=False)
    try:
        for contender in ("sklearn", "mars", "dask-ml"):  # scikit-learn's is the reference
            try:
                workloads = makers[contender]()
            except Exception as exc:  # noqa: BLE001 - reported in the table
                for name in names:
                    results[name][contender] = f"error: {type(exc).__name__}: {exc}"
                continue
            for name in names:
                try:
                    seconds, model = median_time(workloads[name], repeats)
                except Exception as exc:  # noqa: BLE001 - reported in the table
                    results[name][contender] = f"error: {type(exc).__name__}: {exc}"[:200]
                    print(f"  {contender} {name}: {results[name][contender]}", flush=True)
                    continue
                reference = results[name].get("sklearn")
                reference_model = reference[1] if isinstance(reference, tuple) else None
                results[name][contender] = (
                    seconds,
                    model,
                    check(name, model, seconds, x, y, reference_model),
                )
                print(
                    f"  {contender} {name}: {seconds:.3f} s, {results[name][contender][2]}",
                    flush=True,
                )
            workloads.clear()  # the contender's copy of the data goes
    finally:
        session.close()
    return results


def run_xgboost(x: np.ndarray, y: np.ndarray, chunk: int, repeats: int) -> dict[str, Any] | str:
    """Times of ours on a 2-worker local cluster and of xgboost.dask on a 2-worker Dask
    LocalCluster, or why the workload was skipped."""
    try:
        from jupyter_mars.learn.contrib.xgboost import MarsDMatrix, train
    except ImportError as exc:
        return f"skipped: jupyter_mars.learn.contrib.xgboost cannot be imported ({exc})"
    import xgboost

    import jupyter_mars.tensor as mt
    from jupyter_mars.launcher import new_cluster

    params = {**XGBOOST, "nthread": 1}
    sample = xgboost.DMatrix(x[:CHECK_ROWS])

    def quality(booster: Any) -> str:
        found = booster.predict(sample) > 0.5
        return f"accuracy {np.mean(found == y[:CHECK_ROWS]):.4f}"

    out: dict[str, Any] = {}
    cluster = None
    try:
        cluster = new_cluster(n_worker=2, n_cpu=1)
        s = cluster.session
        xt = mt.tensor(x, chunk_size=(chunk, FEATURES))
        yt = mt.tensor(y, chunk_size=chunk)
        s.execute(xt, yt, show_progress=False)
        seconds, booster = median_time(
            lambda: train(params, MarsDMatrix(xt, label=yt), num_boost_round=ROUNDS, session=s),
            repeats,
        )
        out["mars"] = (seconds, booster, quality(booster))
    except Exception as exc:  # noqa: BLE001 - reported in the table
        out["mars"] = f"error: {type(exc).__name__}: {exc}"[:200]
    finally:
        if cluster is not None:
            cluster.stop()
    try:
        out["xgboost.dask"] = dask_xgboost(x, y, chunk, repeats, params, quality)
    except Exception as exc:  # noqa: BLE001 - reported in the table
        out["xgboost.dask"] = f"error: {type(exc).__name__}: {exc}"[:200]
    return out


def dask_xgboost(
    x: np.ndarray,
    y: np.ndarray,
    chunk: int,
    repeats: int,
    params: dict[str, Any],
    quality: Callable[[Any], str],
) -> tuple[float, Any, str]:
    """``xgboost.dask.train`` on a 2-worker Dask LocalCluster, the data persisted there."""
    import dask.array as da
    from distributed import Client, LocalCluster
    from xgboost import dask as dask_xgb

    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as local:
        with Client(local) as client:
            xd = client.persist(da.from_array(x, chunks=(chunk, FEATURES)))
            yd = client.persist(da.from_array(y, chunks=chunk))

            def train() -> Any:
                dtrain = dask_xgb.DaskDMatrix(client, xd, yd)
                return dask_xgb.train(client, params, dtrain, num_boost_round=ROUNDS)

            seconds, found = median_time(train, repeats)
            return seconds, found["booster"], quality(found["booster"])


def cell(entry: Any) -> str:
    return f"{entry[0]:.3f}" if isinstance(entry, tuple) else str(entry or "-")


def ratio(ours: Any, theirs: Any) -> str:
    if isinstance(ours, tuple) and isinstance(theirs, tuple):
        return f"{ours[0] / theirs[0]:.3g}"
    return "-"


def print_tables(results: dict[str, dict[str, Any]], xgb: dict[str, Any] | str | None) -> None:
    if results:
        print_in_memory(results)
    if isinstance(xgb, str):
        print(f"\nxgboost: {xgb}")
    elif xgb is not None:
        ours, theirs = xgb.get("mars"), xgb.get("xgboost.dask")
        columns = ["workload", "mars cluster s", "xgboost.dask s", "mars/xgboost.dask"]
        columns += ["check (mars; xgboost.dask)"]
        print("\n| " + " | ".join(columns) + " |")
        print("|---" * len(columns) + "|")
        checks = "; ".join(e[2] if isinstance(e, tuple) else "-" for e in (ours, theirs))
        print(f"| xgboost | {cell(ours)} | {cell(theirs)} | {ratio(ours, theirs)} | {checks} |")


def print_in_memory(results: dict[str, dict[str, Any]]) -> None:
    columns = ["workload", "mars s", "scikit-learn s", "dask-ml s", "mars/scikit-learn"]
    columns += ["mars/dask-ml", "check (mars; scikit-learn; dask-ml)"]
    print("| " + " | ".join(columns) + " |")
    print("|---" * len(columns) + "|")
    for name, r in results.items():
        checks = "; ".join(r[c][2] if isinstance(r.get(c), tuple) else "-" for c in CONTENDERS)
        print(
            f"| {name} | {cell(r.get('mars'))} | {cell(r.get('sklearn'))} | "
            f"{cell(r.get('dask-ml'))} | {ratio(r.get('mars'), r.get('sklearn'))} | "
            f"{ratio(r.get('mars'), r.get('dask-ml'))} | {checks} |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the rows")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default=",".join(WORKLOADS), help="workloads, comma-separated")
    args = parser.parse_args()
    only = [w for w in args.only.split(",") if w]
    unknown = sorted(set(only) - set(WORKLOADS))
    if unknown:
        parser.error(f"--only: no workload {unknown[0]!r}; the workloads: {', '.join(WORKLOADS)}")
    warnings.filterwarnings("ignore")  # convergence and deprecation notes of the contenders
    s = QUICK if args.quick else FULL
    import dask
    import sklearn

    try:
        import dask_ml

        dask_ml_version = dask_ml.__version__
    except ImportError as exc:
        dask_ml_version = f"not importable ({exc})"
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores; NumPy {np.__version__}, "
        f"scikit-learn {sklearn.__version__}, Dask {dask.__version__}, dask-ml {dask_ml_version}"
    )
    print(f"data: {s['rows']:,} x {FEATURES} float64, chunks of {s['chunk']:,} rows\n", flush=True)
    x, y = make_data(s["rows"], s["chunk"])
    names = [w for w in WORKLOADS if w in only and w != "xgboost"]
    results = run_in_memory(names, x, y, s["chunk"], args.repeats) if names else {}
    xgb = run_xgboost(x, y, s["chunk"], args.repeats) if "xgboost" in only else None
    print(f"\n# medians of {args.repeats} after a warm-up run\n")
    print_tables(results, xgb)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
