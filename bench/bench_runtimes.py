"""The runtime table: six workloads on five runtimes in one run, with seconds and peak memory.

Runtimes, on this machine:

- ``numpy``: pandas / NumPy in this process, single-threaded (BLAS limited to one thread);
- ``dask-threads``: Dask's threaded scheduler with 2 threads;
- ``dask-distributed``: ``LocalCluster(n_workers=2, threads_per_worker=1, processes=True)``;
- ``embedded``: ``jupyter_mars.new_session(n_cpu=2)``, the thread pool in this process;
- ``mars-cluster``: ``new_cluster(n_worker=2, n_cpu=1)`` and its session.

Workloads (``--quick``: the smaller sizes of ``bench_dataframe.py`` and ``bench_core.py``):

1. ``groupby-agg``: ``groupby("k").v.agg(["mean", "sum"])`` of 20M rows, 1000 keys;
2. ``sort_values``: ``sort_values("v")`` of 10M rows, fetched;
3. ``merge``: 10M x 1M rows on an integer key, fetched;
4. ``element-wise``: ``x = (arange(n)[:, None] * n + arange(n)[None, :]) * c;
   x = x - floor(x)`` with n = 20000, then ``((x + 1) * 2).sum()`` and ``x.mean(axis=0)``
   in one call, the tensors built inside the timing;
5. ``seed``: ``a = rand(2000, 2000)`` in chunks of 200, ``inner(a, a)`` and
   ``DataFrame(a).sum()`` in one call, generating ``a`` inside the timing (Dask has no
   ``inner``: ``tensordot(a, a, axes=(1, 1))`` is the same product);
6. ``out-of-core``: ``rand(786432, 1000)`` (6.3 GB, chunks of 8192 x 1000) held, then its
   ``sum()`` and ``max()``; the embedded session with ``memory_limit="2GiB"`` where
   ``new_session`` takes it, Dask distributed with ``memory_limit="1GiB"`` per worker,
   the cluster with ``cache_mem="1GiB"`` per worker and a spill directory; pandas / NumPy
   and Dask threads without a limit. It runs last.

The frames are split in 20 chunks (the merge's right side in 2) and held (persisted)
before the timing. Every result is checked against pandas / NumPy on the same data; a
seed or out-of-core array, drawn by the runtime, is fetched after the timing for that.

Peak memory: the resident memory (RSS) sampled every 20 ms while the timed call runs,
the highest over the repeats. In-process runtimes: this process and its children, less
what they held before the call. Clusters: the worker processes (with Mars's nanny
processes) as they are, held data included; the client, supervisor or scheduler are not
counted. Prints a Markdown table of medians, "seconds (peak MiB)".

    .venv/bin/python bench/bench_runtimes.py [--quick] [--repeats 3] [--only seed,merge]
        [--runtimes numpy,embedded]
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import ctypes.util
import gc
import inspect
import logging
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import psutil
from bench_core import sizes as tensor_sizes
from bench_core import versions
from bench_dataframe import FULL, QUICK
from threadpoolctl import threadpool_limits

WORKLOADS = ["groupby-agg", "sort_values", "merge", "element-wise", "seed", "out-of-core"]
OUT_OF_CORE = "out-of-core"
FRAME_PARTS = 20
GOLDEN = 0.6180339887
OOC_COLUMNS = 1000
OOC_CHUNK_ROWS = 8192
OOC_ROWS = {False: 786_432, True: 78_643}  # by --quick
EMBEDDED_LIMIT = "2GiB"
WORKER_LIMIT = "1GiB"
SAMPLE_EVERY = 0.02
TREE_EVERY = 50
RTOL = 1e-7
SIZES = ["groupby", "groups", "sort", "left", "right", "big", "big_chunk", "seed", "seed_chunk"]
"""The sizes of the two scripts' tables that these workloads use."""


# ---------------------------------------------------------------- timing and peak memory


def _tree(pids: list[int]) -> list[psutil.Process]:
    procs = []
    for pid in pids:
        try:
            proc = psutil.Process(pid)
            procs += [proc, *proc.children(recursive=True)]
        except psutil.NoSuchProcess:
            pass
    return procs


def _give_back_freed_memory() -> None:
    """Return the C heap's free pages to the system, so that the RSS measured before a
    call is what this process holds, not what earlier calls freed (glibc keeps it)."""
    gc.collect()
    name = ctypes.util.find_library("c")
    if name and platform.system() == "Linux":
        ctypes.CDLL(name).malloc_trim(0)


