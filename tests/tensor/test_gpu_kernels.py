"""Functions CuPy lacks: host tensors never notice; GPU tensors get the error at the call."""

from __future__ import annotations

import numpy as np
import pytest

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.gpu_kernels import NotOnGPU, check_on_gpu, cupy_has, on_gpu
from tests.conftest import assert_same, needs_gpu


def test_host_tensors_run_whatever_cupy_lacks() -> None:
    a = mt.tensor([1.0, 2.0])
    assert not on_gpu(a, np.ones(2), 3)
    check_on_gpu("spacing()", "spacing", a)  # CuPy has no spacing: host tensors don't care
    assert_same(mt.spacing(a), np.spacing(np.array([1.0, 2.0])))


def test_cupy_has_follows_dotted_names() -> None:
    pytest.importorskip("cupy")
    assert cupy_has("add")
    assert cupy_has("linalg.qr")
    assert not cupy_has("spacing")
    assert not cupy_has("linalg.no_such_function")
    assert not cupy_has("no_such_package.function")


@needs_gpu
def test_a_gpu_tensor_meets_a_missing_function_at_the_call() -> None:
    a = mt.tensor([1.0, 2.0]).to_gpu()
    assert on_gpu(a)
    with pytest.raises(NotOnGPU, match=r"spacing\(\) does not run on a GPU.*\.to_cpu\(\)"):
        mt.spacing(a)
    assert_same(mt.spacing(a.to_cpu()), np.spacing(np.array([1.0, 2.0])))


@needs_gpu
def test_a_cupy_array_is_an_operand_on_the_gpu() -> None:
    import cupy

    data = np.arange(6.0).reshape(2, 3)
    a = mt.tensor(data, chunk_size=2).to_gpu()
    for result in (a + cupy.asarray(data), mt.multiply(cupy.asarray(data), a)):
        value = result.execute().fetch()
        assert isinstance(value, cupy.ndarray)
    assert_same(a + cupy.asarray(data), data + data)
