"""GPU tensors (``gpu=True``) against CuPy alone and NumPy, in one run.

    .venv/bin/python bench/bench_gpu.py [--quick] [--runtime embedded|cluster|both]

Cases, each timed as the median of 3 interleaved runs after one warm-up run (CuPy
compiles its kernels on first use):

- ``((x + 1) * 2).sum()`` and ``x.mean(axis=0)`` of ``x = mt.random.rand(n, n,
  gpu=True)``, float64, n = 20000 (``--quick``: 4000);
- ``a @ b`` of random n x n float64 GPU tensors, n = 4000, 8000, 16000 (``--quick``:
  2000, 4000).

The inputs are made and held on the device before the clock starts, on each side alike.
Each case runs three ways in this process: jupyter_mars (its tasks on the GPU), CuPy alone
on the same computation, and NumPy on the CPU; a side stops its clock only once the device
has finished (``cupy.cuda.Device().synchronize()``, or fetching one element of a result a
worker holds). The ratios printed are ours / CuPy (the cost of chunking and scheduling)
and NumPy / ours (the speed-up over the CPU).

Runtimes: the embedded one (``new_session``, given ``cuda_devices=[0]`` where it takes
them), and a local cluster of one supervisor and one worker started with
``--cuda-devices 0``. Without a usable GPU the script prints why, in one line, and exits 0.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import os
import re
import secrets
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.engine.devices import gpu_unavailable_reason

_WEB = re.compile(r"Mars Web started at (\S+)")
_RPC = re.compile(r"Mars Supervisor started at (\S+)")
_WORKER = re.compile(r"Mars Worker started at (\S+)")


def timed(func: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    func()
    return time.perf_counter() - t0


def compare(name: str, sides: dict[str, Callable[[], Any]]) -> dict[str, float]:
    """Median wall seconds of each side, the sides interleaved so that load from other
    processes hits them alike."""
    for run in sides.values():
        run()  # warm-up: kernel compilation, memory pool growth
    runs: dict[str, list[float]] = {side: [] for side in sides}
    for _ in range(3):
        for side, run in sides.items():
            runs[side].append(timed(run))
    t = {side: statistics.median(r) for side, r in runs.items()}
    print(
        f"{name:46s} numpy {t['numpy']:7.3f}s  cupy {t['cupy']:7.3f}s  "
        f"mars {t['mars']:7.3f}s  mars/cupy {t['mars'] / t['cupy']:5.2f}  "
        f"numpy/mars {t['numpy'] / t['mars']:6.1f}",
        flush=True,
    )
    return t


def finished(result: Any) -> Any:
    """Wait until the device has computed ``result`` (an executed tensor): one element
    fetched, which waits for the work queued before it, wherever the chunks are."""
    cupy = sys.modules["cupy"]
    index = (0,) * result.ndim
    value = result[index].execute().fetch() if result.ndim else result.fetch()
    cupy.cuda.Device().synchronize()  # this process's own queue (the embedded runtime)
    return value


def bench_elementwise(n: int, chunk: int) -> None:
    import cupy

    x = mt.random.rand(n, n, chunk_size=chunk, gpu=True).execute()
    x_cp = cupy.random.default_rng(0).random((n, n))
    x_np = np.random.default_rng(0).random((n, n))

    def sum_cupy() -> Any:
        out = ((x_cp + 1) * 2).sum()
        cupy.cuda.Device().synchronize()
        return out

    def sum_mars() -> Any:
        return finished(((x + 1) * 2).sum().execute())

    total = float(sum_mars())
    expected = 3.0 * n * n  # (E[x] + 1) * 2 per element
    assert abs(total - expected) < 0.01 * expected, (total, expected)
    compare(
        f"((x + 1) * 2).sum(), {n}^2 float64, chunk {chunk}",
        {"numpy": lambda: ((x_np + 1) * 2).sum(), "cupy": sum_cupy, "mars": sum_mars},
    )

    def mean_cupy() -> Any:
        out = x_cp.mean(axis=0)
        cupy.cuda.Device().synchronize()
        return out

    compare(
        f"x.mean(axis=0), {n}^2 float64, chunk {chunk}",
        {
            "numpy": lambda: x_np.mean(axis=0),
            "cupy": mean_cupy,
            "mars": lambda: finished(x.mean(axis=0).execute()),
        },
    )


def bench_matmul(n: int, chunk: int) -> None:
    import cupy

    a = mt.random.rand(n, n, chunk_size=chunk, gpu=True).execute()
    b = mt.random.rand(n, n, chunk_size=chunk, gpu=True).execute()
    rng = cupy.random.default_rng(1)
    a_cp, b_cp = rng.random((n, n)), rng.random((n, n))
    a_np = np.random.default_rng(1).random((n, n))
    b_np = np.random.default_rng(2).random((n, n))

    def matmul_cupy() -> Any:
        out = a_cp @ b_cp
        cupy.cuda.Device().synchronize()
        return out

    compare(
        f"a @ b, {n}^2 float64, chunk {chunk}",
        {
            "numpy": lambda: a_np @ b_np,
            "cupy": matmul_cupy,
            "mars": lambda: finished((a @ b).execute()),
        },
    )


def run_cases(quick: bool) -> None:
    import cupy

    n = 4000 if quick else 20000
    bench_elementwise(n, n // 4)
    for m in (2000, 4000) if quick else (4000, 8000, 16000):
        # a case's arrays went with its function: their device memory goes back now
        cupy.get_default_memory_pool().free_all_blocks()
        bench_matmul(m, m // 2)
    cupy.get_default_memory_pool().free_all_blocks()


@contextlib.contextmanager
def embedded() -> Iterator[None]:
    kwargs: dict[str, Any] = {}
    if "cuda_devices" in inspect.signature(mars.new_session).parameters:
        kwargs["cuda_devices"] = [0]
    with mars.new_session(**kwargs) as session:
        n_cpu = getattr(session, "n_cpu", "?")
        print(f"embedded runtime: n_cpu={n_cpu}, {kwargs or 'its default devices'}")
        yield


class _Child:
    """A supervisor or worker process whose output is read, all along (a full pipe would
    stop it), for its start lines."""

    def __init__(self, module: str, args: list[str], env: dict[str, str]) -> None:
        self.module = module
        self.popen = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.seen = threading.Condition()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            with self.seen:
                self.lines.append(line)
                self.seen.notify_all()
        with self.seen:
            self.seen.notify_all()

    def wait_for(self, pattern: re.Pattern[str], timeout: float = 120.0) -> str:
        deadline = time.monotonic() + timeout
        with self.seen:
            while True:
                for line in self.lines:
                    match = pattern.search(line)
                    if match:
                        return match.group(1)
                left = deadline - time.monotonic()
                if self.popen.poll() is not None or left <= 0:
                    tail = "".join(self.lines[-20:])
                    raise RuntimeError(f"{self.module} did not start:\n{tail}")
                self.seen.wait(min(left, 1.0))

    def stop(self) -> None:
        self.popen.terminate()
        try:
            self.popen.wait(30)
        except subprocess.TimeoutExpired:
            self.popen.kill()


@contextlib.contextmanager
def cluster() -> Iterator[None]:
    """One supervisor and one worker with ``--cuda-devices 0``, started as a user starts
    them (``mars-supervisor``, ``mars-worker``), on loopback; a session connected."""
    token = secrets.token_hex(16)
    env = {**os.environ, "MARS_TOKEN": token, "PYTHONUNBUFFERED": "1"}
    host = ["-H", "127.0.0.1"]
    children = [_Child("jupyter_mars.deploy.supervisor", [*host, "-p", "0", "-w", "0"], env)]
    try:
        rpc = children[0].wait_for(_RPC)
        web = children[0].wait_for(_WEB)
        worker_args = [*host, "-s", rpc, "--n-cpu", "1", "--cuda-devices", "0", "--no-nanny"]
        children.append(_Child("jupyter_mars.deploy.worker", worker_args, env))
        children[1].wait_for(_WORKER)
        with mars.new_session(f"http://{web}", token=token):
            print(f"local cluster: supervisor {rpc}, one worker with --cuda-devices 0")
            yield
    finally:
        for child in reversed(children):
            child.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument(
        "--runtime",
        choices=("embedded", "cluster", "both"),
        default="both",
        help="where jupyter_mars runs the tasks (default: both, one after the other)",
    )
    args = parser.parse_args()
    reason = gpu_unavailable_reason()
    if reason is not None:
        print(f"bench_gpu: skipped, no GPU can be used here: {reason}")
        return 0
    import cupy

    name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
    label = name.decode() if isinstance(name, bytes) else str(name)
    print(f"device 0: {label}; NumPy on {os.cpu_count()} cores")
    runtimes = {"embedded": embedded, "cluster": cluster}
    chosen = list(runtimes) if args.runtime == "both" else [args.runtime]
    for name in chosen:
        with runtimes[name]():
            run_cases(args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