def _rss(procs: list[psutil.Process]) -> int:
    total = 0
    for proc in procs:
        with contextlib.suppress(psutil.NoSuchProcess):
            total += proc.memory_info().rss
    return total


class PeakSampler:
    """Samples the summed RSS of some processes (and their children) in a thread.

    Finding the children scans every process of the machine (about 3 ms), so the tree is
    found again only every ``TREE_EVERY`` samples; reading the RSS of known processes
    costs microseconds, which keeps the sampler off the cores being measured."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.peak = _rss(_tree(pids))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        procs: list[psutil.Process] = []
        samples = 0
        while not self._stop.wait(SAMPLE_EVERY):
            if samples % TREE_EVERY == 0:
                procs = _tree(self.pids)
            samples += 1
            self.peak = max(self.peak, _rss(procs))

    def __enter__(self) -> PeakSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, _rss(_tree(self.pids)))


@dataclass
class Measure:
    seconds: float
    peak_mib: float
    result: Any


def measure(run: Callable[[], Any], runtime: Runtime, repeats: int) -> Measure:
    """Median seconds and highest peak of ``repeats`` calls, and the last call's result."""
    times, peaks, result = [], [], None
    for _ in range(repeats):
        result = None
        _give_back_freed_memory()
        before = _rss(_tree(runtime.pids())) if runtime.in_process else 0
        with PeakSampler(runtime.pids()) as sampler:
            start = time.perf_counter()
            result = run()
            times.append(time.perf_counter() - start)
        peaks.append((sampler.peak - before) / 2**20)
    return Measure(statistics.median(times), max(peaks), result)


# ---------------------------------------------------------------- runtimes


@dataclass
class Runtime:
    name: str
    family: str  # "numpy", "dask" or "mars": which code builds the workloads
    in_process: bool
    pids: Callable[[], list[int]]
    note: str = ""
    """Shown in every cell of this runtime (a limit it cannot be given yet)."""


def _this_process() -> list[int]:
    return [os.getpid()]


@contextlib.contextmanager
def numpy_runtime(limited: bool, spill_dir: str) -> Iterator[Runtime]:
    with threadpool_limits(limits=1):
        yield Runtime("numpy", "numpy", True, _this_process)


@contextlib.contextmanager
def dask_threads(limited: bool, spill_dir: str) -> Iterator[Runtime]:
    import dask

    # BLAS one thread per pool thread, as Dask distributed's workers and the embedded
    # runtime have it: two threads each calling a 2-thread BLAS fight over 2 cores
    with dask.config.set(scheduler="threads", num_workers=2), threadpool_limits(limits=1):
        yield Runtime("dask-threads", "dask", True, _this_process)


@contextlib.contextmanager
def dask_distributed(limited: bool, spill_dir: str) -> Iterator[Runtime]:
    from dask.distributed import Client, LocalCluster

    limits: dict[str, Any] = (
        {"memory_limit": WORKER_LIMIT, "local_directory": spill_dir} if limited else {}
    )
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,  # not the heartbeats failing at close
            **limits,
        ) as cluster,
        Client(cluster) as client,
    ):
        pids = list(client.run(os.getpid).values())
        yield Runtime("dask-distributed", "dask", False, lambda: pids)


@contextlib.contextmanager
def embedded(limited: bool, spill_dir: str) -> Iterator[Runtime]:
    import jupyter_mars as mars

    kwargs: dict[str, Any] = {}
    note = ""
    if limited and "memory_limit" in inspect.signature(mars.new_session).parameters:
        kwargs["memory_limit"] = EMBEDDED_LIMIT
    elif limited:
        note = "no limit yet"
    with mars.new_session(n_cpu=2, **kwargs):
        yield Runtime("embedded", "mars", True, _this_process, note=note)


@contextlib.contextmanager
def mars_cluster(limited: bool, spill_dir: str) -> Iterator[Runtime]:
    from jupyter_mars.launcher.local import new_cluster

    limits: dict[str, Any] = (
        {"cache_mem": WORKER_LIMIT, "spill_dirs": [spill_dir]} if limited else {}
    )
    with new_cluster(n_worker=2, n_cpu=1, **limits) as cluster:
        pids = [w.popen.pid for w in cluster.workers]  # the nannies, their workers below
        yield Runtime("mars-cluster", "mars", False, lambda: pids)


