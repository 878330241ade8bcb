"""GPU slots of the embedded runtime: GPU tasks run on a thread per CUDA device, and a job
with a GPU task where there is none fails at once, saying how to get one."""

from __future__ import annotations

import gc
import subprocess
import sys

import numpy as np
import pytest

import jupyter_mars as mars
import jupyter_mars.tensor as mt
from jupyter_mars.engine.devices import GPU, GPUUnavailable, to_device, to_host
from jupyter_mars.engine.executors.gpu_slots import host_copy, inputs_on_device, use_device
from jupyter_mars.engine.executors.threads import ThreadRuntime
from jupyter_mars.engine.graph import Ref, Task
from tests.conftest import needs_gpu, no_gpu, to_numpy

WAIT = 30
"""Seconds a job of a few tiny tasks may take at most on a loaded machine."""


def _ones(n: int) -> np.ndarray:
    return np.ones(n)


def _host_sum(block: object) -> float:
    return float(np.sum(to_host(block)))


def _mixed_graph() -> dict[str, Task]:
    """A host chunk, a GPU task that copies it to the device, and a host sum of that."""
    return {
        "host": Task("host", _ones, (8,)),
        "dev": Task("dev", to_device, (Ref("host"),), device=GPU),
        "total": Task("total", _host_sum, (Ref("dev"),)),
    }


@pytest.mark.parametrize("devices", [[], None], ids=["no-devices", "every-device"])
@no_gpu
def test_a_job_with_a_gpu_task_fails_at_once_where_the_runtime_has_no_gpu_slot(devices):
    runtime = ThreadRuntime(n_threads=2, gpu_devices=devices)
    try:
        job = runtime.submit(_mixed_graph(), ("total",), {})
        assert job.wait(WAIT)
        assert isinstance(job.error, GPUUnavailable)
        assert "new_session(cuda_devices=[0])" in str(job.error)
        assert job.failed_key == "dev"
        assert runtime.gpu_devices == []  # every device there is: none here
        assert len(runtime.store) == 0  # nothing ran for it
        # the CPU slots serve the next job as before
        cpu = runtime.submit({"x": Task("x", _ones, (4,))}, ("x",), {})
        assert cpu.wait(WAIT)
        assert cpu.error is None
        assert runtime.get("x").sum() == 4
    finally:
        runtime.close()


def test_a_session_that_computes_on_the_cpu_never_imports_cupy():
    code = (
        "import sys, jupyter_mars as mars, jupyter_mars.tensor as mt\n"
        "session = mars.new_session()\n"
        "assert mt.ones(10, chunk_size=5).sum().execute().fetch() == 10\n"
        "session.close()\n"
        "print('cupy' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


@no_gpu
def test_new_session_with_a_cuda_device_and_no_gpu_raises_naming_it():
    with pytest.raises(GPUUnavailable, match=r"cuda_devices=\[0\] needs a GPU"):
        mars.new_session(cuda_devices=[0], default=False)


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ("0", TypeError, "cuda_devices must be a list of CUDA device indices"),
        (0, TypeError, "cuda_devices must be a list of CUDA device indices"),
        ([True], TypeError, r"ints >= 0\), got True"),
        ([-1], ValueError, r"indices >= 0, got -1"),
        ([0, 0], ValueError, r"cuda_devices must be distinct, got \[0, 0\]"),
    ],
)
def test_new_session_refuses_cuda_devices_that_are_not_device_indices(value, error, message):
    with pytest.raises(error, match=message):
        mars.new_session(cuda_devices=value, default=False)


def test_cuda_devices_belong_to_the_embedded_runtime_only():
    with pytest.raises(TypeError, match="mars-worker --cuda-devices"):
        mars.new_session("http://127.0.0.1:9", cuda_devices=[0], default=False)


