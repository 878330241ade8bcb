"""Devices: where chunks live, and the clear errors where no GPU can be used."""

from __future__ import annotations

import operator
import pickle

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.engine.devices import (
    GPU,
    GPUUnavailable,
    array_module,
    check_devices,
    cupy_module,
    device_module,
    gpu_unavailable_reason,
    is_device_array,
    to_host,
)
from jupyter_mars.engine.graph import Ref, Task
from jupyter_mars.engine.optimize import coarsen, fuse
from tests.conftest import needs_gpu, no_gpu


def test_host_arrays_compute_with_numpy() -> None:
    a = np.arange(3)
    assert array_module(a, 1.0, None) is np
    assert not is_device_array(a)
    assert to_host(a) is a


@no_gpu
def test_without_a_gpu_every_request_says_why_in_one_sentence() -> None:
    reason = gpu_unavailable_reason()
    assert reason is not None
    assert "\n" not in reason
    assert "CuPy" in reason
    with pytest.raises(GPUUnavailable, match=r"to_gpu\(\) needs a GPU"):
        cupy_module("to_gpu()")
    with pytest.raises(GPUUnavailable, match="--cuda-devices"):
        check_devices([0], "--cuda-devices")
    check_devices([], "--cuda-devices")  # no device asked for: nothing to check


@no_gpu
def test_to_gpu_raises_at_the_call() -> None:
    a = mt.ones((4, 4), chunk_size=2)
    with pytest.raises(GPUUnavailable, match="to_gpu"):
        a.to_gpu()


def test_to_cpu_of_a_host_tensor_is_itself() -> None:
    a = mt.ones((4, 4), chunk_size=2)
    assert a.to_cpu() is a


def test_tasks_keep_their_device_through_pickling() -> None:
    task = Task("a", abs, (1,), device=GPU)
    assert pickle.loads(pickle.dumps(task)).device == GPU
    assert pickle.loads(pickle.dumps(Task("b", abs, (1,)))).device is None


@pytest.mark.parametrize("combine", ["fuse", "coarsen"])
def test_a_task_is_never_inlined_into_one_of_another_device(combine: str) -> None:
    graph = {
        "h": Task("h", int, (1,), blockwise=True),
        "g": Task("g", abs, (Ref("h"),), blockwise=True, device=GPU),
        "g2": Task("g2", abs, (Ref("g"),), blockwise=True, device=GPU),
        "c": Task("c", operator.neg, (Ref("g2"),), blockwise=True),
    }
    out = fuse(graph, keep={"c"}) if combine == "fuse" else coarsen(graph, {"c"}, 10)[0]
    assert set(out) == {"h", "g2", "c"}  # g went into g2: both run on the GPU
    assert out["g2"].device == GPU
    assert out["c"].device is None
    assert out["g2"].dependencies == frozenset({"h"})


@needs_gpu
def test_gpu_tensors_compute_on_the_gpu_and_fetch_as_cupy() -> None:
    import cupy

    data = np.arange(24.0).reshape(4, 6)
    a = mt.tensor(data, chunk_size=(3, 4)).to_gpu()
    result = ((a + 1) * 2).sum(axis=0).execute().fetch()
    assert isinstance(result, cupy.ndarray)
    np.testing.assert_allclose(result.get(), ((data + 1) * 2).sum(axis=0))
    mixed = (a + mt.tensor(data, chunk_size=2)).execute().fetch()  # a GPU input: on the GPU
    assert isinstance(mixed, cupy.ndarray)
    back = (a * 3).to_cpu().execute().fetch()
    assert isinstance(back, np.ndarray)
    np.testing.assert_allclose(back, data * 3)
    with pytest.raises(TypeError, match="to_cpu"):
        np.asarray(a)
    assert float(a.sum()) == data.sum()  # one value comes off the device, as with CuPy
    assert bool((a > 0).any())


def test_a_cpu_task_makes_its_chunks_with_numpy() -> None:
    assert device_module(None) is np


@no_gpu
def test_a_gpu_task_without_a_gpu_says_why() -> None:
    with pytest.raises(GPUUnavailable, match="a GPU task needs a GPU"):
        device_module(GPU)


@needs_gpu
def test_a_gpu_task_makes_its_chunks_with_cupy() -> None:
    import cupy

    assert device_module(GPU) is cupy