StartRuntime = Callable[[bool, str], contextlib.AbstractContextManager[Runtime]]
RUNTIMES: dict[str, StartRuntime] = {
    "numpy": numpy_runtime,
    "dask-threads": dask_threads,
    "dask-distributed": dask_distributed,
    "embedded": embedded,
    "mars-cluster": mars_cluster,
}
"""Each started with ``limited``: the out-of-core row's memory limits, and a spill folder."""


# ---------------------------------------------------------------- workloads


@dataclass
class Case:
    """One workload on one runtime: the timed call, and the expected answer for its
    result (pandas / NumPy on the same data), computed after the timing."""

    run: Callable[[], Any]
    expected: Callable[[Any], Any]
    keep: list[Any] = field(default_factory=list)
    """Held inputs, dropped with the case."""


@dataclass
class Data:
    """The inputs built once for every runtime, and the references computed from them."""

    frames: dict[str, pd.DataFrame]
    s: dict[str, int]
    quick: bool
    references: dict[str, Any] = field(default_factory=dict)

    def reference(self, workload: str) -> Any:
        if workload not in self.references:
            with threadpool_limits(limits=1):
                self.references[workload] = numpy_case(workload, self).run()
        return self.references[workload]


def make_data(quick: bool) -> Data:
    both = {**(QUICK if quick else FULL), **tensor_sizes(quick)}
    s = {k: both[k] for k in SIZES}
    rng = np.random.default_rng(0)
    n, m = s["groupby"], s["sort"]
    frames = {
        "grouped": pd.DataFrame({"k": rng.integers(0, s["groups"], n), "v": rng.random(n)}),
        "to_sort": pd.DataFrame({"v": rng.random(m), "i": np.arange(m)}),
        "left": pd.DataFrame(
            {"key": rng.integers(0, s["right"], s["left"]), "a": rng.random(s["left"])}
        ),
        "right": pd.DataFrame({"key": rng.permutation(s["right"]), "b": rng.random(s["right"])}),
    }
    return Data(frames, s, quick)


def _parts(frame: str) -> int:
    return FRAME_PARTS // 10 if frame == "right" else FRAME_PARTS


def _groupby(df: Any) -> Any:
    return df.groupby("k").v.agg(["mean", "sum"])


def _sort(df: Any) -> Any:
    return df.sort_values("v")


def _merge(left: Any, right: Any) -> Any:
    return left.merge(right, on="key")


def _golden(arange: Callable[[int], Any], floor: Callable[[Any], Any], n: int) -> tuple[Any, Any]:
    """Row 4 as users write it, on any of the three array libraries."""
    x = (arange(n)[:, None] * n + arange(n)[None, :]) * GOLDEN
    x = x - floor(x)
    return ((x + 1) * 2).sum(), x.mean(axis=0)


def _seed_numpy(a: np.ndarray[Any, Any]) -> tuple[Any, Any]:
    return np.inner(a, a), pd.DataFrame(a).sum()


def _ooc_numpy_in_slices(fetch: Callable[[int, int], np.ndarray[Any, Any]], rows: int) -> Any:
    """sum and max of a big array, fetched one chunk at a time (a worker under a memory
    limit may not hold a larger piece)."""
    step = OOC_CHUNK_ROWS
    total, peak = 0.0, -np.inf
    for lo in range(0, rows, step):
        part = fetch(lo, min(rows, lo + step))
        total += part.sum()
        peak = max(peak, part.max())
    return total, peak


def numpy_case(workload: str, d: Data) -> Case:
    f, s = d.frames, d.s
    if workload == "groupby-agg":
        return Case(lambda: _groupby(f["grouped"]), lambda got: d.reference(workload))
    if workload == "sort_values":
        return Case(lambda: _sort(f["to_sort"]), lambda got: d.reference(workload))
    if workload == "merge":
        return Case(lambda: _merge(f["left"], f["right"]), lambda got: d.reference(workload))
    if workload == "element-wise":
        return Case(
            lambda: _golden(np.arange, np.floor, s["big"]), lambda got: d.reference(workload)
        )
    if workload == "seed":

        def seed() -> Any:
            a = np.random.rand(s["seed"], s["seed"])
            return (*_seed_numpy(a), a)

        return Case(seed, lambda got: _seed_numpy(got[2]))
    rows = OOC_ROWS[d.quick]
    x = np.random.rand(rows, OOC_COLUMNS)
    return Case(
        lambda: (x.sum(), x.max()),
        lambda got: _ooc_numpy_in_slices(lambda lo, hi: x[lo:hi], rows),
        keep=[x],
    )