def test_a_session_without_devices_computes_on_the_cpu_as_before():
    with mars.new_session(cuda_devices=[], default=False) as session:
        assert session.cuda_devices == []
        t = mt.arange(12, chunk_size=4) * 2
        np.testing.assert_array_equal(session.fetch(session.execute(t)), np.arange(12) * 2)
        assert session.memory_info()["device_bytes"] == 0


# ---------------------------------------------------------------------- on a GPU


@needs_gpu
def test_a_plain_session_runs_gpu_tensors_on_the_gpu_and_frees_their_memory():
    import cupy

    with mars.new_session(default=False) as session:
        ones = mt.ones((4000, 4000), chunk_size=1000).to_gpu()
        total = ones.sum()
        session.execute(ones, total)
        assert float(to_numpy(session.fetch(total))) == 4000 * 4000
        assert isinstance(session.fetch(ones), cupy.ndarray)
        info = session.memory_info()
        assert info["device_bytes"] >= 4000 * 4000 * 8
        assert info["memory_bytes"] < 1000  # the array is not in host memory
        del ones, total
        gc.collect()
        assert session.memory_info()["device_bytes"] == 0
        # the last chunk released: the pool gave its blocks back to the driver
        assert cupy.get_default_memory_pool().total_bytes() < 4000 * 4000 * 8


@needs_gpu
def test_gpu_chunks_stay_out_of_the_host_store_under_a_memory_limit():
    with mars.new_session(memory_limit="64MiB", default=False) as session:
        ones = mt.ones((4000, 4000), chunk_size=1000).to_gpu()  # 128 MB on the device
        session.execute(ones)
        info = session.memory_info()
        assert info["device_bytes"] == 4000 * 4000 * 8
        assert info["n_device"] == 16
        # none of it in the host store, so none of it spilled to disk
        assert (info["n_memory"], info["n_spilled"]) == (0, 0)


@needs_gpu
def test_a_session_without_gpu_slots_fails_a_gpu_computation_at_once():
    with (
        mars.new_session(cuda_devices=[], default=False) as session,
        pytest.raises(GPUUnavailable, match=r"new_session\(cuda_devices=\[0\]\)"),
    ):
        session.execute(mt.ones(10).to_gpu().sum())


@needs_gpu
def test_a_runtime_runs_gpu_tasks_on_the_slot_of_their_device():
    import cupy

    runtime = ThreadRuntime(n_threads=1, gpu_devices=[0])
    try:
        job = runtime.submit(_mixed_graph(), ("total", "dev"), {})
        assert job.wait(WAIT)
        assert job.error is None
        assert runtime.get("total") == 8
        dev = runtime.get("dev")
        assert isinstance(dev, cupy.ndarray)
        assert dev.device.id == 0
        assert "dev" in runtime.device_store
        assert "dev" not in runtime.store
    finally:
        runtime.close()


# ---------------------------------------------------------------------- slot helpers


def test_a_gpu_task_s_inputs_that_are_not_arrays_pass_as_they_are():
    data = {"n": 3, "label": "x", "pair": (1, 2)}
    assert inputs_on_device(data) == data
    assert host_copy(np.ones(2)).tolist() == [1.0, 1.0]  # a host chunk stays as it is


@no_gpu
def test_without_a_gpu_a_slot_cannot_select_its_device_nor_take_host_arrays():
    with pytest.raises(GPUUnavailable, match="a GPU slot on device 0 needs a GPU"):
        use_device(0)
    with pytest.raises(GPUUnavailable, match="needs a GPU"):
        inputs_on_device({"a": np.ones(2)})


@needs_gpu
def test_a_gpu_task_s_host_inputs_go_to_its_device_and_peers_get_host_copies():
    import cupy

    use_device(0)
    moved = inputs_on_device({"a": np.arange(3), "b": 7})
    assert isinstance(moved["a"], cupy.ndarray)
    assert moved["a"].device.id == 0
    assert moved["b"] == 7
    back = host_copy(moved["a"])
    assert isinstance(back, np.ndarray)
    np.testing.assert_array_equal(back, np.arange(3))