def dask_case(workload: str, d: Data) -> Case:
    import dask
    import dask.array as da
    import dask.dataframe as dd

    f, s = d.frames, d.s

    def held(name: str) -> Any:
        return dd.from_pandas(f[name], npartitions=_parts(name)).persist()

    def reference(got: Any) -> Any:
        return d.reference(workload)

    if workload == "groupby-agg":
        grouped = held("grouped")
        return Case(lambda: _groupby(grouped).compute(), reference, [grouped])
    if workload == "sort_values":
        to_sort = held("to_sort")
        return Case(lambda: _sort(to_sort).compute(), reference, [to_sort])
    if workload == "merge":
        left, right = held("left"), held("right")
        return Case(lambda: _merge(left, right).compute(), reference, [left, right])
    if workload == "element-wise":
        chunk = s["big_chunk"]
        return Case(
            lambda: dask.compute(
                *_golden(lambda k: da.arange(k, chunks=chunk), da.floor, s["big"])
            ),
            reference,
        )
    if workload == "seed":

        def seed() -> Any:
            a = da.random.random((s["seed"], s["seed"]), chunks=s["seed_chunk"])
            inner = da.tensordot(a, a, axes=(1, 1))
            return (*dask.compute(inner, dd.from_dask_array(a).sum()), a)

        return Case(seed, lambda got: _seed_numpy(got[2].compute()))
    rows = OOC_ROWS[d.quick]
    x = da.random.random((rows, OOC_COLUMNS), chunks=(OOC_CHUNK_ROWS, OOC_COLUMNS)).persist()
    return Case(
        lambda: dask.compute(x.sum(), x.max()),
        lambda got: _ooc_numpy_in_slices(lambda lo, hi: x[lo:hi].compute(), rows),
        keep=[x],
    )


def mars_case(workload: str, d: Data) -> Case:
    import jupyter_mars as mars
    import jupyter_mars.dataframe as md
    import jupyter_mars.tensor as mt

    f, s = d.frames, d.s

    def held(name: str) -> Any:
        frame = f[name]
        return md.DataFrame(frame, chunk_size=-(-len(frame) // _parts(name))).execute()

    def reference(got: Any) -> Any:
        return d.reference(workload)

    if workload == "groupby-agg":
        grouped = held("grouped")
        return Case(lambda: _groupby(grouped).to_pandas(), reference, [grouped])
    if workload == "sort_values":
        to_sort = held("to_sort")
        return Case(lambda: _sort(to_sort).to_pandas(), reference, [to_sort])
    if workload == "merge":
        left, right = held("left"), held("right")
        return Case(lambda: _merge(left, right).to_pandas(), reference, [left, right])
    if workload == "element-wise":
        chunk = s["big_chunk"]
        return Case(
            lambda: mars.execute(
                *_golden(lambda k: mt.arange(k, chunk_size=chunk), mt.floor, s["big"])
            ).fetch(),
            reference,
        )
    if workload == "seed":

        def seed() -> Any:
            a = mt.random.rand(s["seed"], s["seed"], chunk_size=s["seed_chunk"])
            return (*mars.execute(mt.inner(a, a), md.DataFrame(a).sum()).fetch(), a)

        return Case(seed, lambda got: _seed_numpy(got[2].execute().fetch()))
    rows = OOC_ROWS[d.quick]
    x = mt.random.rand(rows, OOC_COLUMNS, chunk_size=(OOC_CHUNK_ROWS, OOC_COLUMNS)).execute()
    return Case(
        lambda: mars.execute(x.sum(), x.max()).fetch(),
        lambda got: _ooc_numpy_in_slices(lambda lo, hi: x[lo:hi].execute().fetch(), rows),
        keep=[x],
    )


CASES = {"numpy": numpy_case, "dask": dask_case, "mars": mars_case}


def check(workload: str, got: Any, expected: Any) -> None:
    if workload == "groupby-agg":
        pd.testing.assert_frame_equal(got.sort_index(), expected, check_exact=False)
    elif workload == "sort_values":
        pd.testing.assert_frame_equal(got, expected, check_exact=False)
    elif workload == "merge":
        pd.testing.assert_frame_equal(
            _by_rows(got), _by_rows(expected), check_exact=False, check_index_type=False
        )
    else:  # arrays and series, in pairs (the seed's third item is its input)
        for g, e in zip(got[:2], expected[:2]):
            if isinstance(e, pd.Series):
                pd.testing.assert_series_equal(g, e, check_exact=False)
            else:
                np.testing.assert_allclose(g, e, rtol=RTOL)


def _by_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows in one order, for results whose row order is the runtime's."""
    return frame.sort_values(list(frame.columns)).reset_index(drop=True)


# ---------------------------------------------------------------- the run


@dataclass
class Cell:
    seconds: float = float("nan")
    peak_mib: float = float("nan")
    note: str = ""

    def __str__(self) -> str:
        if self.note == "error":
            return "error"
        text = f"{self.seconds:.2f} ({self.peak_mib:.0f})"
        return f"{text} {self.note}" if self.note else text


def run_cell(workload: str, runtime: Runtime, d: Data, repeats: int) -> Cell:
    try:
        case = CASES[runtime.family](workload, d)
        m = measure(case.run, runtime, repeats)
        if runtime.family == "numpy" and workload not in ("seed", OUT_OF_CORE):
            d.references.setdefault(workload, m.result)  # pandas / NumPy on the same data
        check(workload, m.result, case.expected(m.result))
        del case
        return Cell(m.seconds, m.peak_mib, runtime.note)
    except Exception:
        print(f"{runtime.name} {workload} failed:", file=sys.stderr)
        traceback.print_exc()
        return Cell(note="error")
    finally:
        gc.collect()


def _ratio(a: Cell, b: Cell) -> str:
    if a.note == "error" or b.note == "error" or not (a.seconds and b.seconds):
        return ""
    return f"{a.seconds / b.seconds:.2f}"


def print_table(cells: dict[str, dict[str, Cell]], runtimes: list[str]) -> None:
    ratios = [("mars-cluster", "dask-distributed"), ("embedded", "dask-threads")]
    ratios = [(a, b) for a, b in ratios if a in runtimes and b in runtimes]
    head = ["workload", *(f"{r} s (peak MiB)" for r in runtimes)]
    head += [f"{a} / {b}" for a, b in ratios]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for workload, row in cells.items():
        line = [workload, *(str(row.get(r, Cell(note="error"))) for r in runtimes)]
        line += [_ratio(row[a], row[b]) for a, b in ratios if a in row and b in row]
        print("| " + " | ".join(line) + " |", flush=True)


def _names(text: str, known: list[str], what: str) -> list[str]:
    names = [n for n in text.split(",") if n]
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise SystemExit(f"unknown {what} {unknown}; choose from {known}")
    return [n for n in known if n in names]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the smaller sizes")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default=",".join(WORKLOADS), help="comma-separated workloads")
    parser.add_argument("--runtimes", default=",".join(RUNTIMES), help="comma-separated")
    args = parser.parse_args()
    # Dask's advice on how it is used here (data sent in the graph, a mixed compute)
    for message in ("Sending large graph", "Computing mixed collections", "Increasing number"):
        warnings.filterwarnings("ignore", message=message)
    workloads = _names(args.only, WORKLOADS, "workloads")
    runtimes = _names(args.runtimes, list(RUNTIMES), "runtimes")

    memory = psutil.virtual_memory()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"{memory.total / 2**30:.1f} GiB ({memory.available / 2**30:.1f} available), "
        f"load {os.getloadavg()[0]:.2f}; {versions()}"
    )
    d = make_data(args.quick)
    print(f"sizes: {d.s}; out-of-core rows {OOC_ROWS[args.quick]}; median of {args.repeats}\n")
    cells: dict[str, dict[str, Cell]] = {w: {} for w in workloads}
    # the out-of-core row last, on runtimes of its own (given their memory limits)
    groups = [
        [w for w in workloads if w != OUT_OF_CORE],
        [w for w in workloads if w == OUT_OF_CORE],
    ]
    with tempfile.TemporaryDirectory(prefix="bench-runtimes-") as spill:
        for group in groups:
            for name in runtimes if group else []:
                with RUNTIMES[name](group == [OUT_OF_CORE], spill) as runtime:
                    for workload in group:
                        cells[workload][name] = cell = run_cell(workload, runtime, d, args.repeats)
                        print(f"{workload} on {name}: {cell}", file=sys.stderr, flush=True)
    print_table(cells, runtimes)
    failed = any(c.note == "error" for row in cells.values() for c in row.values())
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
